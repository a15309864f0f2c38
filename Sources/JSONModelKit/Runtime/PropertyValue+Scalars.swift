#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// The scalar property types: numbers, Bool, String, and the Foundation types JSON holds as text.

// MARK: - Numbers

extension NumberText {
    /// The number text of a JSON number, or of a string holding one; records a
    /// type mismatch otherwise.
    static func text(of input: JSONInput, expected: String, context: inout ConversionContext) -> String? {
        switch input.kind {
        case .number:
            return input.numberText!
        case .string:
            let text = input.stringValue!
            if isValid(text) {
                context.lenientConversion(input, expected: expected)
                return text
            }
            context.typeMismatch(input, expected: expected)
            return nil
        default:
            context.typeMismatch(input, expected: expected)
            return nil
        }
    }
}

extension FixedWidthInteger where Self: PropertyValue {
    static var implicitDefault: Self? { 0 }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Self? {
        // Fast path: a JSON integer read straight from the document's bytes.
        if case .node(let node) = input, let (negative, magnitude) = node.exactInteger,
            let value = Self(negative: negative, magnitude: magnitude)
        {
            return value
        }
        let typeName = String(describing: Self.self)
        guard let text = NumberText.text(of: input, expected: typeName, context: &context) else { return nil }
        if let exact = Self(text) { return exact }
        // From the decimal digits, not through a Double, which holds integers exactly only up
        // to 2^53: `9007199254740993.4` rounds to …993, and `9223372036854775807.0` fits Int64.
        var bytes = text
        guard let (negative, magnitude, exact) = bytes.withUTF8(NumberParsing.nearestInteger),
            let value = Self(negative: negative, magnitude: magnitude)
        else {
            context.record(.outOfRange, "\(text) does not fit in \(typeName)")
            return nil
        }
        if !exact {
            context.record(.lossy, "\(text) rounded to \(value) to fit \(typeName)")
        }
        return value
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        if existing?.kind == .string { return .string(String(self)) }
        return .number(JSONNumber(self))
    }
}

extension Int: PropertyValue { static var propertyType: PropertyType { .int } }
extension Int8: PropertyValue { static var propertyType: PropertyType { .int8 } }
extension Int16: PropertyValue { static var propertyType: PropertyType { .int16 } }
extension Int32: PropertyValue { static var propertyType: PropertyType { .int32 } }
extension Int64: PropertyValue { static var propertyType: PropertyType { .int64 } }
extension UInt: PropertyValue { static var propertyType: PropertyType { .uint } }
extension UInt8: PropertyValue { static var propertyType: PropertyType { .uint8 } }
extension UInt16: PropertyValue { static var propertyType: PropertyType { .uint16 } }
extension UInt32: PropertyValue { static var propertyType: PropertyType { .uint32 } }
extension UInt64: PropertyValue { static var propertyType: PropertyType { .uint64 } }

extension Double: PropertyValue {
    static var propertyType: PropertyType { .double }
    static var implicitDefault: Double? { 0 }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Double? {
        if context.allowsNonFiniteNumbers, let value = NonFiniteNumber.value(of: input) { return value }
        // A number of the document, read from its bytes where it needs no diagnostic
        // (`plainValue(of:)`): the value `Double(text)` below gives.
        // PERF: no String per number; see jsonmodel-bench --section documents.
        if case .node(let node) = input, let value = plainValue(of: node) { return value }
        guard let text = NumberText.text(of: input, expected: "Double", context: &context) else { return nil }
        guard let value = Double(text), value.isFinite else {
            context.record(.outOfRange, "\(text) does not fit in Double")
            return nil
        }
        if value == 0 && NumberText.isNonzero(text.utf8) {
            context.record(.lossy, "\(text) is too small for Double: read as 0")
        }
        return value
    }

    /// NaN and the infinities as their strings (`"NaN"`, `"Infinity"`, `"-Infinity"`): a write
    /// of one gets here only for a model that allows them (WritableValues.swift).
    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        guard let number = JSONNumber(self) else { return .string(NonFiniteNumber.text(of: self)) }
        return existing?.kind == .string ? .string(number.text) : .number(number)
    }
}

extension Float: PropertyValue {
    static var propertyType: PropertyType { .float }
    static var implicitDefault: Float? { 0 }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Float? {
        if context.allowsNonFiniteNumbers, let value = NonFiniteNumber.value(of: input) { return Float(value) }
        guard let text = NumberText.text(of: input, expected: "Float", context: &context) else { return nil }
        guard let value = Float(text), value.isFinite else {
            context.record(.outOfRange, "\(text) does not fit in Float")
            return nil
        }
        if value == 0 && NumberText.isNonzero(text.utf8) {
            context.record(.lossy, "\(text) is too small for Float: read as 0")
        }
        return value
    }

    /// NaN and the infinities as their strings, as for `Double`.
    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        guard let number = JSONNumber(self) else { return .string(NonFiniteNumber.text(of: Double(self))) }
        return existing?.kind == .string ? .string(number.text) : .number(number)
    }
}

/// The strings that stand for the numbers JSON has none for, as `JSONDecoder`'s
/// `nonConformingFloatDecodingStrategy` is commonly set up and as JavaScript prints them.
enum NonFiniteNumber {
    /// `"NaN"`, `"Infinity"` or `"-Infinity"` as a `Double`; nil for anything else (other
    /// spellings included, so that a typo stays a diagnostic).
    static func value(of input: JSONInput) -> Double? {
        guard input.kind == .string else { return nil }
        switch input.stringValue {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: return nil
        }
    }

    /// The string of a value that is not finite.
    static func text(of value: Double) -> String {
        value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity"
    }
}

extension Decimal: PropertyValue {
    static var propertyType: PropertyType { .decimal }
    static var implicitDefault: Decimal? { 0 }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Decimal? {
        guard let text = NumberText.text(of: input, expected: "Decimal", context: &context) else { return nil }
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN else {
            context.record(.outOfRange, "\(text) does not fit in Decimal")
            return nil
        }
        // Decimal keeps 38 digits (39 for some), and its parser drops the rest: the nearest value
        // it holds is read instead, which a write would then keep.
        if let read = JSONNumber(text: value.description), let written = JSONNumber(text: text), read != written {
            let rounded = Self.roundedText(text).flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) } ?? value
            context.record(.lossy, "\(text.prefix(60)) rounded to \(rounded) to fit Decimal")
            return rounded
        }
        return value
    }

    /// The largest significand `Decimal` holds, 2^128 - 1: 39 digits.
    private static var largestSignificand: String { "340282366920938463463374607431768211455" }

    /// `text`, the text of a JSON number, rounded to the digits `Decimal` keeps, ties away from
    /// zero as `Decimal`'s own arithmetic rounds: 39 significant digits when they fit its
    /// significand, else 38. Nil when `text` has no more digits than that, or is not a number.
    static func roundedText(_ text: String) -> String? {
        var text = text
        return text.withUTF8(roundedText(bytes:))
    }

    /// ``roundedText(_:)`` of the text in `bytes`.
    private static func roundedText(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }
        // The first 40 significant digits, all that the rounding looks at, and how many there are.
        var digits: [UInt8] = []
        var digitCount = 0
        var fractionDigits = 0
        var inFraction = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                // Leading zeros carry no digit.
                if digitCount > 0 || byte != UInt8(ascii: "0") {
                    if digitCount < 40 { digits.append(byte - UInt8(ascii: "0")) }
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
            guard bytes[index] | 0x20 == UInt8(ascii: "e") else { return nil }
            index += 1
            let exponentNegative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) { index += 1 }
            guard index < bytes.count else { return nil }
            while index < bytes.count {
                let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                guard (0...9).contains(digit) else { return nil }
                // Far past any exponent Decimal holds, and far from overflowing.
                exponent = min(exponent * 10 + digit, 1 << 40)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        guard digitCount > 38 else { return nil }
        for kept in [39, 38] where digitCount >= kept {
            var significand = Array(digits[..<kept])
            var scale = exponent - fractionDigits + (digitCount - kept)
            if digitCount > kept && digits[kept] >= 5 {
                var place = kept - 1
                while place >= 0 && significand[place] == 9 {
                    significand[place] = 0
                    place -= 1
                }
                if place >= 0 {
                    significand[place] += 1
                } else if kept == 38 {
                    // 99…9 rounded up: 10…0, one digit longer, which the significand holds at the
                    // same exponent (the largest exponent may have no room for one more).
                    significand = [1] + significand
                } else {
                    // 39 nines rounded up: 10^39, written with one digit fewer.
                    significand = [1] + significand.dropLast()
                    scale += 1
                }
            }
            let written = String(decoding: significand.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
            if kept == 39 && written > largestSignificand {
                // Past the largest significand, the nearest value is that largest or the 38 digits
                // rounded: the largest when the digits lie below the halfway point, …457.5.
                let head = String(decoding: digits[..<38].map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
                let next = digitCount > 39 ? digits[39] : 0
                if head == largestSignificand.dropLast(), digits[38] <= 6 || (digits[38] == 7 && next < 5) {
                    // No carry happened: 39 nines round to a power of ten, which fits.
                    return (negative ? "-" : "") + largestSignificand + "e" + String(scale)
                }
                continue
            }
            return (negative ? "-" : "") + written + "e" + String(scale)
        }
        return nil
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        guard !isNaN, let number = JSONNumber(text: description) else { return .null }
        return existing?.kind == .string ? .string(number.text) : .number(number)
    }
}

// MARK: - Bool and String

extension Bool: PropertyValue {
    static var propertyType: PropertyType { .bool }
    static var implicitDefault: Bool? { false }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Bool? {
        switch input.kind {
        case .bool:
            return input.boolValue!
        case .number:
            // Exactly 0 or 1 (`1.0` and `1e0` count); through Double, `1e-400` read as false.
            switch JSONNumber(validatedText: input.numberText!).int64Value {
            case 0:
                context.lenientConversion(input, expected: "Bool")
                return false
            case 1:
                context.lenientConversion(input, expected: "Bool")
                return true
            default: break
            }
        case .string:
            switch input.stringValue!.lowercased() {
            case "true", "yes", "y", "t", "1":
                context.lenientConversion(input, expected: "Bool")
                return true
            case "false", "no", "n", "f", "0":
                context.lenientConversion(input, expected: "Bool")
                return false
            default: break
            }
        default:
            break
        }
        context.typeMismatch(input, expected: "Bool")
        return nil
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        switch existing?.kind {
        case .string: return .string(self ? "true" : "false")
        case .number: return .number(JSONNumber(self ? 1 : 0))
        default: return .bool(self)
        }
    }
}

extension String: PropertyValue {
    static var propertyType: PropertyType { .string }
    static var implicitDefault: String? { "" }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> String? {
        switch input.kind {
        case .string: return input.stringValue!
        case .number:
            context.lenientConversion(input, expected: "String")
            return input.numberText!
        case .bool:
            context.lenientConversion(input, expected: "String")
            return input.boolValue! ? "true" : "false"
        default:
            context.typeMismatch(input, expected: "String")
            return nil
        }
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        switch existing?.kind {
        case .number:
            if let number = JSONNumber(text: self) { return .number(number) }
        case .bool:
            if self == "true" || self == "false" { return .bool(self == "true") }
        default:
            break
        }
        return .string(self)
    }
}

// MARK: - Text-backed Foundation types

/// Reads a string and parses it; records a mismatch for other kinds and an
/// invalid value for text that does not parse.
private func parseString<T>(
    _ input: JSONInput, expected: String, context: inout ConversionContext, _ parse: (String) -> T?
) -> T? {
    guard let text = input.stringValue else {
        context.typeMismatch(input, expected: expected)
        return nil
    }
    if let value = parse(text) { return value }
    context.record(.invalidValue, "\"\(text.prefix(60))\" is not a valid \(expected)")
    return nil
}

extension URL: PropertyValue {
    static var propertyType: PropertyType { .url }
    static var implicitDefault: URL? { nil }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> URL? {
        parseString(input, expected: "URL", context: &context) { $0.isEmpty ? nil : RecentURLs.shared.url(from: $0) }
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? { .string(absoluteString) }
}

extension UUID: PropertyValue {
    static var propertyType: PropertyType { .uuid }
    static var implicitDefault: UUID? { nil }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> UUID? {
        parseString(input, expected: "UUID", context: &context) { UUID(uuidString: $0) }
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? { .string(uuidString) }
}

extension Data: PropertyValue {
    static var propertyType: PropertyType { .data }
    static var implicitDefault: Data? { Data() }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Data? {
        parseString(input, expected: "base64 Data", context: &context) { Data(base64Encoded: $0) }
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? { .string(base64EncodedString()) }
}

extension Date: PropertyValue {
    static var propertyType: PropertyType { .date }
    static var implicitDefault: Date? { nil }

    /// ISO 8601 first, then the other formats in ``DateFormat/fallbackOrder`` (see Values/DateFormat.swift);
    /// a declared `dateFormat` goes through the converter lookup instead.
    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Date? {
        DateReading.date(from: input, format: .iso8601, keepsNumbers: true, context: &context)
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        // Seconds as `secondsSince1970` writes them: a whole number without a fraction.
        if existing?.kind == .number, let number = JSONNumber(text: DateFormat.numberText(timeIntervalSince1970)) {
            return .number(number)
        }
        return .string(ISO8601Text.string(from: self))
    }
}

extension JSONValue: PropertyValue {
    static var propertyType: PropertyType { .json }
    static var implicitDefault: JSONValue? { .null }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> JSONValue? {
        input.jsonValue
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? { self }
}
