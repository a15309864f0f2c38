import Testing

@testable import JSONModelKitCore
import JSONModelKitTestSupport

/// `NumberParsing.exactInteger` reads eight digits at a time while eight remain, then one at a
/// time: every length from 1 to 21 digits, with either sign, must read as the standard library
/// reads the same text, and a byte that is not a digit anywhere in a run of eight must be
/// refused there. A number the scanner tagged an integer is read by
/// `NumberParsing.scannedInteger`, which checks no byte: the same lengths, read from a document,
/// must give the same values.
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

    @Test func scannedIntegersOfEveryLengthReadAsTheStandardLibraryReadsThem() throws {
        var generator = SplitMix64(seed: 0x5EED_0005)
        var texts = ["0", "-0", "9999999999999999999", "-9999999999999999999", "10000000000000000000",
            "18446744073709551615", "-18446744073709551615", "18446744073709551616", "123456789012345678901"]
        for length in 1...21 {
            for _ in 0..<40 {
                var digits = (0..<length).map { _ in Character(String(generator.next() % 10)) }
                if length > 1 && digits[0] == "0" { digits[0] = "4" }
                texts.append(String(digits))
                texts.append("-" + String(digits))
            }
        }
        let document = try JSONDocument(bytes: Array("[\(texts.joined(separator: ","))]".utf8))
        var index = 1
        for text in texts {
            let entry = document.entry(index)
            #expect(entry.tag == .integer, "\(text)")
            let read = document.exactInteger(of: entry)
            let digits = text.hasPrefix("-") ? String(text.dropFirst()) : text
            let expected = UInt64(digits)
            #expect(read?.magnitude == expected, "\(text)")
            #expect(expected == nil || read?.negative == text.hasPrefix("-"), "\(text)")
            // The general reading of the same text agrees.
            let general = JSONNumber.withBytes(of: text, NumberParsing.exactInteger)
            #expect(general?.magnitude == read?.magnitude && general?.negative == read?.negative, "\(text)")
            index += 1
        }
        // Numbers with a fraction or an exponent are tagged decimals and read on the general path.
        let decimals = try JSONDocument(bytes: Array("[1.0,12345678e2,1.5,-2E1]".utf8))
        #expect(decimals.exactInteger(of: decimals.entry(1))?.magnitude == 1)
        #expect(decimals.exactInteger(of: decimals.entry(2))?.magnitude == 1_234_567_800)
        #expect(decimals.exactInteger(of: decimals.entry(3)) == nil)
        #expect(decimals.exactInteger(of: decimals.entry(4)).map { ($0.negative, $0.magnitude) } ?? (false, 0) == (true, 20))
        // Other kinds have none.
        let others = try JSONDocument(bytes: Array(#"["12",true,null]"#.utf8))
        for index in 1...3 {
            #expect(others.exactInteger(of: others.entry(index)) == nil)
        }
    }
}
