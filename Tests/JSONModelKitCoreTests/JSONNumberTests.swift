import Testing
@testable import JSONModelKitCore

@Suite("JSONNumber")
struct JSONNumberTests {
    @Test(arguments: [
        "0", "-0", "1", "-1", "1.5", "-1.5", "0.0", "1e5", "1E5", "1e+5", "1E-5", "0e0", "-0.0e-0",
        "123456789012345678901234567890", "1.7976931348623157e308", "5e-324", "10e-1",
    ])
    func validText(_ text: String) throws {
        let number = try #require(JSONNumber(text: text))
        #expect(number.text == text)
        #expect(number.description == text)
    }

    @Test(arguments: [
        "", "-", "+1", "01", "-01", "00", "1.", ".5", "1e", "1e+", "1E-", "NaN", "Infinity", "-Infinity",
        " 1", "1 ", "0x10", "--1", "1.2.3", "1e5.5", "１", "1,5", "e5", "1_000", "\u{0}1",
    ])
    func invalidText(_ text: String) {
        #expect(JSONNumber(text: text) == nil)
    }

    @Test func integerConversions() throws {
        func number(_ text: String) throws -> JSONNumber { try #require(JSONNumber(text: text)) }
        #expect(try number("1e2").intValue == 100)
        #expect(try number("100.0").intValue == 100)
        #expect(try number("1.5e1").intValue == 15)
        #expect(try number("0.0001e4").intValue == 1)
        #expect(try number("2.5").intValue == nil)
        #expect(try number("1e-1").intValue == nil)
        #expect(try number("1e30").intValue == nil)
        #expect(try number("-0").intValue == 0)
        #expect(try number("-9223372036854775808").int64Value == Int64.min)
        #expect(try number("9223372036854775807").int64Value == Int64.max)
        #expect(try number("9223372036854775808").int64Value == nil)
        #expect(try number("9223372036854775808").uint64Value == 9_223_372_036_854_775_808)
        #expect(try number("18446744073709551615").uint64Value == UInt64.max)
        #expect(try number("18446744073709551616").uint64Value == nil)
        #expect(try number("1e19").uint64Value == 10_000_000_000_000_000_000)
        #expect(try number("-1").uint64Value == nil)
        #expect(try number("-0").uint64Value == 0)
        #expect(try number("-0.0").uint64Value == 0)
    }

    @Test func doubleConversion() throws {
        #expect(JSONNumber(text: "0.1")?.doubleValue == 0.1)
        #expect(JSONNumber(text: "-2.5e-3")?.doubleValue == -0.0025)
        #expect(JSONNumber(text: "9007199254740993")?.doubleValue == 9_007_199_254_740_992)
        #expect(JSONNumber(text: "1e400")?.doubleValue == .infinity)
        #expect(JSONNumber(text: "-1e400")?.doubleValue == -.infinity)
    }

    @Test func isIntegerLooksAtSpelling() {
        #expect(JSONNumber(text: "1")?.isInteger == true)
        #expect(JSONNumber(text: "-5")?.isInteger == true)
        #expect(JSONNumber(text: "1.0")?.isInteger == false)
        #expect(JSONNumber(text: "1e2")?.isInteger == false)
        #expect(JSONNumber(text: "1E2")?.isInteger == false)
    }

    @Test func fromSwiftNumbers() throws {
        #expect(JSONNumber(UInt64.max).text == "18446744073709551615")
        #expect(JSONNumber(Int8(-5)).text == "-5")
        #expect(JSONNumber(Int64.min).text == "-9223372036854775808")
        #expect(JSONNumber(0.1)?.text == "0.1")
        #expect(JSONNumber(-0.0)?.text == "-0.0")
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(Double.infinity) == nil)
        #expect(JSONNumber(-Double.infinity) == nil)
        #expect(JSONNumber(Float(0.1))?.text == "0.1")
        #expect(JSONNumber(Float.nan) == nil)
        // Every Double description must be valid JSON number text.
        for value in [1e16, 1e-5, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, -123.456, 1.0, 100.0, 2e+300] {
            let number = try #require(JSONNumber(value))
            #expect(JSONNumber(text: number.text) != nil, "\(number.text)")
            #expect(number.doubleValue == value)
        }
    }

    @Test(arguments: [
        ["1", "1.0", "1e0", "10e-1", "0.1e1", "100e-2", "1.000", "0.001e3", "1E+0"],
        ["0", "-0", "0.0", "0e10", "-0.0e-5", "0.000"],
        ["-12.5", "-125e-1", "-0.125e2", "-1250E-2"],
        ["123000", "123e3", "1.23e5", "0.00123e8"],
        ["1e99999999999999999999", "10e99999999999999999998", "0.1e100000000000000000000"],
        ["1e1000000000000000000", "10e999999999999999999", "100e999999999999999998"],
        ["1e-99999999999999999999", "0.1e-99999999999999999998", "10e-100000000000000000000"],
    ])
    func equalByValue(_ spellings: [String]) throws {
        let numbers = try spellings.map { try #require(JSONNumber(text: $0)) }
        for a in numbers {
            for b in numbers {
                #expect(a == b, "\(a) == \(b)")
                #expect(a.hashValue == b.hashValue, "hash \(a) and \(b)")
            }
        }
        #expect(Set(numbers).count == 1)
    }

    @Test(arguments: [
        ("9007199254740993", "9007199254740992"),
        ("1.5", "15"),
        ("-1", "1"),
        ("0.1", "0.10000000000000001"),
        ("1e99999999999999999999", "1e99999999999999999998"),
        ("1e1000000000000000000", "1e999999999999999999"),
        ("-1e-5", "1e-5"),
        ("12345678901234567890", "12345678901234567891"),
        ("1", "0"),
    ])
    func differentValues(_ a: String, _ b: String) throws {
        let x = try #require(JSONNumber(text: a))
        let y = try #require(JSONNumber(text: b))
        #expect(x != y)
        #expect(Set([x, y]).count == 2)
    }

    @Test func canonicalForm() throws {
        let value = try #require(JSONNumber(text: "-1200.0500e3"))
        let canonical = value.canonicalValue
        #expect(canonical.isNegative)
        #expect(canonical.digits == [1, 2, 0, 0, 0, 5])
        #expect(canonical.exponent == 1)
        let zero = try #require(JSONNumber(text: "-0.000e-7")).canonicalValue
        #expect(!zero.isNegative && zero.digits.isEmpty && zero.exponent == 0)
    }
}
