import Foundation
import Testing
@testable import JSONModelKit

/// A colour of the tests' own, converted only by registered converters.
struct TestColor: Sendable, Hashable {
    var rgb: Int
}

/// A label of the tests' own, for the precedence of the lookup's tiers.
struct TestLabel: Sendable, Hashable {
    var text: String
}

/// Looks colours up by name in a table that can change (for cached-value validation).
final class PaletteConverter: JSONConverter, Sendable {
    let table = Locked<(version: Int, colors: [String: Int])>((0, ["red": 0xFF0000]))

    struct Shade: Sendable, Hashable {
        var rgb: Int
        var version: Int
    }

    func value(from json: JSONValue) throws(JSONConversionError) -> Shade {
        let (version, colors) = table.withLock { ($0.version, $0.colors) }
        guard let name = json.stringValue, let rgb = colors[name] else { throw JSONConversionError("unknown colour") }
        return Shade(rgb: rgb, version: version)
    }

    func json(from value: Shade) -> JSONValue? { .string("#\(String(value.rgb, radix: 16))") }
    var validatesCachedValues: Bool { true }
    func isStillValid(_ value: Shade) -> Bool { table.withLock { $0.version } == value.version }

    func change(_ name: String, to rgb: Int) {
        table.withLock {
            $0.colors[name] = rgb
            $0.version += 1
        }
    }
}

/// A type converting itself (tier 3).
struct Money: JSONConvertible, Hashable {
    var cents: Int
    init(cents: Int) { self.cents = cents }
    init(json: JSONValue) throws(JSONConversionError) {
        guard let text = json.stringValue, text.hasPrefix("$"), let value = Double(text.dropFirst()) else {
            throw JSONConversionError("expected money like $1.50")
        }
        cents = Int((value * 100).rounded())
    }
    var json: JSONValue { .string("$" + String(format: "%.2f", Double(cents) / 100)) }
}

class ConvBase: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.title(String.self)
        p.note(String.self)
        p.color(TestColor?.self)
        p.label(TestLabel?.self)
        p.other(TestLabel?.self)
    }
}

final class ConvChild: ConvBase, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.subtitle(String.self)
        p.price(Money.self, default: Money(cents: 0))
        p.named(Int.self, converter: "testHex")
        p.instance(String.self, converter: .using(JSONConverters.Case(upper: true)))
        p.missingName(Int.self, converter: "neverRegistered")
        p.shade(PaletteConverter.Shade?.self)
        p.dates([Date?].self)
    }
}

final class ConvOther: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.title(String.self)
        p.label(TestLabel?.self)
    }
}

@Suite("Converter lookup", .serialized)
struct ConverterLookupTests {
    let registry = ModelRegistry.shared

    init() {
        ModelRegistry.shared.resetConverters()
    }

    func child(_ json: JSONValue) throws -> ConvChild { try ConvChild(json: json) }

    static func labels(_ prefix: String) -> JSONConverters.Closure<TestLabel> {
        .closure(read: { json in json.stringValue.map { TestLabel(text: prefix + $0) } }, write: { .string($0.text) })
    }

    static func money(_ cents: Int) -> JSONConverters.Closure<Money> {
        JSONConverters.Closure(read: { _ in Money(cents: cents) }, write: { $0.json })
    }

    func label(_ model: JSONModel, _ name: String = "label") -> String? {
        (model.jsonModel.value(forProperty: name) as? TestLabel)?.text
    }

    @Test func propertyNameBeatsModelTypeBeatsGlobalType() throws {
        let json: JSONValue = ["label": "x", "other": "y", "title": "Hello"]
        #expect(label(try child(json)) == nil)
        registry.register(Self.labels("global:"), for: TestLabel.self)
        #expect(label(try child(json)) == "global:x")
        registry.register(Self.labels("base:"), for: TestLabel.self, in: ConvBase.self)
        #expect(label(try child(json)) == "base:x")  // the superclass's registration applies to the subclass
        #expect(label(try ConvOther(json: json)) == "global:x")  // another class keeps the global one
        registry.register(Self.labels("property:"), forProperty: "label", of: ConvBase.self)
        let model = try child(json)
        #expect(label(model) == "property:x")
        #expect(label(model, "other") == "base:y")
        registry.register(.uppercase, forProperty: "title", of: ConvChild.self)
        #expect(try child(json).title as String == "HELLO")
        #expect(try ConvOther(json: json).title as String == "Hello")
    }

    @Test func laterRegistrationInvalidatesExactlyWhatItAffects() throws {
        let metadata = ConvChild.modelMetadata
        let title = metadata.property(named: "title")!.conversion
        let subtitle = metadata.property(named: "subtitle")!.conversion
        let price = metadata.property(named: "price")!.conversion
        let json: JSONValue = ["title": "a", "subtitle": "b", "price": "$1.50"]
        _ = try child(json).title as String
        _ = try child(json).subtitle as String
        _ = try child(json).price as Money
        let (t0, s0, p0) = (title.lookupCount, subtitle.lookupCount, price.lookupCount)
        _ = try child(json).title as String
        #expect(title.lookupCount == t0)  // cached
        registry.register(.uppercase, forProperty: "title", of: ConvChild.self)
        _ = try child(json).title as String
        _ = try child(json).subtitle as String
        _ = try child(json).price as Money
        #expect(title.lookupCount == t0 + 1)
        #expect(subtitle.lookupCount == s0)  // another property name: untouched
        #expect(price.lookupCount == p0)
        registry.register(Self.money(1), for: Money.self, in: ConvOther.self)
        _ = try child(json).price as Money
        #expect(price.lookupCount == p0)  // registered on an unrelated class
        registry.register(Self.money(7), for: Money.self)
        #expect(try child(json).price as Money == Money(cents: 7))
        #expect(price.lookupCount == p0 + 1)
    }

    @Test func conformanceAndItsDiagnostics() throws {
        #expect(try child(["price": "$1.50"]).price as Money == Money(cents: 150))
        let bad = try child(["price": "1.50"])
        #expect(bad.price as Money == Money(cents: 0))
        #expect(bad.jsonModel.diagnostics.first?.message.contains("expected money") == true)
        let model = try ConvChild(json: ["price": "$1.50"] as JSONValue, options: .mutable)
        model.price = Money(cents: 325)
        #expect(model.jsonModel.json()["price"] == "$3.25")
    }

    @Test func namedConvertersResolveWhenRegisteredLater() throws {
        let early = try child(["named": "#ff0000"])
        #expect(early.named as Int == 0)
        #expect(early.jsonModel.diagnostics.first?.message.contains("testHex") == true)
        registry.register(.hexColor, named: "testHex")
        #expect(try child(["named": "#ff0000"]).named as Int == 0xFF0000)
        let missing = try child(["missingName": 3])
        #expect(missing.missingName as Int == 0)
        #expect(missing.jsonModel.diagnostics.map(\.message) == ["no converter is registered under the name \"neverRegistered\""])
        #expect(try child(["instance": "shout"]).instance as String == "SHOUT")
    }

    /// The colour converter takes six or three hexadecimal digits after an optional `#`, and
    /// nothing else: no sign, which `Int(_:radix:)` would take.
    @Test func hexColorsAreHexadecimalDigitsOnly() throws {
        let hex = JSONConverters.HexColor()
        #expect(try hex.value(from: "#ff8800") == 0xFF8800)
        #expect(try hex.value(from: "0A0B0C") == 0x0A0B0C)
        #expect(try hex.value(from: "#abc") == 0xAABBCC)
        for text in ["#+fffff", "#-00000", "+fffff", "#ff880", "#ff88000", "#gg8800", "#ff 880", "#+ff", "#ＡＢＣ"] {
            #expect(throws: JSONConversionError.self, "\(text)") { try hex.value(from: .string(text)) }
        }
    }

    @Test func typesWithoutAConverterGetADiagnosticNotACrash() throws {
        let model = try child(["color": "#00ff00"])
        #expect((model.color as TestColor?) == nil)
        #expect(model.jsonModel.diagnostics.first?.message.contains("no converter for TestColor") == true)
        let colors = JSONConverters.Closure<TestColor>(
            read: { json in json.stringValue.flatMap { Int($0.dropFirst(), radix: 16) }.map(TestColor.init) },
            write: { .string("#" + String($0.rgb, radix: 16)) })
        registry.register(colors, for: TestColor.self)
        let converted = try ConvChild(json: ["color": "#00ff00"] as JSONValue, options: .mutable)
        #expect(converted.color as TestColor? == TestColor(rgb: 0x00FF00))
        converted.color = TestColor(rgb: 0xABCDEF)
        #expect(converted.jsonModel.json()["color"] == "#abcdef")
        converted.color = nil as TestColor?
        #expect(converted.jsonModel.json()["color"] == nil)
    }

    @Test func typeConvertersApplyInsideCollections() throws {
        registry.register(.millisecondsSince1970, for: Date.self, in: ConvChild.self)
        let model = try child(["dates": [1_000, nil, "x"]])
        #expect(model.dates as [Date?] == [Date(timeIntervalSince1970: 1), nil, nil])
        #expect(model.jsonModel.diagnostics.count == 1)
    }

    @Test func cachedValuesAreValidatedOnEveryRead() throws {
        let palette = PaletteConverter()
        registry.register(palette, for: PaletteConverter.Shade.self)
        let model = try child(["shade": "red"])
        #expect((model.shade as PaletteConverter.Shade?)?.rgb == 0xFF0000)
        #expect((model.shade as PaletteConverter.Shade?)?.version == 0)
        palette.change("red", to: 0xEE0000)
        #expect((model.shade as PaletteConverter.Shade?)?.rgb == 0xEE0000)
        #expect((model.shade as PaletteConverter.Shade?)?.version == 1)
    }

    @Test func registrationWhileOtherThreadsRead() async throws {
        let document = try JSONDocument(string: #"{"title": "Mixed", "note": "n", "price": "$2.00"}"#)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<300 {
                        let model = try! ConvChild(json: document.root)
                        let title: String = model.title
                        #expect(["Mixed", "MIXED", "mixed"].contains(title))
                        let price: Money = model.price
                        #expect(price.cents == 200 || price.cents == 1)
                    }
                }
            }
            group.addTask {
                for round in 0..<100 {
                    let registry = ModelRegistry.shared
                    if round % 2 == 0 {
                        registry.register(.uppercase, forProperty: "title", of: ConvChild.self)
                    } else {
                        registry.register(.lowercase, forProperty: "title", of: ConvBase.self)
                    }
                    registry.register(Self.money(1), named: "round\(round)")
                }
            }
        }
        ModelRegistry.shared.resetConverters()
    }
}

// MARK: - Object caching

final class Customer: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
        p.name(String.self)
    }
}

final class Invoice: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.customer(Customer?.self, jsonPath: "customer_id", cachedObject: true)
        p.payer(Customer.self, cachedObject: true)
    }
}

/// An in-memory store of customers by id.
final class CustomerStore: JSONObjectStore {
    let customers: [Int: Customer]

    init(_ customers: [Customer]) {
        self.customers = Dictionary(uniqueKeysWithValues: customers.map { ($0.id as Int, $0) })
    }

    func object(forID id: JSONValue) -> Customer? { id.intValue.flatMap { customers[$0] } }
    func id(of object: Customer) -> JSONValue? { .number(JSONNumber(object.id as Int)) }
}

extension ConverterLookupTests {
    @Test func idsResolveThroughTheRegisteredStore() throws {
        let ann = try Customer(json: ["id": 1, "name": "Ann"] as JSONValue)
        let bob = try Customer(json: ["id": 2, "name": "Bob"] as JSONValue)
        let none = try Invoice(json: ["customer_id": 1] as JSONValue)
        #expect((none.customer as Customer?) == nil)
        #expect(none.jsonModel.diagnostics.first?.message.contains("no object store") == true)

        ModelRegistry.shared.register(objectStore: CustomerStore([ann, bob]))
        let invoice = try Invoice(json: ["customer_id": 1, "payer": 2, "total": 5] as JSONValue, options: .mutable)
        #expect((invoice.customer as Customer?) === ann)
        #expect((invoice.payer as Customer) === bob)
        invoice.customer = bob
        #expect(invoice.jsonModel.json() == ["customer_id": 2, "payer": 2, "total": 5])

        let missing = try Invoice(json: ["customer_id": 99] as JSONValue)
        #expect((missing.customer as Customer?) == nil)
        #expect(missing.jsonModel.diagnostics.map(\.message) == ["no Customer with id 99 in the object store"])
        ModelRegistry.shared.resetConverters()
    }
}

// MARK: - Shared models in descriptions

/// A model whose four properties all refer, through an object store, to the next one.
final class SharedNode: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
        p.a(SharedNode?.self, cachedObject: true)
        p.b(SharedNode?.self, cachedObject: true)
        p.c(SharedNode?.self, cachedObject: true)
        p.d(SharedNode?.self, cachedObject: true)
    }
}

final class SharedNodeStore: JSONObjectStore {
    let nodes: [SharedNode]

    init(count: Int) throws {
        nodes = try (0..<count).map { index in
            let next = index + 1 < count ? JSONValue.number(JSONNumber(index + 1)) : .null
            return try SharedNode(json: ["id": .number(JSONNumber(index)), "a": next, "b": next, "c": next, "d": next] as JSONValue)
        }
    }

    func object(forID id: JSONValue) -> SharedNode? { id.intValue.flatMap { nodes.indices.contains($0) ? nodes[$0] : nil } }
    func id(of object: SharedNode) -> JSONValue? { .number(JSONNumber(object.id as Int)) }
}

extension ConverterLookupTests {
    /// A model that several places refer to is written whole once, then `↑ SharedNode`: written at
    /// every place, twelve stored models that each refer to the next four times made 4^12 dumps.
    @Test(.timeLimit(.minutes(10)))  // a hang guard: the test takes milliseconds
    func aSharedModelIsDescribedOnce() throws {
        let store = try SharedNodeStore(count: 14)
        ModelRegistry.shared.register(objectStore: store)
        defer { ModelRegistry.shared.resetConverters() }
        let full = store.nodes[0].jsonModel.fullDescription
        let dumps = full.components(separatedBy: "SharedNode(").count - 1
        #expect(dumps <= 16, "\(dumps) models written")  // 12 whole, 4 cut at the depth limit
        #expect(full.contains("↑ SharedNode"))
        #expect(full.split(separator: "\n").count < 100)
        // The first place a model is met shows it whole.
        #expect(full.contains("id: 1,") && full.contains("id: 5,"))
    }
}
