#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// A schema, its models and their properties, and its reading from JSON; the type expressions its
// properties are written with are in ModelSchema+TypeName.swift.

/// Models declared as data: a schema that a host loads at run time.
///
/// A schema is JSON of the form
///
/// ```json
/// {"models": [{"name": "Invoice", "properties": [
///     {"name": "total", "type": "Decimal"},
///     {"name": "customer", "type": "Customer?", "jsonPath": "customer_ref"}]}]}
/// ```
///
/// Register it with ``ModelRegistry/register(_:)-(ModelSchema)``; its models then behave like
/// compiled ones and are created by name:
///
/// ```swift
/// let schema = try ModelSchema(json: pluginSchemaData)
/// try ModelRegistry.shared.register(schema)
/// let invoice = try ModelRegistry.shared.makeModel(named: "Invoice", json: data)
/// let total: Decimal? = invoice.jsonModel.dynamic.total
/// ```
///
/// Types: `Int`, `Int8`…`Int64`, `UInt`, `UInt8`…`UInt64`, `Double`, `Float`, `Bool`, `String`,
/// `Decimal`, `Date`, `URL`, `UUID`, `Data`, `JSON`, a model name, `[T]`, `[String: T]` and
/// `T?`, nested at most 32 levels (each `[T]`, `[String: T]` and `?` one) with one `?` per
/// level. Property options: `jsonPath` (dotted text or a list of keys and indices), `anyOf`,
/// `default`, `required`, `enumValues`, `serialize`, `readOnly`, `dateFormat`, `embedPath`,
/// `converter`, `inverse`, `group`. A model may have `extends` (at most 16 ancestors),
/// a `discriminator`, whose models must extend it, `requireNonOptionals` and `keyStyle` (both
/// inherited through `extends`; see ``KeyStyle``). A model may not take a built-in type's name.
///
/// Schemas may come from third parties, so registering one checks what could not work: a
/// `jsonPath`, `anyOf` alternative or `embedPath` naming the root (`"$"`) or holding a negative
/// index or one above 10,000, and a `dateFormat` pattern with a
/// field wider than ``DateFormat`` allows (`yyyyy`), fail with a ``ModelSchemaError`` naming
/// the model and property.
public struct ModelSchema: Sendable, Equatable {
    /// The models, in the order the schema lists them.
    package var models: [Model]

    /// The deepest a property type may nest: 32 levels, each `[T]`, `[String: T]` and `?` one
    /// (`[[Int?]?]` has four). A type nested deeper is refused when the schema is read (or,
    /// for a schema built in code, registered), naming the model and property.
    package static let maximumTypeNesting = 32

    /// The most ancestors a model may have through `extends`: 16. A model further down a chain
    /// is refused when the schema is registered; the problem is reported once per chain, at the
    /// first model past the limit.
    ///
    /// Each model's metadata holds its inherited properties (converters are looked up per
    /// model), so a chain of models holds at most 17 times the properties it declares; models
    /// that extend one base each hold its properties again, which
    /// ``maximumInheritanceFactor`` bounds.
    package static let maximumExtendsDepth = 16

    /// How many times the properties (and models) a batch of schema models declares their
    /// metadata may hold, with the ones inherited, beyond ``inheritanceAllowance``: 17, what a
    /// chain of ``maximumExtendsDepth`` models may hold. Past it the batch is refused, so a
    /// schema of a base with thousands of properties and thousands of one-line models extending
    /// it costs no more than its size.
    package static let maximumInheritanceFactor = 17
    /// The properties with their inherited ones a batch may build beyond 17 times what it declares.
    package static let inheritanceAllowance = 100_000

    static let nestedOptionalsMessage =
        "nests optionals: one '?' per level is allowed (JSON has one null, which cannot tell the levels apart)"
    static let tooDeepMessage =
        "nests more than \(maximumTypeNesting) levels (each [T], [String: T] and ? is one)"

    /// One model of a schema.
    package struct Model: Sendable, Equatable {
        /// The model's name, unique in its registry.
        package var name: String
        /// The model whose properties this one inherits.
        package var extends: String?
        /// How to choose a more specific model from the JSON, for polymorphism.
        package var discriminator: Discriminator?
        /// The model's own properties, in declaration order.
        package var properties: [Property]
        /// Whether every non-optional property without a default is required (inherited ones
        /// included); nil inherits the choice of the model this one extends (false at the root).
        package var requireNonOptionals: Bool? = nil
        /// How the names of the model's own properties turn into JSON keys, for properties
        /// without `jsonPath` or `anyOf`; nil inherits the style of the model this one extends
        /// (the registry's ``ModelRegistry/defaultKeyStyle`` at the root).
        package var keyStyle: KeyStyle? = nil
        /// Whether models compare by the JSON of their declared properties only; nil inherits
        /// the choice of the model this one extends (false, the whole JSON, at the root).
        package var compareDeclaredPropertiesOnly: Bool? = nil
        /// Whether `Double` and `Float` properties read and write `"NaN"`, `"Infinity"` and
        /// `"-Infinity"`; nil inherits the choice of the model this one extends (the registry's
        /// ``ModelRegistry/allowsNonFiniteNumbers`` at the root).
        package var allowNonFiniteNumbers: Bool? = nil

        package init(
            name: String, extends: String?, discriminator: Discriminator?, properties: [Property],
            requireNonOptionals: Bool? = nil, keyStyle: KeyStyle? = nil, compareDeclaredPropertiesOnly: Bool? = nil,
            allowNonFiniteNumbers: Bool? = nil
        ) {
            self.name = name
            self.extends = extends
            self.discriminator = discriminator
            self.properties = properties
            self.requireNonOptionals = requireNonOptionals
            self.keyStyle = keyStyle
            self.compareDeclaredPropertiesOnly = compareDeclaredPropertiesOnly
            self.allowNonFiniteNumbers = allowNonFiniteNumbers
        }
    }

    /// Chooses a model by the value at a path: `{"jsonPath": "type", "map": {"circle": "Circle"}}`.
    package struct Discriminator: Sendable, Equatable {
        /// Where the type's tag is.
        package var path: JSONPath
        /// Tag to model name.
        package var map: [String: String]
    }

    /// One property of a schema model.
    package struct Property: Sendable, Equatable {
        package var name: String
        package var type: TypeName
        /// Where the value is; empty means the property's name.
        package var paths: [JSONPath]
        package var defaultValue: JSONValue?
        package var enumValues: [String]?
        package var serialize: Bool
        package var readOnly: Bool
        package var dateFormat: String?
        package var embedPath: JSONPath?
        package var converter: String?
        package var inverse: String?
        package var group: Bool
        /// Whether a missing or `null` value records a `missingRequired` diagnostic.
        package var required: Bool = false
        /// What a value that is present but does not convert reads, when not the default.
        package var defaultIfInvalid: JSONValue? = nil

        package init(
            name: String, type: TypeName, paths: [JSONPath], defaultValue: JSONValue?, enumValues: [String]?,
            serialize: Bool, readOnly: Bool, dateFormat: String?, embedPath: JSONPath?, converter: String?,
            inverse: String?, group: Bool, required: Bool = false, defaultIfInvalid: JSONValue? = nil
        ) {
            self.name = name
            self.type = type
            self.paths = paths
            self.defaultValue = defaultValue
            self.enumValues = enumValues
            self.serialize = serialize
            self.readOnly = readOnly
            self.dateFormat = dateFormat
            self.embedPath = embedPath
            self.converter = converter
            self.inverse = inverse
            self.group = group
            self.required = required
            self.defaultIfInvalid = defaultIfInvalid
        }
    }

    /// Creates a schema from models built in code.
    package init(models: [Model]) {
        self.models = models
    }

    /// Reads a schema from its JSON form, checking every field.
    ///
    /// ```swift
    /// let schema = try ModelSchema(json: URL(fileURLWithPath: "Invoice.schema.json"))
    /// try ModelRegistry.shared.register(schema)
    /// ```
    ///
    /// The JSON may be text, a file, a parsed node or a value: see ``JSONSource``. The check covers
    /// the form of the schema alone; names that refer to other models are checked when the schema
    /// is registered.
    ///
    /// - Throws: ``ModelSchemaError`` naming the model and property at fault, also for JSON that
    ///   does not parse (with its line and column) and a file that cannot be read.
    public init(json: some JSONSource) throws(ModelSchemaError) {
        let value: JSONValue
        do {
            value = try json.parsedJSON(options: JSONParseOptions()).input.jsonValue
        } catch {
            switch error {
            case .invalidJSON(let parseError): throw ModelSchemaError("invalid JSON: \(parseError)")
            default: throw ModelSchemaError("\(error)")
            }
        }
        try self.init(value: value)
    }

    /// Reads a schema from its JSON value.
    private init(value json: JSONValue) throws(ModelSchemaError) {
        guard let root = json.objectValue else { throw ModelSchemaError("a schema must be a JSON object") }
        try Self.checkKeys(root, allowed: ["models"], context: "schema")
        guard let list = root["models"]?.arrayValue else {
            throw ModelSchemaError("a schema needs \"models\": a list of models")
        }
        var models: [Model] = []
        for (index, entry) in list.enumerated() {
            models.append(try Self.model(from: entry, index: index))
        }
        self.models = models
    }

    // MARK: Reading

    private static func model(from value: JSONValue, index: Int) throws(ModelSchemaError) -> Model {
        guard let object = value.objectValue else { throw ModelSchemaError("models[\(index)] must be an object") }
        guard let name = object["name"]?.stringValue, !name.isEmpty else {
            throw ModelSchemaError("models[\(index)] needs a \"name\"")
        }
        try checkKeys(
            object, allowed: ["name", "extends", "discriminator", "properties", "requireNonOptionals", "keyStyle",
                      "compareDeclaredPropertiesOnly", "allowNonFiniteNumbers"],
            context: "model \(name)")
        var model = Model(name: name, extends: nil, discriminator: nil, properties: [])
        if let flag = object["requireNonOptionals"] {
            guard let value = flag.boolValue else {
                throw ModelSchemaError("\"requireNonOptionals\" must be true or false", model: name)
            }
            model.requireNonOptionals = value
        }
        if let flag = object["allowNonFiniteNumbers"] {
            guard let value = flag.boolValue else {
                throw ModelSchemaError("\"allowNonFiniteNumbers\" must be true or false", model: name)
            }
            model.allowNonFiniteNumbers = value
        }
        if let flag = object["compareDeclaredPropertiesOnly"] {
            guard let value = flag.boolValue else {
                throw ModelSchemaError("\"compareDeclaredPropertiesOnly\" must be true or false", model: name)
            }
            model.compareDeclaredPropertiesOnly = value
        }
        if let style = object["keyStyle"] {
            guard let text = style.stringValue, let value = KeyStyle(rawValue: text) else {
                let names = KeyStyle.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw ModelSchemaError("\"keyStyle\" must be one of \(names)", model: name)
            }
            model.keyStyle = value
        }
        if let extends = object["extends"] {
            guard let parent = extends.stringValue else { throw ModelSchemaError("\"extends\" must be a model name", model: name) }
            model.extends = parent
        }
        if let discriminator = object["discriminator"] {
            guard let fields = discriminator.objectValue, let pathValue = fields["jsonPath"],
                let map = fields["map"]?.objectValue
            else {
                throw ModelSchemaError("\"discriminator\" needs \"jsonPath\" and \"map\"", model: name)
            }
            try checkKeys(fields, allowed: ["jsonPath", "map"], context: "the discriminator of model \(name)")
            var names: [String: String] = [:]
            for (tag, target) in map {
                guard let target = target.stringValue else {
                    throw ModelSchemaError("discriminator map values must be model names", model: name)
                }
                // Tags are compared as Swift compares strings, so two spellings of one text
                // (`"\u00e9"` and `"e\u0301"`) would be one tag, and one of their models never
                // chosen: refused. The same spelling twice is a repeated key: the last wins.
                if let index = names.index(forKey: tag), !names.keys[index].unicodeScalars.elementsEqual(tag.unicodeScalars) {
                    func spelled(_ text: String) -> String {
                        let scalars = text.unicodeScalars.map { scalar in
                            scalar.isASCII ? String(scalar) : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                        }
                        return "\"" + scalars.joined() + "\""
                    }
                    throw ModelSchemaError(
                        "the discriminator maps \(spelled(names.keys[index])) and \(spelled(tag)), one text spelled two ways",
                        model: name)
                }
                names[tag] = target
            }
            let discriminatorPath = try path(pathValue, model: name, option: "jsonPath")
            if let problem = discriminatorPath.declarationProblem {
                throw ModelSchemaError("the discriminator's \"jsonPath\" \(problem)", model: name)
            }
            model.discriminator = Discriminator(path: discriminatorPath, map: names)
        }
        guard let properties = (object["properties"] ?? .array([])).arrayValue else {
            throw ModelSchemaError("\"properties\" must be a list", model: name)
        }
        for entry in properties {
            model.properties.append(try property(from: entry, model: name))
        }
        return model
    }

    private static let propertyKeys: Set<String> = [
        "name", "type", "jsonPath", "anyOf", "default", "defaultIfInvalid", "required", "enumValues", "serialize", "readOnly", "dateFormat",
        "embedPath", "converter", "inverse", "group",
    ]

    private static func property(from value: JSONValue, model: String) throws(ModelSchemaError) -> Property {
        guard let object = value.objectValue, let name = object["name"]?.stringValue, !name.isEmpty else {
            throw ModelSchemaError("each property needs a \"name\"", model: model)
        }
        func fail(_ message: String) -> ModelSchemaError { ModelSchemaError(message, model: model, property: name) }
        for key in object.keys where !propertyKeys.contains(key) {
            throw fail("unknown option \"\(key)\"")
        }
        guard let typeText = object["type"]?.stringValue else { throw fail("needs a \"type\"") }
        let type: TypeName
        do {
            type = try TypeName(parsing: typeText)
        } catch {
            throw fail(error.message)
        }
        var paths: [JSONPath] = []
        if let jsonPath = object["jsonPath"] { paths.append(try path(jsonPath, model: model, property: name, option: "jsonPath")) }
        if let anyOf = object["anyOf"] {
            guard let list = anyOf.arrayValue, !list.isEmpty else { throw fail("\"anyOf\" must be a non-empty list of paths") }
            // A set beside the list: a list of thousands of paths, each checked against those
            // before it, took time that grew with its square (20,000 paths: 37 s).
            var seen = Set(paths)
            for entry in list {
                let alternative = try path(entry, model: model, property: name, option: "anyOf")
                if seen.insert(alternative).inserted { paths.append(alternative) }
            }
        }
        func bool(_ key: String, _ defaultValue: Bool) throws(ModelSchemaError) -> Bool {
            guard let value = object[key] else { return defaultValue }
            guard let flag = value.boolValue else { throw fail("\"\(key)\" must be true or false") }
            return flag
        }
        func string(_ key: String) throws(ModelSchemaError) -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value.stringValue else { throw fail("\"\(key)\" must be a string") }
            return text
        }
        var enumValues: [String]?
        if let list = object["enumValues"] {
            guard let strings = list.arrayValue?.compactMap(\.stringValue), strings.count == list.arrayValue?.count else {
                throw fail("\"enumValues\" must be a list of strings")
            }
            enumValues = strings
        }
        var embedPath: JSONPath?
        if let embed = object["embedPath"] { embedPath = try path(embed, model: model, property: name, option: "embedPath") }
        return Property(
            name: name, type: type, paths: paths, defaultValue: object["default"], enumValues: enumValues,
            serialize: try bool("serialize", true), readOnly: try bool("readOnly", false),
            dateFormat: try string("dateFormat"), embedPath: embedPath, converter: try string("converter"),
            inverse: try string("inverse"), group: try bool("group", false), required: try bool("required", false),
            defaultIfInvalid: object["defaultIfInvalid"])
    }

    /// A path given as dotted text or as a list of keys (strings) and indices (integers).
    private static func path(
        _ value: JSONValue, model: String, property: String? = nil, option: String
    ) throws(ModelSchemaError) -> JSONPath {
        if let text = value.stringValue, !text.isEmpty { return JSONPath(parsing: text) }
        if let list = value.arrayValue, !list.isEmpty {
            var segments: [JSONPath.Segment] = []
            for entry in list {
                if let key = entry.stringValue {
                    segments.append(.key(key))
                } else if let index = entry.intValue, index >= 0 {
                    segments.append(.index(index))
                } else {
                    throw ModelSchemaError("\"\(option)\" segments must be strings or non-negative integers",
                                           model: model, property: property)
                }
            }
            return JSONPath(segments)
        }
        throw ModelSchemaError("\"\(option)\" must be a dotted string or a list of segments", model: model, property: property)
    }

    private static func checkKeys(_ object: JSONObject, allowed: Set<String>, context: String) throws(ModelSchemaError) {
        for key in object.keys where !allowed.contains(key) {
            throw ModelSchemaError("unknown key \"\(key)\" in \(context)")
        }
    }
}
