import Testing
@testable import JSONModelKitCore

/// A tape entry's tag is read by reinterpreting its raw value as a `Tag`, which holds only while
/// each case is stored as its raw value; every entry must give back the tag it was made with.
@Suite("Tape entries")
struct TapeEntryTests {
    static var scalarTags: [TapeEntry.Tag] { [.null, .false, .true, .integer, .decimal, .string, .escapedString] }

    @Test func eachTagIsStoredAsItsRawValue() {
        for tag in Self.scalarTags + [.array, .object] {
            #expect(unsafeBitCast(tag, to: UInt8.self) == tag.rawValue, "\(tag)")
            #expect(TapeEntry.Tag(rawValue: tag.rawValue) == tag)
        }
        #expect(TapeEntry.Tag(rawValue: 9) == nil)
    }

    @Test(arguments: [(0, 0), (1, 2), (TapeEntry.maxField, Int(UInt32.max))])
    func entriesGiveBackTheirTags(high: Int, low: Int) {
        for tag in Self.scalarTags {
            #expect(TapeEntry(tag, high: high, low: low).tag == tag)
        }
        #expect(TapeEntry(container: false, count: high, end: low).tag == .array)
        #expect(TapeEntry(container: true, count: high, end: low).tag == .object)
    }

    @Test func packedMembersGiveTheirValuesTag() throws {
        let key = TapeEntry(.string, high: 3, low: 10)
        for tag in Self.scalarTags where tag != .escapedString {
            let member = try #require(TapeEntry.packedMember(key: key, value: TapeEntry(tag, high: 2, low: 17)), "\(tag)")
            #expect(member.tag == tag)
            #expect(member.packedKey.tag == .string)
        }
    }
}
