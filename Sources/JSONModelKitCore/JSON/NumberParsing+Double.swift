// The nearest Double to a JSON number's text, from its bytes and without allocating.
//
// The text is read as `w × 10^q` with `w` its first 19 significant digits. Then, in order:
// - Clinger's fast path: when `w` and 10^|q| are both exact doubles, one IEEE multiplication or
//   division rounds correctly by itself.
// - The Eisel-Lemire method: `w` times a 128-bit truncation of 5^q (PowersOfFive.swift), whose
//   error is bounded, so the rounding is decided unless the product lies too close to a point
//   halfway between two doubles. Text with more than 19 digits lies between `w` and `w + 1`
//   units; when both ends round alike, so does the text.
// - Otherwise, rarely, the C library's `strtod` through the standard library.

extension NumberParsing {
    /// The nearest `Double` to the number (ties to even); an infinity of the number's sign when it
    /// is too large, and a zero of its sign when it is too small.
    ///
    /// ```swift
    /// "0.1".utf8.withContiguousStorageIfAvailable(NumberParsing.double)   // 0.1
    /// ```
    ///
    /// - Parameter text: Valid JSON number text (``isValid(_:)``).
    /// - Returns: The correctly rounded value, as `Double(String)` reads the same text.
    /// - Complexity: O(*n*) in the length of `text`.
    @usableFromInline
    package static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double {
        let decimal = DecimalText(text)
        if decimal.significand == 0 { return decimal.negative ? -0.0 : 0.0 }
        if let magnitude = nearestDouble(decimal) { return decimal.negative ? -magnitude : magnitude }
        return Double(String(decoding: text, as: UTF8.self)) ?? .nan
    }

    /// The `Float` nearest to valid JSON number text when one rounding decides it, as
    /// `Float(String)` reads the same text; nil when it does not, for the caller to ask
    /// `Float(String)`.
    ///
    /// One rounding decides it when the significand has at most 24 bits and the power of ten is
    /// at most 10 either way: both are then exactly a `Float` (5^10 < 2^24), and one
    /// multiplication or division of exact operands rounds correctly. Most decimals written by
    /// people and programs (`12.5`, `0.125`, `-3.75e2`) qualify; going through `Double` instead
    /// would round twice, and be wrong for some.
    @usableFromInline
    package static func float(_ text: UnsafeBufferPointer<UInt8>) -> Float? {
        let decimal = DecimalText(text)
        if decimal.significand == 0 && !decimal.truncated { return decimal.negative ? -0.0 : 0.0 }
        let exponent = decimal.exponent
        guard !decimal.truncated, decimal.significand <= 1 << 24, exponent >= -10, exponent <= 10 else { return nil }
        let value = Float(decimal.significand)
        let magnitude = exponent < 0 ? value / exactFloatPowersOfTen[-exponent] : value * exactFloatPowersOfTen[exponent]
        return decimal.negative ? -magnitude : magnitude
    }

    /// 10^0 ... 10^10, each exactly a `Float` (5^10 < 2^24); written out, as
    /// ``exactPowersOfTen`` is.
    static let exactFloatPowersOfTen: [Float] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10]

    /// The nearest `Double` to `decimal`'s magnitude, or nil when the fast methods cannot decide.
    @inline(__always)
    private static func nearestDouble(_ decimal: DecimalText) -> Double? {
        let significand = decimal.significand
        let exponent = decimal.exponent
        if !decimal.truncated, significand <= 1 << 53, exponent >= -22, exponent <= 22 {
            let value = Double(significand)
            return exponent < 0 ? value / exactPowersOfTen[-exponent] : value * exactPowersOfTen[exponent]
        }
        guard let bits = nearestDoubleBits(significand: significand, exponent: exponent) else { return nil }
        if decimal.truncated {
            // The dropped digits put the value strictly between w and w + 1 units.
            guard nearestDoubleBits(significand: significand + 1, exponent: exponent) == bits else { return nil }
        }
        return Double(bitPattern: bits)
    }

    /// 10^0 ... 10^22, each exactly a `Double` (5^22 < 2^53); a test checks them against
    /// products of tens.
    ///
    /// Written out: a table computed at first use is reached through a call that checks it is
    /// made, at every number; a table of literals is laid out by the compiler.
    /// PERF: numbers.json in `jsonmodel-bench --section documents`.
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The bit pattern of positive infinity.
    private static let infinityBits: UInt64 = 0x7FF << 52

    /// The bit pattern of the `Double` nearest to `significand × 10^exponent` (ties to even), by
    /// the Eisel-Lemire method; nil when the 128-bit product leaves the rounding undecided.
    ///
    /// With `w` shifted so that its top bit is set and 5^q = T × 2^(e - 127) (``PowerOfFive``),
    /// the value is the 192-bit product `w × T` scaled by a power of two. Its top word holds the
    /// 53 bits of the result and the bits that decide the rounding: below half a unit of the
    /// last kept bit, down; above, up; exactly half, to even. The product is computed with the
    /// table's upper word first, whose result is low by less than one unit of the top word, and
    /// with the lower word only when that leaves the decision open; the truncated table makes
    /// even the full product low by less than one unit of its middle word. Where the exact
    /// value could still lie on either side of the halfway point, the answer is nil.
    ///
    /// - Parameters:
    ///   - significand: The decimal significand `w`, not zero.
    ///   - exponent: The decimal exponent `q`.
    /// - Returns: The bits of a finite double, zero, or infinity; nil when undecided.
    package static func nearestDoubleBits(significand: UInt64, exponent: Int) -> UInt64? {
        precondition(significand != 0, "zero has no leading bit")
        if exponent < PowersOfFive.smallestExponent { return 0 }
        if exponent > PowersOfFive.largestExponent { return infinityBits }
        // Wrapping arithmetic from here on: the exponent is within the table's range, shifts
        // within a word, and nothing below comes near overflowing, so a check for overflow
        // would be a compare and a branch at every number that never fails.
        let power = PowersOfFive.table[exponent &- PowersOfFive.smallestExponent]
        let shift = significand.leadingZeroBitCount
        let normalized = significand << shift
        // The product, most significant word first: `high`, `middle`, then `bottom` once complete.
        var (high, middle) = normalized.multipliedFullWidth(by: power.high)
        var bottom: UInt64 = 0
        var complete = false
        while true {
            // `high` is at least 2^62; its top bit says where the leading bit of the value is.
            let top = Int(high >> 63)
            let leadingExponent = exponent &+ Int(power.binaryExponent) &+ 63 &+ top &- shift
            // The bits of `high` below the result's last bit: 10 or 11 for a normal result (53 of
            // 63 or 64 kept), more for a subnormal one, whose last bit is 2^-1074.
            var dropped = 10 &+ top
            if leadingExponent < -1022 { dropped &+= -1022 &- leadingExponent }
            // Then even the whole product is below half of 2^-1074.
            if dropped > 64 { return 0 }
            let half: UInt64 = 1 << (dropped &- 1)
            let rest = high & ((1 << dropped) &- 1)  // smart shifts: 1 << 64 is 0
            let roundsUp: Bool
            if !complete {
                // The exact value is in [(rest, middle), (rest + 1, middle)).
                if rest < half - 1 || (rest == half - 1 && middle == 0) {
                    roundsUp = false
                } else if rest > half || (rest == half && middle != 0) {
                    roundsUp = true
                } else {
                    let (carry, lowest) = normalized.multipliedFullWidth(by: power.low)
                    let (sum, overflow) = middle.addingReportingOverflow(carry)
                    middle = sum
                    if overflow { high += 1 }  // no overflow: the product is below 2^192
                    bottom = lowest
                    complete = true
                    continue
                }
            } else if power.isExact {
                // The product is the exact value.
                if rest != half {
                    roundsUp = rest > half
                } else if middle != 0 || bottom != 0 {
                    roundsUp = true
                } else {
                    roundsUp = (high >> dropped) & 1 == 1
                }
            } else {
                // The exact value is in [(rest, middle, bottom), (rest, middle + 1, bottom)).
                if rest < half - 1 || (rest == half - 1 && (middle != .max || bottom == 0)) {
                    roundsUp = false
                } else if rest > half || (rest == half && (middle != 0 || bottom != 0)) {
                    roundsUp = true
                } else {
                    return nil
                }
            }
            let mantissa = (high >> dropped) &+ (roundsUp ? 1 : 0)
            // A normal mantissa carries its leading bit into the exponent field, so one that
            // rounds up to 2^53 moves to the next exponent, and a subnormal one that rounds up
            // to 2^52 becomes the smallest normal.
            let bits = leadingExponent < -1022 ? mantissa : UInt64(truncatingIfNeeded: leadingExponent &+ 1022) << 52 &+ mantissa
            return min(bits, infinityBits)
        }
    }
}

/// Valid JSON number text as `significand × 10^exponent`, with at most 19 significant digits.
struct DecimalText {
    /// Whether the text starts with a minus sign (`-0` included).
    var negative = false
    /// The first 19 significant digits, as an integer: below 10^19, so below 2^64.
    var significand: UInt64 = 0
    /// The power of ten of the significand's last digit.
    var exponent = 0
    /// Whether a nonzero digit after the 19th was dropped.
    var truncated = false

    /// Reads valid JSON number text.
    @inline(__always)
    init(_ text: UnsafeBufferPointer<UInt8>) {
        let count = text.count
        var index = 0
        if count > 0 && text[0] == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        // Every digit, with wrapping arithmetic: exact when there are at most 19 of them.
        let integerStart = index
        // Most integer parts are short (coordinates, prices, scores): up to four digits one at a
        // time, cheaper than a word for them, and the rest of a longer run a word at a time.
        // PERF: canada.json's coordinates, jsonmodel-bench --section documents.
        // Indexes and counts with wrapping arithmetic, as in `accumulateDigits`: each lies
        // within the text.
        while index < count && index &- integerStart < 4 {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            significand = significand &* 10 &+ UInt64(digit)
            index &+= 1
        }
        if index &- integerStart == 4 { Self.accumulateDigits(text, &index, into: &significand) }
        var digitCount = index &- integerStart
        if index < count && text[index] == UInt8(ascii: ".") {
            index &+= 1
            let fractionStart = index
            Self.accumulateDigits(text, &index, into: &significand)
            exponent = fractionStart &- index
            digitCount &+= index &- fractionStart
        }
        if digitCount > 19 { readLongSignificand(text, from: integerStart) }
        if index < count && text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < count && (text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-")) {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            // Capped far beyond any exponent a double needs and any shift the digits of a 4 GiB
            // text can make, so the sum cannot overflow.
            var written = 0
            while index < count {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if written < 1 << 40 { written = written * 10 + Int(digit) }
                index += 1
            }
            exponent += exponentNegative ? -written : written
        }
    }

    /// Appends the run of digits from `index` on to `value` (wrapping), and moves `index` past it.
    // PERF: up to eight digits from one word; see jsonmodel-bench --section documents.
    @inline(__always)
    private static func accumulateDigits(_ text: UnsafeBufferPointer<UInt8>, _ index: inout Int, into value: inout UInt64) {
        let count = text.count
        guard count >= 8 else {
            while index < count {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return }
                value = value &* 10 &+ UInt64(digit)
                index += 1
            }
            return
        }
        let base = UnsafeRawPointer(text.baseAddress!)
        while index < count {
            // The eight bytes from `index`, the first lowest; near the end, the text's last eight
            // bytes without those before `index`, and zero bytes (not digits) after them.
            // (Wrapping arithmetic throughout: every value is an index within the text or a
            // count of bits below 64, and checks for overflow cost a tenth of a number's read.
            // PERF: canada.json in `jsonmodel-bench --section documents`.)
            let bytes =
                index &+ 8 <= count
                ? UInt64(littleEndian: (base + index).loadUnaligned(as: UInt64.self))
                : UInt64(littleEndian: (base + (count &- 8)).loadUnaligned(as: UInt64.self))
                    &>> UInt64(truncatingIfNeeded: 8 &* (index &+ 8 &- count))
            // A digit's byte becomes its value, 0 to 9; any other byte a value over 9, which adding
            // 0x76 lifts to 0x80 or more (number text is ASCII, so no byte carries into the next).
            let digits = bytes ^ 0x3030_3030_3030_3030
            let notDigits = (digits &+ 0x7676_7676_7676_7676) & 0x8080_8080_8080_8080
            let run = notDigits == 0 ? 8 : notDigits.trailingZeroBitCount >> 3
            guard run > 0 else { return }
            // The run's digits moved to the top, with zeros (leading zeros) below them.
            value = value &* powersOfTen[run] &+ valueOfEightDigits(digits &<< UInt64(truncatingIfNeeded: 64 &- 8 &* run))
            index &+= run
            if run < 8 { return }
        }
    }

    /// 10^0 ... 10^8.
    private static let powersOfTen: [UInt64] = [1, 10, 100, 1000, 10000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    /// The number whose eight decimal digits are the bytes of `digits` (each 0 to 9), the lowest
    /// byte the most significant digit.
    @inline(__always)
    private static func valueOfEightDigits(_ digits: UInt64) -> UInt64 {
        // Pairs, then quadruples, then all eight: each step joins neighbours, the earlier one times
        // its weight, and no lane overflows into the next (99 < 2^8, 9999 < 2^16, 99999999 < 2^32).
        var value = (digits &* 10 &+ digits >> 8) & 0x00FF_00FF_00FF_00FF
        value = (value &* 100 &+ value >> 16) & 0x0000_FFFF_0000_FFFF
        return (value &* 10_000 &+ value >> 32) & 0x0000_0000_FFFF_FFFF
    }

    /// Reads the significand again from `start`, keeping its first 19 significant digits, for
    /// text with more digits than that (leading zeros included).
    private mutating func readLongSignificand(_ text: UnsafeBufferPointer<UInt8>, from start: Int) {
        let count = text.count
        var index = start
        significand = 0
        exponent = 0
        var digits = 0  // significant digits in `significand`
        while index < count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if digits < 19 {
                significand = significand &* 10 &+ UInt64(digit)
                if significand != 0 { digits += 1 }
            } else {
                exponent += 1
                if digit != 0 { truncated = true }
            }
            index += 1
        }
        guard index < count && text[index] == UInt8(ascii: ".") else { return }
        index += 1
        while index < count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if digits < 19 {
                significand = significand &* 10 &+ UInt64(digit)
                exponent -= 1
                if significand != 0 { digits += 1 }
            } else if digit != 0 {
                truncated = true
            }
            index += 1
        }
    }
}
