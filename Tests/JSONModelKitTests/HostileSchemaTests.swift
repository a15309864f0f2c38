import Foundation
import Testing
@testable import JSONModelKit

/// What schemas, converters and registrations may not do to the host: keep registries alive
/// forever, or grow with every registration or read. The memory figures are measured in child
/// processes (`HostileSchemaMemoryTests.swift`); these tests check the mechanisms.
@Suite("Hostile schemas", .timeLimit(.minutes(2)))
struct HostileSchemaTests {
    // MARK: Converters

    /// A converter that rejects every cached value: each read converts again, the rejected
    /// entries are freed (their memory is measured in `HostileSchemaMemoryTests`).
    @Test func aRejectedCachedValueIsConvertedAgainOnEachRead() throws {
        let registry = ModelRegistry()
        let conversions = Locked(0)
        registry.register(
            JSONConverters.Closure<Int>(
                read: { json in
                    conversions.withLock { $0 += 1 }
                    return json.intValue
                },
                write: { .number(JSONNumber($0)) }, isStillValid: { _ in false }),
            forProperty: "level", ofModelNamed: "Meter")
        try registry.register(ModelSchema(string: #"{"models": [{"name": "Meter", "properties": [{"name": "level", "type": "Int"}]}]}"#))
        let meter = try registry.makeModel(named: "Meter", json: ["level": 4])
        weak var firstEntry: CacheEntry?
        do {
            let level: Int = meter.dynamic.level
            #expect(level == 4)
            firstEntry = meter.entry(at: 0, revalidate: false)
        }
        #expect(firstEntry != nil)
        for _ in 0..<100 {
            let level: Int = meter.dynamic.level
            #expect(level == 4)
        }
        #expect(conversions.withLock { $0 } == 101)
        #expect(firstEntry == nil)  // freed, not kept until the model is
        #expect(meter.cachedPropertyCount == 1)
    }
}
