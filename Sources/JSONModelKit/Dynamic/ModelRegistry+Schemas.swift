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
    /// try ModelRegistry.shared.register(ModelSchema(json: schemaData))
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

    /// The definition the schema model named `name` was registered with, or nil.
    func schemaDefinition(named name: String) -> ModelSchema.Model? {
        attachment(SchemaDefinitions.self).byName.withLock { $0[name] }
    }

    /// Stores model classes under names, and schema models with their definitions, all or none:
    /// nil when every name was free (or held by the same class, or an identical definition, which
    /// stays), else why nothing was stored. `beforePublishing` runs as in
    /// ``store(classes:schemaMetadata:beforePublishing:)``.
    func store(
        classes: [(name: String, type: JSONModel.Type)] = [],
        schemaModels models: [(metadata: ModelMetadata, definition: ModelSchema.Model)],
        beforePublishing: ((String) -> JSONModel.Type?) -> [String]? = { _ in nil }
    ) -> StoreRefusal? {
        // The definitions stay locked while the registry stores the names, so that they change
        // together: a model's definition is recorded exactly when its name is taken.
        attachment(SchemaDefinitions.self).byName.withLock { definitions in
            let fresh = models.filter { definitions[$0.metadata.modelName] != $0.definition }
            if let refusal = store(classes: classes, schemaMetadata: fresh.map(\.metadata), beforePublishing: beforePublishing) {
                return refusal
            }
            for model in fresh { definitions[model.metadata.modelName] = model.definition }
            return nil
        }
    }

    /// The type names a schema may use besides model names.
    static let builtinTypes: [String: PropertyType] = [
        "Int": .int, "Int8": .int8, "Int16": .int16, "Int32": .int32, "Int64": .int64,
        "UInt": .uint, "UInt8": .uint8, "UInt16": .uint16, "UInt32": .uint32, "UInt64": .uint64,
        "Double": .double, "Float": .float, "Bool": .bool, "String": .string, "Decimal": .decimal,
        "Date": .date, "URL": .url, "UUID": .uuid, "Data": .data, "JSON": .json,
    ]

    /// The names of the built-in types, which no schema model may take.
    package static var builtinTypeNames: Set<String> { Set(builtinTypes.keys) }
}

/// The definitions a registry's schema models were registered with, by name, to recognise an
/// identical one registered again; kept with the registry (``RegistryAttachment``).
final class SchemaDefinitions: RegistryAttachment {
    let byName = Locked<[String: ModelSchema.Model]>([:])
}
