import JSONModelKitCore

/// Turns JSON into values of one type and back, and may say whether a cached value is still valid.
///
/// Register a converter for a property name, for a value type on a model class, for a
/// value type everywhere, or under a name that declarations and schemas refer to:
///
/// ```swift
/// struct HexColorConverter: JSONConverter {
///     func value(from json: JSONValue) throws(JSONConversionError) -> Color {
///         guard let text = json.stringValue, let color = Color(hex: text) else {
///             throw JSONConversionError("expected a colour like #ff8800")
///         }
///         return color
///     }
///     func json(from value: Color) -> JSONValue { .string(value.hex) }
/// }
/// ModelRegistry.shared.register(HexColorConverter(), named: "hexColor")
/// ModelRegistry.shared.register(HexColorConverter(), for: Color.self)
/// ```
///
/// For property `createdAt: Date` on `User` the registry uses the first of: a converter
/// registered for the property name on `User` or a superclass; the one the declaration
/// names (`converter:`, or what `dateFormat:`, `enumValues:` and `cachedObject:` imply); one
/// registered for `Date` on `User` or a superclass, then globally; `Date`'s conformance to
/// ``JSONConvertible`` (or, for a type of yours, its raw values or `Codable` conformance); the
/// built-in conversion. The choice is cached per class and
/// property; a later registration clears exactly the choices it could change.
public protocol JSONConverter<Value>: Sendable {
    /// The type of the values made.
    associatedtype Value: Sendable

    /// Converts non-null JSON into a value, or throws to record a diagnostic (the property
    /// then reads its default).
    func value(from json: JSONValue) throws(JSONConversionError) -> Value

    /// The JSON for a value; nil writes nothing (the key is removed).
    func json(from value: Value) -> JSONValue?

    /// Whether this converter checks cached values; false (the default) skips ``isStillValid(_:)``.
    var validatesCachedValues: Bool { get }

    /// Whether a cached value may still be used; false makes the next read convert again.
    ///
    /// Called on every read of a cached value when ``validatesCachedValues`` is true.
    func isStillValid(_ value: Value) -> Bool
}

extension JSONConverter {
    public var validatesCachedValues: Bool { false }
    public func isStillValid(_ value: Value) -> Bool { true }
}

/// Why a converter could not make a value; becomes a model diagnostic.
public struct JSONConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for the diagnostic.
    let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// A type that converts itself from and to JSON (the third tier of the converter lookup).
///
/// ```swift
/// struct Money: JSONConvertible {
///     var cents: Int
///     init(json: JSONValue) throws(JSONConversionError) {
///         guard let cents = json.intValue else { throw JSONConversionError("expected cents") }
///         self.cents = cents
///     }
///     var json: JSONValue { .number(JSONNumber(cents)) }
/// }
/// p.price(Money.self, default: Money(cents: 0))
/// ```
public protocol JSONConvertible: Sendable {
    /// Creates a value from non-null JSON, or throws to record a diagnostic.
    init(json: JSONValue) throws(JSONConversionError)
    /// The value's JSON.
    var json: JSONValue { get }
}

/// A converter as a declaration names it: by registered name, or an instance.
///
/// ```swift
/// p.color(Color.self, converter: "hexColor")
/// p.title(String.self, converter: .using(UppercaseConverter()))
/// ```
public struct ConverterReference: Sendable, ExpressibleByStringLiteral {
    /// The reference, compared and hashed as declarations compare: by name, or by the
    /// instance's identity.
    enum Storage: Sendable, Hashable {
        case named(String)
        case instance(AnyConverter, InstanceIdentity)

        static func == (lhs: Storage, rhs: Storage) -> Bool {
            switch (lhs, rhs) {
            case (.named(let a), .named(let b)): return a == b
            case (.instance(_, let a), .instance(_, let b)): return a == b
            default: return false
            }
        }

        func hash(into hasher: inout Hasher) {
            switch self {
            case .named(let name): hasher.combine(name)
            case .instance(_, let identity): hasher.combine(identity)
            }
        }
    }

    let storage: Storage

    /// A converter registered under `name` (looked up when first needed, so it may be registered later).
    static func named(_ name: String) -> ConverterReference {
        ConverterReference(storage: .named(name))
    }

    /// This converter instance.
    ///
    /// A registration block runs once for its class and again for each subclass that inherits
    /// it, making a new instance each time; the declarations it repeats must still compare
    /// equal. So two references are the same when the converters have the same type and are
    /// equal (for an `Equatable` converter) or were made by the same call in the source
    /// (otherwise).
    ///
    /// - Parameters:
    ///   - converter: The converter the property uses.
    ///   - fileID: The file of the call; leave the default.
    ///   - line: The line of the call; leave the default.
    ///   - column: The column of the call; leave the default.
    public static func using<C: JSONConverter>(
        _ converter: C, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> ConverterReference {
        let identity = InstanceIdentity(converter, site: .init(fileID: "\(fileID)", line: line, column: column))
        return ConverterReference(storage: .instance(AnyConverter(converter, name: String(describing: C.self)), identity))
    }

    public init(stringLiteral value: String) {
        self.storage = .named(value)
    }

    init(storage: Storage) {
        self.storage = storage
    }

    /// The registered name, when the reference is by name.
    var name: String? {
        if case .named(let name) = storage { return name }
        return nil
    }
}

/// What makes two converter instances one declaration's converter: the same type, and equal
/// values when the type is `Equatable`, else the same call of ``ConverterReference/using(_:fileID:line:column:)``.
struct InstanceIdentity: Sendable, Hashable {
    struct Site: Sendable, Hashable {
        let fileID: String
        let line: UInt
        let column: UInt
    }

    let type: ObjectIdentifier
    /// Where the converter was made; nil for an `Equatable` converter, which its value identifies.
    let site: Site?
    let converter: any Sendable

    init<C: JSONConverter>(_ converter: C, site: Site) {
        self.type = ObjectIdentifier(C.self)
        self.converter = converter
        self.site = converter is any Equatable ? nil : site
    }

    static func == (lhs: InstanceIdentity, rhs: InstanceIdentity) -> Bool {
        guard lhs.type == rhs.type, lhs.site == rhs.site else { return false }
        guard lhs.site == nil, let value = lhs.converter as? any Equatable else { return true }
        return isEqual(value, rhs.converter)
    }

    private static func isEqual<E: Equatable>(_ value: E, _ other: Any) -> Bool {
        (other as? E) == value
    }

    /// The type and site only: equal `Equatable` converters have the same type and no site.
    func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(site)
    }
}

/// A converter with its value type erased, as the registry stores it.
///
/// Values travel as `any Sendable` holding exactly `valueType`.
struct AnyConverter: Sendable {
    /// The converted type.
    let valueType: Any.Type
    /// For messages: the converter's name or type.
    let name: String
    let read: @Sendable (JSONInput, inout ConversionContext) -> (any Sendable)?
    /// nil for a value of another type; `.some(nil)` writes nothing.
    let write: @Sendable (Any, JSONInput?) -> JSONValue??
    /// Present when cached values must be checked on each read.
    let validate: (@Sendable (Any) -> Bool)?
    /// The format a date converter writes, so a write can refuse a date it cannot write first.
    var dateFormat: DateFormat?
    /// Why a value (of the property's stored type) cannot be written, for converters that can
    /// tell (Codable values: a NaN inside); nil when it can.
    var unwritableReason: (@Sendable (Any) -> String?)?
    /// The read of a plain member without a conversion context, for the converters that have
    /// one (ConvertedFirstRead.swift); it reads what `read` reads, and declines the rest.
    var firstReader: FirstReader?

    init(
        valueType: Any.Type, name: String, read: @escaping @Sendable (JSONInput, inout ConversionContext) -> (any Sendable)?,
        write: @escaping @Sendable (Any, JSONInput?) -> JSONValue??, validate: (@Sendable (Any) -> Bool)? = nil
    ) {
        self.valueType = valueType
        self.name = name
        self.read = read
        self.write = write
        self.validate = validate
    }

    init<C: JSONConverter>(_ converter: C, name: String) {
        self.valueType = C.Value.self
        self.name = name
        let dateFormat = (converter as? JSONConverters.Dates)?.format ?? (converter as? any DateConverter)?.dateFormat
        if let dateFormat {
            // The library's date converters read and write as a declared date format does: read
            // into the model's context (a conversion of their own would keep its diagnostics, a
            // number read as seconds since 1970, from the model), and written keeping the stored
            // kind (a date read from a string under an epoch format stays a string, one read from
            // a number under a pattern of digits a number).
            let declared = AnyConverter(dateFormat: dateFormat)
            self.read = declared.read
            self.write = declared.write
        } else {
            self.read = { input, context in
                do throws(JSONConversionError) {
                    return try converter.value(from: input.jsonValue)
                } catch {
                    context.record(.invalidValue, error.message)
                    return nil
                }
            }
            self.write = { value, _ in
                guard let typed = value as? C.Value else { return .none }
                return .some(converter.json(from: typed))
            }
        }
        if converter.validatesCachedValues {
            self.validate = { (value: Any) -> Bool in
                guard let typed = value as? C.Value else { return true }
                return converter.isStillValid(typed)
            }
        } else {
            self.validate = nil
        }
        self.dateFormat = dateFormat
        self.unwritableReason = (converter as? any UnwritableValueReporting)?.unwritableReasonOfAny
    }

    /// The conversion a ``JSONConvertible`` type provides.
    init<T: JSONConvertible>(convertible _: T.Type) {
        let read: @Sendable (JSONInput, inout ConversionContext) -> (any Sendable)? = { input, context in
            AnyConverter.make(T.self, from: input, context: &context)
        }
        let write: @Sendable (Any, JSONInput?) -> JSONValue?? = { value, _ in
            guard let typed = value as? T else { return .none }
            return .some(typed.json)
        }
        self.init(valueType: T.self, name: "\(T.self)", read: read, write: write)
    }

    private static func make<T: JSONConvertible>(_: T.Type, from input: JSONInput, context: inout ConversionContext) -> T? {
        do {
            return try T(json: input.jsonValue)
        } catch {
            context.record(.invalidValue, error.message)
            return nil
        }
    }
}

/// A conversion written for one type, as a `Sendable` value that ``AnyConverter``'s closures call.
///
/// A generic parameter's metatype is not `Sendable` unless the parameter is (Swift 6.2 checks it
/// in `@Sendable` closures), and the conversions that reach a type through an opened existential
/// (`any RawRepresentable.Type`, `any Decodable.Type`) cannot see the `Sendable` that every
/// property type has. So instead of capturing the type, the closures capture a value made where
/// the type is known.
protocol TypedConversion: Sendable {
    func read(_ input: JSONInput, context: inout ConversionContext) -> (any Sendable)?
    /// nil for a value of another type; `.some(nil)` writes nothing.
    func write(_ value: Any, replacing existing: JSONInput?) -> JSONValue??
}

extension AnyConverter {
    init(valueType: Any.Type, name: String, conversion: any TypedConversion) {
        self.init(
            valueType: valueType, name: name,
            read: { input, context in conversion.read(input, context: &context) },
            write: { value, existing in conversion.write(value, replacing: existing) })
    }
}
