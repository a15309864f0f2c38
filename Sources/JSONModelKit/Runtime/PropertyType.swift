#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// The Swift type of a model property, described as data.
///
/// The registration block maps each declared Swift type to a `PropertyType`;
/// schemas declared as data use the same descriptors, so compiled and dynamic
/// models share one engine.
///
/// ```swift
/// PropertyType(of: [String: Int?].self)   // .dictionary(.optional(.int))
/// ```
indirect enum PropertyType: Sendable, Hashable, CustomStringConvertible {
    case int, int8, int16, int32, int64
    case uint, uint8, uint16, uint32, uint64
    case double, float, bool, string, decimal, url, uuid
    /// `Data`, stored in JSON as base64 text.
    case data
    /// `Date`, stored as ISO 8601 text (or seconds since 1970 when the JSON holds a number).
    case date
    /// A raw `JSONValue`, unconverted.
    case json
    /// A nested model.
    case model(JSONModel.Type)
    /// A nested model declared by a schema, by its name in the registry (see ``ModelSchema``).
    case schemaModel(String)
    /// `[Element]`.
    case array(PropertyType)
    /// `[String: Value]`.
    case dictionary(PropertyType)
    /// `Wrapped?`.
    case optional(PropertyType)
    /// A type of the user's (or an optional of it), converted by a registered converter, its
    /// `JSONConvertible` conformance, or its raw values (CustomValue.swift).
    case custom(CustomValueType)

    /// The descriptor of a Swift type, or nil when the engine cannot store that type.
    ///
    /// - Parameter type: A Swift type such as `Int.self`, `[Address].self` or `String?.self`.
    init?(of type: Any.Type) {
        guard let convertible = type as? any PropertyValue.Type else { return nil }
        self = convertible.propertyType
    }

    /// Whether a value of this type needs a declared default when the JSON lacks it.
    ///
    /// Optionals default to nil, numbers to zero, strings and `Data` to empty,
    /// collections to empty, models to an empty model; `URL`, `UUID` and `Date`
    /// have no natural default.
    var needsDeclaredDefault: Bool {
        switch self {
        case .url, .uuid, .date: return true
        default: return false
        }
    }

    /// Whether a missing value reads nil: an optional, or an optional of the user's own type.
    var readsNilWhenMissing: Bool {
        switch self {
        case .optional: return true
        case .custom(let custom): return custom.isOptional
        default: return false
        }
    }

    /// Whether a model appears anywhere in this type.
    var containsModel: Bool {
        switch self {
        case .model, .schemaModel: return true
        case .array(let inner), .dictionary(let inner), .optional(let inner): return inner.containsModel
        default: return false
        }
    }

    /// Whether this is a model (compiled or schema), not an optional or collection of one.
    var isModel: Bool {
        switch self {
        case .model, .schemaModel: return true
        default: return false
        }
    }

    /// The array and dictionary element types a lazy collection can be stored for.
    var modelArrayElement: PropertyType? {
        switch self {
        case .array(let element) where element.isModel: return element
        case .optional(let wrapped): return wrapped.modelArrayElement
        default: return nil
        }
    }

    /// The name of the schema model this type contains, if any.
    var schemaModelName: String? {
        switch self {
        case .schemaModel(let name): return name
        case .array(let inner), .dictionary(let inner), .optional(let inner): return inner.schemaModelName
        default: return nil
        }
    }

    /// The model class, when this is a model or an optional model.
    var modelType: JSONModel.Type? {
        switch self {
        case .model(let type): return type
        case .schemaModel: return DynamicModel.self
        case .optional(let inner): return inner.modelType
        default: return nil
        }
    }

    /// The Swift spelling of the type, such as `[String: Int?]`.
    var description: String {
        switch self {
        case .int: return "Int"
        case .int8: return "Int8"
        case .int16: return "Int16"
        case .int32: return "Int32"
        case .int64: return "Int64"
        case .uint: return "UInt"
        case .uint8: return "UInt8"
        case .uint16: return "UInt16"
        case .uint32: return "UInt32"
        case .uint64: return "UInt64"
        case .double: return "Double"
        case .float: return "Float"
        case .bool: return "Bool"
        case .string: return "String"
        case .decimal: return "Decimal"
        case .url: return "URL"
        case .uuid: return "UUID"
        case .data: return "Data"
        case .date: return "Date"
        case .json: return "JSONValue"
        case .model(let type): return String(describing: type)
        case .schemaModel(let name): return name
        case .custom(let custom): return custom.description
        case .array(let element): return "[\(element)]"
        case .dictionary(let value): return "[String: \(value)]"
        case .optional(let wrapped):
            if case .optional = wrapped { return "(\(wrapped))?" }
            return "\(wrapped)?"
        }
    }

    /// The Swift type this descriptor stands for, used to convert values of it.
    var swiftType: any PropertyValue.Type {
        switch self {
        case .int: return Int.self
        case .int8: return Int8.self
        case .int16: return Int16.self
        case .int32: return Int32.self
        case .int64: return Int64.self
        case .uint: return UInt.self
        case .uint8: return UInt8.self
        case .uint16: return UInt16.self
        case .uint32: return UInt32.self
        case .uint64: return UInt64.self
        case .double: return Double.self
        case .float: return Float.self
        case .bool: return Bool.self
        case .string: return String.self
        case .decimal: return Decimal.self
        case .url: return URL.self
        case .uuid: return UUID.self
        case .data: return Data.self
        case .date: return Date.self
        case .json: return JSONValue.self
        case .model(let type): return type
        case .schemaModel: return DynamicModel.self
        case .custom(let custom): return custom.valueType
        case .array(let element): return PropertyType.arrayType(of: element.swiftType)
        case .dictionary(let value): return PropertyType.dictionaryType(of: value.swiftType)
        case .optional(let wrapped): return PropertyType.optionalType(of: wrapped.swiftType)
        }
    }

    private static func arrayType<Element: PropertyValue>(of _: Element.Type) -> any PropertyValue.Type {
        [Element].self
    }

    private static func dictionaryType<Value: PropertyValue>(of _: Value.Type) -> any PropertyValue.Type {
        [String: Value].self
    }

    private static func optionalType<Wrapped: PropertyValue>(of _: Wrapped.Type) -> any PropertyValue.Type {
        Wrapped?.self
    }

    static func == (lhs: PropertyType, rhs: PropertyType) -> Bool {
        switch (lhs, rhs) {
        case (.model(let a), .model(let b)): return a == b
        case (.schemaModel(let a), .schemaModel(let b)): return a == b
        case (.custom(let a), .custom(let b)): return a == b
        case (.custom, _), (_, .custom): return false
        case (.array(let a), .array(let b)), (.dictionary(let a), .dictionary(let b)),
            (.optional(let a), .optional(let b)):
            return a == b
        case (.model, _), (.schemaModel, _), (.array, _), (.dictionary, _), (.optional, _),
            (_, .model), (_, .schemaModel), (_, .array), (_, .dictionary), (_, .optional):
            return false
        default:
            return lhs.description == rhs.description
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .model(let type): hasher.combine(ObjectIdentifier(type))
        case .schemaModel(let name): hasher.combine("schema:" + name)
        case .custom(let custom): hasher.combine(custom)
        default: hasher.combine(description)
        }
    }
}

extension PropertyType {
    /// Whether the property holds a collection of models (`[Item]`, `[String: Item]?`), whose
    /// elements a write places (``ElementPlacing``).
    var holdsModelElements: Bool {
        switch self {
        case .array(let element), .dictionary(let element): element.modelTypeOrSchema
        case .optional(let wrapped): wrapped.holdsModelElements
        default: false
        }
    }

    private var modelTypeOrSchema: Bool {
        switch self {
        case .model, .schemaModel: true
        case .optional(let wrapped): wrapped.modelTypeOrSchema
        default: false
        }
    }
}
