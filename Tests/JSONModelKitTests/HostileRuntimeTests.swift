import Foundation
import Testing
@testable import JSONModelKit

/// What schemas, converters and registrations may not do to the host: keep registries alive
/// forever, or grow with every registration or read. The memory figures are measured in child
/// processes (`HostileSchemaMemoryTests.swift`); these tests check the mechanisms.
@Suite("Hostile converters, registries and plugins", .timeLimit(.minutes(10)))
struct HostileRuntimeTests {
    typealias Orders = HostileSchemaMemoryTests

    /// A registry with the order schema and its `cents` converter.
    static func orderRegistry() throws -> ModelRegistry {
        let registry = ModelRegistry()
        registry.register(Orders.centsConverter(), named: "cents")
        try registry.register(ModelSchema(json: Orders.orderSchema))
        return registry
    }

    // MARK: Converters

    /// A converter that rejects every cached value: each read converts again, the rejected
    /// entries are freed (their memory is measured in `HostileSchemaMemoryTests`).
    /// An `Int` converter that rejects every cached value, counting its conversions.
    static func rejectingEveryCachedValue(counting conversions: Locked<Int>) -> JSONConverters.Closure<Int> {
        JSONConverters.Closure<Int>(
            read: { json in
                conversions.withLock { $0 += 1 }
                return json.intValue
            },
            write: { .number(JSONNumber($0)) }, isStillValid: { _ in false })
    }

    @Test func aRejectedCachedValueIsConvertedAgainOnEachRead() throws {
        let registry = ModelRegistry()
        let conversions = Locked(0)
        registry.register(Self.rejectingEveryCachedValue(counting: conversions), forProperty: "level", ofModelNamed: "Meter")
        try registry.register(ModelSchema(json: #"{"models": [{"name": "Meter", "properties": [{"name": "level", "type": "Int"}]}]}"#))
        let meter = try registry.makeModel(named: "Meter", json: ["level": 4] as JSONValue)
        weak var firstEntry: CacheEntry?
        do {
            let level: Int = meter.jsonModel.dynamic.level
            #expect(level == 4)
            firstEntry = meter.entry(at: 0, revalidate: false)
        }
        #expect(firstEntry != nil)
        for _ in 0..<100 {
            let level: Int = meter.jsonModel.dynamic.level
            #expect(level == 4)
        }
        #expect(conversions.withLock { $0 } == 101)
        #expect(firstEntry == nil)  // freed, not kept until the model is
        #expect(meter.cachedPropertyCount == 1)
    }

    /// The same over a parsed document, where the first read of a property walks the object and
    /// records in each property's slot where its member is, and the first of those slots says
    /// the walk is done: a rejected value there is converted again, and the values cached in
    /// the other slots meanwhile stay where they are (the same nested model, nothing read twice).
    @Test func aRejectedCachedValueInTheWalksFirstSlotLeavesTheOthers() throws {
        let registry = ModelRegistry()
        let conversions = Locked(0)
        registry.register(Self.rejectingEveryCachedValue(counting: conversions), forProperty: "a", ofModelNamed: "Walked")
        let schema = #"{"models": [{"name": "Walked", "properties": [{"name": "a", "type": "Int"}, "#
            + #"{"name": "b", "type": "String"}, {"name": "inner", "type": "Inner"}, {"name": "c", "type": "Int"}]}, "#
            + #"{"name": "Inner", "properties": [{"name": "x", "type": "Int"}]}]}"#
        try registry.register(ModelSchema(json: schema))
        let json = #"{"c": 3, "a": 1, "b": "a string longer than fifteen bytes", "inner": {"x": 2}}"#
        let model = try registry.makeModel(named: "Walked", json: Data(json.utf8))
        let b: String = model.jsonModel.dynamic.b  // the walk; b cached
        let inner: JSONModel = model.jsonModel.dynamic.inner
        let c: Int = model.jsonModel.dynamic.c
        #expect(b == "a string longer than fifteen bytes" && c == 3)
        for round in 1...50 {
            let a: Int = model.jsonModel.dynamic.a  // rejected and converted again from the second on
            #expect(a == 1)
            #expect(conversions.withLock { $0 } == round)
            #expect(model.cachedPropertyCount == 4, "round \(round)")
            let again: JSONModel = model.jsonModel.dynamic.inner
            #expect(again === inner, "round \(round)")
            let sameB: String = model.jsonModel.dynamic.b
            #expect(sameB == b)
        }
    }

    /// Each registration that affects a property makes a new choice; only the first few are
    /// published without a lock, so the conversion stays small however many follow.
    @Test func reregisteringAConverterKeepsAFewChoicesAtMost() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"{"models": [{"name": "Dial", "properties": [{"name": "angle", "type": "Int"}]}]}"#))
        let conversion = try #require(registry.schemaMetadata(named: "Dial")?.property(named: "angle")).conversion
        for step in 0..<(PropertyConversion.publishedLimit * 4) {
            registry.register(
                JSONConverters.Closure<Int>(read: { ($0.intValue ?? 0) + step }, write: { .number(JSONNumber($0)) }),
                forProperty: "angle", ofModelNamed: "Dial")
            let dial = try registry.makeModel(named: "Dial", json: ["angle": 1] as JSONValue)
            let angle: Int = dial.jsonModel.dynamic.angle
            #expect(angle == 1 + step)
        }
        #expect(conversion.publishedBoxCount == PropertyConversion.publishedLimit)
        // Still invalidated exactly by registrations past the limit.
        #expect(conversion.lookupCount == PropertyConversion.publishedLimit * 4)
    }

    // MARK: Registries are freed

    @Test func aReleasedRegistryAndItsSchemasAreFreed() throws {
        weak var weakRegistry: ModelRegistry?
        weak var weakCustomer: ModelMetadata?
        do {
            let registry = try Self.orderRegistry()
            let order = try registry.makeModel(named: "Order", json: Orders.orderJSON)
            let name: String = order.jsonModel.dynamic.customer.name
            let total: Int = order.jsonModel.dynamic.total
            #expect(name == "Ann" && total == 1250)
            weakRegistry = registry
            weakCustomer = registry.schemaMetadata(named: "Customer")
        }
        #expect(weakRegistry == nil)
        #expect(weakCustomer == nil)
    }

    /// A model keeps its registry alive, so the schema models its properties name, its
    /// discriminators and the registry's converters keep working after the caller lets go.
    @Test func aModelOutlivesTheRegistryItWasMadeFrom() throws {
        weak var weakRegistry: ModelRegistry?
        weak var weakMetadata: ModelMetadata?
        func makeOrder() throws -> JSONModel {
            let registry = try Self.orderRegistry()
            weakRegistry = registry
            let order = try registry.makeModel(named: "Order", json: Orders.orderJSON)
            weakMetadata = order.metadata
            return order
        }
        var order: JSONModel? = try makeOrder()
        #expect(weakRegistry != nil)
        // A schema model holds its metadata, which its registry would otherwise free with itself.
        #expect(weakMetadata === order!.metadata && order!.holdsMetadata)
        do {
            let referrer: String = order!.jsonModel.dynamic.customer.referrer.name
            let total: Int = order!.jsonModel.dynamic.total
            #expect(referrer == "Bob" && total == 1250)
            let lines = try #require(models(in: order!.jsonModel.value(forProperty: "lines")))
            #expect(lines.map(\.jsonModel.modelName) == ["Line", "Gift"])
            let note: String = lines[1].jsonModel.dynamic.note
            #expect(note == "for you")
            #expect(order!.jsonModel.diagnostics.isEmpty)
        }
        // The nested models read above hold the registry too, and are gone with the order.
        order = nil
        #expect(weakRegistry == nil)
        #expect(weakMetadata == nil)
    }

    /// A compiled class's metadata lives as long as the process: its models do not count
    /// references to it.
    @Test func compiledModelsHoldNoReferenceToTheirMetadata() throws {
        let first = try CollItem(json: #"{"name": "a"}"#)
        let second = try CollItem(json: #"{"name": "b"}"#)
        #expect(!first.holdsMetadata && first.metadata === second.metadata)
        #expect(first.metadata === ModelRegistry.shared.metadata(for: CollItem.self))
    }

    /// A lazy array of schema models makes its elements after the model and the registry are gone.
    @Test func aLazyArrayOutlivesItsModelAndRegistry() throws {
        weak var weakRegistry: ModelRegistry?
        func makeLines() throws -> ModelArray<DynamicModel> {
            let registry = try Self.orderRegistry()
            weakRegistry = registry
            let order = try registry.makeModel(named: "Order", json: Orders.orderJSON)
            return try #require(order.jsonModel.value(forProperty: "lines") as? ModelArray<DynamicModel>)
        }
        var lines: ModelArray<DynamicModel>? = try makeLines()
        #expect(weakRegistry != nil)
        #expect(lines!.map(\.jsonModel.modelName) == ["Line", "Gift"])
        let note: String = lines![1].note
        #expect(note == "for you")
        lines = nil
        #expect(weakRegistry == nil)
    }

    /// Dropped schema registries leave nothing behind in the shared registry's list of
    /// conversions to notify.
    @Test func droppedRegistriesLeaveNoWatchersBehind() throws {
        let schema = try ModelSchema(json: Orders.orderSchema)
        let before = ModelRegistry.shared.converters.watcherCount
        for _ in 0..<2_000 {
            let registry = ModelRegistry()
            registry.register(Orders.centsConverter(), named: "cents")
            try registry.register(schema)
            let order = try registry.makeModel(named: "Order", json: Orders.orderJSON)
            let name: String = order.jsonModel.dynamic.customer.name
            #expect(name == "Ann")
        }
        // Other tests register conversions in the shared registry meanwhile; far fewer than 2,000 × 8.
        #expect(ModelRegistry.shared.converters.watcherCount < before + 2_000)
    }
}
