import Foundation
import Testing
@testable import JSONModelKit

final class InvalidDefaults: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.age(Int?.self, defaultIfInvalid: -1)
        p.score(Double.self, default: 1, defaultIfInvalid: -1)
        p.tags([String].self, defaultIfInvalid: ["invalid"])
        p.plain(Int.self, default: 5)
        p.color(InvalidDefaultColor.self, default: .red, defaultIfInvalid: .unknown)
    }
}

enum InvalidDefaultColor: String, Sendable {
    case red, green, unknown
}

final class BadInvalidDefault: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.when(Date.self, defaultIfInvalid: Date(timeIntervalSince1970: 1e300))
    }
}

final class NonFiniteReading: JSONModel, DynamicMembers, @unchecked Sendable {
    override class var allowsNonFiniteNumbers: Bool { true }
    override class func properties(_ p: PropertyRegistrar) {
        p.level(Double.self)
        p.small(Float?.self)
        p.series([Double].self)
        p.byName([String: Double].self)
        p.count(Int.self)
    }
}

/// Inherits the choice.
final class NonFiniteSubReading: NonFiniteReadingBase, DynamicMembers, @unchecked Sendable {}

class NonFiniteReadingBase: JSONModel, @unchecked Sendable {
    override class var allowsNonFiniteNumbers: Bool { true }
    override class func properties(_ p: PropertyRegistrar) { p.level(Double.self) }
}

final class FiniteReading: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.level(Double.self, default: 2)
        p.small(Float?.self)
        p.series([Double].self)
    }
}

@Suite("Separate defaults for missing and invalid values")
struct InvalidValueDefaultTests {
    @Test func missingAndNullReadTheDefaultInvalidReadsItsOwn() throws {
        let missing = try InvalidDefaults(json: "{}")
        #expect(missing.age as Int? == nil)
        #expect(missing.score as Double == 1)
        #expect(missing.tags as [String] == [])
        #expect(missing.color as InvalidDefaultColor == .red)
        #expect(missing.jsonModel.diagnostics.isEmpty)

        let null = try InvalidDefaults(json: #"{"age": null, "score": null, "tags": null, "color": null}"#)
        #expect(null.age as Int? == nil)
        #expect(null.score as Double == 1)
        #expect(null.color as InvalidDefaultColor == .red)
        #expect(null.jsonModel.diagnostics.isEmpty)

        let invalid = try InvalidDefaults(
            json: #"{"age": "old", "score": [1], "tags": "x", "plain": "five", "color": "mauve"}"#)
        #expect(invalid.age as Int? == -1)
        #expect(invalid.score as Double == -1)
        #expect(invalid.tags as [String] == ["invalid"])
        #expect(invalid.plain as Int == 5)  // no defaultIfInvalid: the default, as before
        #expect(invalid.color as InvalidDefaultColor == .unknown)
        // Every invalid value is still a diagnostic, and validation still fails.
        #expect(invalid.jsonModel.diagnostics.count == 5)
        #expect(throws: ModelValidationError.self) { try invalid.jsonModel.validate() }

        let valid = try InvalidDefaults(json: #"{"age": 30, "score": 2.5, "tags": ["a"], "color": "green"}"#)
        #expect(valid.age as Int? == 30)
        #expect(valid.score as Double == 2.5)
        #expect(valid.color as InvalidDefaultColor == .green)
    }

    @Test func anInvalidDefaultIsNotWrittenOrOutput() throws {
        let model = try InvalidDefaults(json: #"{"age": "old"}"#, options: .mutable)
        #expect(model.age as Int? == -1)
        #expect(model.jsonModel.json() == ["age": "old"])  // reading changes nothing
        model.age = 4
        #expect(model.jsonModel.json() == ["age": "4"])  // a write keeps the stored JSON type
    }

    @Test func aDefaultIfInvalidThatDoesNotConvertIsADeclarationProblem() {
        #expect(throws: ModelDeclarationError.self) { try BadInvalidDefault.validateDeclarations() }
        do {
            try BadInvalidDefault.validateDeclarations()
        } catch {
            #expect(error.description.contains("defaultIfInvalid"))
        }
    }

    @Test func schemaDefaultIfInvalid() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"""
            {"models": [{"name": "Person", "properties": [
              {"name": "age", "type": "Int?", "defaultIfInvalid": -1},
              {"name": "nick", "type": "String", "default": "none", "defaultIfInvalid": "?"},
              {"name": "friend", "type": "Person?", "defaultIfInvalid": {"nick": "ghost"}}]}]}
            """#))
        let missing = try registry.makeModel(named: "Person", json: Data("{}".utf8))
        #expect(missing.jsonModel.value(forProperty: "age") == nil)
        #expect(missing.jsonModel.value(forProperty: "nick") as? String == "none")
        let invalid = try registry.makeModel(named: "Person", json: Data(#"{"age": true, "nick": [3]}"#.utf8))
        #expect(invalid.jsonModel.value(forProperty: "age") as? Int == -1)
        #expect(invalid.jsonModel.value(forProperty: "nick") as? String == "?")
        #expect(missing.jsonModel.value(forProperty: "friend") == nil)
        let ghost = try registry.makeModel(named: "Person", json: Data(#"{"friend": 7}"#.utf8))
        let friend = try #require(ghost.jsonModel.value(forProperty: "friend") as? JSONModel)
        #expect(friend.jsonModel.value(forProperty: "nick") as? String == "ghost")
        #expect(ghost.jsonModel.diagnostics.count == 1)
        // A defaultIfInvalid that does not convert, or of the wrong kind, registers nothing.
        #expect(throws: ModelSchemaError.self) {
            try registry.register(ModelSchema(json: #"""
                {"models": [{"name": "Bad", "properties": [{"name": "n", "type": "Int", "defaultIfInvalid": "x"}]}]}
                """#))
        }
        #expect(registry.schemaMetadata(named: "Bad") == nil)
    }
}

/// Amounts stored as whole cents and read as units, for defaults given as Swift values.
struct TestCents: JSONConverter {
    func value(from json: JSONValue) throws(JSONConversionError) -> Double {
        guard let cents = json.numberValue?.intValue else { throw JSONConversionError("expected a whole number of cents") }
        return Double(cents) / 100
    }

    func json(from value: Double) -> JSONValue? { .number(JSONNumber(Int((value * 100).rounded()))) }
}

final class CentsDefaults: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.price(Double.self, default: 5, converter: .using(TestCents()))
        p.fee(Double.self, default: 1.5, defaultIfInvalid: 2.25, converter: .using(TestCents()))
    }
}

@Suite("Defaults given as Swift values")
struct SwiftValueDefaultTests {
    /// A default given in the registration block is a value of the property's type: it reads as
    /// that value, not as JSON read again through the property's converter (`5` as 5 cents), and
    /// the converter writes it, so writing the default where there is no key writes nothing and
    /// writing another value is never mistaken for it.
    @Test func aSwiftDefaultIsTheValueItself() throws {
        let model = try CentsDefaults(json: #"{"fee": "free"}"#, options: .mutable)
        #expect(model.price as Double == 5)
        #expect(model.fee as Double == 2.25)
        model.price = 0.05 as Double  // 5 cents: the JSON the default was once mistaken for
        #expect(model.price as Double == 0.05)
        #expect(model.jsonModel.json() == ["fee": "free", "price": 5])
        let fresh = try CentsDefaults(json: "{}", options: .mutable)
        fresh.price = 5.0 as Double
        #expect(fresh.jsonModel.json() == [:])
        #expect(fresh.fee as Double == 1.5)
    }
}

@Suite("Schema models and converters")
struct SchemaDefaultConverterTests {
    /// A schema's default is JSON in the form the property stores, so a converter reads it,
    /// also one registered after the schema (as a plugin registers its converters after its
    /// schemas, or the host registers one later): 10000 through a converter of cents is 100.0.
    /// A write of the value the default reads, where there is no key, writes nothing and reads
    /// it back; another value is written as the converter writes it.
    @Test func aConverterRegisteredAfterTheSchemaReadsItsDefaults() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"""
            {"models": [{"name": "Fleet", "properties": [
              {"name": "budget", "type": "Double", "default": 10000},
              {"name": "reserve", "type": "Double?", "default": 250, "defaultIfInvalid": 500},
              {"name": "count", "type": "Int", "default": 3}]}]}
            """#))
        let before = try registry.makeModel(named: "Fleet", json: Data("{}".utf8))
        #expect(before.jsonModel.value(forProperty: "budget") as? Double == 10000)
        registry.register(TestCents(), for: Double.self)
        let fleet = try registry.makeModel(named: "Fleet", json: Data(#"{"reserve": "x"}"#.utf8), options: .mutable)
        #expect(fleet.jsonModel.value(forProperty: "budget") as? Double == 100)
        #expect(fleet.jsonModel.value(forProperty: "reserve") as? Double == 5)
        #expect(fleet.jsonModel.value(forProperty: "count") as? Int == 3)
        #expect(fleet.jsonModel.diagnostics.count == 1, "the invalid reserve, and nothing for the defaults")
        try fleet.jsonModel.set(100.0, forProperty: "budget")
        #expect(fleet.jsonModel.json() == ["reserve": "x"])
        try fleet.jsonModel.set(50.0, forProperty: "budget")
        #expect(fleet.jsonModel.json() == ["reserve": "x", "budget": 5000])
        #expect(fleet.jsonModel.value(forProperty: "budget") as? Double == 50)
    }

    /// A property with only a `defaultIfInvalid` reads a missing value as its natural default,
    /// the engine's own, never through its converter; an invalid value reads the declared one
    /// through it. A collection of models made from a declared default writes through to the
    /// model, creating the key.
    @Test func naturalDefaultsStayTheEnginesAndDefaultCollectionsWriteThrough() throws {
        /// Counts stored from zero and read from one.
        struct OneBased: JSONConverter {
            func value(from json: JSONValue) throws(JSONConversionError) -> Int {
                guard let index = json.intValue else { throw JSONConversionError("expected an index") }
                return index + 1
            }

            func json(from value: Int) -> JSONValue? { .number(JSONNumber(value - 1)) }
        }
        let counts = ModelRegistry()
        try counts.register(ModelSchema(json: #"""
            {"models": [{"name": "Tally", "properties": [{"name": "count", "type": "Int", "defaultIfInvalid": 250}]}]}
            """#))
        counts.register(OneBased(), for: Int.self)
        #expect(try counts.makeModel(named: "Tally", json: Data("{}".utf8)).jsonModel.value(forProperty: "count") as? Int == 0)
        let invalid = try counts.makeModel(named: "Tally", json: Data(#"{"count": "x"}"#.utf8))
        #expect(invalid.jsonModel.value(forProperty: "count") as? Int == 251)

        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"""
            {"models": [{"name": "Item", "properties": [{"name": "id", "type": "Int"}]},
                        {"name": "Order", "properties": [{"name": "items", "type": "[Item]", "default": [{"id": 1}]}]}]}
            """#))
        let missing = try registry.makeModel(named: "Order", json: Data("{}".utf8), options: .mutable)
        let items = try #require(missing.jsonModel.value(forProperty: "items") as? ModelArray<DynamicModel>)
        try items[0].jsonModel.set(2, forProperty: "id")
        #expect(missing.jsonModel.json() == ["items": [["id": 2]]])
    }

    /// A converter registered for a schema model reaches the models that extend it, through
    /// every level, as one registered for a class reaches its subclasses: for the properties they
    /// inherit and their own.
    @Test func convertersForASchemaModelReachTheModelsExtendingIt() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"""
            {"models": [{"name": "Base", "properties": [{"name": "price", "type": "Double"}]},
                        {"name": "Mid", "extends": "Base", "properties": []},
                        {"name": "Child", "extends": "Mid", "properties": [{"name": "msrp", "type": "Double"}]}]}
            """#))
        registry.converters.apply(
            .type(.schema("Mid"), ObjectIdentifier(Double.self)), converter: AnyConverter(TestCents(), name: "TestCents"))
        let input = Data(#"{"price": 1250, "msrp": 100}"#.utf8)
        let child = try registry.makeModel(named: "Child", json: input)
        #expect(child.jsonModel.value(forProperty: "price") as? Double == 12.5)
        #expect(child.jsonModel.value(forProperty: "msrp") as? Double == 1)
        #expect(try registry.makeModel(named: "Mid", json: input).jsonModel.value(forProperty: "price") as? Double == 12.5)
        #expect(try registry.makeModel(named: "Base", json: input).jsonModel.value(forProperty: "price") as? Double == 1250)
    }
}

@Suite("Non-finite numbers as strings")
struct NonFiniteNumberTests {
    let json = #"""
        {"level": "NaN", "small": "-Infinity", "series": [1, "Infinity", "NaN"], "byName": {"a": "-Infinity"}, "count": "NaN"}
        """#

    @Test func aModelThatAllowsThemReadsTheThreeStrings() throws {
        let model = try NonFiniteReading(json: json)
        #expect((model.level as Double).isNaN)
        #expect(model.small as Float? == -.infinity)
        let series: [Double] = model.series
        #expect(series.count == 3 && series[0] == 1 && series[1] == .infinity && series[2].isNaN)
        #expect(model.byName as [String: Double] == ["a": -.infinity])
        // Integers are not concerned.
        #expect(model.count as Int == 0)
        #expect(model.jsonModel.diagnostics.count == 1)
        #expect(try NonFiniteSubReading(json: #"{"level": "Infinity"}"#).level as Double == .infinity)
    }

    @Test func otherSpellingsStayDiagnostics() throws {
        for text in ["nan", "inf", "+Infinity", "Infinity ", "INFINITY", "-NaN"] {
            let model = try NonFiniteReading(json: JSONValue.object(["level": .string(text)]))
            #expect(model.level as Double == 0, "\(text)")
            #expect(model.jsonModel.diagnostics.count == 1, "\(text)")
        }
    }

    @Test func writesGoBackAsTheStrings() throws {
        let model = try NonFiniteReading(json: "{}", options: .mutable)
        model.level = Double.nan
        model.small = -Float.infinity
        model.series = [1, .infinity]
        #expect(model.jsonModel.json() == ["level": "NaN", "small": "-Infinity", "series": [1, "Infinity"]])
        // And read back.
        let again = try NonFiniteReading(json: model.jsonModel.jsonString())
        #expect((again.level as Double).isNaN)
        #expect(again.series as [Double] == [1, .infinity])
    }

    @Test func withoutTheOptionTheyStayDiagnosticsAndWritesThrow() throws {
        let model = try FiniteReading(json: #"{"level": "NaN", "small": "Infinity", "series": ["NaN", 2]}"#, options: .mutable)
        #expect(model.level as Double == 2)
        #expect(model.small as Float? == nil)
        #expect(model.series as [Double] == [2])
        #expect(model.jsonModel.diagnostics.count == 3)
        #expect(throws: JSONModelError.self) { try model.jsonModel.set(Double.nan, forProperty: "level") }
        #expect(throws: JSONModelError.self) { try model.jsonModel.set([Double.infinity], forProperty: "series") }
        #expect(model.jsonModel.json()["level"] == "NaN")  // unchanged
    }

    @Test func schemaModelsAndTheRegistryOption() throws {
        let schema = #"""
            {"models": [
              {"name": "Reading", "allowNonFiniteNumbers": true, "properties": [{"name": "level", "type": "Double"}]},
              {"name": "Child", "extends": "Reading", "properties": []},
              {"name": "Strict", "properties": [{"name": "level", "type": "Double"}]}]}
            """#
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: schema))
        let input = Data(#"{"level": "Infinity"}"#.utf8)
        #expect(try registry.makeModel(named: "Reading", json: input).jsonModel.value(forProperty: "level") as? Double == .infinity)
        #expect(try registry.makeModel(named: "Child", json: input).jsonModel.value(forProperty: "level") as? Double == .infinity)
        #expect(try registry.makeModel(named: "Strict", json: input).jsonModel.value(forProperty: "level") as? Double == 0)

        let lenient = ModelRegistry()
        lenient.allowsNonFiniteNumbers = true
        try lenient.register(ModelSchema(json: schema))
        #expect(try lenient.makeModel(named: "Strict", json: input).jsonModel.value(forProperty: "level") as? Double == .infinity)

        #expect(throws: ModelSchemaError.self) {
            try ModelSchema(json: #"{"models": [{"name": "R", "allowNonFiniteNumbers": 1, "properties": []}]}"#)
        }
    }
}
