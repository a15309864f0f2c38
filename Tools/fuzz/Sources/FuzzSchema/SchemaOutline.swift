import JSONModelKit

// What the document writer needs to know of a schema, read from the schema's JSON form: the
// library's reading of a schema is not public, and a fuzz target uses the library as a user does.

/// The models of a schema that `ModelSchema(json:)` accepted: names, `extends`, discriminators,
/// and each property's name, type, paths and the options that shape its JSON.
struct SchemaOutline {
    struct Model {
        var name: String
        var extends: String?
        var discriminator: (path: JSONPath, map: [String: String])?
        var properties: [Property]
    }

    struct Property {
        var name: String
        var type: SchemaType
        /// `jsonPath` then the `anyOf` alternatives; empty means the property's name.
        var paths: [JSONPath]
        var enumValues: [String]?
        var embedPath: JSONPath?
        var inverse: String?
        var group: Bool
    }

    var models: [Model]

    init(models: [Model]) {
        self.models = models
    }

    /// Reads the models of schema JSON; what does not read (which an accepted schema never
    /// holds) is left out.
    init(json: JSONValue) {
        models = (json["models"]?.arrayValue ?? []).compactMap(Self.model(from:))
    }

    private static func model(from value: JSONValue) -> Model? {
        guard let name = value["name"]?.stringValue else { return nil }
        var model = Model(name: name, extends: value["extends"]?.stringValue, discriminator: nil, properties: [])
        if let discriminator = value["discriminator"], let path = discriminator["jsonPath"].flatMap(path(from:)) {
            var map: [String: String] = [:]
            for (tag, target) in discriminator["map"]?.objectValue ?? [:] { map[tag] = target.stringValue }
            model.discriminator = (path, map)
        }
        model.properties = (value["properties"]?.arrayValue ?? []).compactMap(property(from:))
        return model
    }

    private static func property(from value: JSONValue) -> Property? {
        guard let name = value["name"]?.stringValue, let type = value["type"]?.stringValue.flatMap(SchemaType.init(parsing:))
        else { return nil }
        var paths = value["jsonPath"].flatMap(path(from:)).map { [$0] } ?? []
        for alternative in value["anyOf"]?.arrayValue ?? [] {
            if let path = path(from: alternative), !paths.contains(path) { paths.append(path) }
        }
        return Property(
            name: name, type: type, paths: paths, enumValues: value["enumValues"]?.arrayValue?.compactMap(\.stringValue),
            embedPath: value["embedPath"].flatMap(path(from:)), inverse: value["inverse"]?.stringValue,
            group: value["group"]?.boolValue ?? false)
    }

    /// A path as a schema writes it: dotted text, or a list of keys and indices.
    private static func path(from value: JSONValue) -> JSONPath? {
        if let text = value.stringValue { return JSONPath(parsing: text) }
        guard let list = value.arrayValue else { return nil }
        var segments: [JSONPath.Segment] = []
        for entry in list {
            if let key = entry.stringValue {
                segments.append(.key(key))
            } else if let index = entry.intValue {
                segments.append(.index(index))
            } else {
                return nil
            }
        }
        return JSONPath(segments)
    }
}

/// A property type as a schema writes it: `Int`, `[Order]`, `[String: Double?]`, `Customer?`.
indirect enum SchemaType: Equatable, CustomStringConvertible {
    case named(String)
    case array(SchemaType)
    case dictionary(SchemaType)
    case optional(SchemaType)

    /// Parses a type expression; nil when the text is not one, or nests optionals (`Int??`).
    /// Nesting deeper than the library allows parses: the library refuses it, not this.
    init?(parsing text: String) {
        var parser = Parser(text: Array(text.unicodeScalars))
        guard let type = parser.type(depth: 0), parser.atEnd else { return nil }
        self = type
    }

    var description: String {
        switch self {
        case .named(let name): name
        case .array(let element): "[\(element)]"
        case .dictionary(let value): "[String: \(value)]"
        case .optional(let wrapped): "\(wrapped)?"
        }
    }

    private struct Parser {
        let text: [Unicode.Scalar]
        var position = 0

        var atEnd: Bool {
            mutating get {
                skipSpaces()
                return position == text.count
            }
        }

        mutating func skipSpaces() {
            while position < text.count && text[position] == " " { position += 1 }
        }

        mutating func skip(_ scalar: Unicode.Scalar) -> Bool {
            skipSpaces()
            guard position < text.count && text[position] == scalar else { return false }
            position += 1
            return true
        }

        /// A type; recursion stops at 64 brackets, past any the generator writes.
        mutating func type(depth: Int) -> SchemaType? {
            guard depth < 64 else { return nil }
            var type: SchemaType
            if skip("[") {
                guard let first = self.type(depth: depth + 1) else { return nil }
                if skip(":") {
                    guard first == .named("String"), let value = self.type(depth: depth + 1) else { return nil }
                    type = .dictionary(value)
                } else {
                    type = .array(first)
                }
                guard skip("]") else { return nil }
            } else {
                skipSpaces()
                let start = position
                while position < text.count, text[position].properties.isAlphabetic || text[position] == "_"
                    || (position > start && ("0"..."9").contains(text[position]))
                {
                    position += 1
                }
                guard position > start else { return nil }
                type = .named(String(String.UnicodeScalarView(text[start..<position])))
            }
            if skip("?") {
                if skip("?") { return nil }
                type = .optional(type)
            }
            return type
        }
    }
}
