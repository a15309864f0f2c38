// The class of every schema model and the member syntax it reads through, checked when the
// program runs. The engine names the class (property types, lazy collections and copies create
// it), so both live with `JSONModel`; what defines schema models (schemas, schema files,
// plugins) is in Dynamic/.

/// A model whose properties come from a ``ModelSchema`` rather than a registration block.
///
/// You do not subclass it or create it directly: register a schema, then ask the registry for
/// a model by name. It reads, writes, copies and outputs exactly like a compiled model, through
/// the same engine; ``JSONModelView/modelName`` is the schema's name for it.
///
/// ```swift
/// try ModelRegistry.shared.register(ModelSchema(json: schemaData))
/// let invoice = try ModelRegistry.shared.makeModel(named: "Invoice", json: data)
/// let total: Decimal = invoice.jsonModel.dynamic.total   // a JSONModel reference
/// let lines: [JSONModel]? = (invoice as? DynamicModel)?.lines   // DynamicMembers on the class
/// let same: Decimal = invoice[property: "total"]         // for names known only at run time
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

// MARK: - Dynamic members

/// Member syntax for any property name, checked when the program runs instead of when it builds.
///
/// A compiled model reads its properties through the typed members that the
/// `JSONModelAccessors` build plugin (or `jsonmodel accessors`) generates from its
/// registration block, so a misspelled name or a wrong type is a build error. A model whose
/// names are known only at run time reads them through this protocol instead:
/// ``DynamicModel`` (schema models) adopts it, and a compiled class may too:
///
/// ```swift
/// final class Legacy: JSONModel, DynamicMembers, @unchecked Sendable {
///     override class func properties(_ p: PropertyRegistrar) {
///         p.age(Int.self)
///     }
/// }
/// let age: Int = legacy.age      // checked at run time
/// print(legacy.age)              // an untyped read gives a ModelValue
/// ```
///
/// Reading an undeclared name, or a declared one as the wrong type, stops the program
/// with a message that names the class and property (Objective-C's "unrecognized
/// selector"). For a reference typed ``JSONModel``, use ``JSONModelView/dynamic``.
@dynamicMemberLookup
public protocol DynamicMembers: JSONModel {}

extension DynamicMembers {
    /// Reads (or writes) a declared property with its Swift type; see ``JSONModel/subscript(property:)``.
    ///
    /// - Complexity: O(1) once cached.
    @inlinable
    public subscript<T>(dynamicMember name: String) -> T {
        @inline(__always) get { self[property: name] }
        set { self[property: name] = newValue }
    }

    /// Reads a declared property without stating its type, for logs and chaining.
    ///
    /// ```swift
    /// print("age: \(legacy.age)")                // age: 30
    /// let city: String? = legacy.address.city    // reads through a nested model
    /// ```
    public subscript(dynamicMember name: String) -> ModelValue {
        modelValue(forProperty: name)
    }
}

/// Schema models read their properties with the member syntax too (`invoice.total`). Declared
/// here rather than with the class: the member syntax reads through the model's API, which
/// builds on the engine that declares ``DynamicModel``.
extension DynamicModel: DynamicMembers {}
