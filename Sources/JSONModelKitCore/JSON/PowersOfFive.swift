/// A power of five, 5^q, as a 128-bit significand and a power of two: the value is
/// `significand × 2^(binaryExponent - 127)`, where the significand's top bit is set.
///
/// For 5^q below 2^128 the significand is exact; otherwise it is the exact value truncated, so it
/// is low by less than one unit of its last bit. ``NumberParsing`` relies on exactly that bound
/// when it rounds a decimal to a `Double`.
package struct PowerOfFive: Sendable {
    /// The upper 64 bits of the significand.
    package let high: UInt64
    /// The lower 64 bits of the significand.
    package let low: UInt64
    /// ⌊log₂ 5^q⌋: the power of two of the value's leading bit.
    package let binaryExponent: Int32
    /// Whether the significand is the power itself, not a truncation of it.
    package let isExact: Bool
}

/// The powers 5^q for every decimal exponent q a `Double` can need, computed once, on first use,
/// with exact integer arithmetic.
///
/// A decimal `w × 10^q` with `w` below 2^64 rounds to zero below ``smallestExponent`` (it is then
/// less than half the smallest subnormal) and to infinity above ``largestExponent``.
package enum PowersOfFive {
    /// The smallest decimal exponent in ``table``.
    package static let smallestExponent = -342
    /// The largest decimal exponent in ``table``.
    package static let largestExponent = 308

    /// 5^q at position `q - smallestExponent`.
    package static let table: [PowerOfFive] = makeTable()

    /// Computes the table.
    ///
    /// Positive powers are kept exactly as multiprecision integers and truncated to their top 128
    /// bits. A negative power 5^-k is ⌊2^1024 / 5^k⌋, obtained by dividing by 5 k times (each
    /// floor division of a floor is the floor of the whole division, so no error accumulates),
    /// and likewise truncated: 2^1024 leaves at least 128 bits of quotient for every k down to
    /// -``smallestExponent``.
    ///
    /// - Complexity: O(*n*²) word operations in the number of entries; about 10⁴ divisions of a
    ///   word, once per process.
    static func makeTable() -> [PowerOfFive] {
        let numeratorBits = 1024
        var table: [PowerOfFive] = []
        table.reserveCapacity(largestExponent - smallestExponent + 1)

        // ⌊2^1024 / 5^k⌋ for k = 1 ... -smallestExponent, then reversed into increasing q.
        var quotient = Multiprecision(words: [UInt64](repeating: 0, count: numeratorBits / 64 + 1))
        quotient.words[numeratorBits / 64] = 1
        var negative: [PowerOfFive] = []
        negative.reserveCapacity(-smallestExponent)
        for _ in 1 ... -smallestExponent {
            quotient.divide(by: 5)
            let bitWidth = quotient.bitWidth
            // quotient ≈ 2^1024 / 5^k = significand × 2^(bitWidth - 128), so
            // 5^-k = significand × 2^(bitWidth - 128 - 1024) and the leading bit is 2^(bitWidth - 1025).
            negative.append(
                PowerOfFive(
                    high: quotient.word(atBit: bitWidth - 64), low: quotient.word(atBit: bitWidth - 128),
                    binaryExponent: Int32(bitWidth - 1 - numeratorBits), isExact: false))
        }
        table.append(contentsOf: negative.reversed())

        var power = Multiprecision(words: [1])
        for q in 0...largestExponent {
            if q > 0 { power.multiply(by: 5) }
            let bitWidth = power.bitWidth
            table.append(
                PowerOfFive(
                    high: power.word(atBit: bitWidth - 64), low: power.word(atBit: bitWidth - 128),
                    binaryExponent: Int32(bitWidth - 1), isExact: bitWidth <= 128))
        }
        return table
    }
}

/// A nonnegative integer of any size, as 64-bit words, least significant first: just what
/// ``PowersOfFive/makeTable()`` needs.
private struct Multiprecision {
    var words: [UInt64]

    /// The number of bits up to and including the highest set bit; 0 for zero.
    var bitWidth: Int {
        guard let top = words.lastIndex(where: { $0 != 0 }) else { return 0 }
        return top * 64 + (64 - words[top].leadingZeroBitCount)
    }

    /// Bits `offset ..< offset + 64` as a word; bits below 0 and above the number are zero.
    func word(atBit offset: Int) -> UInt64 {
        let index = offset >> 6  // floor division, negative offsets included
        let shift = UInt64(offset & 63)
        var result: UInt64 = 0
        if index >= 0 && index < words.count { result = words[index] >> shift }
        if shift != 0 && index + 1 >= 0 && index + 1 < words.count { result |= words[index + 1] << (64 - shift) }
        return result
    }

    /// Replaces the number with ⌊number / divisor⌋.
    mutating func divide(by divisor: UInt64) {
        var remainder: UInt64 = 0
        for index in words.indices.reversed() {
            (words[index], remainder) = divisor.dividingFullWidth((high: remainder, low: words[index]))
        }
    }

    /// Replaces the number with number × factor.
    mutating func multiply(by factor: UInt64) {
        var carry: UInt64 = 0
        for index in words.indices {
            let (high, low) = words[index].multipliedFullWidth(by: factor)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            words[index] = sum
            carry = high &+ (overflow ? 1 : 0)
        }
        if carry != 0 { words.append(carry) }
    }
}
