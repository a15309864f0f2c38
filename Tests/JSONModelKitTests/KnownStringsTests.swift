import Testing
@testable import JSONModelKit

/// The table that finds a string enum's known values from the bytes of a JSON string.
@Suite("Known strings")
struct KnownStringsTests {
    static func lookUp(_ known: KnownStrings, _ text: String) -> InternedString.Storage? {
        var text = text
        return text.withUTF8 { known.lookUp($0) }
    }

    static func values(_ texts: [String]) -> [InternedString] {
        texts.map { InternedString(storage: InternedString.Storage(text: $0, hash: InternTable.hash($0), isInterned: false)) }
    }

    @Test func findsEveryValueAndNothingElse() {
        // Enough values that places collide and lookups probe past them.
        let texts = (0..<300).map { "value_\($0)" } + ["", "é", "a"]
        let values = Self.values(texts)
        let known = KnownStrings(values)
        for (text, value) in zip(texts, values) {
            #expect(Self.lookUp(known, text) === value.storage, "\(text)")
        }
        for missing in ["value_300", "value_", "b", "valu", " a", "a "] {
            #expect(Self.lookUp(known, missing) == nil, "\(missing)")
        }
        #expect(!known.isEmpty)
    }

    /// 4,096 strings whose FNV-1a hashes agree in their low 17 bits: twelve pairs of
    /// three-letter blocks, each pair taking the hash's low bits to the same place, combined.
    static func lowBitCollisions() -> [String] {
        let mask: UInt64 = (1 << 17) - 1
        var state: UInt64 = 0xcbf2_9ce4_8422_2325
        var blocks: [([UInt8], [UInt8])] = []
        func step(_ hash: UInt64, _ bytes: [UInt8]) -> UInt64 {
            bytes.reduce(hash) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
        }
        for _ in 0..<12 {
            var seen: [UInt64: [UInt8]] = [:]
            search: for a in UInt8(ascii: "a")...UInt8(ascii: "z") {
                for b in UInt8(ascii: "a")...UInt8(ascii: "z") {
                    for c in UInt8(ascii: "a")...UInt8(ascii: "z") {
                        let hash = step(state, [a, b, c])
                        if let other = seen[hash & mask] {
                            blocks.append((other, [a, b, c]))
                            state = hash
                            break search
                        }
                        seen[hash & mask] = [a, b, c]
                    }
                }
            }
        }
        return (0..<(1 << blocks.count)).map { index in
            String(decoding: blocks.indices.flatMap { index >> $0 & 1 == 0 ? blocks[$0].0 : blocks[$0].1 }, as: UTF8.self)
        }
    }

    @Test func valuesMadeToShareTheHashsLowBitsSpreadOverThePlaces() {
        let texts = Self.lowBitCollisions()
        #expect(texts.count == 4_096)
        let hashes = Set(texts.map { InternTable.hash($0) & ((1 << 17) - 1) })
        #expect(hashes.count < 40)  // what the values were made for
        let known = KnownStrings(Self.values(texts))
        // Spread, the longest run of a table half full stays short; on the low bits it was all of them.
        #expect(known.longestRun < 64, "\(known.longestRun)")
        for text in texts.prefix(100) { #expect(Self.lookUp(known, text)?.text == text) }
    }

    @Test func theFirstOfTwoEqualValuesIsFound() {
        let values = Self.values(["x", "y", "x"])
        let known = KnownStrings(values)
        #expect(Self.lookUp(known, "x") === values[0].storage)
        #expect(Self.lookUp(known, "y") === values[1].storage)
    }

    @Test func anEmptySetFindsNothing() {
        let known = KnownStrings([])
        #expect(known.isEmpty)
        #expect(Self.lookUp(known, "") == nil)
        #expect(Self.lookUp(known, "x") == nil)
    }
}
