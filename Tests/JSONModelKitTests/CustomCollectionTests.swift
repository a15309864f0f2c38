import Foundation
import Testing
@testable import JSONModelKit

// Arrays and [String: …] dictionaries of the user's types convert element by element, each
// element as a property of its type would: the same value on its own and in a collection.

/// A raw-value enum that is also Codable: its raw values and unknown case decide, not Codable.
enum CollectedKind: String, Codable, Sendable, JSONUnknownCase { case alpha, beta, unknown }
/// The same enum without Codable.
enum PlainCollectedKind: String, Sendable, JSONUnknownCase { case alpha, beta, unknown }
enum CollectedLevel: Int, Sendable { case low = 1, high = 2 }

/// Dollars in JSON, cents in Swift; Codable too (as `{"cents": …}`), which collections must not use.
struct CollectedMoney: JSONConvertible, Codable, Equatable {
    var cents: Int
    init(cents: Int) { self.cents = cents }
    init(json: JSONValue) throws(JSONConversionError) {
        guard let dollars = json.numberValue?.doubleValue else { throw JSONConversionError("expected dollars") }
        cents = Int((dollars * 100).rounded())
    }
    var json: JSONValue { .number(JSONNumber(text: "\(cents / 100).\(String(format: "%02d", cents % 100))")!) }
}

/// A type with no conversion of its own: only a registered converter reads it.
struct CollectedBadge: Sendable, Equatable { var text: String }

final class CollectionsOfCustomTypes: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.kind(CollectedKind.self)
        p.kinds([CollectedKind].self)
        p.plainKinds([PlainCollectedKind].self)
        p.levels([CollectedLevel?].self)
        p.price(CollectedMoney?.self)
        p.prices([CollectedMoney].self)
        p.nested([[CollectedMoney]].self)
        p.byName([String: CollectedKind].self)
        p.maybeKinds([PlainCollectedKind]?.self)
        p.badges([CollectedBadge].self)
        p.sets([Set<String>].self)
        p.byNumber([String: [Int: String]].self)
    }
}

/// The model a converter is registered in (in the serialized suite that registers converters).
final class CollectionsWithRegisteredConverters: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.prices([CollectedMoney].self)
        p.nested([[CollectedMoney]].self)
        p.badges([CollectedBadge].self)
    }
}

/// A colour from a palette that can change: the converter asks again about cached colours.
struct PaletteColor: Sendable, Equatable { var name: String; var version: Int }
let paletteVersion = Locked(0)

final class CollectionsWithValidatedConverters: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.colors([PaletteColor].self)
        p.maybeColors([PaletteColor]?.self)
        p.byName([String: [PaletteColor]].self)
    }
}

final class CollectionsWithDeclaredConverters: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.badges([CollectedBadge].self, converter: .using(BadgeConverter()))
        p.nested([[CollectedBadge]].self, converter: .using(BadgeConverter()))
        p.prices([CollectedMoney].self, default: [CollectedMoney(cents: 150)])
    }
}

/// A tag whose arrays convert themselves, from comma-separated text: the collection's own
/// conformance comes before its elements'.
public struct CommaTag: Sendable, Equatable, Codable {
    public var text: String
    public init(text: String) { self.text = text }
}

extension Array: JSONConvertible where Element == CommaTag {
    public init(json: JSONValue) throws(JSONConversionError) {
        guard let text = json.stringValue else { throw JSONConversionError("expected comma-separated tags") }
        self = text.split(separator: ",").map { CommaTag(text: String($0)) }
    }
    public var json: JSONValue { .string(map(\.text).joined(separator: ",")) }
}

final class CommaTagged: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.tags([CommaTag].self)
    }
}

/// The model a converter that cannot read the declared default is registered in.
final class CollectionsWithRegisteredDefault: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.prices([CollectedMoney].self, default: [CollectedMoney(cents: 150)])
    }
}

struct BadgeConverter: JSONConverter, Equatable {
    func value(from json: JSONValue) throws(JSONConversionError) -> CollectedBadge {
        guard let text = json.stringValue else { throw JSONConversionError("expected a badge's name") }
        return CollectedBadge(text: text)
    }
    func json(from value: CollectedBadge) -> JSONValue? { value.text.isEmpty ? nil : .string(value.text) }
}

final class BadCollectionsOfCustomTypes: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.set(Set<PlainCollectedKind>.self)
        p.byNumber([Int: PlainCollectedKind].self)
    }
}

@Suite("Collections of the user's types")
struct CustomCollectionTests {
    static let json = #"""
        {"kind": "gamma", "kinds": ["alpha", "gamma", "beta"], "plainKinds": ["alpha", "gamma", 3, "beta"],
         "levels": [1, 5, "x", null, 2], "price": 1.5, "prices": [1.5, 2.25], "nested": [[1], [2, "x"]],
         "byName": {"a": "gamma", "b": "beta", "c": "alpha", "c": 7}, "maybeKinds": null}
        """#

    @Test func elementsReadAsPropertiesOfTheirTypeDo() throws {
        let model = try CollectionsOfCustomTypes(json: Self.json)
        // An unknown raw value reads as the unknown case, alone and in an array, Codable or not.
        #expect(model.kind as CollectedKind == .unknown)
        #expect(model.kinds as [CollectedKind] == [.alpha, .unknown, .beta])
        #expect(model.plainKinds as [PlainCollectedKind] == [.alpha, .unknown, .beta])
        // Optional elements that do not convert read nil, so the others keep their places.
        #expect(model.levels as [CollectedLevel?] == [.low, nil, nil, nil, .high])
        // JSONConvertible decides, not Codable (which wants {"cents": …}).
        #expect(model.price as CollectedMoney? == CollectedMoney(cents: 150))
        #expect(model.prices as [CollectedMoney] == [CollectedMoney(cents: 150), CollectedMoney(cents: 225)])
        #expect(model.nested as [[CollectedMoney]] == [[CollectedMoney(cents: 100)], [CollectedMoney(cents: 200)]])
        // Of a key given twice, the last member decides, even when it does not convert.
        #expect(model.byName as [String: CollectedKind] == ["a": .unknown, "b": .beta])
        #expect(model.maybeKinds as [PlainCollectedKind]? == nil)
        // Missing, a collection reads empty.
        #expect(model.badges as [CollectedBadge] == [])
    }

    @Test func eachElementThatDoesNotConvertSaysWhere() throws {
        let model = try CollectionsOfCustomTypes(json: Self.json)
        _ = try? model.jsonModel.validate()
        let messages = model.jsonModel.diagnostics.map { "\($0.path): \($0.kind)" }
        #expect(messages.contains("kinds[1]: invalidValue"))
        #expect(messages.contains("plainKinds[1]: invalidValue"))
        #expect(messages.contains("plainKinds[2]: typeMismatch"))
        #expect(messages.contains("levels[1]: invalidValue"))
        #expect(messages.contains("levels[2]: typeMismatch"))
        #expect(messages.contains("nested[1][1]: invalidValue"))
        #expect(messages.contains("byName.a: invalidValue"))
        #expect(messages.contains("byName.c: typeMismatch"))
        #expect(!messages.contains { $0.hasPrefix("levels[3]") }, "null is an optional element's nil")
    }

    @Test func aTypeWithNoConversionOfItsOwnSaysSoOnceForTheCollection() throws {
        let model = try CollectionsOfCustomTypes(json: #"{"badges": ["gold", "silver"]}"#)
        #expect(model.badges as [CollectedBadge] == [])
        let diagnostics = model.jsonModel.diagnostics
        #expect(diagnostics.map(\.path.description) == ["badges"])
        #expect(diagnostics.first?.message.contains("no converter for CollectedBadge") == true, "\(diagnostics)")
    }

    /// Collections refused as properties (`Set`, dictionaries with other keys) are Codable elements.
    @Test func codableCollectionsTheEngineRefusesAreElementsStill() throws {
        let model = try CollectionsOfCustomTypes(json: #"{"sets": [["a", "b", "a"]], "byNumber": {"k": {"1": "one"}}}"#)
        #expect(model.sets as [Set<String>] == [["a", "b"]])
        #expect(model.byNumber as [String: [Int: String]] == ["k": [1: "one"]])
    }

    /// Each element keeps the JSON type of the one it replaces, as a property's value does.
    @Test func elementWritesKeepTheStoredJSONType() throws {
        let model = try CollectionsOfCustomTypes(json: #"{"levels": ["1"], "byName": {"a": "beta"}}"#, options: .mutable)
        model.levels = [CollectedLevel.high, .low] as [CollectedLevel?]
        #expect(model.jsonModel.json()["levels"] == ["2", 1])
    }

    @Test func writesGoElementByElement() throws {
        let model = try CollectionsOfCustomTypes(json: Self.json, options: .mutable)
        model.prices = [CollectedMoney(cents: 125), CollectedMoney(cents: 300)] as [CollectedMoney]
        model.levels = [CollectedLevel.high, nil] as [CollectedLevel?]
        // A dictionary's unknown case leaves its key out, as a property's leaves the property out.
        model.byName = ["x": CollectedKind.alpha, "y": CollectedKind.unknown] as [String: CollectedKind]
        let json = model.jsonModel.json().objectValue!
        #expect(json["prices"] == [1.25, 3.00])
        #expect(json["levels"] == [2, nil])
        #expect(json["byName"] == ["x": "alpha"])
        // Read back through a new model, the values are the ones written.
        let copy = try CollectionsOfCustomTypes(json: model.jsonModel.jsonString())
        #expect(copy.prices as [CollectedMoney] == [CollectedMoney(cents: 125), CollectedMoney(cents: 300)])
        #expect(copy.levels as [CollectedLevel?] == [.high, nil])
    }

    @Test func anArraysUnknownCaseIsRefusedNotDropped() throws {
        let model = try CollectionsOfCustomTypes(json: Self.json, options: .mutable)
        #expect(throws: JSONModelError.self) {
            try model.jsonModel.set([PlainCollectedKind.alpha, .unknown, .beta], forProperty: "plainKinds")
        }
        do {
            try model.jsonModel.set([PlainCollectedKind.alpha, .unknown], forProperty: "plainKinds")
        } catch {
            #expect("\(error)".contains("[1]: unknown has no JSON"), "\(error)")
        }
        // Nothing was written: the original array is still there, unknown value included.
        #expect(model.jsonModel.json().objectValue?["plainKinds"] == ["alpha", "gamma", 3, "beta"])
    }

    @Test func aDeclaredConverterOfTheElementTypeConvertsEachElement() throws {
        let model = try CollectionsWithDeclaredConverters(
            json: #"{"badges": ["gold", 7], "nested": [["a"], ["b", "c"]]}"#, options: .mutable)
        #expect(model.badges as [CollectedBadge] == [CollectedBadge(text: "gold")])
        #expect(model.nested as [[CollectedBadge]] == [[CollectedBadge(text: "a")], [CollectedBadge(text: "b"), CollectedBadge(text: "c")]])
        #expect(model.jsonModel.diagnostics.map(\.path.description) == ["badges[1]"])
        // An element the converter writes no JSON for is refused in an array, saying where.
        do {
            try model.jsonModel.set([[CollectedBadge(text: "x")], [CollectedBadge(text: "y"), CollectedBadge(text: "")]], forProperty: "nested")
            Issue.record("an element with no JSON was written")
        } catch {
            #expect("\(error)".contains("[1][1]: "), "\(error)")
        }
        #expect(model.jsonModel.json().objectValue?["nested"] == [["a"], ["b", "c"]])
    }

    @Test func aDeclaredDefaultReadsWhole() throws {
        let model = try CollectionsWithDeclaredConverters(json: "{}")
        #expect(model.prices as [CollectedMoney] == [CollectedMoney(cents: 150)])
    }

    @Test func aCollectionThatConvertsItselfIsNotReadElementByElement() throws {
        let model = try CommaTagged(json: #"{"tags": "a,b"}"#, options: .mutable)
        #expect(model.tags as [CommaTag] == [CommaTag(text: "a"), CommaTag(text: "b")])
        model.tags = [CommaTag(text: "c")] as [CommaTag]
        #expect(model.jsonModel.json() == ["tags": "c"])
    }

    @Test func setsAndDictionariesWithOtherKeysStayUnsupported() {
        #expect(throws: ModelDeclarationError.self) { try BadCollectionsOfCustomTypes.validateDeclarations() }
        do {
            try BadCollectionsOfCustomTypes.validateDeclarations()
        } catch {
            #expect("\(error)".contains("set: the type Set<PlainCollectedKind> is not supported"), "\(error)")
            #expect("\(error)".contains("byNumber: the type Dictionary<Int, PlainCollectedKind> is not supported"), "\(error)")
        }
    }
}

extension ConverterLookupTests {
    @Test func aConverterRegisteredForTheElementTypeReadsEachElement() throws {
        let before = try CollectionsWithRegisteredConverters(json: #"{"badges": ["gold"], "prices": [1]}"#)
        #expect(before.badges as [CollectedBadge] == [])
        #expect(before.prices as [CollectedMoney] == [CollectedMoney(cents: 100)])
        // Registered later: the choice made before is looked up again.
        let badges = JSONConverters.Closure<CollectedBadge>(
            read: { json in json.stringValue.map(CollectedBadge.init(text:)) }, write: { .string($0.text) })
        let cents = JSONConverters.Closure<CollectedMoney>(
            read: { json in json.numberValue?.intValue.map(CollectedMoney.init(cents:)) },
            write: { .number(JSONNumber($0.cents)) })
        ModelRegistry.shared.register(badges, for: CollectedBadge.self, in: CollectionsWithRegisteredConverters.self)
        ModelRegistry.shared.register(cents, for: CollectedMoney.self, in: CollectionsWithRegisteredConverters.self)
        let model = try CollectionsWithRegisteredConverters(
            json: #"{"badges": ["gold", 7, "silver"], "prices": [1, 250], "nested": [[5]]}"#, options: .mutable)
        #expect(model.badges as [CollectedBadge] == [CollectedBadge(text: "gold"), CollectedBadge(text: "silver")])
        #expect(model.prices as [CollectedMoney] == [CollectedMoney(cents: 1), CollectedMoney(cents: 250)])
        #expect(model.nested as [[CollectedMoney]] == [[CollectedMoney(cents: 5)]])
        #expect(model.jsonModel.diagnostics.map(\.path.description) == ["badges[1]"])
        model.badges = [CollectedBadge(text: "bronze")] as [CollectedBadge]
        #expect(model.jsonModel.json().objectValue?["badges"] == ["bronze"])
        // A type with no conversion of its own is written through its registered converter here
        // too; one with its own, in its own form (dollars).
        #expect(model.jsonModel.jsonValue(forProperty: "badges") == ["bronze"])
        #expect(model.jsonModel.jsonValue(forProperty: "prices") == [0.01, 2.50])
    }
}

extension ConverterLookupTests {
    @Test func aValidatingConverterIsAskedAboutEveryCachedElement() throws {
        let converter = JSONConverters.Closure<PaletteColor>(
            read: { json in json.stringValue.map { PaletteColor(name: $0, version: paletteVersion.withLock { $0 }) } },
            write: { .string($0.name) },
            isStillValid: { color in color.version == paletteVersion.withLock { $0 } })
        ModelRegistry.shared.register(converter, for: PaletteColor.self, in: CollectionsWithValidatedConverters.self)
        let model = try CollectionsWithValidatedConverters(
            json: #"{"colors": ["red", "blue"], "maybeColors": ["red"], "byName": {"a": ["green"]}}"#)
        #expect((model.colors as [PaletteColor]).map(\.version) == [0, 0])
        #expect((model.maybeColors as [PaletteColor]?)?.map(\.version) == [0])
        #expect((model.byName as [String: [PaletteColor]])["a"]?.map(\.version) == [0])
        paletteVersion.withLock { $0 = 1 }
        // Every cached collection holds colours of the old palette: each is converted again.
        #expect((model.colors as [PaletteColor]).map(\.version) == [1, 1])
        #expect((model.maybeColors as [PaletteColor]?)?.map(\.version) == [1])
        #expect((model.byName as [String: [PaletteColor]])["a"]?.map(\.version) == [1])
    }

    @Test func aDefaultThatARegisteredConverterCannotReadReadsAsDeclared() throws {
        // The default was written in dollars (the type's own JSON); the converter reads cents.
        let cents = JSONConverters.Closure<CollectedMoney>(
            read: { json in json.numberValue?.intValue.map(CollectedMoney.init(cents:)) },
            write: { .number(JSONNumber($0.cents)) })
        ModelRegistry.shared.register(cents, for: CollectedMoney.self, in: CollectionsWithRegisteredDefault.self)
        let model = try CollectionsWithRegisteredDefault(json: "{}")
        #expect(model.prices as [CollectedMoney] == [CollectedMoney(cents: 150)])
        #expect(model.jsonModel.diagnostics.isEmpty)
    }
}
