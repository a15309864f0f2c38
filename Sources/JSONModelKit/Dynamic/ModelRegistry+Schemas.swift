#if canImport(FoundationEssentials)
import FoundationEssentials
#else
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#endif

extension ModelRegistry {
    /// Registers the models of a schema, all or none.
    ///
    /// Checks that types nest at most 32 levels without nested optionals, that every type name
    /// is known (a built-in type, a model of this schema or of one registered before, or a
    /// registered model class), that `extends` names a schema model, has no cycle and gives no
    /// model more than 16 ancestors, that no model name is taken or a built-in type's, that no
    /// property is named like a member of ``JSONModel`` (``JSONModel/reservedPropertyNames``),
    /// that options suit their types, that defaults convert (a model's to an object), that
    /// discriminators name schema models that extend the discriminating one, and that no property
    /// group holds its own model again, directly or through other groups. On any problem nothing
    /// is registered. A model registered again with an identical definition is left as it is; see
    /// ``loadSchemas(at:)`` (Dynamic/SchemaLoading.swift) for files and folders.
    ///
    /// ```swift
    /// try ModelRegistry.shared.register(ModelSchema(data: schemaData))
    /// ```
    ///
    /// - Throws: ``ModelSchemaError`` naming the model and property at fault (the first problem).
    public func register(_ schema: ModelSchema) throws(ModelSchemaError) {
        let batch = SchemaBatch(models: schema.models.map { SchemaBatch.Entry(model: $0, file: nil) })
        do {
            try batch.register(in: self)
        } catch {
            throw error.problems[0]
        }
    }

    /// Reads a schema file and registers it; see ``register(_:)-(ModelSchema)``.
    ///
    /// - Throws: ``ModelSchemaError`` with the file's path.
    public func registerSchema(at url: URL) throws(ModelSchemaError) {
        do {
            let data = try Data(contentsOf: url)
            try register(ModelSchema(data: data))
        } catch var error as ModelSchemaError {
            error.file = url.path
            throw error
        } catch {
            throw ModelSchemaError("cannot read the file: \(error)", file: url.path)
        }
    }

    /// The type names a schema may use besides model names.
    static let builtinTypes: [String: PropertyType] = [
        "Int": .int, "Int8": .int8, "Int16": .int16, "Int32": .int32, "Int64": .int64,
        "UInt": .uint, "UInt8": .uint8, "UInt16": .uint16, "UInt32": .uint32, "UInt64": .uint64,
        "Double": .double, "Float": .float, "Bool": .bool, "String": .string, "Decimal": .decimal,
        "Date": .date, "URL": .url, "UUID": .uuid, "Data": .data, "JSON": .json,
    ]
}
