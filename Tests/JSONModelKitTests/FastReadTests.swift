import Testing
@testable import JSONModelKit

/// A model with names on both sides of the 15-byte limit of a small `String`.
final class NameLengths: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.short(Int.self)
        p.fifteenBytesLng(Int.self)  // exactly 15 UTF-8 bytes: still a small string
        p.sixteenBytesLong(Int.self)  // 16 bytes: stored out of line, found by hashing its bytes
        p.add("naïveCafé", Int.self)  // non-ASCII, 11 bytes
        p.label(String?.self)
    }
}

/// The read path's first step (the raw-bits name table and lock-free slots) must agree with the
/// general path in every case it does not handle itself.
@Suite("Fast cached reads")
struct FastReadTests {
    let json = #"{"short": 1, "fifteenBytesLng": 2, "sixteenBytesLong": 3, "naïveCafé": 4, "label": "x"}"#

    @Test func literalNamesOfEveryLengthReadTheSameTwice() throws {
        let model = try NameLengths(json: json)
        for _ in 0..<2 {
            let short: Int = model.short
            let fifteen: Int = model.fifteenBytesLng
            let sixteen: Int = model.sixteenBytesLong
            let label: String? = model.label
            #expect([short, fifteen, sixteen] == [1, 2, 3])
            #expect(label == "x")
            #expect(model.value(forProperty: "naïveCafé") as? Int == 4)
        }
        #expect(model.cachedPropertyCount == 5)
    }

    @Test func namesBuiltAtRunTimeFindTheSameProperties() throws {
        let model = try NameLengths(json: json)
        let first: Int = model.short  // caches through the literal
        let built = String(["s", "h", "o", "r", "t"])
        let long = String(repeating: "sixteenBytesLong", count: 1)
        #expect(model.value(forProperty: built) as? Int == first)
        #expect(model.value(forProperty: long) as? Int == 3)
        #expect(model.value(forProperty: "shor") == nil)
        #expect(model.value(forProperty: "shortt") == nil)
        #expect(model.value(forProperty: "") == nil)
    }

    @Test func rawBitsFindOnlyExactNames() {
        let metadata = NameLengths.modelMetadata
        for (ordinal, property) in metadata.properties.enumerated() {
            #expect(metadata.ordinal(of: property.name) == ordinal)
            #expect(metadata.ordinal(of: String(property.name.reversed())) == nil)
        }
        let table = metadata.rawNames
        #expect(table.ordinal(of: "short") == 0)
        #expect(table.ordinal(of: "fifteenBytesLng") == 1)
        #expect(table.ordinal(of: "Short") == nil)
        #expect(table.ordinal(of: "label") == 4)
    }

    @Test func aTypeOtherThanTheStoredOneTakesTheGeneralPath() throws {
        let model = try NameLengths(json: json)
        let plain: Int = model.short
        let optional: Int? = model.short  // cached as Int, read as Int?
        let unset: String? = model.label
        #expect(plain == 1)
        #expect(optional == 1)
        #expect(unset == "x")
    }

    @Test func mutableModelsNeverUseTheirMetadataEmptySlots() throws {
        let model = try NameLengths(json: json, mutable: true)
        let before: Int = model.short
        model.short = 10
        let after: Int = model.short
        #expect(before == 1)
        #expect(after == 10)
        // The empty slots the fast read consults for mutable models stay empty.
        #expect(NameLengths.modelMetadata.emptySlots.filledCount == 0)
        let frozen = model.copy()
        let copied: Int = frozen.short
        #expect(copied == 10)
    }
}
