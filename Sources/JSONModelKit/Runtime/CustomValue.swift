import JSONModelKitCore

// Property types that are not built in: a user's type converted by a registered
// converter, by its `JSONConvertible` conformance, (enums) by its raw value or
// `JSONStringEnum` nature, or by its `Codable` conformance (CodableValue.swift).
// Each such type (and its optional) gets one shared descriptor, `CustomValueType`, that the
// engine stores in `PropertyType.custom`.

/// A property type of the user's: `Color`, `Status`, `Kind?`.
///
/// Values are `Sendable` (models are shared between threads): a registration block only takes
/// `Sendable` types, and converters only make `Sendable` values.
final class CustomValueType: Sendable, Hashable, CustomStringConvertible {
    /// The user's type, without the optional.
    let baseType: Any.Type
    /// Whether the property's type is `Base?`.
    let isOptional: Bool
    /// The engine's conversion type for it (stores `Base` or `Base?` in the cache).
    let valueType: any PropertyValue.Type
    /// What the type knows about its own JSON: `JSONConvertible`, a raw value, `JSONStringEnum`, `Codable`.
    let builtin: AnyConverter?
    /// Whether `builtin` is the `JSONConvertible` conformance (tier 3) rather than an enum's built-in.
    let isConformance: Bool
    /// The value when the JSON is missing and nothing was declared: nil for optionals, the
    /// unknown case of a ``JSONUnknownCase`` enum, empty for Codable arrays and dictionaries;
    /// absent otherwise.
    let implicitDefault: (any Sendable)?
    /// `Base` to the stored type (`Base?` for optionals).
    let wrap: @Sendable (any Sendable) -> any Sendable
    /// The stored type to `Base`: `.some(base)`, `.some(nil)` for an optional's nil, nil for another type.
    let unwrap: @Sendable (Any) -> (any Sendable)??
    /// Whether a value is written as no value (an enum's unknown case).
    let isNeverWritten: @Sendable (Any) -> Bool
    /// For a collection of a user's type (`[Shape]`, `[String: Money?]`), the element type's
    /// descriptor (CustomCollection.swift).
    let element: CustomValueType?

    var description: String { "\(baseType)" + (isOptional ? "?" : "") }

    static func == (lhs: CustomValueType, rhs: CustomValueType) -> Bool {
        lhs.baseType == rhs.baseType && lhs.isOptional == rhs.isOptional
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(baseType))
        hasher.combine(isOptional)
    }

    private init<Base>(base: Base.Type, optional: Bool) {
        self.baseType = Base.self
        self.isOptional = optional
        var conformance = false
        let builtin: AnyConverter?
        let collection = Base.self as? any CustomCollection.Type
        let element = collection?.elementDescriptor
        self.element = element
        if let convertible = Base.self as? any JSONConvertible.Type {
            builtin = AnyConverter(convertible: convertible)
            conformance = true
        } else if let collection, let element {
            builtin = element.builtin.map { AnyConverter(elementsOf: collection, element: element, converter: $0) }
        } else if let stringEnum = Base.self as? any JSONStringEnum.Type {
            builtin = AnyConverter(stringEnum: stringEnum)
        } else if let raw = Base.self as? any RawRepresentable.Type {
            builtin = AnyConverter(rawEnum: raw)
        } else if let decodable = Base.self as? any Decodable.Type {
            builtin = AnyConverter(decodable: decodable)
        } else {
            builtin = nil
        }
        self.builtin = builtin
        self.isConformance = conformance
        let unknown = (Base.self as? any JSONUnknownCase.Type)?.unknownValue
        self.isNeverWritten = { value in
            guard let unknown, let raw = (value as? any RawRepresentable)?.rawValue as? AnyHashable,
                let unknownRaw = (unknown as? any RawRepresentable)?.rawValue as? AnyHashable
            else { return false }
            return raw == unknownRaw
        }
        if optional {
            self.valueType = CustomValue<Base?>.self
            self.implicitDefault = sendable(Base?.none)
            self.wrap = { value in sendable(value as? Base) }
            self.unwrap = { value in
                if let base = value as? Base { return .some(sendable(base)) }
                if let optional = value as? Base? { return .some(optional.map { sendable($0) }) }
                return nil
            }
        } else {
            self.valueType = CustomValue<Base>.self
            self.implicitDefault = unknown ?? (element != nil ? collection?.emptyValue : nil)
            self.wrap = { $0 }
            self.unwrap = { value in (value as? Base).map { .some(sendable($0)) } }
        }
    }

    private static let known = Locked<[ObjectIdentifier: CustomValueType]>([:])

    /// The shared descriptor of `T` (which may be an optional of the user's type), or nil for
    /// types the engine converts itself.
    static func descriptor<T>(for type: T.Type) -> CustomValueType? {
        if let marker = T.self as? any OptionalTypeMarker.Type { return marker.customWrappedDescriptor }
        if T.self is any CollectionTypeMarker.Type, (T.self as? any CustomCollection.Type)?.elementDescriptor == nil { return nil }
        return make(base: T.self, optional: false)
    }

    static func make<Base>(base: Base.Type, optional: Bool) -> CustomValueType {
        let key = ObjectIdentifier(optional ? Base?.self : Base.self)
        if let existing = known.withLock({ $0[key] }) { return existing }
        let made = CustomValueType(base: base, optional: optional)
        return known.withLock { known in
            if let raced = known[key] { return raced }
            known[key] = made
            return made
        }
    }

    /// The descriptor whose conversion type is `valueType`.
    static func descriptor(ofValueType valueType: Any.Type) -> CustomValueType? {
        known.withLock { $0.values.first { $0.valueType == valueType } }
    }
}

/// Boxes a value of a property type for storage.
///
/// Every way a type becomes a property type requires `Sendable` (`PropertyRegistrar.add`, the
/// declarator, `JSONConverter.Value`), but the conversions here reach the type through opened
/// existentials (`any RawRepresentable.Type`, `any Decodable.Type`), where the constraint is not
/// visible to the compiler and cannot be cast to (it is a marker protocol).
@inline(__always)
func sendable<T>(_ value: T) -> any Sendable {
    // `any Sendable` and `Any` have one layout (Sendable is a marker protocol).
    unsafeBitCast(value as Any, to: (any Sendable).self)
}

/// Implemented by `Optional` to reach the descriptor of its wrapped type.
protocol OptionalTypeMarker {
    static var customWrappedDescriptor: CustomValueType? { get }
}

extension Optional: OptionalTypeMarker {
    static var customWrappedDescriptor: CustomValueType? {
        if Wrapped.self is any PropertyValue.Type || Wrapped.self is any OptionalTypeMarker.Type
            || (Wrapped.self is any CollectionTypeMarker.Type && (Wrapped.self as? any CustomCollection.Type)?.elementDescriptor == nil)
        {
            return nil
        }
        return CustomValueType.make(base: Wrapped.self, optional: true)
    }
}

/// Collections the engine does not store itself (`[Int: String]`, `Set`) stay unsupported
/// rather than becoming the user's types, except arrays and `[String: …]` dictionaries of the
/// user's types (`[Shape]`, `[String: Meta]`): those convert element by element
/// (CustomCollection.swift).
protocol CollectionTypeMarker {}
extension Array: CollectionTypeMarker {}
extension Dictionary: CollectionTypeMarker {}
extension Set: CollectionTypeMarker {}

/// The engine's conversion type for a user's type; never instantiated.
enum CustomValue<Stored>: PropertyValue {}

extension CustomValue: @unchecked Sendable {}  // uninhabited

extension CustomValue {
    static var descriptor: CustomValueType? { CustomValueType.descriptor(ofValueType: Self.self) }
    static var propertyType: PropertyType { descriptor.map(PropertyType.custom) ?? .json }
    static var implicitDefault: CustomValue? { nil }
    static var implicitDefaultAny: (any Sendable)? { descriptor?.implicitDefault }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> CustomValue? { nil }
    func jsonValue(replacing existing: JSONInput?) -> JSONValue? { nil }

    static func convertAny(_ input: JSONInput, context: inout ConversionContext) -> (any Sendable)? {
        guard let descriptor else { return nil }
        return descriptor.convert(input, with: descriptor.builtin, context: &context)
    }

    static func jsonValue(ofAny value: Any, replacing existing: JSONInput?) -> JSONValue?? {
        guard let descriptor else { return .none }
        return descriptor.json(of: value, with: descriptor.builtin, replacing: existing)
    }

    static func makeCacheEntry(_ value: any Sendable) -> CacheEntry {
        CacheBox(value as! Stored)
    }

    static var cacheEntryType: CacheEntry.Type { CacheBox<Stored>.self }

    static func cast(_ value: Any) -> (any Sendable)? {
        if let stored = value as? Stored { return sendable(stored) }
        guard let descriptor, let base = descriptor.unwrap(value), let base else { return nil }
        return descriptor.wrap(base)
    }
}

extension CustomValueType {
    /// Converts non-null (or, for optionals, any) JSON with `converter`, or records that there is none.
    func convert(_ input: JSONInput, with converter: AnyConverter?, context: inout ConversionContext) -> (any Sendable)? {
        if input.isNull, isOptional { return implicitDefault }
        guard let converter else {
            context.record(
                .invalidValue,
                "no converter for \(elementBaseType): register one for the type or the property, or conform it to JSONConvertible")
            return nil
        }
        guard let value = converter.read(input, &context) else { return nil }
        return wrap(value)
    }

    /// The user's type itself: the innermost element's type for a collection of it.
    var elementBaseType: Any.Type { element?.elementBaseType ?? baseType }

    /// A converter registered for the user's type, applied to each element of a collection of
    /// it, when `registered` (a lookup by type) finds one for an element type (`Shape`, or
    /// `[Shape]` in `[[Shape]]`); nil for other types.
    func elementConverter(registered: (ObjectIdentifier) -> AnyConverter?) -> AnyConverter? {
        guard let element, let collection = baseType as? any CustomCollection.Type else { return nil }
        guard let converter = registered(ObjectIdentifier(element.baseType)) ?? element.elementConverter(registered: registered)
        else { return nil }
        return AnyConverter(elementsOf: collection, element: element, converter: converter)
    }

    /// The types a registered converter applies to, outermost first: `[[Shape]]`, `[Shape]`, `Shape`.
    var registrationTypes: [ObjectIdentifier] { [ObjectIdentifier(baseType)] + (element?.registrationTypes ?? []) }

    /// The JSON of a stored value: `.some(nil)` writes nothing; nil when the value is of another type.
    func json(of value: Any, with converter: AnyConverter?, replacing existing: JSONInput?) -> JSONValue?? {
        guard let base = unwrap(value) else { return .none }
        guard let base else { return .some(nil) }
        if isNeverWritten(base) { return .some(nil) }
        guard let converter else { return .none }
        return converter.write(base, existing)
    }
}

// MARK: - Enums with raw values

/// An enum whose unknown values read as one case that is never written back.
///
/// ```swift
/// enum Kind: String, JSONUnknownCase { case circle, square, unknown }
/// p.kind(Kind.self)    // "triangle" and a missing value read .unknown; writing .unknown removes the key
/// ```
///
/// An enum case satisfies the requirement, so conforming usually needs no code.
public protocol JSONUnknownCase: RawRepresentable, Sendable {
    /// The case unknown and missing values read as.
    static var unknown: Self { get }
}

extension JSONUnknownCase {
    static var unknownValue: any Sendable { unknown }
}

extension AnyConverter {
    /// Reads the raw value (`String`, or any integer type from a number or numeric string).
    init<E: RawRepresentable>(rawEnum _: E.Type) {
        let unknown = (E.self as? any JSONUnknownCase.Type)?.unknownValue
        self.init(valueType: E.self, name: "\(E.self) raw values", conversion: RawValueConversion<E>(unknown: unknown))
        firstReader = RawValueConversion<E>.firstReader()
    }
}

/// Reads an enum by its raw value and writes the raw value back.
private struct RawValueConversion<E: RawRepresentable>: TypedConversion {
    /// What an unknown raw value reads as: a ``JSONUnknownCase`` enum's unknown case.
    let unknown: (any Sendable)?

    func read(_ input: JSONInput, context: inout ConversionContext) -> (any Sendable)? {
        var rawValue: E.RawValue?
        if E.RawValue.self == String.self {
            rawValue = input.stringValue.map { $0 as! E.RawValue }
        } else if let integer = E.RawValue.self as? any PropertyValue.Type {
            // What the integer's conversion records stands when it gives a value (`1.6` read as 2
            // is lossy; `"2"` is a lenient match that strict validation refuses); when it gives
            // none, the mismatch below says it once, for the enum.
            var scratch = context
            rawValue = integer.convertAny(input, context: &scratch) as? E.RawValue
            if rawValue != nil { context = scratch }
        }
        guard let rawValue else {
            context.typeMismatch(input, expected: "a \(E.RawValue.self) value of \(E.self)")
            return nil
        }
        if let value = E(rawValue: rawValue) { return sendable(value) }
        let shown = input.stringValue.map { "\"\($0.prefix(60))\"" } ?? input.numberText ?? input.summary
        context.record(.invalidValue, "unknown value \(shown) for \(E.self)")
        return unknown
    }

    /// A case read from a string without escapes (`String` raw values) or an integer written
    /// plainly (`Int` raw values); nil for other raw types. An unknown raw value, or any other
    /// JSON, takes the general path, which says why.
    static func firstReader() -> FirstReader? {
        if E.RawValue.self == String.self {
            return FirstReader { node -> E? in
                node.withPlainStringUTF8 { E(rawValue: String(decoding: $0, as: UTF8.self) as! E.RawValue) }
            }
        }
        if E.RawValue.self == Int.self {
            return FirstReader { node -> E? in
                guard let number = Int.plainValue(of: node) else { return nil }
                return E(rawValue: number as! E.RawValue)
            }
        }
        return nil
    }

    func write(_ value: Any, replacing existing: JSONInput?) -> JSONValue?? {
        guard let typed = value as? E else { return .none }
        if let text = typed.rawValue as? String { return .some(.string(text)) }
        if let raw = typed.rawValue as? any PropertyValue { return .some(raw.jsonValue(replacing: existing)) }
        return .none
    }
}
