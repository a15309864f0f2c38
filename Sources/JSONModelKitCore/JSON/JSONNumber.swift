/// A JSON number that keeps its exact text.
///
/// A `JSONNumber` never rounds: `12345678901234567890` and `0.1` survive a
/// parse and write round trip byte for byte, because the number is stored as
/// the text it was written with. Conversions to Swift numbers happen only when
/// you ask for them, and integer conversions succeed only when the value is
/// exactly integral and fits.
///
/// ```swift
/// let n = JSONNumber(text: "1e2")!
/// n.intValue      // 100
/// n.description   // "1e2": the text as written
/// n == JSONNumber(100)   // true: numbers compare by value
/// ```
///
/// Two numbers are equal when they denote the same decimal value, whatever
/// their spelling: `1`, `1.0`, `1e0` and `10e-1` are all equal, `-0` equals
/// `0`, and `9007199254740993` differs from `9007199254740992` even though
/// both round to the same `Double`. Hashing agrees with this equality.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's text, exactly as written, in the RFC 8259 number grammar.
    package let text: String

    /// Creates a number from JSON number text, or returns `nil` if the text is
    /// not a valid RFC 8259 number.
    ///
    /// The grammar is strict: an optional `-`, an integer part without leading
    /// zeros, an optional fraction, and an optional exponent. `+1`, `01`,
    /// `1.`, `.5`, `1e`, `NaN`, `Infinity` and surrounding whitespace are all
    /// rejected.
    ///
    /// ```swift
    /// JSONNumber(text: "-0.5e+3")   // a number
    /// JSONNumber(text: "01")        // nil
    /// ```
    ///
    /// - Parameter text: The number text.
    /// - Complexity: O(*n*), where *n* is the length of `text`.
    public init?(text: String) {
        guard JSONNumber.withBytes(of: text, NumberParsing.isValid) else { return nil }
        self.text = text
    }

    /// Creates a number from text the caller has already validated.
    ///
    /// Used by the parser, which checks the grammar while scanning.
    package init(validatedText text: String) {
        self.text = text
    }

    /// Creates a number with the exact value of an integer.
    ///
    /// ```swift
    /// JSONNumber(UInt64.max).description   // "18446744073709551615"
    /// ```
    ///
    /// - Parameter value: Any integer; its decimal text becomes the number's text.
    public init<T: BinaryInteger>(_ value: T) {
        self.text = String(value)
    }

    /// Creates a number from a `Double`, or returns `nil` for NaN and infinities.
    ///
    /// The text is Swift's shortest round-trip description of the value, which
    /// is valid JSON: `0.1` gives `"0.1"`, `1e16` gives `"1e+16"`, `-0.0` gives
    /// `"-0.0"`.
    ///
    /// - Parameter value: A finite double.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.text = value.description
    }

    /// Creates a number from a `Float`, or returns `nil` for NaN and infinities.
    ///
    /// The text is Swift's shortest round-trip description of the `Float`, so
    /// `Float(0.1)` gives `"0.1"` rather than the longer text of its `Double`
    /// widening.
    ///
    /// - Parameter value: A finite float.
    package init?(_ value: Float) {
        guard value.isFinite else { return nil }
        self.text = value.description
    }

    /// The number's text.
    public var description: String { text }

    /// Whether the text is written as an integer: no fraction and no exponent.
    ///
    /// This is about the spelling, not the value: `"1.0"` and `"1e2"` are not
    /// integers by this test even though their values are integral. Use
    /// ``int64Value`` to ask about the value.
    package var isInteger: Bool {
        for byte in text.utf8 where byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            return false
        }
        return true
    }

    /// The value as an `Int`, if it is exactly integral and in range.
    ///
    /// `"1e2"` and `"100.0"` give `100`; `"2.5"` and `"1e30"` give `nil`.
    public var intValue: Int? {
        int64Value.flatMap { Int(exactly: $0) }
    }

    /// The value as an `Int64`, if it is exactly integral and in range.
    package var int64Value: Int64? {
        JSONNumber.withBytes(of: text, NumberParsing.int64)
    }

    /// The value as a `UInt64`, if it is exactly integral and in range.
    ///
    /// Negative zero (`"-0"`) gives `0`.
    package var uint64Value: UInt64? {
        JSONNumber.withBytes(of: text, NumberParsing.uint64)
    }

    /// The value as the nearest `Double` (correctly rounded).
    ///
    /// Values too large for a `Double` give an infinity of the same sign;
    /// values too small give a zero of the same sign.
    public var doubleValue: Double {
        JSONNumber.withBytes(of: text, NumberParsing.double)
    }

    /// Returns a Boolean value indicating whether two numbers have the same
    /// decimal value.
    ///
    /// - Complexity: O(*n*), where *n* is the length of the longer text.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if lhs.text == rhs.text { return true }
        return lhs.canonicalValue == rhs.canonicalValue
    }

    /// Hashes the number's decimal value, so that equal numbers written
    /// differently hash alike.
    ///
    /// - Complexity: O(*n*), where *n* is the length of the text.
    public func hash(into hasher: inout Hasher) {
        canonicalValue.hash(into: &hasher)
    }

    /// The value in a canonical form: equal values give equal forms.
    var canonicalValue: CanonicalDecimal {
        JSONNumber.withBytes(of: text) { CanonicalDecimal(validNumberText: $0) }
    }

    /// Calls `body` with the UTF-8 bytes of `text`, without copying when the
    /// string is stored contiguously.
    package static func withBytes<R>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = SmallStrings.withASCIIBytes(of: text, body) { return result }
        if let result = text.utf8.withContiguousStorageIfAvailable(body) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }
}

/// A decimal value in a canonical form: sign, significant digits and a
/// decimal exponent, so that the value is `digits × 10^exponent`.
///
/// The digits have no leading and no trailing zeros; zero has no digits, a
/// positive sign and exponent 0 (so `-0` equals `0`). Exponents that do not fit
/// in 18 decimal digits are kept as decimal digit strings, so even absurd
/// exponents such as `1e99999999999999999999` compare exactly.
struct CanonicalDecimal: Hashable {
    /// Whether the value is below zero.
    var isNegative: Bool
    /// The significant digits, as values 0...9.
    var digits: [UInt8]
    /// The decimal exponent when it has at most 18 digits.
    var exponent: Int
    /// The decimal exponent, when it has more than 18 digits: a sign and
    /// digit values, most significant first; `nil` otherwise.
    var largeExponent: LargeInteger?

    /// A signed integer of arbitrary size, as decimal digit values.
    struct LargeInteger: Hashable {
        var isNegative: Bool
        var magnitude: [UInt8]
    }

    /// The largest exponent magnitude kept in `exponent`.
    #if _pointerBitWidth(_64)
    static let smallExponentLimit = 999_999_999_999_999_999
    #else
    static let smallExponentLimit = 999_999_999
    #endif

    /// Computes the canonical form of text that matches the JSON number grammar.
    ///
    /// - Precondition: `text` is valid JSON number text.
    init(validNumberText text: UnsafeBufferPointer<UInt8>) {
        var i = 0
        let n = text.count
        var negative = false
        if i < n, text[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var all: [UInt8] = []
        all.reserveCapacity(n)
        while i < n, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "9") {
            all.append(text[i] &- UInt8(ascii: "0"))
            i += 1
        }
        var fractionLength = 0
        if i < n, text[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "9") {
                all.append(text[i] &- UInt8(ascii: "0"))
                fractionLength += 1
                i += 1
            }
        }
        var exponentNegative = false
        var exponentDigits: ArraySlice<UInt8> = []
        if i < n, text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E") {
            i += 1
            if i < n, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
                exponentNegative = text[i] == UInt8(ascii: "-")
                i += 1
            }
            var raw: [UInt8] = []
            while i < n, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "9") {
                raw.append(text[i] &- UInt8(ascii: "0"))
                i += 1
            }
            let firstNonZero = raw.firstIndex { $0 != 0 } ?? raw.endIndex
            exponentDigits = raw[firstNonZero...]
        }

        // Strip leading zeros (no effect on the exponent) and trailing zeros
        // (each one moves the exponent up by one).
        guard let first = all.firstIndex(where: { $0 != 0 }) else {
            self.isNegative = false
            self.digits = []
            self.exponent = 0
            self.largeExponent = nil
            return
        }
        let last = all.lastIndex { $0 != 0 }!
        let trailingZeros = all.count - 1 - last
        self.isNegative = negative
        self.digits = Array(all[first...last])
        let adjustment = trailingZeros - fractionLength

        if exponentDigits.count <= 18 {
            var value = 0
            for d in exponentDigits { value = value * 10 + Int(d) }
            let total = (exponentNegative ? -value : value) + adjustment
            if total.magnitude <= UInt(CanonicalDecimal.smallExponentLimit) {
                self.exponent = total
                self.largeExponent = nil
            } else {
                self.exponent = 0
                self.largeExponent = LargeInteger(
                    isNegative: total < 0,
                    magnitude: String(total.magnitude).utf8.map { $0 &- UInt8(ascii: "0") })
            }
        } else {
            let sum = LargeInteger.add(
                LargeInteger(isNegative: exponentNegative, magnitude: Array(exponentDigits)), adjustment)
            // The exponent had more than 18 significant digits and the
            // adjustment is bounded by the text length, so the sum cannot
            // shrink below 18 digits unless the text is absurdly long; handle
            // it anyway to keep the form canonical.
            if sum.magnitude.count <= 18 {
                var value = 0
                for d in sum.magnitude { value = value * 10 + Int(d) }
                self.exponent = sum.isNegative ? -value : value
                self.largeExponent = nil
            } else {
                self.exponent = 0
                self.largeExponent = sum
            }
        }
    }
}

extension CanonicalDecimal.LargeInteger {
    /// Adds a machine integer to a large integer.
    static func add(_ large: Self, _ small: Int) -> Self {
        let smallMagnitude = String(small.magnitude).utf8.map { $0 &- UInt8(ascii: "0") }
        let smallNegative = small < 0
        if small == 0 { return large }
        if large.isNegative == smallNegative {
            return Self(isNegative: large.isNegative, magnitude: addMagnitudes(large.magnitude, smallMagnitude))
        }
        if compareMagnitudes(large.magnitude, smallMagnitude) >= 0 {
            let difference = subtractMagnitudes(large.magnitude, smallMagnitude)
            return Self(isNegative: difference.isEmpty ? false : large.isNegative, magnitude: difference)
        } else {
            return Self(isNegative: smallNegative, magnitude: subtractMagnitudes(smallMagnitude, large.magnitude))
        }
    }

    /// Compares two magnitudes without leading zeros: -1, 0 or 1.
    static func compareMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    /// Adds two magnitudes (digit values, most significant first).
    static func addMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(max(a.count, b.count) + 1)
        var i = a.count - 1
        var j = b.count - 1
        var carry: UInt8 = 0
        while i >= 0 || j >= 0 || carry > 0 {
            var sum = carry
            if i >= 0 { sum += a[i]; i -= 1 }
            if j >= 0 { sum += b[j]; j -= 1 }
            result.append(sum % 10)
            carry = sum / 10
        }
        return Array(result.reversed())
    }

    /// Subtracts magnitude `b` from a magnitude `a` that is at least as large;
    /// the result has no leading zeros (empty for zero).
    static func subtractMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(a.count)
        var i = a.count - 1
        var j = b.count - 1
        var borrow: Int = 0
        while i >= 0 {
            var digit = Int(a[i]) - borrow - (j >= 0 ? Int(b[j]) : 0)
            if digit < 0 {
                digit += 10
                borrow = 1
            } else {
                borrow = 0
            }
            result.append(UInt8(digit))
            i -= 1
            j -= 1
        }
        while let last = result.last, last == 0 { result.removeLast() }
        return Array(result.reversed())
    }
}
