// The class of every schema model. The engine names it (property types, lazy collections and
// copies create it), so it lives with `JSONModel`; what defines its models (schemas, schema
// files, plugins) is in Dynamic/, and its member syntax (``DynamicMembers``) in Model/.

/// A model whose properties come from a ``ModelSchema`` rather than a registration block.
///
/// You do not subclass it or create it directly: register a schema, then ask the registry for
/// a model by name. It reads, writes, copies and outputs exactly like a compiled model, through
/// the same engine; ``JSONModelView/modelName`` is the schema's name for it.
///
/// ```swift
/// try ModelRegistry.shared.register(ModelSchema(json: schemaData))
/// let invoice = try ModelRegistry.shared.makeModel(named: "Invoice", json: data)
/// let total: Decimal = invoice.total
/// invoice.jsonModel.value(forProperty: "total")       // for code that knows names only at run time
/// ```
public final class DynamicModel: JSONModel, @unchecked Sendable {
    // @unchecked Sendable: restated from JSONModel, whose state is behind its lock;
    // this class adds one immutable reference to a Sendable class.

    /// The registry of the schema, kept alive as long as the model: the names its properties
    /// and discriminators refer to are looked up there (weakly, so the registry holds no cycle).
    let schemaRegistry: ModelRegistry?

    /// Creates a model from storage prepared by the engine; see ``JSONModel/init(_:)``.
    @_spi(Engine)
    public required init(_ storage: consuming ModelStorage) {
        schemaRegistry = storage.metadata?.registry
        super.init(storage)
    }

    /// Creates a model of a schema model over an object.
    static func make(metadata: ModelMetadata, source: JSONInput, mutable: Bool) throws(JSONModelError) -> DynamicModel {
        guard source.kind == .object else { throw .notAnObject(model: metadata.modelName, found: source.kind) }
        let resolved = metadata.resolvedSchemaModel(for: source)
        return DynamicModel(ModelStorage(metadata: resolved, source: source, mutable: mutable))
    }
}
