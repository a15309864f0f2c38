#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// A model's own API, under one member, so that every other member name is free for the
// properties its JSON holds.

/// The members every model class has with its own type: ``jsonModel``, and the class methods
/// that create collections and streams of the class (`Tag.array(from: data)`).
///
/// Every ``JSONModel`` conforms; there is nothing to adopt.
public protocol JSONModelProtocol: JSONModel {}

extension JSONModel: JSONModelProtocol {}

extension JSONModelProtocol {
    /// The model's own API: its JSON, copies, writes by name, merges, validation, diagnostics
    /// and descriptions.
    ///
    /// A model's instance namespace belongs to its properties: `user.value`, `user.json` and
    /// `user.diagnostics` read properties a JSON object may well have. What the library offers
    /// on every model lives here instead, behind the one member name a property may not take
    /// besides those Swift keeps (``JSONModel/reservedPropertyNames``):
    ///
    /// ```swift
    /// let data = user.jsonModel.jsonData()
    /// let older = user.jsonModel.mutate { $0.age = 31 }
    /// try user.jsonModel.validate(strict: true)
    /// ```
    public var jsonModel: JSONModelView<Self> { JSONModelView(model: self) }
}

/// A model's own API, reached through ``JSONModelProtocol/jsonModel``.
///
/// Its diagnostics and descriptions are declared with the code that gathers and writes them
/// (`Descriptions/`). Holds the model and nothing else: getting it costs nothing, and everything it does, it does
/// to the model.
public struct JSONModelView<Model: JSONModel> {
    /// The model this view acts on.
    let model: Model

    init(model: Model) {
        self.model = model
    }

    // MARK: Identity

    /// The name of the model's class (or schema).
    public var modelName: String { model.metadata.modelName }

    /// Whether the model accepts writes.
    public var isMutable: Bool { model.isMutable }

    /// The names of the declared properties, inherited ones first.
    public var propertyNames: [String] { model.metadata.properties.map(\.name) }

    /// Whether `name` is a declared property of the model.
    package func hasProperty(_ name: String) -> Bool {
        model.metadata.ordinal(of: name) != nil
    }

    // MARK: Reading by name

    /// The model as a ``ModelValue``, whose dynamic members read its properties by name.
    ///
    /// For a reference typed `JSONModel` (a model made by name, a plugin's model), where the
    /// compiler knows no property names:
    ///
    /// ```swift
    /// let car = try registry.makeModel(named: "Car", json: data)
    /// let wheels: Int = car.jsonModel.dynamic.wheels
    /// print(car.jsonModel.dynamic.owner.name)
    /// ```
    public var dynamic: ModelValue {
        ModelValue(model: model.metadata.modelName, property: "", value: model)
    }

    /// The value of a declared property, or nil when the name is not declared or the value is nil;
    /// never stops the program. For the `jsonmodel` tool and tests, which list any model's
    /// properties: users read by name through ``JSONModel/subscript(property:)``, or untyped
    /// through ``dynamic``.
    ///
    /// - Parameter name: The property name.
    /// - Returns: The converted value (optionals unwrapped), or nil.
    package func value(forProperty name: String) -> Any? {
        guard let ordinal = model.metadata.ordinal(of: name) else { return nil }
        return unwrappedValue(model.value(at: ordinal))
    }

    /// The value of a declared property turned back into JSON, or nil when the name is not declared.
    ///
    /// The JSON is the value's own, as its type writes it without a converter: an `Int` read
    /// through `hexColor` is a number here, a `Date` is ISO 8601 text. A type of yours that has
    /// no conversion of its own is written through the converter registered for it. A nil
    /// value, or one with no JSON (an enum's unknown case), gives `.null`; a model gives its
    /// current JSON object. The JSON the model stores and writes is ``json(options:)``'s.
    ///
    /// - Parameter name: The property name.
    public func jsonValue(forProperty name: String) -> JSONValue? {
        guard let ordinal = model.metadata.ordinal(of: name) else { return nil }
        let property = model.metadata.properties[ordinal]
        let value = model.value(at: ordinal)
        let json = property.valueType.jsonValue(ofAny: value, replacing: nil) ?? property.jsonValue(ofAny: value, replacing: nil)
        return (json ?? nil) ?? .null
    }

    // MARK: Validation

    /// Converts every property (nested models included) and throws if any value did not convert cleanly.
    ///
    /// By default validation is as lenient as reads: a number where a `String` is declared, a
    /// numeric string for a number, `"yes"` or `1` for a `Bool` convert without a problem, and a
    /// missing or `null` value reads its default. Strict validation holds the JSON to the
    /// declared types, as `Codable` does: each of those conversions is a problem
    /// (`typeMismatch`), and so is every missing or `null` value of a non-optional property
    /// without a declared default (`missingRequired`; a `JSONValue` may hold `null`). Keys no
    /// property reads are not problems either way: they stay in output. Strict problems fail
    /// this validation only; the model's ``diagnostics`` and its reads stay lenient.
    ///
    /// ```swift
    /// try user.jsonModel.validate()               // passes for {"age": "31"}
    /// try user.jsonModel.validate(strict: true)   // throws: age: expected Int, found a string "31" …
    /// ```
    ///
    /// - Parameter strict: Whether lenient conversions and missing non-optionals are problems.
    /// - Throws: ``ModelValidationError`` listing every diagnostic with its path
    ///   from the model's object.
    /// - Complexity: O(*n*) in the size of the JSON.
    public func validate(strict: Bool = false) throws(ModelValidationError) {
        try model.validateAll(strict: strict)
    }


    // MARK: Output

    /// The model's current JSON object, shaped by `options`.
    ///
    /// Without options this is the JSON the model was created from with its writes applied,
    /// keys no property reads included, so nothing the input held is lost.
    ///
    /// - Parameter options: Which keys to include; see ``JSONOutputOptions``.
    /// - Complexity: O(1) without options for an unwritten model (the value is made when first
    ///   walked); O(*n*) with options.
    public func json(options: JSONOutputOptions = []) -> JSONValue {
        model.currentJSON(options: options)
    }

    /// The model's current JSON as UTF-8 bytes, for tools and tests of this package.
    package func jsonBytes(options: JSONOutputOptions = [], format: JSONWriteOptions = []) -> [UInt8] {
        model.currentJSONBytes(options: options, format: format)
    }

    /// The model's current JSON as UTF-8 text in `Data`.
    ///
    /// ```swift
    /// user.jsonModel.jsonData()                                               // compact, keys as they are
    /// user.jsonModel.jsonData(options: .onlyDeclared, format: [.prettyPrinted, .sortedKeys])
    /// ```
    ///
    /// An unwritten model without options copies the bytes of its document's original text as
    /// they were, number spellings and escapes included.
    ///
    /// - Parameters:
    ///   - options: Which keys to include; see ``JSONOutputOptions``.
    ///   - format: How to write the text; see `JSONWriteOptions`.
    public func jsonData(options: JSONOutputOptions = [], format: JSONWriteOptions = []) -> Data {
        Data(jsonBytes(options: options, format: format))
    }

    /// The model's current JSON as a `String`; see ``jsonData(options:format:)``.
    public func jsonString(options: JSONOutputOptions = [], format: JSONWriteOptions = []) -> String {
        String(decoding: jsonBytes(options: options, format: format), as: UTF8.self)
    }

    /// The JSON object the model was created from, unchanged by writes.
    public var originalJSON: JSONValue { model.original.jsonValue }

    // MARK: Writing and copying

    /// Writes a declared property by name, with an error rather than a stop when the write
    /// cannot happen.
    ///
    /// `value` may be of the property's Swift type, a type that converts exactly (`6` for an
    /// `Int64`), a ``JSONValue``, a model, or nil (which removes the key and reads as missing).
    ///
    /// - Throws: ``JSONModelError/immutable(model:property:)`` for an immutable model,
    ///   ``JSONModelError/unknownProperty(model:property:)``,
    ///   ``JSONModelError/typeMismatch(model:property:expected:found:)``, or
    ///   ``JSONModelError/unwritable(model:property:reason:)``.
    public func set(_ value: Any?, forProperty name: String) throws(JSONModelError) {
        try model.assign(value, forProperty: name)
    }

    /// An immutable model of the same class with the model's current JSON.
    ///
    /// An immutable model returns itself.
    ///
    /// - Complexity: O(1): the copy shares the JSON.
    public func copy() -> Model { model.immutableCopy() }

    /// A mutable model of the same class with the model's current JSON.
    ///
    /// - Complexity: O(1): the copy shares the JSON until its first write.
    public func mutableCopy() -> Model { model.writableCopy() }

    /// Returns an immutable copy changed by `body`, which gets a mutable copy.
    ///
    /// ```swift
    /// let older = user.jsonModel.mutate { $0.age = 31 }
    /// ```
    ///
    /// - Parameter body: Changes the mutable copy.
    /// - Returns: An immutable model of the same class.
    public func mutate(_ body: (Model) throws -> Void) rethrows -> Model {
        let mutable = model.writableCopy()
        try body(mutable)
        return mutable.immutableCopy()
    }

    /// Drops every write, returning the model to its original JSON.
    ///
    /// A property group, whose object is its parent's, puts back only its own keys, as they were
    /// when it was read; the parent's other keys keep their writes.
    public func clearMutations() { model.dropMutations() }

    /// Whether the model has been written to since it was created or last cleared.
    ///
    /// A property group answers for the object it reads, its parent's, as the parent holds it
    /// now: written through the group, the parent or another group.
    public var hasMutations: Bool {
        model.refreshFromGroupParent()
        return model.state.withLock { $0.current != nil }
    }

    // MARK: Merging

    /// A new immutable model: the model's current JSON with `partialJSON` merged in.
    ///
    /// Merging follows JSON Merge Patch (RFC 7396): members of the partial object replace the
    /// model's, objects merge recursively, arrays and scalars are replaced whole, and a `null`
    /// member removes the key.
    ///
    /// ```swift
    /// let moved = try user.jsonModel.merging(["address": ["city": "Oslo"]])
    /// ```
    ///
    /// - Throws: ``JSONModelError/mergePatchNotAnObject(model:found:)`` when `partialJSON` is not an object.
    public func merging(_ partialJSON: JSONValue) throws(JSONModelError) -> Model {
        try model.merged(with: partialJSON)
    }

    /// Merges `partialJSON` into a mutable model, in place; see ``merging(_:)``.
    ///
    /// Every property reads again; a nested model read before whose JSON the merge changed is
    /// no longer linked to this model (read the property again for one that is).
    ///
    /// - Throws: ``JSONModelError/immutable(model:property:)`` for an immutable model,
    ///   ``JSONModelError/unwritable(model:property:reason:)`` for a nested model whose parent
    ///   holds something other than an object at its place, or
    ///   ``JSONModelError/mergePatchNotAnObject(model:found:)`` when `partialJSON` is not an object.
    public func update(with partialJSON: JSONValue) throws(JSONModelError) {
        try model.applyPatch(partialJSON)
    }

    // MARK: Relationships

    /// The model that created this one through a property declared with `inverse: name`, while
    /// it exists.
    ///
    /// ```swift
    /// let order: Order? = line.jsonModel.inverse("order")
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name the property declared with `inverse:`.
    ///   - type: The parent's class.
    /// - Returns: The parent, or nil when it has been freed, when no property created this
    ///   model, or when the parent is not a `T`.
    public func inverse<T: JSONModel>(_ name: String, as type: T.Type = T.self) -> T? {
        model.state.withLock { $0.inverses[name]?.model } as? T
    }
}

extension JSONModelView: Sendable where Model: Sendable {}
