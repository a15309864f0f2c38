/// Reading JSON number text: grammar checks, exact integers, correctly rounded doubles
/// (NumberParsing+Double.swift).
///
/// Every function takes the number's text as bytes; none goes through `Double` to read an
/// integer, so `9007199254740993` and `12345678901234567890` stay exact.
@usableFromInline
package enum NumberParsing {
    /// Whether `text` is exactly one number in the RFC 8259 grammar.
    package static func isValid(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = text.count
        func digit(_ at: Int) -> Bool { at < count && text[at] &- UInt8(ascii: "0") < 10 }
        if index < count && text[index] == UInt8(ascii: "-") { index += 1 }
        guard digit(index) else { return false }
        if text[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while digit(index) { index += 1 }
        }
        if index < count && text[index] == UInt8(ascii: ".") {
            index += 1
            guard digit(index) else { return false }
            while digit(index) { index += 1 }
        }
        if index < count && text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < count && (text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-")) { index += 1 }
            guard digit(index) else { return false }
            while digit(index) { index += 1 }
        }
        return index == count
    }

    /// The value as `Int64` when it is integral and in range ("1.0" and "1e2" count), else nil.
    package static func int64(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let (negative, magnitude) = exactInteger(text) else { return nil }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// The value as `UInt64` when it is integral, not negative and in range, else nil.
    package static func uint64(_ text: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard let (negative, magnitude) = exactInteger(text) else { return nil }
        guard !negative || magnitude == 0 else { return nil }
        return magnitude
    }

    /// The value of the eight bytes at `bytes` when all are decimal digits, the first the most
    /// significant; nil otherwise. Reads them as one word: a byte is a digit when its high
    /// nibble is 3 both as it is and plus 6 (`:` to `?` become `@` to `E`), and the digits
    /// combine in pairs, then fours, then all eight, in three multiplications.
    @inline(__always)
    static func eightDigits(_ bytes: UnsafeRawPointer) -> UInt64? {
        let word = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
        let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        guard (word & nibbles) | (((word &+ 0x0606_0606_0606_0606) & nibbles) &>> 4) == 0x3333_3333_3333_3333 else {
            return nil
        }
        return combinedDigits(word)
    }

    /// The value of eight ASCII digits loaded as one little-endian word, the first in the lowest
    /// byte: ``eightDigits(_:)`` once it has checked them.
    @inline(__always)
    static func combinedDigits(_ word: UInt64) -> UInt64 {
        // Byte i holds digit i, the first in the lowest byte.
        var value = word &- 0x3030_3030_3030_3030
        // Each 16-bit lane: its first digit times 10 plus its second.
        value = (value &* 10) &+ (value &>> 8)
        // Each 32-bit lane's two pairs as four digits, then the two lanes as eight.
        let pairs: UInt64 = 0x0000_00FF_0000_00FF
        value = ((value & pairs) &* (100 &+ (1_000_000 &<< 32)) &+ ((value &>> 16) & pairs) &* (1 &+ (10_000 &<< 32))) &>> 32
        return value
    }

    /// The sign and magnitude of a number the scanner tagged an integer, whose text is therefore
    /// an optional minus and digits; nil when it does not fit in 64 bits.
    ///
    /// Up to 19 digits cannot overflow, and the scanner checked every byte, so they are added
    /// up without a check: eight at a time while eight remain, then one at a time. Longer texts
    /// are read by ``exactInteger(_:)``. (Reading every property of citm_catalog.json, whose
    /// ids and prices are integers, checked the bytes of about 14,000 a read again.)
    @usableFromInline
    package static func scannedInteger(_ text: UnsafeBufferPointer<UInt8>) -> (negative: Bool, magnitude: UInt64)? {
        let count = text.count
        guard let base = text.baseAddress, count > 0 else { return nil }
        let negative = base.pointee == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        guard count &- index <= 19 else { return exactInteger(text) }
        var value: UInt64 = 0
        while count &- index >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            value = value &* 100_000_000 &+ combinedDigits(word)
            index &+= 8
        }
        while index < count {
            value = value &* 10 &+ UInt64(base[index] &- UInt8(ascii: "0"))
            index &+= 1
        }
        return (negative, value)
    }

    /// The integer nearest to the value of valid JSON number text, a half rounded away from
    /// zero, and whether it is the value itself; nil when its magnitude does not fit in 64 bits.
    ///
    /// Decided on the decimal digits, as ``exactInteger(_:)`` is, so it is right at any size: a
    /// `Double` holds integers exactly only up to 2^53, and `9007199254740993.4` read through one
    /// rounds to …994, `0.49999999999999999` to 1.
    package static func nearestInteger(_ text: UnsafeBufferPointer<UInt8>) -> (negative: Bool, magnitude: UInt64, exact: Bool)? {
        if let (negative, magnitude) = exactInteger(text) { return (negative, magnitude, true) }
        guard let parts = decimalParts(text) else { return nil }
        let negative = parts.negative
        let exponent = parts.exponent
        let integerDigits = parts.integer.count
        let digits = (Array(parts.integer) + Array(parts.fraction)).map { text[$0] &- UInt8(ascii: "0") }
        // How many of the digits come before the decimal point once the exponent is applied.
        let point = integerDigits + exponent
        var magnitude: UInt64 = 0
        func appendDigit(_ digit: UInt8) -> Bool {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            magnitude = sum
            return !overflow1 && !overflow2
        }
        if point > 0 {
            // Past 20 digits beyond the last nonzero one nothing fits (exactInteger took zeros).
            guard point - digits.count <= 20 else { return nil }
            for position in 0..<point {
                guard appendDigit(position < digits.count ? digits[position] : 0) else { return nil }
            }
        }
        // Not integral (exactInteger would have answered): a nonzero digit lies past the point.
        if point >= 0 && point < digits.count && digits[point] >= 5 {
            let (up, overflow) = magnitude.addingReportingOverflow(1)
            guard !overflow else { return nil }
            magnitude = up
        }
        return (negative, magnitude, false)
    }

    /// Where the digits of valid JSON number text are, integer part and fraction, and its
    /// exponent (capped far beyond any a 64-bit integer or a double needs); nil when the text has
    /// no integer digit or holds more than a number. Read by ``exactInteger(_:)`` and
    /// ``nearestInteger(_:)``, off their common paths.
    private static func decimalParts(_ text: UnsafeBufferPointer<UInt8>)
        -> (negative: Bool, integer: Range<Int>, fraction: Range<Int>, exponent: Int)?
    {
        let count = text.count
        var index = 0
        let negative = count > 0 && text[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        let integerStart = index
        while index < count && text[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        let integerEnd = index
        var fractionStart = index
        var fractionEnd = index
        if index < count && text[index] == UInt8(ascii: ".") {
            index += 1
            fractionStart = index
            while index < count && text[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            fractionEnd = index
        }
        var exponent = 0
        if index < count && text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < count && (text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-")) {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < count && text[index] &- UInt8(ascii: "0") < 10 {
                exponent = min(exponent * 10 + Int(text[index] &- UInt8(ascii: "0")), 1_000_000_000)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        guard index == count, integerEnd > integerStart else { return nil }
        return (negative, integerStart..<integerEnd, fractionStart..<fractionEnd, exponent)
    }

    /// The sign and magnitude of an integral value that fits in 64 bits.
    ///
    /// Works on the decimal digits alone: the value is its significant digits times a power of
    /// ten, integral only when that power is not negative once trailing zeros are dropped.
    @usableFromInline
    package static func exactInteger(_ text: UnsafeBufferPointer<UInt8>) -> (negative: Bool, magnitude: UInt64)? {
        let count = text.count
        var index = 0
        let negative = count > 0 && text[0] == UInt8(ascii: "-")
        if negative { index = 1 }

        // Fast path: plain digits that cannot overflow, eight at a time while eight remain (ids
        // and timestamps have ten or more), then one at a time.
        var plain: UInt64 = 0
        var plainEnd = index
        while count &- plainEnd >= 8, plainEnd &- index <= 11,
            let eight = eightDigits(UnsafeRawPointer(text.baseAddress.unsafelyUnwrapped + plainEnd))
        {
            plain = plain &* 100_000_000 &+ eight
            plainEnd &+= 8
        }
        while plainEnd < count, text[plainEnd] &- UInt8(ascii: "0") < 10, plainEnd - index < 19 {
            plain = plain &* 10 &+ UInt64(text[plainEnd] &- UInt8(ascii: "0"))
            plainEnd += 1
        }
        if plainEnd == count && plainEnd > index { return (negative, plain) }

        // General path: collect where the digits are, then scale.
        guard let parts = decimalParts(text) else { return nil }
        // The digits in order, integer part then fraction, as positions in `text`.
        let positions = Array(parts.integer) + Array(parts.fraction)
        var scale = parts.exponent - parts.fraction.count
        guard let firstNonZero = positions.firstIndex(where: { text[$0] != UInt8(ascii: "0") }) else {
            return (negative, 0)
        }
        var lastNonZero = positions.count - 1
        while text[positions[lastNonZero]] == UInt8(ascii: "0") {
            lastNonZero -= 1
            scale += 1
        }
        guard scale >= 0, lastNonZero - firstNonZero + 1 + scale <= 20 else { return nil }
        var magnitude: UInt64 = 0
        for position in positions[firstNonZero...lastNonZero] {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(text[position] &- UInt8(ascii: "0")))
            guard !overflow1 && !overflow2 else { return nil }
            magnitude = sum
        }
        for _ in 0..<scale {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            magnitude = times10
        }
        return (negative, magnitude)
    }
}
