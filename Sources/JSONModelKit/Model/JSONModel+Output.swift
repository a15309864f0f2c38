import Foundation

/// Choices for a model's JSON output.
///
/// By default the output is the model's current JSON object, unknown keys included.
public struct JSONOutputOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Writes `null` for every declared property that has no value.
    public static let includeNulls = JSONOutputOptions(rawValue: 1 << 0)
    /// Leaves out keys that no declared property reads.
    public static let onlyDeclared = JSONOutputOptions(rawValue: 1 << 1)
    /// Leaves out properties declared with `serialize: false`.
    public static let forOutput = JSONOutputOptions(rawValue: 1 << 2)
}

extension JSONModel {
    /// The model's current JSON object: the original with writes applied.
    ///
    /// ```swift
    /// user.json()                          // every key, unknown ones too
    /// user.json(options: .onlyDeclared)    // declared properties only
    /// ```
    ///
    /// Numbers keep their exact text. Options apply to nested models too.
    ///
    /// - Parameter options: What to include.
    /// - Complexity: O(*n*) in the size of the object.
    public func json(options: JSONOutputOptions = []) -> JSONValue {
        let object = currentSource.jsonValue
        if options.isEmpty { return object }
        return JSONModel.shape(object, metadata: metadata, options: options)
    }

    /// The model's current JSON as UTF-8 bytes.
    ///
    /// - Parameters:
    ///   - options: What to include.
    ///   - pretty: Two-space indented output instead of compact.
    public func jsonBytes(options: JSONOutputOptions = [], pretty: Bool = false) -> [UInt8] {
        let writeOptions: JSONWriteOptions = pretty ? .prettyPrinted : []
        if options.isEmpty, case .node(let node) = currentSource {
            return node.jsonBytes(options: writeOptions)
        }
        return json(options: options).jsonBytes(options: writeOptions)
    }

    /// The model's current JSON as UTF-8 `Data`.
    public func jsonData(options: JSONOutputOptions = [], pretty: Bool = false) -> Data {
        Data(jsonBytes(options: options, pretty: pretty))
    }

    /// The model's current JSON as text.
    public func jsonString(options: JSONOutputOptions = [], pretty: Bool = false) -> String {
        String(decoding: jsonBytes(options: options, pretty: pretty), as: UTF8.self)
    }

    /// Applies output options to an object of the model described by `metadata`.
    static func shape(_ object: JSONValue, metadata: ModelMetadata, options: JSONOutputOptions) -> JSONValue {
        var result: JSONValue
        if options.contains(.onlyDeclared) {
            result = .object(JSONObject())
            for property in metadata.properties {
                for path in property.declaredOutputPaths {
                    if let value = object[path] { result[path] = value }
                }
            }
        } else {
            result = object
        }
        let included = metadata.properties.filter { !options.contains(.forOutput) || $0.options.serialize }
        if options.contains(.forOutput) {
            for property in metadata.properties where !property.options.serialize && !property.options.group {
                for path in property.paths { result[path] = nil }
            }
        }
        if metadata.hasModelProperties {
            for property in included where property.type.containsModel && !property.options.group {
                for path in property.paths {
                    if let value = result[path], !value.isNull {
                        result[path] = shapeNested(value, type: property.type, schema: property.schemaModel, options: options)
                    }
                }
            }
        }
        if options.contains(.includeNulls) {
            for property in included where !property.options.group && !property.paths.contains(where: { result[$0] != nil }) {
                result[property.paths[0]] = .null
            }
        }
        return result
    }

    private static func shapeNested(
        _ value: JSONValue, type: PropertyType, schema: SchemaModelReference?, options: JSONOutputOptions
    ) -> JSONValue {
        switch (type, value) {
        case (.model(let modelType), .object):
            // Polymorphism: shaped as the class the object calls for.
            let resolved = modelType.resolvedClass(for: .value(value))
            return shape(value, metadata: ModelRegistry.shared.metadata(for: resolved), options: options)
        case (.schemaModel, .object):
            guard let metadata = schema?.metadata else { return value }
            return shape(value, metadata: metadata.resolvedSchemaModel(for: .value(value)), options: options)
        case (.optional(let wrapped), _):
            return shapeNested(value, type: wrapped, schema: schema, options: options)
        case (.array(let element), .array(let elements)):
            return .array(elements.map { shapeNested($0, type: element, schema: schema, options: options) })
        case (.dictionary(let valueType), .object(let members)):
            var shaped = JSONObject(minimumCapacity: members.count)
            for member in members {
                shaped.append(key: member.key, value: shapeNested(member.value, type: valueType, schema: schema, options: options))
            }
            return .object(shaped)
        default:
            return value
        }
    }
}
