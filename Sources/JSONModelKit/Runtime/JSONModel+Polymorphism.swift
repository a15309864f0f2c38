import JSONModelKitCore

// Polymorphism: choosing the class (or schema model) to create from the JSON itself.
//
// Every place the engine creates a model asks the declared class through
// `modelClass(for:)` (compiled models) or the schema's `discriminator`
// (schema models), and repeats the question on the answer so a subclass may
// refine further. An answer that is not a subclass is ignored: the model keeps
// the class asked, which keeps every `Self`-typed API sound.

/// A read-only view of the JSON a model is about to be created over, for ``JSONModel/modelClass(for:)``.
///
/// It reads the parsed document in place (or an owned value); nothing is copied.
///
/// ```swift
/// override class func modelClass(for json: JSONView) -> JSONModel.Type {
///     switch json["type"]?.stringValue {
///     case "circle": Circle.self
///     case "square": Square.self
///     default: self
///     }
/// }
/// ```
public struct JSONView: Sendable {
    let input: JSONInput

    init(_ input: JSONInput) { self.input = input }

    /// The JSON, moved out of the view.
    consuming func takeInput() -> JSONInput { input }

    /// The kind of value.
    public var kind: JSONKind { input.kind }
    /// The decoded string; nil for other kinds.
    public var stringValue: String? { input.stringValue }
    /// The number as `Int` when it is an integral number in range; nil otherwise.
    /// `1.0` and `1e2` count, as for ``JSONNumber/intValue``.
    public var intValue: Int? {
        switch input {
        case .node(let node): node.intValue
        case .value(let value): value.intValue
        }
    }
    /// `true` or `false`; nil for other kinds.
    public var boolValue: Bool? { input.boolValue }
    /// The value copied into an owned ``JSONValue``.
    ///
    /// - Complexity: O(*n*) in the size of the value.
    public var value: JSONValue { input.jsonValue }

    /// The member named `key` of an object; nil when missing or not an object.
    public subscript(key: String) -> JSONView? { input[key].map(JSONView.init) }
    /// The value at `path`; nil when any step is missing.
    public subscript(path: JSONPath) -> JSONView? { input[path].map(JSONView.init) }
}

/// How a schema model picks a more specific model: the text at `path` looked up in `map`.
struct ModelDiscriminator: Sendable {
    let path: JSONPath
    let map: [String: String]
    weak let registry: ModelRegistry?

    init(path: JSONPath, map: [String: String], registry: ModelRegistry?) {
        self.path = path
        self.map = map
        self.registry = registry
    }

    /// The metadata of the model named for `input`, or nil (no tag, unknown tag, unknown model).
    func target(for input: JSONInput) -> ModelMetadata? {
        guard let tag = input[path] else { return nil }
        guard let text = tag.stringValue ?? tag.numberText ?? tag.boolValue.map({ $0 ? "true" : "false" }),
            let name = map[text]
        else { return nil }
        return registry?.schemaMetadata(named: name)
    }
}

/// How deep refinement may go before the engine stops asking (a guard against cycles).
private let maximumRefinements = 16

extension ModelMetadata {
    /// The schema model to create for `input`: this one refined by discriminators; itself
    /// when there is none or the tag is unknown.
    func resolvedSchemaModel(for input: JSONInput) -> ModelMetadata {
        var current = self
        for _ in 0..<maximumRefinements {
            guard let next = current.discriminator?.target(for: input), next !== current else { break }
            current = next
        }
        return current
    }
}

extension JSONModel {
    /// The class to create for `input`, starting at this class and refining while the answer
    /// is a proper subclass of the previous one.
    static func resolvedClass(for input: JSONInput) -> JSONModel.Type {
        resolvedClass(for: JSONView(input))
    }

    /// The same for the JSON of `view`.
    static func resolvedClass(for view: borrowing JSONView) -> JSONModel.Type {
        var current: JSONModel.Type = self
        for _ in 0..<maximumRefinements {
            let next = current.modelClass(for: view)
            guard next != current, isClass(next, subclassOf: current) else { break }
            current = next
        }
        return current
    }

    /// Whether `candidate` is `base` or inherits from it.
    static func isClass(_ candidate: AnyClass, subclassOf base: AnyClass) -> Bool {
        var current: AnyClass? = candidate
        while let someClass = current {
            if someClass == base { return true }
            current = _getSuperclass(someClass)
        }
        return false
    }

    /// Creates a model of the class (or schema model) `input` calls for, a subclass of `Self`.
    ///
    /// - Parameters:
    ///   - input: An object.
    ///   - metadata: The schema model asked for, or nil for compiled classes.
    ///   - mutable: Whether the model accepts writes.
    ///   - parent: Where a nested mutable model writes through.
    ///   - inverse: The parent a relationship child refers back to.
    static func makeResolved(
        _ input: consuming JSONInput, metadata: ModelMetadata?, mutable: Bool, parent: ParentLink? = nil,
        inverse: InverseLink? = nil
    ) -> Self {
        let model: Self
        if let metadata {
            model = Self(
                ModelStorage(
                    metadata: metadata.resolvedSchemaModel(for: input), source: input, mutable: mutable, parent: parent))
        } else {
            // The view takes the JSON and hands it on to the model: made from a copy, it cost a
            // retain and a release of the document per model, atomic operations both.
            // PERF: models of small objects; see jsonmodel-bench --section documents, citm_catalog.json.
            let view = JSONView(input)
            let type = resolvedClass(for: view)
            // `resolvedClass` only returns Self or a subclass of it, so no checked cast.
            model = unsafeDowncast(type.init(ModelStorage(source: view.takeInput(), mutable: mutable, parent: parent)), to: Self.self)
        }
        if let inverse { model.setInverse(inverse) }
        return model
    }

    /// The class (or schema model) a copy of this model gets: refined from its own by its current JSON.
    func resolvedStorageForCopy(source: JSONInput, mutable: Bool) -> (type: JSONModel.Type, storage: ModelStorage) {
        if metadata.modelType == DynamicModel.self {
            return (DynamicModel.self, ModelStorage(metadata: metadata.resolvedSchemaModel(for: source), source: source, mutable: mutable))
        }
        let type = Swift.type(of: self).resolvedClass(for: source)
        return (type, ModelStorage(source: source, mutable: mutable))
    }

    /// Creates a copy of this model over `source`, keeping its class or refining it to a subclass.
    func makeCopy(source: JSONInput, mutable: Bool) -> Self {
        let (type, storage) = resolvedStorageForCopy(source: source, mutable: mutable)
        // Refinement only goes down from this model's own class.
        return type.init(storage) as! Self
    }
}
