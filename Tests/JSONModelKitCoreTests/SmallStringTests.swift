import Testing

@testable import JSONModelKitCore
import JSONModelKitTestSupport

/// Strings of up to 15 bytes are made in the standard library's two words directly
/// (`SmallStrings`): every length, ASCII or not, must give the string the standard library
/// makes from the same bytes, to the bit, and behave as it does; bytes that may not be
/// well-formed UTF-8 are left to the standard library.
@Suite("Small strings")
struct SmallStringTests {
    /// Characters of one to four UTF-8 bytes.
    static let pool: [Character] = ["a", "Z", "0", " ", "~", "é", "ñ", "Ω", "€", "日", "本", "😀", "𝄞"]

    /// A random string of exactly `length` UTF-8 bytes, ASCII only or not.
    static func sample(length: Int, ascii: Bool, _ generator: inout SplitMix64) -> String {
        var text = ""
        while text.utf8.count < length {
            let room = length - text.utf8.count
            let candidates = Self.pool.filter { $0.utf8.count <= room && (!ascii || $0.isASCII) }
            text.append(candidates[Int(generator.next() % UInt64(candidates.count))])
        }
        return text
    }

    /// Checks that `made` is `expected` in bits and in behaviour.
    static func expectSame(_ made: String?, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let made else {
            Issue.record("not made: \(expected.debugDescription)", sourceLocation: sourceLocation)
            return
        }
        // A small string's words are its bytes; a longer one's hold an address of its own.
        if expected.utf8.count <= SmallStrings.capacity {
            #expect(unsafeBitCast(made, to: (UInt64, UInt64).self) == unsafeBitCast(expected, to: (UInt64, UInt64).self),
                "\(expected.debugDescription)", sourceLocation: sourceLocation)
        }
        #expect(made == expected, sourceLocation: sourceLocation)
        #expect(made.hashValue == expected.hashValue, sourceLocation: sourceLocation)
        #expect(made.count == expected.count, sourceLocation: sourceLocation)
        #expect(Array(made.utf8) == Array(expected.utf8), sourceLocation: sourceLocation)
        #expect(Array(made.unicodeScalars) == Array(expected.unicodeScalars), sourceLocation: sourceLocation)
        #expect(made + "!" == expected + "!", sourceLocation: sourceLocation)
        #expect(made.uppercased() == expected.uppercased(), sourceLocation: sourceLocation)
    }

    static func made(_ text: String, validated: Bool) -> String? {
        Array(text.utf8).withUnsafeBufferPointer { SmallStrings.string($0, kinds: SmallStrings.kinds(textIsFixed: validated)) }
    }

    @Test func everyLengthIsTheStandardLibrarysString() {
        var generator = SplitMix64(seed: 0x5EED_0006)
        for length in 0...SmallStrings.capacity {
            for _ in 0..<60 {
                let ascii = Self.sample(length: length, ascii: true, &generator)
                let expected = String(decoding: Array(ascii.utf8), as: UTF8.self)
                Self.expectSame(Self.made(ascii, validated: true), expected)
                // ASCII needs no validation: the bytes checked are the ones copied.
                Self.expectSame(Self.made(ascii, validated: false), expected)
                let other = Self.sample(length: length, ascii: false, &generator)
                Self.expectSame(Self.made(other, validated: true), String(decoding: Array(other.utf8), as: UTF8.self))
            }
        }
    }

    @Test func bytesThatMayBeMalformedAreLeftToTheStandardLibrary() {
        // Not known to be well-formed, with a byte of 0x80 or more: not made here.
        #expect(Self.made("é", validated: false) == nil)
        for bytes: [UInt8] in [[0xFF], [0x41, 0xC3], [0xE2, 0x82], [0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0xF0]] {
            #expect(bytes.withUnsafeBufferPointer { SmallStrings.string($0, kinds: SmallStrings.kinds(textIsFixed: false)) } == nil)
        }
        // Longer than the two words hold: not made here.
        #expect(Self.made(String(repeating: "a", count: 16), validated: true) == nil)
    }

    @Test func documentsReadShortStringsOfEveryLength() throws {
        var generator = SplitMix64(seed: 0x5EED_0007)
        var texts: [String] = []
        for length in 0...17 {
            texts.append(Self.sample(length: length, ascii: true, &generator))
            texts.append(Self.sample(length: length, ascii: false, &generator))
        }
        let json = "[" + texts.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let document = try JSONDocument(bytes: Array(json.utf8))
        for (index, text) in texts.enumerated() {
            let read = try #require(document.root[index]?.stringValue)
            Self.expectSame(read, String(decoding: Array(text.utf8), as: UTF8.self))
        }
        // Keys, and strings that end the input.
        let object = try JSONDocument(bytes: Array(#"{"k":"abc","日本":"x"}"#.utf8))
        #expect(object.root.members.map(\.key) == ["k", "日本"])
        #expect(try JSONDocument(bytes: Array(#""abc""#.utf8)).root.stringValue == "abc")
    }

    /// A number's text is made as strings are: every length, short and long, integer and not,
    /// gives the text as written, the standard library's string of it, and the same value.
    @Test func numbersKeepTheirTextAtEveryLength() throws {
        var generator = SplitMix64(seed: 0x4E55_4D42)
        var texts: [String] = []
        for length in 1...40 {
            for _ in 0..<5 {
                var digits = String((0..<length).map { _ in Character(String(generator.next() % 10)) })
                if digits.count > 1 && digits.first == "0" { digits = "1" + digits.dropFirst() }
                texts.append(digits)
                texts.append("-" + digits)
                if length >= 2 { texts.append(digits.prefix(length / 2) + "." + digits.dropFirst(length / 2)) }
                texts.append(digits + "e-" + String(generator.next() % 30))
            }
        }
        let document = try JSONDocument(bytes: Array(("[" + texts.joined(separator: ",") + "]").utf8))
        for (index, text) in texts.enumerated() {
            let number = try #require(document.root[index]?.numberValue)
            Self.expectSame(number.description, String(decoding: Array(text.utf8), as: UTF8.self))
            #expect(number.doubleValue.bitPattern == Double(text)!.bitPattern, "\(text)")
            #expect(number == JSONNumber(text: text), "\(text)")
        }
    }

    @Test func shortASCIIStringsAreReadFromTheirWords() {
        var generator = SplitMix64(seed: 0x5EED_0007)
        for length in 0...(SmallStrings.capacity + 5) {
            for _ in 0..<20 {
                let ascii = Self.sample(length: length, ascii: true, &generator)
                // Strings the standard library made, whichever way: from bytes, by appending, a substring's copy.
                let made = [
                    String(decoding: Array(ascii.utf8), as: UTF8.self), String(ascii.reversed().reversed()),
                    String(("x" + ascii).dropFirst()),
                ]
                for string in made {
                    let read = SmallStrings.withASCIIBytes(of: string) { Array($0) }
                    #if _endian(little) && _pointerBitWidth(_64)
                    #expect(read == (length <= SmallStrings.capacity ? Array(ascii.utf8) : nil), "\(ascii.debugDescription)")
                    #else
                    #expect(read == nil)
                    #endif
                }
                // Others are left to the standard library.
                let other = Self.sample(length: length, ascii: false, &generator)
                if other.utf8.contains(where: { $0 >= 0x80 }) {
                    #expect(SmallStrings.withASCIIBytes(of: other) { Array($0) } == nil, "\(other.debugDescription)")
                }
            }
        }
        // Number text of every kind, read through the words and through the standard library alike.
        for text in ["0", "-0", "1e2", "0.1", "-12.5E+3", "123456789012345", "1234567890123456", "9007199254740993"] {
            #expect(JSONNumber(text: text)!.doubleValue.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }

    #if _endian(little) && _pointerBitWidth(_64)
    @Test func theLayoutIsKnownHere() throws {
        // Where this fails, every short string is made by the standard library: correct, slower.
        #expect(Self.made("abc", validated: true) != nil)
        #expect(Self.made("日本", validated: true) != nil)
        #expect(try JSONDocument(bytes: Array("[]".utf8)).smallStrings == [.ascii, .nonASCII])
    }
    #endif
}
