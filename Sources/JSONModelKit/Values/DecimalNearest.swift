#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The Decimal nearest to a JSON number.
//
// A `Decimal` is a significand below 2^128 (38 digits, 39 for some) times a power of ten from
// -128 to 127. Foundation's `Decimal(string:)` drops the digits past its significand rather than
// rounding them, and refuses an exponent outside that range as written, although `1e128` is
// `10e127` and `123e-130` lies nearest to `1e-128`. So the text is rewritten first, when it needs
// to be, to the nearest value a `Decimal` holds, ties away from zero as `Decimal`'s arithmetic
// rounds; text that needs nothing is handed to the parser as it is.

extension Decimal {
    /// The `Decimal` nearest to a JSON number, and whether it is the number exactly; nil when the
    /// number lies beyond the largest `Decimal`, about 3.4 × 10^165, or the text is not a number.
    ///
    /// ```swift
    /// Decimal.nearest(toNumber: "1e128")     // (1e128, exact: true)
    /// Decimal.nearest(toNumber: "123e-130")  // (1e-128, exact: false)
    /// Decimal.nearest(toNumber: "1e166")     // nil
    /// ```
    static func nearest(toNumber text: String) -> (value: Decimal, exact: Bool)? {
        var text = text
        // Text the parser refuses as written is tried once more in digits and a power of ten
        // (`0.000…1e5` with the zeros past the range before the exponent brings it back).
        for canonical in [false, true] {
            let written: String
            let exact: Bool
            switch text.withUTF8({ rewrite(bytes: $0, canonical: canonical) }) {
            case .asWritten: (written, exact) = (text, true)
            case .rewritten(let nearest, let isExact): (written, exact) = (nearest, isExact)
            case .tooLarge: return nil
            }
            if let value = Decimal(string: written, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN {
                return (value, exact)
            }
        }
        return nil
    }

    /// What ``nearest(toNumber:)`` hands to `Decimal(string:)`.
    private enum Rewrite {
        /// The text itself: its digits fit the significand and its exponent the range.
        case asWritten
        /// Text of the nearest value, in digits and a power of ten within the range.
        case rewritten(String, exact: Bool)
        /// Beyond the largest `Decimal`.
        case tooLarge
    }

    /// The largest significand, 2^128 - 1: 39 digits.
    private static let largestSignificand: [UInt8] = Array("340282366920938463463374607431768211455".utf8).map { $0 - 48 }

    /// The smallest and the largest power of ten of a `Decimal`.
    private static var exponentRange: ClosedRange<Int> { -128...127 }

    /// The text to parse for the number in `bytes`: as written when it fits, unless `canonical`.
    private static func rewrite(bytes: UnsafeBufferPointer<UInt8>, canonical: Bool) -> Rewrite {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }
        // The first 41 significant digits, all that rounding looks at; how many there are; and
        // whether one past those is not zero, which makes the value inexact.
        var digits: [UInt8] = []
        var digitCount = 0
        var nonzeroPastKept = false
        var fractionDigits = 0
        var inFraction = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                // Leading zeros carry no digit.
                if digitCount > 0 || byte != UInt8(ascii: "0") {
                    if digitCount < 41 {
                        digits.append(byte - UInt8(ascii: "0"))
                    } else if byte != UInt8(ascii: "0") {
                        nonzeroPastKept = true
                    }
                    digitCount += 1
                }
                if inFraction { fractionDigits += 1 }
            } else {
                break
            }
            index += 1
        }
        var exponent = 0
        if index < bytes.count {
            guard bytes[index] | 0x20 == UInt8(ascii: "e") else { return .asWritten }
            index += 1
            let exponentNegative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) { index += 1 }
            guard index < bytes.count else { return .asWritten }
            while index < bytes.count {
                let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                guard (0...9).contains(digit) else { return .asWritten }
                // Far past any exponent a Decimal holds, and far from overflowing.
                exponent = min(exponent * 10 + digit, 1 << 40)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        // The value is the digits, as an integer, times 10^scale.
        let scale = exponent - fractionDigits
        let sign = negative ? "-" : ""
        if digitCount == 0 { return exponentRange.contains(scale) && !canonical ? .asWritten : .rewritten("0", exact: true) }
        if digitCount <= 38 && exponentRange.contains(scale) {
            guard canonical else { return .asWritten }
            return .rewritten(sign + String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self) + "e\(scale)", exact: true)
        }

        // Below 10^-128 a digit is dropped from the end for each power of ten.
        let limit = scale < exponentRange.lowerBound ? digitCount - (exponentRange.lowerBound - scale) : digitCount
        if limit < 0 { return .rewritten("0", exact: false) }  // below half of 10^-128
        if limit == 0 {
            return digits[0] >= 5 ? .rewritten(sign + "1e\(exponentRange.lowerBound)", exact: false) : .rewritten("0", exact: false)
        }
        var kept: [UInt8]
        var keptCount: Int
        if limit <= 38 {
            (kept, keptCount) = (rounded(digits, keeping: limit), limit)
        } else {
            // 39 digits where they fit the significand; past its largest, the nearest of that
            // largest and 38 digits rounded: the largest when the digits lie below …457.5.
            let thirtyNine = rounded(digits, keeping: 39)
            if thirtyNine.count == 39 && thirtyNine.lexicographicallyPrecedes(largestSignificand)
                || thirtyNine == largestSignificand
            {
                (kept, keptCount) = (thirtyNine, 39)
            } else if thirtyNine.count == 39, Array(digits[..<38]) == Array(largestSignificand[..<38]),
                digits[38] <= 6 || (digits[38] == 7 && (digitCount > 39 ? digits[39] : 0) < 5)
            {
                (kept, keptCount) = (largestSignificand, 39)
            } else if thirtyNine.count == 40 {
                // 39 nines rounded up: 10^39.
                (kept, keptCount) = (thirtyNine, 39)
            } else {
                (kept, keptCount) = (rounded(digits, keeping: 38), 38)
            }
        }
        let exact = !nonzeroPastKept && kept.elementsEqual(digits.prefix(keptCount))
            && !digits.dropFirst(keptCount).contains { $0 != 0 }
        var keptScale = scale + digitCount - keptCount
        // A carry out of the top digit (99…9 up to 10…0) makes one digit more: drop its last zero
        // when that is more than the significand holds.
        if kept.count > 39 || (kept.count == 39 && !kept.lexicographicallyPrecedes(largestSignificand) && kept != largestSignificand) {
            kept.removeLast()
            keptScale += 1
        }
        if keptScale > exponentRange.upperBound {
            // Zeros moved into the significand, as far as it holds them.
            let zeros = keptScale - exponentRange.upperBound
            guard kept.count + zeros <= 39 else { return .tooLarge }
            kept += repeatElement(0, count: zeros)
            if kept.count == 39 && !kept.lexicographicallyPrecedes(largestSignificand) && kept != largestSignificand { return .tooLarge }
            keptScale = exponentRange.upperBound
        }
        let text = String(decoding: kept.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        return .rewritten(sign + text + "e\(keptScale)", exact: exact)
    }

    /// The first `count` of `digits`, rounded half away from zero by the digit after them: one
    /// digit more (a one and zeros) when nines round up.
    private static func rounded(_ digits: [UInt8], keeping count: Int) -> [UInt8] {
        var kept = Array(digits[..<count])
        guard count < digits.count, digits[count] >= 5 else { return kept }
        var place = count - 1
        while place >= 0 && kept[place] == 9 {
            kept[place] = 0
            place -= 1
        }
        if place >= 0 {
            kept[place] += 1
        } else {
            kept.insert(1, at: 0)
        }
        return kept
    }
}
