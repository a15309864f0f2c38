import Foundation
import Testing
@testable import JSONModelKitCore
import JSONModelKitTestSupport

/// The integer nearest to a number's text, from its decimal digits: exact at any size, where a
/// `Double` holds integers exactly only up to 2^53.
@Suite("Nearest integer of number text")
struct NearestIntegerTests {
    static func nearest(_ text: String) -> (negative: Bool, magnitude: UInt64, exact: Bool)? {
        var text = text
        return text.withUTF8 { NumberParsing.nearestInteger($0) }
    }

    @Test func casesADoubleGetsWrong() {
        // Through a Double: …994, 1, and 9223372036854775807.0 out of range.
        #expect(Self.nearest("9007199254740993.4")! == (false, 9_007_199_254_740_993, false))
        #expect(Self.nearest("0.49999999999999999")! == (false, 0, false))
        #expect(Self.nearest("9223372036854775807.0")! == (false, 9_223_372_036_854_775_807, true))
        #expect(Self.nearest("18446744073709551615.4")! == (false, .max, false))
        #expect(Self.nearest("18446744073709551615.5") == nil)
        #expect(Self.nearest("-9223372036854775808.0")! == (true, 1 << 63, true))
    }

    @Test func halvesRoundAwayFromZeroAndTinyValuesToZero() {
        #expect(Self.nearest("2.5")! == (false, 3, false))
        #expect(Self.nearest("-2.5")! == (true, 3, false))
        #expect(Self.nearest("2.4999")! == (false, 2, false))
        #expect(Self.nearest("0.5")! == (false, 1, false))
        #expect(Self.nearest("1e-400")! == (false, 0, false))
        #expect(Self.nearest("-0.4")! == (true, 0, false))
        #expect(Self.nearest("5e-1")! == (false, 1, false))
        #expect(Self.nearest("0.05e1")! == (false, 1, false))
        #expect(Self.nearest("12345e-2")! == (false, 123, false))
        #expect(Self.nearest("1e18")! == (false, 1_000_000_000_000_000_000, true))
        #expect(Self.nearest("1.5e19")! == (false, 15_000_000_000_000_000_000, true))
        #expect(Self.nearest("1e20") == nil)
        #expect(Self.nearest("1e400") == nil)
        #expect(Self.nearest("0e400")! == (false, 0, true))
        #expect(Self.nearest("123.000")! == (false, 123, true))
    }

    /// Random texts against Foundation's `Decimal`, rounded half away from zero (`.plain`).
    @Test func agreesWithDecimal() throws {
        var random = SplitMix64(seed: 53)
        func digits(_ count: Int, leading: Bool) -> String {
            String((0..<count).map { index in
                Character(String(index == 0 && !leading ? Int(random.next() % 9) + 1 : Int(random.next() % 10)))
            })
        }
        var checked = 0
        for _ in 0..<20_000 {
            let negative = random.next() % 2 == 0
            let integer = random.next() % 5 == 0 ? "0" : digits(Int(random.next() % 20) + 1, leading: false)
            let fraction = random.next() % 3 == 0 ? "" : "." + digits(Int(random.next() % 14) + 1, leading: true)
            let exponent = random.next() % 3 == 0 ? "" : "e" + String(Int(random.next() % 41) - 20)
            let text = (negative ? "-" : "") + integer + fraction + exponent
            var value = try #require(Decimal(string: text))
            var rounded = Decimal()
            NSDecimalRound(&rounded, &value, 0, .plain)
            let magnitude = UInt64((rounded.magnitude as NSDecimalNumber).stringValue)
            let result = Self.nearest(text)
            if let magnitude {
                #expect(result?.magnitude == magnitude, "\(text)")
                #expect(result?.exact == (rounded == value), "\(text)")
                #expect(result?.negative == negative, "\(text)")
                checked += 1
            } else {
                #expect(result == nil, "\(text): \(String(describing: result))")
            }
        }
        #expect(checked > 10_000)
    }
}
