import Foundation
import Testing
import JSONModelKitTestSupport
@_spi(GeneratedAccessors) @testable import JSONModelKit

/// A string enum of the interned kind.
struct ReadStatus: JSONStringEnum {
    let value: InternedString
    init(_ value: InternedString) { self.value = value }
    static let open: ReadStatus = "open"
    static let closed: ReadStatus = "closed"
    static let knownValues: [ReadStatus] = [.open, .closed]
}

enum ReadShape: String, Sendable { case circle, square }
enum ReadLevel: Int, Sendable { case low = 1, high = 2 }

/// One property of each kind whose converter reads its member on the first read
/// (ConvertedFirstRead.swift), and the built-in types with a first read of their own.
final class ConvertedReads: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.status(ReadStatus.self, default: .open)
        p.maybeStatus(ReadStatus?.self)
        p.shape(ReadShape?.self)
        p.level(ReadLevel?.self)
        p.day(Date?.self, dateFormat: .pattern("yyyy-MM-dd"))
        p.stamp(Date.self, default: Date(timeIntervalSince1970: 0), dateFormat: .iso8601)
        p.color(String.self, enumValues: ["red", "green"])
        p.link(URL?.self)
        p.id(UUID?.self)
        p.key(UUID.self, default: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)))
        p.links([URL].self)
        p.ids([UUID]?.self)
        p.ratio(Float?.self)
    }
}

/// A model of its own for a converter registration, which no other test sees.
final class ShapeHolder: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.shape(ReadShape?.self)
    }
}

/// The values and diagnostics of every property of `ConvertedReads`, read one way.
private struct Reading: Equatable {
    var status: ReadStatus
    var maybeStatus: ReadStatus?
    var shape: ReadShape?
    var level: ReadLevel?
    var day: Date?
    var stamp: Date
    var color: String
    var link: URL?
    var id: UUID?
    var key: UUID
    var links: [URL]
    var ids: [UUID]?
    var ratio: Float?
    var diagnostics: [String]

    init(_ model: ConvertedReads) {
        status = model.status
        maybeStatus = model.maybeStatus
        shape = model.shape
        level = model.level
        day = model.day
        stamp = model.stamp
        color = model.color
        link = model.link
        id = model.id
        key = model.key
        links = model.links
        ids = model.ids
        ratio = model.ratio
        diagnostics = model.jsonModel.diagnostics.map(\.description).sorted()
    }
}

/// A first read that skips the conversion context must give what the general path gives, value
/// and diagnostics, for every JSON: plain values it takes, and everything it leaves to the
/// general path. A mutable model has no slots and always takes the general path, so it is the
/// reference.
@Suite("Converted first reads")
struct ConvertedFirstReadTests {
    static let documents: [String] = [
        // Plain values, each read by its converter's first read.
        #"{"status": "closed", "maybeStatus": "open", "shape": "square", "level": 2, "day": "2024-02-29", "#
            + #""stamp": "2024-05-06T07:08:09Z", "color": "green", "link": "https://example.com/a?b=c", "#
            + #""id": "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "key": "6BA7B810-9DAD-11D1-80B4-00C04FD430C8", "#
            + #""links": ["https://a.example", "https://b.example/c"], "ids": ["6ba7b810-9dad-11d1-80b4-00c04fd430c8"], "ratio": 0.1}"#,
        // Missing keys and nulls.
        "{}",
        #"{"status": null, "maybeStatus": null, "shape": null, "level": null, "day": null, "stamp": null, "#
            + #""color": null, "link": null, "id": null, "key": null, "links": null, "ids": null, "ratio": null}"#,
        // Values the converters take with a diagnostic, or not at all.
        #"{"status": "pending", "maybeStatus": "", "shape": "triangle", "level": 3, "day": "29/02/2024", "#
            + #""stamp": "yesterday", "color": "blue", "link": "", "id": "not-a-uuid", "key": "6ba7b810", "#
            + #""links": ["https://a.example", "", 3], "ids": ["6ba7b810-9dad-11d1-80b4-00c04fd430c8", "x"], "ratio": 1e39}"#,
        // Other kinds.
        #"{"status": 1, "maybeStatus": true, "shape": 2, "level": "2", "day": 20240229, "stamp": 1700000000, "#
            + #""color": ["red"], "link": {}, "id": 7, "key": [1], "links": "https://a.example", "ids": {}, "ratio": "0.5"}"#,
        // Escaped strings, which the first reads leave to the general path.
        #"{"status": "clos\u0065d", "shape": "squ\u0061re", "day": "2024-02-2\u0039", "#
            + #""stamp": "2024-05-06T07:08:09\u005A", "color": "gr\u0065en", "link": "https://example.com/\u00e9", "#
            + #""id": "6ba7b810-9dad-11d1-80b4-00c04fd430c\u0038"}"#,
        // Near misses: a UUID with braces or a bad digit, a level written as a decimal, a raw
        // value in another case.
        #"{"id": "{6ba7b810-9dad-11d1-80b4-00c04fd430c8}", "key": "6ba7b810-9dad-11d1-80b4-00c04fd430cg", "#
            + #""level": 2.0, "shape": "Square", "status": "CLOSED", "#
            + #""ratio": 1.00000001e-12}"#,
    ]

    @Test(arguments: documents)
    func theFirstReadGivesWhatTheGeneralPathGives(_ json: String) throws {
        let general = Reading(try ConvertedReads(json: json, options: .mutable))
        let first = Reading(try ConvertedReads(json: json))
        #expect(first == general)
        // And again, from the cache.
        let model = try ConvertedReads(json: json)
        _ = Reading(model)
        #expect(Reading(model) == general)
    }

    @Test func plainValuesAreKeptInTheSlots() throws {
        let metadata = ConvertedReads.modelMetadata
        // Every property has a first read; all but the 17-byte `UUID?` keep their value inline.
        #expect(metadata.properties.allSatisfy { $0.hasFirstRead })
        let inline = metadata.properties.map { metadata.inlineLayouts[$0.ordinal] != nil }
        #expect(inline == [true, true, true, true, true, true, true, true, false, true, true, true, true])
        let model = try ConvertedReads(json: Self.documents[0])
        let reading = Reading(model)
        #expect(reading.status == .closed && reading.maybeStatus == .open)
        #expect(reading.shape == .square && reading.level == .high)
        #expect(reading.color == "green")
        #expect(reading.id == UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8"))
        #expect(reading.key == reading.id)
        #expect(reading.diagnostics.isEmpty)
        #expect(model.state.isMade == false)  // nothing recorded, no locked state made
        // Read by the first reads: the values are in the slots, not in entries.
        let slots = try #require(model.slots)
        for property in metadata.properties where metadata.inlineLayouts[property.ordinal] != nil {
            guard case .inline = slots.content(at: property.ordinal, lock: model.state) else {
                Issue.record("\(property.name) is not inline")
                continue
            }
        }
        // An interned value is the one shared instance.
        #expect(reading.status.value.isInterned)
    }

    /// A converter registered for a type after models read it replaces the type's own: the
    /// first read follows the converter the lookup chose, not the one it chose before.
    @Test func aRegisteredConverterReplacesTheTypesFirstRead() throws {
        let before = try ShapeHolder(json: #"{"shape": "circle"}"#)
        let circle: ReadShape? = before.shape
        #expect(circle == .circle)
        ModelRegistry.shared.register(
            .closure(read: { @Sendable _ in ReadShape.square }, write: { @Sendable in .string($0.rawValue) }), for: ReadShape.self, in: ShapeHolder.self)
        let after = try ShapeHolder(json: #"{"shape": "circle"}"#)
        let shape: ReadShape? = after.shape
        #expect(shape == .square)
        let earlier: ReadShape? = before.shape
        #expect(earlier == .circle)  // cached before the registration
    }

    @Test func uuidTextReadsOnlyTheCanonicalForm() {
        func read(_ text: String) -> UUID? {
            var text = text
            return text.withUTF8(UUIDText.uuid(fromUTF8:))
        }
        let canonical = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        #expect(read(canonical) == UUID(uuidString: canonical))
        #expect(read(canonical.lowercased()) == UUID(uuidString: canonical))
        for bad in ["", "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF",
                    "E621E1F8-C36C-495A-93FC_0C247A3E6E5F", "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8--36C-495A-93FC-0C247A3E6E5F"]
        {
            #expect(read(bad) == nil, "\(bad)")
        }
        // Random UUIDs in either case and mixed, and each with one byte changed to a byte that
        // borders a range of digits (or is a dash, a space or not ASCII). The canonical form reads
        // as Foundation reads it; anything else is nil here, and the general path's
        // `UUID(uuidString:)` decides (on Linux it accepts some other spellings).
        func isCanonical(_ bytes: [UInt8]) -> Bool {
            bytes.count == 36 && bytes.indices.allSatisfy { index in
                [8, 13, 18, 23].contains(index) ? bytes[index] == UInt8(ascii: "-") : (bytes[index] >= 0x30 && bytes[index] <= 0x39)
                    || (bytes[index] | 0x20 >= 0x61 && bytes[index] | 0x20 <= 0x66)
            }
        }
        var generator = SplitMix64(seed: 37)
        let strays: [UInt8] = [0x2F, 0x3A, 0x40, 0x47, 0x60, 0x67, 0x2D, 0x20, 0x80, 0xC3, 0x00, 0x41, 0x66, 0x30]
        for round in 0..<300 {
            let uuid = UUID(uuid: (
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator)))
            var bytes = Array(uuid.uuidString.utf8)
            if round % 3 == 1 { bytes = Array(uuid.uuidString.lowercased().utf8) }
            if round % 3 == 2 { bytes = bytes.map { Bool.random(using: &generator) ? $0 | 0x20 : $0 } }
            #expect(bytes.withUnsafeBufferPointer(UUIDText.uuid(fromUTF8:)) == uuid, "\(uuid)")
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = strays[round % strays.count]
            let expected = isCanonical(bytes) ? String(bytes: bytes, encoding: .utf8).flatMap(UUID.init(uuidString:)) : nil
            #expect(isCanonical(bytes) == (expected != nil))
            #expect(bytes.withUnsafeBufferPointer(UUIDText.uuid(fromUTF8:)) == expected, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
    }
}
