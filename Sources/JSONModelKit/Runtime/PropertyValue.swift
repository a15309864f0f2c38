#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// Conversion between JSON and property values, in both directions.
//
// Each supported Swift type conforms to `PropertyValue`, which reads a value
// from JSON (recording a diagnostic when it cannot) and writes one back,
// keeping the JSON kind already stored. Collections and optionals conform
// conditionally, so `[String: [Int?]]` converts element by element into a
// properly typed Swift value, without `[Any]` in between. The conformances are
// in PropertyValue+Scalars.swift and PropertyValue+Containers.swift.

/// A Swift type a model property can have.
///
/// Internal: the set of property types is closed; user types convert through
/// ``JSONConverter`` and ``JSONConvertible`` instead.
protocol PropertyValue: Sendable {
    /// The descriptor of this type.
    static var propertyType: PropertyType { get }
    /// The value a property of this type has when its JSON is missing or null and
    /// nothing was declared; nil when the type has no natural default.
    static var implicitDefault: Self? { get }
    /// The value an array or dictionary element that does not convert takes;
    /// nil leaves the element out. Only optionals have one (nil).
    static var failedElementValue: Self? { get }
    /// Reads a value from non-null JSON, or records a diagnostic and returns nil.
    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Self?
    /// Reads the elements of a JSON array as `convert` reads each one at its index, leaving out
    /// those that do not convert (or giving them ``failedElementValue``): what `[Self]` reads.
    /// The scalar types read in a loop of their own (PropertyValue+Elements.swift).
    ///
    /// `Element` is always `Self`: a requirement that names `[Self]` could not be met by
    /// `JSONModel`, a class that is not final.
    static func convertElements<Element>(of input: JSONInput, as elementType: Element.Type, context: inout ConversionContext)
        -> [Element]
    /// Reads the elements of a JSON array as `[Self]` reads each one: what `[[Self]]` reads.
    /// `Element` is always `[Self]`.
    static func convertArrays<Element>(of input: JSONInput, as elementType: Element.Type, context: inout ConversionContext)
        -> [Element]
    /// The JSON for this value, keeping the kind of `existing` where it makes
    /// sense ("42" stays a string); nil means no value (an optional's nil).
    func jsonValue(replacing existing: JSONInput?) -> JSONValue?

    // Requirements with default implementations below, so that the converted types of
    // CustomValue.swift can store values of a type other than themselves.
    static func convertAny(_ input: JSONInput, context: inout ConversionContext) -> (any Sendable)?
    static func jsonValue(ofAny value: Any, replacing existing: JSONInput?) -> JSONValue??
    static func makeCacheEntry(_ value: any Sendable) -> CacheEntry
    /// The class of this type's cache entries (`CacheBox<Self>`), asked once per property so that
    /// making an entry needs no run-time lookup of that generic class's metadata.
    static var cacheEntryType: CacheEntry.Type { get }
    static func cast(_ value: Any) -> (any Sendable)?
    static var implicitDefaultAny: (any Sendable)? { get }
}

extension PropertyValue {
    static var failedElementValue: Self? { nil }

    /// `convert` with the result boxed, for callers that hold only a metatype.
    static func convertAny(_ input: JSONInput, context: inout ConversionContext) -> (any Sendable)? {
        convert(input, context: &context)
    }

    /// The JSON for `value` if it has this type; `.failure` when it does not.
    static func jsonValue(ofAny value: Any, replacing existing: JSONInput?) -> JSONValue?? {
        guard let typed = value as? Self else { return .none }
        return .some(typed.jsonValue(replacing: existing))
    }

    /// A cache entry for a value of this type.
    static func makeCacheEntry(_ value: any Sendable) -> CacheEntry {
        CacheBox(value as! Self)
    }

    static var cacheEntryType: CacheEntry.Type { CacheBox<Self>.self }

    /// The value given, if it already has this type (boxed for storage).
    static func cast(_ value: Any) -> (any Sendable)? {
        value as? Self
    }
}

/// Implemented by `Optional` so boxed values can be unwrapped without knowing their type.
protocol OptionalPropertyValue {
    /// The wrapped value, or nil.
    var wrappedValue: (any Sendable)? { get }
}

extension Optional: OptionalPropertyValue where Wrapped: PropertyValue {
    var wrappedValue: (any Sendable)? {
        switch self {
        case .some(let value):
            if let nested = value as? any OptionalPropertyValue { return nested.wrappedValue }
            return value
        case .none: return nil
        }
    }
}

/// Unwraps any levels of `Optional` in a boxed value; nil when one of them is nil.
func unwrappedValue(_ value: (any Sendable)?) -> (any Sendable)? {
    guard let value else { return nil }
    if let optional = value as? any OptionalPropertyValue { return optional.wrappedValue }
    return value
}
