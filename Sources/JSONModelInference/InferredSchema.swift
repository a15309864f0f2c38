import JSONModelKit
import JSONModelKitCore

/// Models inferred from sample JSON by ``ModelInference``: the root model first, then the
/// models it nests, in the order they were met (breadth first).
///
/// Render it as Swift source (``swiftSource``), as a schema (``schema``, ``schemaText``), or read
/// the models and properties directly.
///
/// ```swift
/// let inferred = try ModelInference.infer(from: sample, rootName: "Order")
/// inferred.models.map(\.name)                    // ["Order", "Customer", "Item"]
/// inferred.models[0].properties[0].type          // .uint64
/// ```
///
/// The root model is the sample itself, each element of a top-level array, or each value of a
/// top-level dictionary; ``topLevel`` says which, and ``topLevelType`` gives the type to read
/// the whole sample as (`Order`, `[Order]`, `[String: Org]`).
package struct InferredSchema: Sendable, Hashable {
    /// The models, root first.
    package var models: [InferredModel]
    /// How the sample's top level holds the root model.
    package var topLevel: TopLevel

    /// How a sample's top level holds the root model.
    package enum TopLevel: Sendable, Hashable {
        /// The top level is an object read as the root model.
        case model
        /// The top level is an array of objects, each read as the root model.
        case array
        /// The top level is an object whose keys are data (ids, or many names of records of one
        /// shape) and whose values are each read as the root model: read it with
        /// `ModelDictionary<Root>(json:)`.
        case dictionary
    }

    package init(models: [InferredModel], topLevel: TopLevel = .model) {
        self.models = models
        self.topLevel = topLevel
    }

    /// The type of the whole sample: the root model, an array or a dictionary of it; nil when
    /// there is no model.
    ///
    /// ```swift
    /// let inferred = try ModelInference.infer(from: archive, rootName: "Org")  // {"5171": {…}, …}
    /// inferred.topLevelType?.description                                      // "[String: Org]"
    /// ```
    package var topLevelType: InferredType? {
        guard let root = models.first else { return nil }
        switch topLevel {
        case .model: return .model(root.name)
        case .array: return .array(.model(root.name))
        case .dictionary: return .dictionary(.model(root.name))
        }
    }

    /// The model named `name`, if any.
    package func model(named name: String) -> InferredModel? {
        models.first { $0.name == name }
    }
}

/// One inferred model: a name and its properties in the order their keys first appeared.
package struct InferredModel: Sendable, Hashable {
    /// The model's name, UpperCamelCase.
    package var name: String
    /// The properties, in the order their keys first appeared in the samples.
    package var properties: [InferredProperty]

    package init(name: String, properties: [InferredProperty]) {
        self.name = name
        self.properties = properties
    }

    /// The key style that explains every key, when some key is not its property's name:
    /// the first of `snake_case`, `kebab-case`, `SCREAMING_SNAKE_CASE` and `PascalCase` in which
    /// each property's name gives its key. Nil when the keys are the names (the default style)
    /// or no one style explains them all; then each key that differs gets a `jsonPath`.
    ///
    /// ```swift
    /// // {"order_id": 1, "placed_at": "…", "status": "paid"}
    /// inferred.models[0].keyStyle   // .snakeCase: orderID, placedAt and status need no jsonPath
    /// ```
    package var keyStyle: KeyStyle? {
        // Keys are compared as models read them, by their bytes: `String`'s `==` takes a Kelvin
        // sign for a K.
        guard properties.contains(where: { !$0.name.isSameJSONKey(as: $0.key) }) else { return nil }
        let styles: [KeyStyle] = [.snakeCase, .kebabCase, .screamingSnakeCase, .pascalCase]
        return styles.first { style in properties.allSatisfy { style.key(for: $0.name).isSameJSONKey(as: $0.key) } }
    }

    /// The paths the properties declare under ``keyStyle``: none when a style explains the keys,
    /// else each property's ``InferredProperty/jsonPath``.
    var declaredPaths: [JSONPath?] {
        keyStyle == nil ? properties.map(\.jsonPath) : properties.map { _ in nil }
    }
}

/// One inferred property.
package struct InferredProperty: Sendable, Hashable {
    /// The Swift-style property name (lowerCamelCase).
    package var name: String
    /// The JSON key the samples used.
    package var key: String
    /// The type, optional when some sample had `null` or lacked the key.
    package var type: InferredType
    /// For strings: the small set of values the samples repeated, sorted; see
    /// ``ModelInference/Options/enumMinimumOccurrences``.
    package var enumValues: [String]?

    package init(name: String, key: String, type: InferredType, enumValues: [String]? = nil) {
        self.name = name
        self.key = key
        self.type = type
        self.enumValues = enumValues
    }

    /// The path to the key when the name differs from it, byte for byte, else nil (the name is
    /// the path).
    ///
    /// The generated declarations leave it out when the model's ``InferredModel/keyStyle``
    /// gives the key.
    package var jsonPath: JSONPath? {
        name.isSameJSONKey(as: key) ? nil : JSONPath([.key(key)])
    }
}

/// The type of an inferred property.
package indirect enum InferredType: Sendable, Hashable, CustomStringConvertible {
    case bool
    /// Integers that fit `Int64`.
    case int
    /// Integers beyond `Int64` that fit `UInt64`.
    case uint64
    /// Numbers with a fraction or an exponent that a `Double` holds exactly (15 significant digits).
    case double
    /// Numbers too long for the types above but within 38 digits.
    case decimal
    case string
    /// Strings or numbers recognized as dates, with their format.
    case date(DateFormat)
    /// Values with no single type (mixed kinds, only nulls, numbers beyond `Decimal`), kept as JSON.
    case json
    /// A nested model, by name.
    case model(String)
    case array(InferredType)
    /// An object whose keys are data (ids, numbers, dates, UUIDs) rather than names.
    case dictionary(InferredType)
    case optional(InferredType)

    /// The type as a schema writes it: `Int`, `[Item]`, `Date?`, `[String: JSON]`.
    package var schemaTypeName: ModelSchema.TypeName {
        switch self {
        case .bool: .named("Bool")
        case .int: .named("Int")
        case .uint64: .named("UInt64")
        case .double: .named("Double")
        case .decimal: .named("Decimal")
        case .string: .named("String")
        case .date: .named("Date")
        case .json: .named("JSON")
        case .model(let name): .named(name)
        case .array(let element): .array(element.schemaTypeName)
        case .dictionary(let value): .dictionary(value.schemaTypeName)
        case .optional(let wrapped): .optional(wrapped.schemaTypeName)
        }
    }

    /// The type as Swift writes it in a registration block: `Int`, `[Item]`, `Date?`, `[String: JSONValue]`.
    package var swiftTypeName: String {
        switch self {
        case .json: "JSONValue"
        case .array(let element): "[\(element.swiftTypeName)]"
        case .dictionary(let value): "[String: \(value.swiftTypeName)]"
        case .optional(let wrapped): "\(wrapped.swiftTypeName)?"
        default: schemaTypeName.description
        }
    }

    package var description: String { schemaTypeName.description }

    /// The date format of a date, or of the dates an array or dictionary holds.
    package var dateFormat: DateFormat? {
        switch self {
        case .date(let format): format
        case .array(let inner), .dictionary(let inner), .optional(let inner): inner.dateFormat
        default: nil
        }
    }

    /// The type without its optional wrapper.
    package var unwrapped: InferredType {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    /// The type made optional (once).
    var optional: InferredType {
        if case .optional = self { return self }
        return .optional(self)
    }

    /// Whether Swift needs Foundation for this type (`Date`, `Decimal`).
    var needsFoundation: Bool {
        switch self {
        case .date, .decimal: true
        case .array(let inner), .dictionary(let inner), .optional(let inner): inner.needsFoundation
        default: false
        }
    }
}
