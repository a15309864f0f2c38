#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// A lazy dictionary of models over a JSON object: values are built when first read, then kept.
///
/// ```swift
/// let byID = try ModelDictionary<User>(json: data)   // {"u1": {...}, "u2": {...}}
/// let ann = byID["u1"]                                // built now, the same instance afterwards
/// ```
///
/// Creating it indexes the keys (the last of duplicate keys wins) and builds no model.
/// Members whose values are not objects are left out, each with a diagnostic, as in
/// ``ModelArray``. Values are created through ``JSONModel/modelClass(for:)``; reading
/// is safe from many threads. Setting a key changes this copy only; ``json()`` (or the
/// property it is assigned back to) shows the change.
public struct ModelDictionary<Value: JSONModel>: Sendable {
    let base: ModelDictionaryBase<Value>
    /// Keys in output order and their slots, after a change; nil while as created.
    var changedKeys: [String]?
    /// Keyed by their bytes: `"\u{E1}"` and `"a\u{301}"` are two keys, as in the JSON (ExactKey.swift).
    var changedSlots: [ExactKey: ModelArraySlot<Value>] = [:]

    init(base: ModelDictionaryBase<Value>) {
        self.base = base
    }

    /// Creates an empty dictionary.
    public init() {
        self.base = ModelDictionaryBase(object: .value(.object(JSONObject())), configuration: .topLevel(mutable: false))
    }

    /// Indexes the members of JSON whose top level is an object, each value a model.
    ///
    /// ```swift
    /// let users = try ModelDictionary<User>(json: #"{"u1": {"first_name": "Ann"}}"#)
    /// let name: String? = users["u1"]?.firstName
    /// ```
    ///
    /// The JSON may be text, a file, a parsed node or a value: see ``JSONSource``.
    /// `options.mutable` applies to every value. With `options.validating` every value is built
    /// and validated at once, and members that are not objects count as problems too: the error
    /// lists them all, each path starting at the member's key (`u1.age`).
    ///
    /// - Parameters:
    ///   - json: The JSON.
    ///   - options: Mutability, validation and parsing, for every value; see ``ModelOptions``.
    /// - Throws: ``JSONModelError/invalidJSON(_:)``, ``JSONModelError/unreadable(url:reason:)``,
    ///   ``JSONModelError/notAnObject(model:found:)``, or with `options.validating`,
    ///   ``JSONModelError/validationFailed(_:)``.
    /// - Complexity: O(*n*) in the number of members; no model is built unless validating.
    public init(json: some JSONSource, options: ModelOptions = ModelOptions()) throws(JSONModelError) {
        try self.init(over: json.parsedJSON(options: options.parseOptions).input, options: options)
    }

    /// Indexes the members of `object`, validated when `options` asks.
    init(over object: JSONInput, options: ModelOptions) throws(JSONModelError) {
        let name = "[String: \(Value.self)]"
        guard object.kind == .object else { throw .notAnObject(model: name, found: object.kind) }
        let base = ModelDictionaryBase<Value>(object: object, configuration: .topLevel(mutable: options.mutable))
        if options.validatesAtCreation {
            // The dictionary's own diagnostics (members left out) first, then each value's, as
            // `validate()` orders them for a dictionary property.
            var diagnostics = base.diagnostics
            for (index, key) in base.keys.enumerated() {
                let prefix = JSONPath([.key(key)])
                diagnostics += base.element(at: index).validationDiagnostics(strict: options.strict).map { $0.prefixed(by: prefix) }
            }
            if !diagnostics.isEmpty { throw .validationFailed(ModelValidationError(model: name, diagnostics: diagnostics)) }
        }
        self.base = base
    }

    /// The keys, in JSON order (new keys last).
    public var keys: [String] { changedKeys ?? base.keys }

    /// The number of members.
    public var count: Int { keys.count }

    /// The diagnostics recorded when the dictionary was created: one per member left out.
    public var diagnostics: [ModelDiagnostic] { base.diagnostics }

    /// The model under `key`, built on first access; setting nil removes the key.
    ///
    /// - Complexity: O(1) on average.
    public subscript(key: String) -> Value? {
        get { value(forKey: key, element: base.element(at:)) }
        set {
            makeChangeable()
            if let newValue {
                if changedSlots.updateValue(.model(newValue), forKey: ExactKey(key)) == nil { changedKeys!.append(key) }
            } else if changedSlots.removeValue(forKey: ExactKey(key)) != nil {
                changedKeys!.removeAll { $0.isSameJSONKey(as: key) }
            }
        }
    }

    /// The value under `key` when it is built; otherwise a model made for a description only
    /// (immutable, unlinked, not kept), so describing leaves the dictionary as lazy as it was.
    func valueForDescription(_ key: String) -> Value? {
        value(forKey: key, element: base.elementForDescription(at:))
    }

    /// Whether the value under `key` has been built; for tests of laziness.
    func isValueBuilt(_ key: String) -> Bool {
        value(forKey: key) { base.builtElement(at: $0) } != nil
    }

    /// The value under `key`: a value set since creation, else the base's at the key's index
    /// as `element` gives it.
    @inline(__always)
    private func value(forKey key: String, element: (Int) -> Value?) -> Value? {
        guard changedKeys != nil else { return base.index(of: key).flatMap(element) }
        switch changedSlots[ExactKey(key)] {
        case .base(let index): return element(index)
        case .model(let model): return model
        case nil: return nil
        }
    }

    /// The dictionary as a JSON object: each value's current object.
    ///
    /// - Complexity: O(*n*) in the size of the JSON.
    public func json() -> JSONValue {
        var object = JSONObject(minimumCapacity: count)
        for key in keys {
            let slot: ModelArraySlot<Value> = changedKeys == nil ? .base(base.index(of: key)!) : changedSlots[ExactKey(key)]!
            switch slot {
            case .base(let index): object[key] = base.builtElement(at: index)?.jsonModel.json() ?? base.input(at: index).jsonValue
            case .model(let model): object[key] = model.jsonModel.json()
            }
        }
        return .object(object)
    }

    mutating func makeChangeable() {
        guard changedKeys == nil else { return }
        changedKeys = base.keys
        for (index, key) in base.keys.enumerated() { changedSlots[ExactKey(key)] = .base(index) }
    }
}

extension ModelDictionary: Sequence {
    /// The members in key order, building each value.
    public func makeIterator() -> AnyIterator<(key: String, value: Value)> {
        var keyIterator = keys.makeIterator()
        return AnyIterator {
            guard let key = keyIterator.next() else { return nil }
            return (key, self[key]!)
        }
    }
}

extension ModelDictionary: CustomStringConvertible {
    /// `ModelDictionary<User>(2 members)`; values are not built to describe it.
    public var description: String {
        "ModelDictionary<\(Value.self)>(\(count) member\(count == 1 ? "" : "s"))"
    }
}

extension ModelDictionary: Equatable {
    /// Whether two dictionaries have the same keys with equal values, compared as models
    /// compare (``JSONModel/==(_:_:)``).
    ///
    /// - Complexity: O(*n*), building the values not built yet.
    public static func == (lhs: ModelDictionary, rhs: ModelDictionary) -> Bool {
        lhs.count == rhs.count && lhs.keys.allSatisfy { key in rhs[key].map { $0 == lhs[key] } ?? false }
    }
}

extension ModelDictionary: PropertyValue, LazyModelCollection {
    func holds(_ model: JSONModel, at path: JSONPath) -> Bool {
        let prefix = base.configuration.path.segments
        guard path.segments.count > prefix.count, path.segments.starts(with: prefix),
            case .key(let key) = path.segments[prefix.count]
        else { return false }
        return value(forKey: key) { base.builtElement(at: $0) } === model
    }

    static var propertyType: PropertyType { .dictionary(Value.propertyType) }
    static var implicitDefault: ModelDictionary? { ModelDictionary() }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> ModelDictionary? {
        guard input.kind == .object else {
            context.typeMismatch(input, expected: "an object of \(Value.propertyType)")
            return nil
        }
        let base = ModelDictionaryBase<Value>(object: input, configuration: ElementConfiguration(context))
        context.diagnostics += base.diagnostics
        if context.validating {
            for (index, key) in base.keys.enumerated() {
                let prefix = JSONPath(context.segments + [.key(key)])
                context.nestedModels.append((base.element(at: index), prefix))
            }
        }
        return ModelDictionary(base: base)
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? { json() }

    static func cast(_ value: Any) -> (any Sendable)? {
        if let same = value as? ModelDictionary<Value> { return same }
        if let models = value as? ModelDictionary<JSONModel> {
            var typed = ModelDictionary()
            for (key, model) in models {
                guard let value = model as? Value else { return nil }
                typed[key] = value
            }
            return typed
        }
        if let models = value as? [String: Value] {
            var dictionary = ModelDictionary()
            for key in models.keys.sorted() { dictionary[key] = models[key] }
            return dictionary
        }
        return nil
    }

    /// A dictionary as created returns the Swift dictionary its base built the first time.
    ///
    /// Read as `ModelDictionary<JSONModel>`, it gives a dictionary of the same instances, in
    /// the same key order, every value built.
    func bridged<T>(to type: T.Type) -> T? {
        if Value.self != JSONModel.self,
            T.self == ModelDictionary<JSONModel>.self || T.self == ModelDictionary<JSONModel>?.self
        {
            var upcast = ModelDictionary<JSONModel>()
            for (key, value) in self { upcast[key] = value }
            return upcast as? T
        }
        func build() -> [String: Value] {
            var result: [String: Value] = [:]
            for (key, value) in self { result[key] = value }
            return result
        }
        guard changedKeys == nil else { return build() as? T }
        return base.swiftDictionary { base.makeSwiftDictionary() } as? T
    }
}

/// The JSON object a ``ModelDictionary`` was created over and the values built so far.
final class ModelDictionaryBase<Value: JSONModel>: Sendable {
    let keys: [String]
    private let inputs: [JSONInput]
    /// Keyed by their bytes, as the JSON's keys are (ExactKey.swift).
    private let indexes: [ExactKey: Int]
    let configuration: ElementConfiguration
    let diagnostics: [ModelDiagnostic]
    /// The values built so far, by index; typed as `JSONModel`, not `Value`, as in
    /// `ModelArrayBase`: no generic metadata at run time.
    private let built: BuiltModels
    /// Every value as a Swift `[String: Value]`, once a read asked for one; touched only under
    /// the striped lock of this object (``swiftDictionary(making:)``).
    nonisolated(unsafe) private var swiftDictionaryValue: (any Sendable)?

    /// The Swift dictionary kept for this storage, `make()` kept first when there is none; made
    /// without the lock, as ``ModelArrayBase/swiftArray(making:)`` makes its array.
    func swiftDictionary(making make: () -> any Sendable) -> any Sendable {
        StripedLocks.keepOnce(for: self, read: { swiftDictionaryValue }, write: { swiftDictionaryValue = $0 }, make: make)
    }

    /// Every value, built, under its key, in a new Swift dictionary.
    ///
    /// Made as a `[String: JSONModel]`, in code compiled for it, and reinterpreted: a
    /// dictionary's storage keeps its values as references whatever their class, and every
    /// value is a `Value`, as ``ModelArrayBase`` reinterprets its `[JSONModel]`. Made as
    /// `[String: Value]`, the standard library's dictionary ran unspecialized, as a client runs
    /// it: each member's hash and insertion went through the key's and value's types at run
    /// time, about 3,500 instructions a member, where this takes a tenth of that (PERF:
    /// citm_catalog.json in `jsonmodel-bench --section documents`, whose events are read as
    /// `[String: Item]`). The keys are distinct (``init(object:configuration:)``).
    func makeSwiftDictionary() -> [String: Value] {
        var values: [JSONModel] = []
        values.reserveCapacity(keys.count)
        var index = 0
        while index < keys.count {
            values.append(element(at: index))
            index += 1
        }
        // Keys distinct as JSON keys may still be one `String` (`"\u{E1}"` and `"a\u{301}"`):
        // the Swift dictionary, keyed by `String`, keeps the later, as it keeps the later of two writes.
        let dictionary = [String: JSONModel](zip(keys, values), uniquingKeysWith: { _, later in later })
        return unsafeBitCast(dictionary, to: [String: Value].self)
    }

    init(object: JSONInput, configuration: ElementConfiguration) {
        self.configuration = configuration
        // Named only for diagnostics, so made only for them (see ModelArrayBase.init(array:configuration:)).
        func expected() -> String { "a " + (configuration.schemaModel?.modelName ?? String(describing: Value.self)) }
        var keys: [String] = []
        var inputs: [JSONInput] = []
        var indexes: [ExactKey: Int] = [:]
        var diagnostics: [ModelDiagnostic] = []
        object.forEachMember { key, member in
            guard member.kind == .object else {
                diagnostics.append(configuration.leftOut(member, at: [.key(key)], expected: expected()))
                if let earlier = indexes.removeValue(forKey: ExactKey(key)) { inputs[earlier] = .value(.null) }
                return
            }
            if let earlier = indexes[ExactKey(key)] {
                inputs[earlier] = member  // the last duplicate wins, at the first one's place
            } else {
                indexes[ExactKey(key)] = inputs.count
                keys.append(key)
                inputs.append(member)
            }
        }
        // Drop the places a later non-object duplicate emptied. A key can have more than one
        // place (an object, then not one, then an object again: the first place emptied, a
        // second taken); the one its index names is the one kept.
        if keys.count != indexes.count {
            let kept = keys.indices.filter { indexes[ExactKey(keys[$0])] == $0 }
            let keptKeys = kept.map { keys[$0] }
            inputs = kept.map { inputs[$0] }
            indexes = Dictionary(uniqueKeysWithValues: keptKeys.enumerated().map { (ExactKey($1), $0) })
            keys = keptKeys
        }
        self.keys = keys
        self.inputs = inputs
        self.built = BuiltModels(count: inputs.count)
        self.indexes = indexes
        self.diagnostics = diagnostics
    }

    func index(of key: String) -> Int? { indexes[ExactKey(key)] }

    func input(at index: Int) -> JSONInput { inputs[index] }

    func element(at index: Int) -> Value {
        if let built = builtElement(at: index) { return built }
        let model: JSONModel = configuration.makeElement(Value.self, inputs[index], at: [.key(keys[index])])
        // Handed over: passed as a copy, the model cost a retain and a release around the store.
        // PERF: reading the elements of a lazy array; see jsonmodel-bench --section converters.
        return unsafeDowncast(built.store(consume model, at: index), to: Value.self)
    }

    /// The value at `index` when built, else one made for a description only.
    func elementForDescription(at index: Int) -> Value {
        if let built = builtElement(at: index) { return built }
        return configuration.sidePath.makeElement(Value.self, inputs[index], at: [.key(keys[index])])
    }

    func builtElement(at index: Int) -> Value? {
        // No `Optional.map` here: in a client this code runs unspecialized, where the generic
        // `map` goes through metadata at run time on every call.
        // PERF: every read of a built value; see jsonmodel-bench --section documents (citm_catalog.json).
        guard let model = built.model(at: index) else { return nil }
        return unsafeDowncast(model, to: Value.self)
    }
}
