import Testing
@testable import JSONModelKit

/// Prefixes text; neither `Equatable` nor a class, so only where it is declared tells two apart.
struct PrefixConverter: JSONConverter {
    let prefix: String

    func value(from json: JSONValue) throws(JSONConversionError) -> String {
        guard let text = json.stringValue else { throw JSONConversionError("expected text") }
        return prefix + text
    }

    func json(from value: String) -> JSONValue? { .string(value) }
}

/// Like `PrefixConverter`, but `Equatable`: two equal instances are the same converter wherever
/// they are declared.
struct EquatablePrefixConverter: JSONConverter, Equatable {
    let prefix: String

    func value(from json: JSONValue) throws(JSONConversionError) -> String {
        guard let text = json.stringValue else { throw JSONConversionError("expected text") }
        return prefix + text
    }

    func json(from value: String) -> JSONValue? { .string(value) }
}

class UsingBase: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.x(String.self, converter: .using(PrefixConverter(prefix: ">")))
        p.shout(String.self, converter: .using(JSONConverters.Case(upper: true)))
        p.tagged(String.self, converter: .using(EquatablePrefixConverter(prefix: "#")))
    }
}

/// Does not override the block: it runs again for this class and makes new converter instances.
final class UsingSubNoBlock: UsingBase, @unchecked Sendable {}

/// Overrides the block and calls `super`.
final class UsingSubCallingSuper: UsingBase, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        super.properties(p)
        p.extra(Int.self)
    }
}

/// Declares an inherited name again, with an equal `Equatable` converter.
final class UsingSubRedeclaringEqual: UsingBase, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.tagged(String.self, converter: .using(EquatablePrefixConverter(prefix: "#")))
    }
}

/// Declares an inherited name again, with another instance that configures the converter otherwise.
final class UsingSubRedeclaringOtherwise: UsingBase, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.x(String.self, converter: .using(PrefixConverter(prefix: "<")))
    }
}

/// Declares an inherited name again, with an unequal `Equatable` converter.
final class UsingSubRedeclaringUnequal: UsingBase, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.tagged(String.self, converter: .using(EquatablePrefixConverter(prefix: "@")))
    }
}

@Suite("Inherited converter instances")
struct InheritedConverterInstanceTests {
    static let json = #"{"x": "a", "shout": "hey", "tagged": "t", "extra": 3}"#

    @Test func aSubclassWithoutABlockInheritsAConverterInstance() throws {
        try UsingSubNoBlock.validateDeclarations()
        let model = try UsingSubNoBlock(json: Self.json)
        #expect(model.x as String == ">a")
        #expect(model.shout as String == "HEY")
        #expect(model.tagged as String == "#t")
        #expect(UsingSubNoBlock.modelMetadata.properties.map(\.name) == ["x", "shout", "tagged"])
    }

    @Test func aSubclassCallingSuperRepeatsTheSameDeclarations() throws {
        try UsingSubCallingSuper.validateDeclarations()
        let model = try UsingSubCallingSuper(json: Self.json)
        #expect(model.x as String == ">a")
        #expect(model.shout as String == "HEY")
        #expect(model.tagged as String == "#t")
        #expect(model.extra as Int == 3)
        #expect(UsingSubCallingSuper.modelMetadata.property(named: "x")?.declaringModel == "UsingBase")
    }

    @Test func anEqualConverterDeclaredElsewhereIsTheSameDeclaration() throws {
        try UsingSubRedeclaringEqual.validateDeclarations()
        #expect(try UsingSubRedeclaringEqual(json: Self.json).tagged as String == "#t")
    }

    @Test func anotherConverterInstanceDeclaredElsewhereIsStillAProblem() {
        for type in [UsingSubRedeclaringOtherwise.self, UsingSubRedeclaringUnequal.self] as [JSONModel.Type] {
            do {
                try type.validateDeclarations()
                Issue.record("\(type): expected a declaration problem")
            } catch {
                #expect(error.problems.count == 1)
                #expect(error.description.contains("again, differently"))
            }
        }
    }

    @Test func referencesToConverterInstancesCompare() {
        func made(_ prefix: String) -> ConverterReference { .using(PrefixConverter(prefix: prefix)) }
        // Declarations compare references by their storage.
        let once = made(">").storage
        let again = made(">").storage
        let elsewhere = ConverterReference.using(PrefixConverter(prefix: ">")).storage
        let equatable = ConverterReference.using(EquatablePrefixConverter(prefix: ">")).storage
        let equalElsewhere = ConverterReference.using(EquatablePrefixConverter(prefix: ">")).storage
        let unequal = ConverterReference.using(EquatablePrefixConverter(prefix: "<")).storage
        // One expression evaluated twice is one declaration.
        #expect(once == again)
        #expect(once.hashValue == again.hashValue)
        #expect(once != elsewhere)
        #expect(equatable == equalElsewhere)
        #expect(equatable.hashValue == equalElsewhere.hashValue)
        #expect(equatable != unequal)
        #expect(elsewhere != equatable)
        #expect(once != ConverterReference("x").storage)
    }
}
