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

    /// Each registration that affects a property makes a new choice; only the first few are
    /// published without a lock, so the conversion stays small however many follow.
    @Test func reregisteringAConverterKeepsAFewChoicesAtMost() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(string: #"{"models": [{"name": "Dial", "properties": [{"name": "angle", "type": "Int"}]}]}"#))
        let conversion = try #require(registry.schemaMetadata(named: "Dial")?.property(named: "angle")).conversion
        for step in 0..<(PropertyConversion.publishedLimit * 4) {
            registry.register(
                JSONConverters.Closure<Int>(read: { ($0.intValue ?? 0) + step }, write: { .number(JSONNumber($0)) }),
                forProperty: "angle", ofModelNamed: "Dial")
            let dial = try registry.makeModel(named: "Dial", json: ["angle": 1])
            let angle: Int = dial.dynamic.angle
            #expect(angle == 1 + step)
        }
        #expect(conversion.publishedBoxCount == PropertyConversion.publishedLimit)
        // Still invalidated exactly by registrations past the limit.
        #expect(conversion.lookupCount == PropertyConversion.publishedLimit * 4)
    }
}
