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
