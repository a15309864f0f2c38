import Testing

@testable import JSONModelKitCore
import JSONModelKitTestSupport

/// `NumberParsing.exactInteger` reads eight digits at a time while eight remain, then one at a
/// time: every length from 1 to 21 digits, with either sign, must read as the standard library
/// reads the same text, and a byte that is not a digit anywhere in a run of eight must be
/// refused there.
@Suite("Integer parsing")
struct IntegerParsingTests {
    static func parsed(_ text: String) -> (negative: Bool, magnitude: UInt64)? {
        JSONNumber.withBytes(of: text, NumberParsing.exactInteger)
    }

    @Test func everyLengthReadsAsTheStandardLibraryReadsIt() {
        var generator = SplitMix64(seed: 0x5EED_0004)
        for length in 1...21 {
            for _ in 0..<200 {
                var digits = (0..<length).map { _ in Character(String(generator.next() % 10)) }
                if length > 1 && digits[0] == "0" { digits[0] = "7" }
                let text = String(digits)
                let expected = UInt64(text)
                let read = Self.parsed(text)
                #expect(read?.magnitude == expected && read?.negative != true, "\(text)")
                let negative = Self.parsed("-" + text)
                #expect(negative?.magnitude == expected && (expected == nil || negative?.negative == true), "-\(text)")
            }
        }
        #expect(Self.parsed("18446744073709551615")?.magnitude == UInt64.max)
        #expect(Self.parsed("18446744073709551616") == nil)
        #expect(Self.parsed("99999999999999999999") == nil)
    }

    @Test func aNonDigitInARunOfEightIsRefused() {
        // Each of the bytes around the digits ('/' and ':'), and the bytes of an exponent, in
        // every place of the first run of eight and of the second.
        for bad in ["/", ":", "a", " ", "\u{7F}"] {
            for place in 0..<16 {
                var digits = Array("1234567890123456")
                digits[place] = Character(bad)
                #expect(Self.parsed(String(digits)) == nil, "\(String(digits))")
            }
        }
        // Exponents and fractions still take the general path after a run of eight.
        #expect(Self.parsed("12345678.0")?.magnitude == 12_345_678)
        #expect(Self.parsed("12345678e2")?.magnitude == 1_234_567_800)
        #expect(Self.parsed("1234567812345678.5") == nil)
    }

    @Test func eightDigitsCombineInOrder() {
        for text in ["00000000", "00000001", "10000000", "12345678", "87654321", "99999999", "09090909"] {
            let value = Array(text.utf8).withUnsafeBytes { NumberParsing.eightDigits($0.baseAddress!) }
            #expect(value == UInt64(text), "\(text)")
        }
    }
}
