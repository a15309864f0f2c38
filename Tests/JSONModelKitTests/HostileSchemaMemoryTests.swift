import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// Memory that converters, registrations and registries could make grow without bound: a cached
/// value whose converter keeps rejecting it, a converter registered again and again, registries
/// made and dropped. Each stays flat.
///
/// Resident memory is process-wide and other tests run in parallel, so each workload runs alone
/// in a child process: this test binary started again with a filter that selects only
/// ``childRunsOneWorkload()`` and an environment variable naming the workload. The child warms the
/// workload up, notes its resident memory (`/proc/self/statm`), runs the workload, notes it again
/// and reports both. Linux only; elsewhere these tests are skipped, saying why.
@Suite("Hostile schemas: memory", .serialized, .timeLimit(.minutes(10)))
struct HostileSchemaMemoryTests {
    enum Workload: String, CaseIterable, Sendable {
        /// An immutable model read a million times through a converter whose `isStillValid`
        /// always answers no (it grew 110 MB when every rejected cache entry was kept).
        case rejectedCachedValues
        /// A converter registered 200,000 times for one property, which a new model reads after
        /// each registration (it grew 75 MB when every published choice was kept).
        case reregisteredConverter
        /// 10,000 registries, each registering a schema and reading a model, then released
        /// (it grew 183 MB when each registry was kept alive by its schema's conversions).
        case releasedRegistries
    }

    /// How many times each workload repeats its step, and how much its resident memory may grow.
    static func size(_ workload: Workload) -> (steps: Int, warmUp: Int, limit: Int) {
        switch workload {
        case .rejectedCachedValues: return (1_000_000, 20_000, 8_000_000)
        case .reregisteredConverter: return (200_000, 5_000, 8_000_000)
        case .releasedRegistries: return (10_000, 500, 8_000_000)
        }
    }

    @Test(ChildTestProcess.available, arguments: Workload.allCases)
    func residentMemoryStaysFlat(_ workload: Workload) throws {
        guard let report = try RuntimeMemoryChild.measure(workload) else { return }
        let (steps, _, limit) = Self.size(workload)
        print("hostile schemas: memory, \(workload.rawValue): \(report.summary(steps: steps))")
        #expect(report.passed, "the child's checks failed: \(report.summary(steps: steps))")
        #expect(report.growth <= limit, "\(workload.rawValue): \(report.summary(steps: steps))")
    }

    /// Runs one workload when started as a child by ``RuntimeMemoryChild/measure(_:)``; skipped otherwise.
    @Test(ChildTestProcess.child())
    func childRunsOneWorkload() throws {
        guard let workload = ChildTestProcess.requestedWorkload.flatMap(Workload.init(rawValue:)) else { return }
        let (steps, warmUp, _) = Self.size(workload)
        var passed = try Self.run(workload, steps: warmUp)
        let before = ProcessMemory.resident()
        let start = ContinuousClock.now
        passed = try Self.run(workload, steps: steps) && passed
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        let after = ProcessMemory.resident()
        try ChildTestProcess.write(["before": before, "after": after, "seconds": seconds, "passed": passed])
    }

    // MARK: - Workloads

    /// A level read through a converter that rejects every cached value.
    final class Gauge: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.level(Int.self)
        }
    }

    /// A hue read through whatever converter was registered last.
    final class Swatch: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.hue(Int.self)
        }
    }

    static let orderSchema = #"""
        {"models": [
          {"name": "Order", "properties": [
            {"name": "id", "type": "Int"}, {"name": "total", "type": "Int", "converter": "cents"},
            {"name": "customer", "type": "Customer"}, {"name": "lines", "type": "[Line]"}]},
          {"name": "Customer", "properties": [{"name": "name", "type": "String"}, {"name": "referrer", "type": "Customer?"}]},
          {"name": "Line", "discriminator": {"jsonPath": "kind", "map": {"gift": "Gift"}},
           "properties": [{"name": "kind", "type": "String"}, {"name": "sku", "type": "String"}]},
          {"name": "Gift", "extends": "Line", "properties": [{"name": "note", "type": "String"}]}]}
        """#

    static let orderJSON: JSONValue = [
        "id": 7, "total": "12.50", "customer": ["name": "Ann", "referrer": ["name": "Bob"]],
        "lines": [["kind": "item", "sku": "A1"], ["kind": "gift", "sku": "G2", "note": "for you"]],
    ]

    /// Converts `"12.50"` to 1250.
    static func centsConverter() -> JSONConverters.Closure<Int> {
        .init(
            read: { json in json.stringValue.flatMap(Double.init).map { Int(($0 * 100).rounded()) } },
            write: { cents in .string(String(format: "%.2f", Double(cents) / 100)) })
    }

    /// Runs `steps` steps of `workload`; returns whether every check held.
    static func run(_ workload: Workload, steps: Int) throws -> Bool {
        switch workload {
        case .rejectedCachedValues:
            ModelRegistry.shared.register(
                JSONConverters.Closure<Int>(read: { $0.intValue }, write: { .number(JSONNumber($0)) }, isStillValid: { _ in false }),
                forProperty: "level", of: Gauge.self)
            let gauge = try Gauge(json: #"{"level": 7}"#)
            var sum = 0
            for _ in 0..<steps {
                let level: Int = gauge.level
                sum &+= level
            }
            return sum == 7 * steps && gauge.jsonModel.diagnostics.isEmpty
        case .reregisteredConverter:
            let document = try JSONDocument(string: #"{"hue": 3}"#)
            var ok = true
            for step in 0..<steps {
                ModelRegistry.shared.register(
                    JSONConverters.Closure<Int>(read: { ($0.intValue ?? 0) + step }, write: { .number(JSONNumber($0)) }),
                    forProperty: "hue", of: Swatch.self)
                let swatch = try Swatch(json: document.root)
                let hue: Int = swatch.hue
                ok = ok && hue == 3 + step
            }
            return ok
        case .releasedRegistries:
            let schema = try ModelSchema(json: orderSchema)
            var ok = true
            weak var last: ModelRegistry?
            for _ in 0..<steps {
                let registry = ModelRegistry()
                registry.register(centsConverter(), named: "cents")
                try registry.register(schema)
                let order = try registry.makeModel(named: "Order", json: orderJSON)
                let total: Int = order.jsonModel.dynamic.total
                let referrer: String = order.jsonModel.dynamic.customer.referrer.name
                let lines = models(in: order.jsonModel.value(forProperty: "lines")) ?? []
                ok = ok && total == 1250 && referrer == "Bob" && lines.map(\.jsonModel.modelName) == ["Line", "Gift"]
                last = registry
            }
            return ok && last == nil
        }
    }
}

/// Starts this test binary again to run one ``HostileSchemaMemoryTests/Workload`` alone, and reads its report.
enum RuntimeMemoryChild {
    struct Report {
        var before: Int
        var after: Int
        var seconds: Double
        var passed: Bool

        var growth: Int { after - before }

        func summary(steps: Int) -> String {
            let megabytes = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1e6) }
            return "resident \(megabytes(before)) after the warm-up, \(megabytes(after)) after \(steps) steps "
                + "(growth \(megabytes(growth))), \(String(format: "%.1f", seconds)) s"
        }
    }

    /// Runs `workload` in a child process; nil (with a recorded issue) when the child failed.
    static func measure(_ workload: HostileSchemaMemoryTests.Workload) throws -> Report? {
        guard
            let report = try ChildTestProcess.run(
                filter: #"JSONModelKitTests\.HostileSchemaMemoryTests/childRunsOneWorkload"#, workload: workload.rawValue,
                label: "the \(workload.rawValue) child"),
            let before = report.number("before"), let after = report.number("after"),
            let seconds = report.number("seconds", as: Double.self)
        else { return nil }
        return Report(before: before, after: after, seconds: seconds, passed: report.passed)
    }
}
