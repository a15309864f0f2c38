#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// The converters JSONModelKit provides; call sites read `.iso8601`, `.hexColor`, `.closure { … }`.
///
/// ```swift
/// ModelRegistry.shared.register(.millisecondsSince1970, for: Date.self, in: Event.self)
/// ModelRegistry.shared.register(.closure(read: { $0.stringValue?.uppercased() }, write: { .string($0) }),
///                               named: "shout")
/// ```
///
/// Each of them is a ``Closure``: `.iso8601` is a `Closure<Date>`, `.hexColor` a `Closure<Int>`.
/// Every registry also knows these by name, for schemas: `iso8601`, `secondsSince1970`,
/// `millisecondsSince1970` (Date), `hexColor` (Int from `#rrggbb`), `uppercase` and
/// `lowercase` (String).
public enum JSONConverters {
    /// A converter made of two closures, and optionally a validity check: what
    /// ``JSONConverter/closure(read:write:isStillValid:)`` and the built-in converters make.
    public struct Closure<Value: Sendable>: JSONConverter {
        let read: @Sendable (JSONValue) throws(JSONConversionError) -> Value
        let write: @Sendable (Value) -> JSONValue?
        let check: (@Sendable (Value) -> Bool)?
        /// The format a date converter writes, so a write can refuse a date it cannot write
        /// first; nil for other converters.
        let dateFormat: DateFormat?
        /// Why a value cannot be written, for the converters that can tell; nil for the others.
        var unwritable: (@Sendable (Value) -> String?)?

        /// What ``JSONConverter/closure(read:write:isStillValid:)`` makes.
        init(
            read: @escaping @Sendable (JSONValue) -> Value?, write: @escaping @Sendable (Value) -> JSONValue?,
            isStillValid: (@Sendable (Value) -> Bool)? = nil
        ) {
            self.read = { json throws(JSONConversionError) in
                guard let value = read(json) else { throw JSONConversionError("\(json) does not convert to \(Value.self)") }
                return value
            }
            self.write = write
            self.check = isStillValid
            self.dateFormat = nil
        }

        /// One of the converters below, its calls specialised for its type inside the closures.
        init<C: JSONConverter>(_ converter: C, dateFormat: DateFormat? = nil) where C.Value == Value {
            self.read = { json throws(JSONConversionError) in try converter.value(from: json) }
            self.write = { value in converter.json(from: value) }
            self.check = nil
            self.dateFormat = dateFormat
        }

        public func value(from json: JSONValue) throws(JSONConversionError) -> Value { try read(json) }
        public func json(from value: Value) -> JSONValue? { write(value) }
        public var validatesCachedValues: Bool { check != nil }
        public func isStillValid(_ value: Value) -> Bool { check?(value) ?? true }
    }

    /// Dates in one ``DateFormat``: reads it first, then the fallbacks; writes it.
    struct Dates: JSONConverter {
        let format: DateFormat

        init(_ format: DateFormat) {
            self.format = format
        }

        func value(from json: JSONValue) throws(JSONConversionError) -> Date {
            var context = ConversionContext(
                modelName: "", property: "", segments: [], mutable: false, owner: nil, ordinal: 0)
            if let date = DateReading.date(from: .value(json), format: format, context: &context) { return date }
            throw JSONConversionError(context.diagnostics.first?.message ?? "not a date")
        }

        func json(from value: Date) -> JSONValue? {
            format.json(from: value, replacing: nil)
        }
    }

    /// An `Int` colour from `#rrggbb` (or `rrggbb`, or `#rgb`), written back as lowercase `#rrggbb`.
    struct HexColor: JSONConverter {
        func value(from json: JSONValue) throws(JSONConversionError) -> Int {
            guard let text = json.stringValue else { throw JSONConversionError("expected a colour like \"#ff8800\"") }
            var digits = Substring(text)
            if digits.hasPrefix("#") { digits = digits.dropFirst() }
            if digits.count == 3 { digits = Substring(digits.map { "\($0)\($0)" }.joined()) }
            // Hexadecimal digits only: `Int(_:radix:)` takes a sign too (`#+fffff`).
            let isHex = digits.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
            guard digits.count == 6, isHex, let value = Int(digits, radix: 16) else {
                throw JSONConversionError("\"\(text.prefix(40))\" is not a colour like \"#ff8800\"")
            }
            return value
        }

        func json(from value: Int) -> JSONValue? {
            let hex = String(value & 0xFF_FFFF, radix: 16)
            return .string("#" + String(repeating: "0", count: 6 - hex.count) + hex)
        }
    }

    /// A `String` changed to upper or lower case on read (written as it is).
    struct Case: JSONConverter {
        let upper: Bool

        func value(from json: JSONValue) throws(JSONConversionError) -> String {
            guard let text = json.stringValue else { throw JSONConversionError("expected a string") }
            return upper ? text.uppercased() : text.lowercased()
        }

        func json(from value: String) -> JSONValue? { .string(value) }
    }

    /// The converters every registry knows by name.
    static let builtinNamed: [String: AnyConverter] = [
        "iso8601": AnyConverter(Dates(.iso8601), name: "iso8601"),
        "secondsSince1970": AnyConverter(Dates(.secondsSince1970), name: "secondsSince1970"),
        "millisecondsSince1970": AnyConverter(Dates(.millisecondsSince1970), name: "millisecondsSince1970"),
        "hexColor": AnyConverter(Closure<Int>.hexColor, name: "hexColor"),
        "uppercase": AnyConverter(Case(upper: true), name: "uppercase"),
        "lowercase": AnyConverter(Case(upper: false), name: "lowercase"),
    ]
}

/// A converter that may write dates in one format, which it tells.
protocol DateConverter {
    var dateFormat: DateFormat? { get }
}

extension JSONConverters.Closure: DateConverter {}

/// A converter that can tell why a value cannot be written (``JSONConverters/Closure``).
protocol UnwritableValueReporting {
    /// A check that says why a property's value of any shape (`T`, `T?`, `[T]`, `[T?]`,
    /// `[String: T]`, `[String: T?]`) holds a value the converter cannot write, or nil when it
    /// can; no check for a converter that cannot tell (a write then asks the checks of dates).
    var unwritableReasonOfAny: (@Sendable (Any) -> String?)? { get }
}

extension JSONConverters.Closure: UnwritableValueReporting {
    var unwritableReasonOfAny: (@Sendable (Any) -> String?)? {
        guard let unwritable else { return nil }
        return { value in Self.reason(of: value, unwritable) }
    }

    private static func reason(of value: Any, _ unwritable: @escaping @Sendable (Value) -> String?) -> String? {
        switch value {
        case let one as Value: return unwritable(one)
        case let optional as Value?: return optional.flatMap(unwritable)
        case let array as [Value]: return array.lazy.compactMap(unwritable).first
        case let array as [Value?]: return array.lazy.compactMap { $0.flatMap(unwritable) }.first
        case let dictionary as [String: Value]: return dictionary.values.lazy.compactMap(unwritable).first
        case let dictionary as [String: Value?]: return dictionary.values.lazy.compactMap { $0.flatMap(unwritable) }.first
        default: return nil
        }
    }
}

extension JSONConverter where Self == JSONConverters.Closure<Date> {
    /// ISO 8601 dates; see ``DateFormat/iso8601``.
    public static var iso8601: Self { dates(.iso8601) }
    /// Seconds since 1970.
    public static var secondsSince1970: Self { dates(.secondsSince1970) }
    /// Milliseconds since 1970.
    public static var millisecondsSince1970: Self { dates(.millisecondsSince1970) }
    /// Dates in any ``DateFormat``, such as `.dates("dd/MM/yyyy")`: reads that format first,
    /// then the fallbacks; writes it.
    public static func dates(_ format: DateFormat) -> Self {
        JSONConverters.Closure(JSONConverters.Dates(format), dateFormat: format)
    }
}

extension JSONConverter where Self == JSONConverters.Closure<Int> {
    /// `#rrggbb` text (or `rrggbb`, or `#rgb`) as an `Int`, written back as lowercase `#rrggbb`.
    ///
    /// A value outside `0...0xFFFFFF` is no such colour: a write of one is refused, as
    /// ``JSONModelError/unwritable(model:property:reason:)``, rather than written as another colour.
    public static var hexColor: Self {
        var converter = JSONConverters.Closure(JSONConverters.HexColor())
        converter.unwritable = { value in
            (0...0xFF_FFFF).contains(value) ? nil : "\(value) is not a colour from #000000 to #ffffff"
        }
        return converter
    }
}

extension JSONConverter where Self == JSONConverters.Closure<String> {
    /// Strings read upper-cased (written as they are).
    public static var uppercase: Self { JSONConverters.Closure(JSONConverters.Case(upper: true)) }
    /// Strings read lower-cased (written as they are).
    public static var lowercase: Self { JSONConverters.Closure(JSONConverters.Case(upper: false)) }
}

extension JSONConverter {
    /// A converter made of closures.
    ///
    /// ```swift
    /// let color: JSONConverters.Closure<Color> = .closure(
    ///     read: { palette.color(named: $0.stringValue) }, write: { .string($0.name) },
    ///     isStillValid: { $0.version == palette.version })
    /// ```
    ///
    /// - Parameters:
    ///   - read: The value for non-null JSON, or nil when it does not convert.
    ///   - write: The JSON for a value; nil writes nothing.
    ///   - isStillValid: Asked on each read of a cached value; false converts again.
    /// - Returns: The converter.
    public static func closure<Value>(
        read: @escaping @Sendable (JSONValue) -> Value?, write: @escaping @Sendable (Value) -> JSONValue?,
        isStillValid: (@Sendable (Value) -> Bool)? = nil
    ) -> Self where Self == JSONConverters.Closure<Value> {
        JSONConverters.Closure(read: read, write: write, isStillValid: isStillValid)
    }
}

// MARK: - Dates as the built-in conversion

extension AnyConverter {
    /// A declared `dateFormat`: reads it first, then the fallbacks; writes it, keeping a
    /// stored string a string for the epoch formats.
    init(dateFormat format: DateFormat) {
        self.init(
            valueType: Date.self, name: "dateFormat \(format)",
            read: { input, context in DateReading.date(from: input, format: format, context: &context) },
            write: { value, existing in
                guard let date = value as? Date else { return .none }
                return .some(format.json(from: date, replacing: existing))
            })
        self.dateFormat = format
        firstReader = FirstReader { node in DateReading.plainDate(of: node, format: format) }
    }
}

/// Reading dates from JSON input with a declared format and the fallbacks.
///
/// A date read is one the property can write back: a date `format` cannot write
/// (``DateFormat/canWrite(_:)``) gives nil with an out-of-range diagnostic. `keepsNumbers` is for
/// the built-in conversion, which writes a date read from a number back as a number.
///
/// A JSON number under a declared pattern of digits only (`yyyyMMdd`) is that pattern's text
/// (`20180215`): it reads through the pattern alone, and one the pattern cannot read is a
/// diagnostic, not seconds since 1970. Under any other pattern a number reads as seconds since
/// 1970 with a diagnostic, as the pattern cannot spell it.
enum DateReading {
    /// A string without escapes that `format` or a fallback reads, and that `format` can write
    /// back: what ``date(from:format:keepsNumbers:context:)`` returns without a diagnostic, for a
    /// first read. Numbers and escaped strings take the general path.
    static func plainDate(of node: JSONNode, format: DateFormat) -> Date? {
        guard let date = node.withPlainStringUTF8({ format.dateTryingFallbacks(fromUTF8: $0) }), format.canWrite(date)
        else { return nil }
        return date
    }

    static func date(
        from input: JSONInput, format: DateFormat, keepsNumbers: Bool = false, context: inout ConversionContext
    ) -> Date? {
        switch input.kind {
        case .number:
            let text = input.numberText!
            if case .pattern(let pattern) = format.storage {
                if pattern.isDigitsOnly { return date(fromDigits: text, format: format, context: &context) }
                if let date = format.date(fromNumber: text), format.canWrite(date) {
                    context.record(
                        .typeMismatch, "\(text) is a number, which \(format) cannot spell; read as seconds since 1970")
                    return date
                }
            } else if let date = format.date(fromNumber: text), keepsNumbers || format.canWrite(date) {
                return date
            }
            context.record(.outOfRange, "\(text) is out of range for a Date in \(format)")
            return nil
        case .string:
            if let date = input.withStringUTF8({ format.dateTryingFallbacks(fromUTF8: $0) }) ?? nil {
                if format.canWrite(date) { return date }
                context.record(.outOfRange, "\"\(input.stringValue!.prefix(60))\" is out of range: \(format.unwritableReason(date))")
                return nil
            }
            let text = input.stringValue!
            context.record(.invalidValue, "\"\(text.prefix(60))\" is not a date in \(format) or a known date format")
            return nil
        default:
            context.typeMismatch(input, expected: "a date (\(format))")
            return nil
        }
    }

    /// A JSON number's text read by a pattern of digits only: its digits are the pattern's text.
    private static func date(fromDigits text: String, format: DateFormat, context: inout ConversionContext) -> Date? {
        if text.utf8.allSatisfy(ByteScanner.isDigit), let date = format.date(from: text) {
            if format.canWrite(date) { return date }
            context.record(.outOfRange, "\(text) is out of range: \(format.unwritableReason(date))")
            return nil
        }
        context.record(.invalidValue, "the number \(text.prefix(60)) is not a date in \(format)")
        return nil
    }
}
