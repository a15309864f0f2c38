import Testing

@testable import JSONModelKitCore
import JSONModelKitTestSupport

/// `NumberParsing.double` rounds every JSON number to the nearest `Double`, ties to even, as the
/// standard library's `Double(String)` (the C library's `strtod`) does: edge cases, points
/// exactly halfway between two doubles and just beside them, long significands, extreme
/// exponents, and seeded random text.
@Suite("Double parsing")
struct DoubleParsingTests {
    /// The value `NumberParsing.double` reads from `text`.
    static func parsed(_ text: String) -> Double {
        JSONNumber.withBytes(of: text, NumberParsing.double)
    }

    /// Expects `text` to read as the standard library reads it, bit for bit (the sign of zero too).
    static func expectStandardRounding(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let expected = Double(text) else {
            Issue.record("the standard library does not read \(text)", sourceLocation: sourceLocation)
            return
        }
        let actual = parsed(text)
        #expect(actual.bitPattern == expected.bitPattern, "\(text): \(actual), expected \(expected)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        "0", "-0", "0.0", "-0.0", "0e999999999999999999", "-0e-5", "1", "-1", "0.1", "0.3", "1.5", "-2.5e-3",
        // Around 2^53, where integers stop being exact and ties appear.
        "9007199254740991", "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995",
        "9007199254740993.0000000000000000001", "9007199254740992.9999999999999999999", "18014398509481985",
        "18014398509481987", "9007199254740993e0", "900719925474099.3e1", "4503599627370497.5",
        // Known hard cases.
        "1e23", "8.98846567431158e307", "2.2250738585072011e-308", "2.2250738585072012e-308",
        "2.2250738585072014e-308", "2.225073858507201136057409796709131975934819546351645648e-308",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "89255.0e-22",
        "7.2057594037927933e16", "9.5e-323", "123456789012345678901234567890", "3.14159265358979323846264338327950288",
        // Subnormals, the smallest of them, and the points where reading stops at zero.
        "4.9406564584124654e-324", "5e-324", "4.9e-324", "2.4703282292062328e-324", "2.4703282292062327e-324",
        "2.47032822920623272e-324", "3e-324", "7.4e-324", "1e-320", "2.225073858507201e-308", "1e-342", "1e-343",
        // Out of range on both sides.
        "1e308", "1e309", "1e400", "-1e400", "1e-400", "-1e-400", "1e-99999", "1e99999",
        "0.00000000000000000000000000000000000000000000000001", "100000000000000000000000000000000000000000000000000",
        // The canada.json kind: 17 significant digits.
        "-65.613616999999977", "43.420273000000009", "-141.00187677954715", "60.306144999999987",
    ])
    func edgeCase(_ text: String) {
        Self.expectStandardRounding(text)
    }

    @Test func integersAroundTwoToThe53() {
        for offset in -40...40 {
            let integer = (1 << 53) + offset
            Self.expectStandardRounding("\(integer)")
            Self.expectStandardRounding("\(integer).5")
            Self.expectStandardRounding("-\(integer)e0")
            Self.expectStandardRounding("\(integer)0e-1")
            Self.expectStandardRounding("\(integer * 4)")
        }
    }

    @Test func longSignificands() {
        for count in [19, 20, 21, 25, 40, 100, 800] {
            let nines = String(repeating: "9", count: count)
            let ones = String(repeating: "1", count: count)
            let zerosThenOne = "1" + String(repeating: "0", count: count - 2) + "1"
            for text in [nines, ones, zerosThenOne, "0." + nines, "0." + ones, "1." + zerosThenOne, ones + "e-300", nines + "e-330"] {
                Self.expectStandardRounding(text)
            }
        }
    }

    @Test func extremeExponents() {
        for exponent in stride(from: -420, through: 420, by: 7) {
            for significand in ["1", "9", "4.9406564584124654", "2.4703282292062327", "1.7976931348623157", "17976931348623157"] {
                Self.expectStandardRounding("\(significand)e\(exponent)")
                Self.expectStandardRounding("-\(significand)E\(exponent < 0 ? "-" : "+")\(exponent.magnitude)")
            }
        }
    }

    /// The point exactly halfway between each of many pairs of neighbouring doubles, written out
    /// in full, reads as the even one of the pair; a point a little above reads as the larger,
    /// and one a little below as the smaller.
    @Test func halfwayPointsRoundToEven() {
        var generator = SplitMix64(seed: 0x5EED_0001)
        var doubles: [Double] = [
            .leastNonzeroMagnitude, .leastNormalMagnitude, Double.leastNormalMagnitude.nextDown, 1, 9_007_199_254_740_992,
            Double.greatestFiniteMagnitude.nextDown, 1e23, 0.1,
        ]
        for _ in 0..<300 {
            let double = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
            if double.isFinite { doubles.append(double) }
            // Subnormals too, which random bits hardly reach.
            doubles.append(Double(bitPattern: generator.next() & 0x000F_FFFF_FFFF_FFFF))
        }
        for lower in doubles where lower.isFinite && lower.nextUp.isFinite {
            let upper = lower.nextUp
            let halfway = ExactDecimal.halfway(above: lower)
            let even = lower.significandBitPattern & 1 == 0 ? lower : upper
            #expect(Self.parsed(halfway.text) == even, "halfway above \(lower): \(halfway.text)")
            #expect(Self.parsed(halfway.slightlyAbove) == upper, "just above halfway above \(lower)")
            #expect(Self.parsed(halfway.slightlyBelow) == lower, "just below halfway above \(lower)")
            Self.expectStandardRounding(halfway.text)
        }
    }

    /// Seeded random number text: `digits` digits without a leading zero, the point anywhere
    /// among them, an exponent from `exponents` on even rounds, a minus sign every third round.
    static func randomNumberText(
        round: Int, digits: ClosedRange<Int>, exponents: ClosedRange<Int>, using generator: inout SplitMix64
    ) -> String {
        let digitCount = Int.random(in: digits, using: &generator)
        var significand = String(UnicodeScalar(UInt8.random(in: 49...57, using: &generator)))
        for _ in 1..<digitCount {
            significand.unicodeScalars.append(UnicodeScalar(UInt8.random(in: 48...57, using: &generator)))
        }
        let point = Int.random(in: 0...digitCount, using: &generator)
        var text =
            point == digitCount
            ? significand
            : point == 0 ? "0." + significand : "\(significand.prefix(point)).\(significand.dropFirst(point))"
        if round % 2 == 0 { text += "e\(Int.random(in: exponents, using: &generator))" }
        if round % 3 == 0 { text = "-" + text }
        return text
    }

    @Test func seededRandomTextAgreesWithStandardLibrary() {
        var generator = SplitMix64(seed: 0x5EED_0002)
        for round in 0..<60_000 {
            let text = Self.randomNumberText(round: round, digits: 1...24, exponents: -345...330, using: &generator)
            Self.expectStandardRounding(text)

            // The shortest text of a random double, and its 17-digit form.
            let double = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
            let shortest = "\(double)".split(separator: "+").joined()  // 1e+16 as 1e16
            #expect(Self.parsed(shortest) == double, "\(shortest)")
        }
    }

    /// `NumberParsing.float` decides only what one rounding decides, and then as `Float(String)`
    /// does, bit for bit; it leaves the rest (long significands, large powers) undecided.
    @Test func floatsDecidedByOneRoundingAgreeWithStandardLibrary() {
        var generator = SplitMix64(seed: 0x5EED_0005)
        var decided = 0
        for round in 0..<40_000 {
            let text = Self.randomNumberText(round: round, digits: 1...10, exponents: -14...14, using: &generator)
            guard let read = JSONNumber.withBytes(of: text, NumberParsing.float) else { continue }
            decided += 1
            #expect(read.bitPattern == Float(text)!.bitPattern, "\(text): \(read), expected \(Float(text)!)")
        }
        #expect(decided > 10_000)
        for (text, expected) in [("0", Float(0)), ("-0", -Float(0)), ("0.0e3", 0), ("12.5", 12.5), ("-3.75e2", -375)] {
            #expect(JSONNumber.withBytes(of: text, NumberParsing.float)?.bitPattern == expected.bitPattern, "\(text)")
        }
        // Beyond one rounding: left to `Float(String)`.
        for text in ["16777217", "1e11", "1e-11", "3.4028236e38", "1.00000000000000000001"] {
            #expect(JSONNumber.withBytes(of: text, NumberParsing.float) == nil, "\(text)")
        }
    }

    /// Where the Eisel-Lemire step decides, it decides as the standard library rounds; it leaves
    /// only a handful of random inputs to the slow path.
    @Test func eiselLemireAgreesWhenItDecides() {
        var generator = SplitMix64(seed: 0x5EED_0003)
        var undecided = 0
        let rounds = 60_000
        for _ in 0..<rounds {
            let significand = generator.next() >> UInt64.random(in: 0...63, using: &generator)
            guard significand != 0 else { continue }
            let exponent = Int.random(in: -350...315, using: &generator)
            let expected = Double("\(significand)e\(exponent)")!
            guard let bits = NumberParsing.nearestDoubleBits(significand: significand, exponent: exponent) else {
                undecided += 1
                continue
            }
            #expect(bits == expected.bitPattern, "\(significand)e\(exponent)")
        }
        #expect(undecided < rounds / 1000)
    }

    @Test func powersOfFive() throws {
        let table = PowersOfFive.table
        #expect(table.count == PowersOfFive.largestExponent - PowersOfFive.smallestExponent + 1)
        func power(_ q: Int) -> PowerOfFive { table[q - PowersOfFive.smallestExponent] }
        // 5^0 = 2^127 × 2^(0 - 127); 5 = 0b101 × 2^125 × 2^(2 - 127); 0.2 = 0xCCCC…CCCC × 2^(-3 - 127), truncated.
        #expect(power(0).high == 1 << 63 && power(0).low == 0 && power(0).binaryExponent == 0 && power(0).isExact)
        #expect(power(1).high == 0b101 << 61 && power(1).binaryExponent == 2)
        #expect(power(-1).high == 0xCCCC_CCCC_CCCC_CCCC && power(-1).low == 0xCCCC_CCCC_CCCC_CCCC)
        #expect(power(-1).binaryExponent == -3 && !power(-1).isExact)
        #expect(power(55).isExact && !power(56).isExact)
        for entry in table { #expect(entry.high >> 63 == 1) }
    }

    /// The tables of Clinger's fast path, written out as literals, are the products of tens
    /// they stand for, each exact.
    @Test func exactPowersOfTenAreProductsOfTens() {
        #expect(NumberParsing.exactPowersOfTen.count == 23)
        var double = 1.0
        var integer: UInt64 = 1
        for (power, value) in NumberParsing.exactPowersOfTen.enumerated() {
            #expect(value == double, "10^\(power)")
            // Exact: the double holds 10^power itself (checked as an integer where one fits).
            if power <= 19 { #expect(UInt64(exactly: value) == integer, "10^\(power)") }
            double *= 10
            if power < 19 { integer *= 10 }
        }
        #expect(NumberParsing.exactFloatPowersOfTen.count == 11)
        var float: Float = 1
        for (power, value) in NumberParsing.exactFloatPowersOfTen.enumerated() {
            #expect(value == float && Double(value) == NumberParsing.exactPowersOfTen[power], "10^\(power) as a Float")
            float *= 10
        }
    }
}

/// The exact decimal text of binary fractions, for the halfway points between doubles.
enum ExactDecimal {
    /// The point halfway between `lower` (finite, positive) and the next double, exactly, and
    /// texts a tiny bit above and below it.
    static func halfway(above lower: Double) -> (text: String, slightlyAbove: String, slightlyBelow: String) {
        // lower = m × 2^e, so the halfway point is (2m + 1) × 2^(e - 1).
        let biased = Int(lower.exponentBitPattern)
        let significand = biased == 0 ? lower.significandBitPattern : lower.significandBitPattern | 1 << 52
        let exponent = (biased == 0 ? 1 : biased) - 1075 - 1
        var number: [UInt32] = [UInt32(truncatingIfNeeded: 2 * significand + 1), UInt32((2 * significand + 1) >> 32)]
        let decimalExponent: Int
        if exponent >= 0 {
            for _ in 0..<exponent { multiply(&number, by: 2) }
            decimalExponent = 0
        } else {
            // (2m + 1) × 2^-k = (2m + 1) × 5^k × 10^-k.
            for _ in 0..<(-exponent) { multiply(&number, by: 5) }
            decimalExponent = exponent
        }
        let digits = decimalDigits(of: number)
        return (
            "\(digits)e\(decimalExponent)", "\(digits)000001e\(decimalExponent - 6)",
            "\(decremented(digits))999999e\(decimalExponent - 6)"
        )
    }

    /// Multiplies a number held as 32-bit words, least significant first, by a small factor.
    private static func multiply(_ number: inout [UInt32], by factor: UInt64) {
        var carry: UInt64 = 0
        for index in number.indices {
            let product = UInt64(number[index]) * factor + carry
            number[index] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry != 0 { number.append(UInt32(carry)) }
    }

    /// The decimal digits of a number held as 32-bit words, least significant first.
    private static func decimalDigits(of number: [UInt32]) -> String {
        var number = number
        var groups: [UInt64] = []  // base 10^9, least significant first
        while number.contains(where: { $0 != 0 }) {
            var remainder: UInt64 = 0
            for index in number.indices.reversed() {
                let value = remainder << 32 | UInt64(number[index])
                number[index] = UInt32(value / 1_000_000_000)
                remainder = value % 1_000_000_000
            }
            groups.append(remainder)
        }
        guard let last = groups.popLast() else { return "0" }
        return "\(last)" + groups.reversed().map { group in
            let text = "\(group)"
            return String(repeating: "0", count: 9 - text.count) + text
        }.joined()
    }

    /// Decimal digits minus one (of a number above zero); a leading zero stays, which the
    /// exponent form reads the same.
    private static func decremented(_ digits: String) -> String {
        var bytes = Array(digits.utf8)
        var index = bytes.count - 1
        while bytes[index] == UInt8(ascii: "0") {
            bytes[index] = UInt8(ascii: "9")
            index -= 1
        }
        bytes[index] -= 1
        if bytes.count > 1 && bytes[0] == UInt8(ascii: "0") { bytes.removeFirst() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
