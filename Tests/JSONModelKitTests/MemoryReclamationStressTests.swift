import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// The memory the engine frees while other threads may be using it: cache entries a converter
/// rejects, converter choices replaced by registrations, registries dropped while their models
/// are read, plugins loaded with no lock held. Run under `swift test --sanitize=thread --filter
/// Stress` to prove the absence of data races and of uses after free.
@Suite("Memory reclamation stress", .timeLimit(.minutes(10)))
struct MemoryReclamationStressTests {
    static let meterSchema = #"""
        {"models": [{"name": "Meter", "properties": [
          {"name": "level", "type": "Int"}, {"name": "flaky", "type": "Int"}, {"name": "label", "type": "String"}]}]}
        """#

    /// Three properties on eight threads: one whose cached value is always rejected, one
    /// rejected at random, one plain; descriptions read the cache on the side.
    @Test func rejectedCachedValuesReadFromEightThreads() throws {
        let registry = ModelRegistry()
        registry.register(
            JSONConverters.Closure<Int>(read: { $0.intValue }, write: { .number(JSONNumber($0)) }, isStillValid: { _ in false }),
            forProperty: "level", ofModelNamed: "Meter")
        let coin = SharedWord(0x9E37_79B9_7F4A_7C15)
        registry.register(
            JSONConverters.Closure<Int>(
                read: { $0.intValue.map { $0 * 2 } }, write: { .number(JSONNumber($0 / 2)) },
                isStillValid: { _ in
                    let next = UInt64(coin.add(0x9E37_79B9_7F4A_7C15))
                    return (next >> 61) & 1 == 0
                }),
            forProperty: "flaky", ofModelNamed: "Meter")
        try registry.register(ModelSchema(json: Self.meterSchema))
        let meter = try registry.makeModel(named: "Meter", json: ["level": 4, "flaky": 5, "label": "gauge"] as JSONValue)
        let wrong = SharedWord()
        StressTests.hammer(rounds: 2_000) { thread, round in
            switch (thread + round) % 4 {
            case 0, 1:
                let level: Int = meter.jsonModel.dynamic.level
                if level != 4 { wrong.add(1) }
            case 2:
                let flaky: Int = meter.jsonModel.dynamic.flaky
                let label: String = meter.jsonModel.dynamic.label
                if flaky != 10 || label != "gauge" { wrong.add(1) }
            default:
                if !"\(meter)".contains("level: 4") { wrong.add(1) }
            }
        }
        #expect(wrong.count == 0)
        #expect(meter.jsonModel.diagnostics.isEmpty)
    }

    /// One thread registers converter after converter for a property (well past the number of
    /// choices published without a lock) while the others make models and read it.
    @Test func reregisteringAConverterWhileReading() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: Self.meterSchema))
        let document = try JSONDocument(string: #"{"level": 3, "flaky": 1, "label": "x"}"#)
        let wrong = SharedWord()
        StressTests.hammer(rounds: 300) { thread, round in
            if thread == 0 {
                registry.register(
                    JSONConverters.Closure<Int>(
                        read: { ($0.intValue ?? 0) + 1000 * round }, write: { .number(JSONNumber($0 % 1000)) }),
                    forProperty: "level", ofModelNamed: "Meter")
                return
            }
            guard let meter = try? registry.makeModel(named: "Meter", json: document.root.value) else {
                wrong.add(1)
                return
            }
            let level: Int = meter.jsonModel.dynamic.level
            if level % 1000 != 3 { wrong.add(1) }
        }
        #expect(wrong.count == 0)
        let conversion = try #require(registry.schemaMetadata(named: "Meter")?.property(named: "level")).conversion
        #expect(conversion.publishedBoxCount <= PropertyConversion.publishedLimit)
    }

    /// Registries made and dropped on every thread, and a dropped registry whose model is still
    /// read everywhere: the model keeps it.
    @Test func registriesDroppedWhileTheirModelsAreRead() throws {
        let schema = try ModelSchema(json: HostileSchemaMemoryTests.orderSchema)
        weak var weakRegistry: ModelRegistry?
        var order: JSONModel? = try {
            let registry = try HostileRuntimeTests.orderRegistry()
            weakRegistry = registry
            return try registry.makeModel(named: "Order", json: HostileSchemaMemoryTests.orderJSON)
        }()
        let wrong = Self.readWhileRegistriesComeAndGo(order!, schema: schema)
        #expect(wrong == 0)
        #expect(weakRegistry != nil)
        order = nil
        // The threads' closures hold the model until each Thread object is gone, which may be
        // a moment after the last round.
        let deadline = ContinuousClock.now + .seconds(10)
        while weakRegistry != nil && ContinuousClock.now < deadline { usleep(1_000) }
        #expect(weakRegistry == nil)
    }

    /// Reads `shared` on eight threads that also make and drop registries; returns how many reads went wrong.
    static func readWhileRegistriesComeAndGo(_ shared: JSONModel, schema: ModelSchema) -> Int {
        let wrong = SharedWord()
        StressTests.hammer(rounds: 60) { thread, round in
            let referrer: String = shared.jsonModel.dynamic.customer.referrer.name
            if referrer != "Bob" { wrong.add(1) }
            if (thread + round) % 3 == 0 {
                let registry = ModelRegistry()
                registry.register(HostileSchemaMemoryTests.centsConverter(), named: "cents")
                guard (try? registry.register(schema)) != nil,
                    let own = try? registry.makeModel(named: "Order", json: HostileSchemaMemoryTests.orderJSON)
                else {
                    wrong.add(1)
                    return
                }
                let total: Int = own.jsonModel.dynamic.total
                if total != 1250 { wrong.add(1) }
            }
        }
        return wrong.count
    }

    /// Eight threads load two plugins that register the same names into one registry: no lock
    /// is held while their code runs, yet exactly one of them is registered, all or nothing.
    @Test(.enabled(if: PluginBuilder.available))
    func twoPluginsWithTheSameNamesLoadedFromEightThreads() throws {
        let plugins = try PluginBuilder.plugins.get()
        let registry = ModelRegistry()
        let outcomes = Locked<[(library: Int, loaded: Bool)]>([])
        StressTests.hammer(rounds: 1) { thread, _ in
            let library = thread % 2
            let loaded = (try? registry.loadPlugin(at: library == 0 ? plugins.example : plugins.exampleCopy)) != nil
            outcomes.withLock { $0.append((library, loaded)) }
        }
        let all = outcomes.withLock { $0 }
        let winners = Set(all.filter(\.loaded).map(\.library))
        #expect(winners.count == 1, "\(all)")
        #expect(all.allSatisfy { $0.loaded == winners.contains($0.library) }, "\(all)")
        let module = winners.first == 0 ? "ExampleModelsPlugin" : "ExampleModelsPluginCopy"
        for name in ["Vehicle", "Car", "Truck"] {
            let type = try #require(registry.modelType(named: name))
            #expect(String(reflecting: type) == "\(module).\(name)")
        }
        #expect(registry.plugins.loaded.count == 1)
    }
}
