import Foundation
import Testing
@testable import JSONModelKit

/// Registration while other threads read, on 8 threads; run under
/// `swift test --sanitize=thread --filter Stress`.
@Suite("Schema loading and plugin stress")
struct SchemaLoadingStressTests {
    final class Probe: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.n(Int.self)
            p.amount(Double.self, converter: "stressCents")
        }
    }

    static let base = #"{"models": [{"name": "Base", "properties": [{"name": "n", "type": "Int"}, {"name": "amount", "type": "Double?", "converter": "stressCents"}]}]}"#

    /// Folders that each add two models using and extending `Base`.
    static func folders(_ count: Int) throws -> [SchemaFolder] {
        try (0..<count).map { round in
            try SchemaFolder([
                "use.json": #"{"models": [{"name": "Use\#(round)", "properties": [{"name": "base", "type": "Base"}, {"name": "list", "type": "[Base]"}]}]}"#,
                "sub/kind.json": #"{"models": [{"name": "Kind\#(round)", "extends": "Base", "properties": [{"name": "k", "type": "String"}]}]}"#,
            ])
        }
    }

    @Test func loadingSchemasAndRegisteringWhileReading() throws {
        let registry = ModelRegistry()
        let baseFolder = try SchemaFolder(["base.json": Self.base])
        let rounds = 30
        let folders = try Self.folders(rounds)
        defer { (folders + [baseFolder]).forEach { $0.remove() } }
        try registry.loadSchemas(at: baseFolder.url)
        let model = try registry.makeModel(named: "Base", json: ["n": 7, "amount": 250] as JSONValue)
        let cents = JSONConverters.Closure<Double>(
            read: { json in json.intValue.map { Double($0) / 100 } }, write: { .number(JSONNumber(Int($0 * 100))) })
        StressTests.hammer(rounds: rounds) { thread, round in
            switch thread {
            case 0:
                // New models from files, each using and extending Base.
                #expect(throws: Never.self) { try registry.loadSchemas(at: folders[round].url) }
            case 1:
                // The identical base again (allowed, changes nothing), and registrations of other kinds.
                #expect(throws: Never.self) { try registry.loadSchemas(at: baseFolder.url) }
                registry.register(cents, named: "stressCents")
                #expect(throws: Never.self) { try registry.register(Probe.self, name: "Probe\(round)") }
            default:
                let n: Int = model.jsonModel.dynamic.n
                #expect(n == 7)
                _ = model.jsonModel.value(forProperty: "amount")  // the converter may or may not be registered yet
                let latest = (0..<rounds).reversed().first { registry.schemaMetadata(named: "Kind\($0)") != nil }
                if let latest {
                    let kind = try? registry.makeModel(named: "Kind\(latest)", json: ["n": .number(JSONNumber(thread)), "k": "x", "amount": 100] as JSONValue)
                    let k: String? = kind?.jsonModel.dynamic.k
                    #expect(k == "x")
                    #expect(kind?.jsonModel.jsonValue(forProperty: "n") == .number(JSONNumber(thread)))
                }
                if round > 0, let use = try? registry.makeModel(named: "Use\(round - 1)", json: ["base": ["n": 3], "list": [["n": 1]]] as JSONValue) {
                    #expect(use.jsonModel.jsonValue(forProperty: "base") == ["n": 3])
                }
                _ = registry.modelType(named: "Probe\(round)")
            }
        }
        #expect((0..<rounds).allSatisfy { registry.schemaMetadata(named: "Use\($0)") != nil && registry.schemaMetadata(named: "Kind\($0)") != nil })
        // A model made now reads through the converter (the first one may have cached its read before).
        let amount: Double? = try registry.makeModel(named: "Base", json: ["n": 7, "amount": 250] as JSONValue).jsonModel.dynamic.amount
        #expect(amount == 2.5)
    }

    @Test func eightThreadsLoadTheSameFolder() throws {
        let registry = ModelRegistry()
        let folder = try SchemaFolder(["base.json": Self.base, "more.json": #"{"models": [{"name": "More", "extends": "Base"}]}"#])
        defer { folder.remove() }
        let failures = Locked(0)
        StressTests.hammer(rounds: 10) { _, _ in
            do {
                try registry.loadSchemas(at: folder.url)
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let more = try registry.makeModel(named: "More", json: ["n": 1] as JSONValue)
        let n: Int = more.jsonModel.dynamic.n
        #expect(n == 1)
    }

    @Test(.enabled(if: PluginBuilder.available))
    func loadingAPluginWhileReadingItsModels() throws {
        let plugins = try PluginBuilder.plugins.get()
        let registry = ModelRegistry()
        let loads = Locked<Set<[String]>>([])
        StressTests.hammer(rounds: 20) { thread, round in
            if thread < 4 {
                // Every thread loads; one entry call, one answer.
                if let plugin = try? registry.loadPlugin(at: plugins.example) {
                    loads.withLock { _ = $0.insert(plugin) }
                }
            } else if let truck = try? registry.makeModel(named: "Vehicle", json: ["kind": "truck", "payload_kg": .number(JSONNumber(round))] as JSONValue) {
                #expect(truck.jsonModel.modelName == "Truck")
                let payload: Double = truck.jsonModel.dynamic.payload
                #expect(payload == Double(round))
                if let fleet = try? registry.makeModel(named: "Fleet", json: ["budget": 100, "vehicles": [["kind": "car"]]] as JSONValue) {
                    let budget: Double = fleet.jsonModel.dynamic.budget
                    #expect(budget == 1)
                }
            }
        }
        #expect(loads.withLock { $0.count } == 1)
        #expect(registry.plugins.entryCalls == 1)
    }
}
