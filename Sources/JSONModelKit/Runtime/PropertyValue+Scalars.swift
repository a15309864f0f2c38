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
        guard let (value, exact) = Decimal.nearest(toNumber: text) else {
            context.record(.outOfRange, "\(text.prefix(60)) does not fit in Decimal")
            return nil
        }
        if !exact { context.record(.lossy, "\(text.prefix(60)) rounded to \(value) to fit Decimal") }
        return value
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
