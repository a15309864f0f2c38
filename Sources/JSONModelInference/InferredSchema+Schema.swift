import JSONModelKit
import JSONModelKitCore

extension InferredSchema {
    /// The models as a ``ModelSchema``, ready to register.
    ///
    /// ```swift
    /// let registry = ModelRegistry()
    /// try registry.register(inferred.schema)
    /// let order = try registry.makeModel(named: "Order", json: sample)
    /// ```
    package var schema: ModelSchema {
        ModelSchema(models: models.map { model in
            ModelSchema.Model(
                name: model.name, extends: nil, discriminator: nil,
                properties: zip(model.properties, model.declaredPaths).map { property, path in
                    ModelSchema.Property(
                        name: property.name, type: property.type.schemaTypeName,
                        paths: path.map { [$0] } ?? [], defaultValue: nil,
                        enumValues: property.enumValues, serialize: true, readOnly: false,
                        dateFormat: property.type.dateFormat?.description, embedPath: nil, converter: nil,
                        inverse: nil, group: false)
                },
                keyStyle: model.keyStyle)
        })
    }

    /// The schema as JSON text in the schema file format, one property per line; a model whose
    /// keys one style explains (``InferredModel/keyStyle``) states it instead of each `jsonPath`:
    ///
    /// ```json
    /// {"models": [
    ///   {"name": "Order", "keyStyle": "snake_case", "properties": [
    ///     {"name": "id", "type": "Int"},
    ///     {"name": "placedAt", "type": "Date?", "dateFormat": "iso8601"}
    ///   ]}
    /// ]}
    /// ```
    package var schemaText: String {
        var text = "{\"models\": [\n"
        for (modelIndex, model) in models.enumerated() {
            text += "  {\"name\": \(Self.jsonLiteral(model.name)), "
            if let style = model.keyStyle { text += "\"keyStyle\": \(Self.jsonLiteral(style.rawValue)), " }
            text += "\"properties\": ["
            if model.properties.isEmpty {
                text += "]}"
            } else {
                text += "\n"
                let paths = model.declaredPaths
                for (index, property) in model.properties.enumerated() {
                    text += "    " + Self.schemaEntry(of: property, path: paths[index])
                    text += index == model.properties.count - 1 ? "\n" : ",\n"
                }
                text += "  ]}"
            }
            text += modelIndex == models.count - 1 ? "\n" : ",\n"
        }
        return text + "]}\n"
    }

    /// `{"name": "…", "type": "…", "jsonPath": …, "enumValues": […], "dateFormat": "…"}`.
    static func schemaEntry(of property: InferredProperty, path: JSONPath?) -> String {
        var fields = [
            "\"name\": " + jsonLiteral(property.name),
            "\"type\": " + jsonLiteral(property.type.schemaTypeName.description),
        ]
        if let path { fields.append("\"jsonPath\": " + jsonLiteral(path)) }
        if let values = property.enumValues {
            fields.append("\"enumValues\": [" + values.map(jsonLiteral).joined(separator: ", ") + "]")
        }
        if let format = property.type.dateFormat { fields.append("\"dateFormat\": " + jsonLiteral(format.description)) }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// A path as dotted text when it reads back the same, else as a list of segments.
    static func jsonLiteral(_ path: JSONPath) -> String {
        if path.segments.count == 1, case .key(let key) = path.segments[0], JSONPath(parsing: key) == path {
            return jsonLiteral(key)
        }
        return "[" + path.segments.map { segment in
            switch segment {
            case .key(let key): jsonLiteral(key)
            case .index(let index): String(index)
            }
        }.joined(separator: ", ") + "]"
    }

    static func jsonLiteral(_ text: String) -> String {
        JSONValue.string(text).jsonString()
    }
}
