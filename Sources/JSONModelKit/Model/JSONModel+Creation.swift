#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// Creating models from JSON: one initializer, and one class method for a subclass chosen by the
// JSON. Both take any `JSONSource` and one `ModelOptions`, and throw `JSONModelError` alone.

extension JSONModel {
    /// Creates a model over JSON whose top level is an object; nothing is converted until read.
    ///
    /// ```swift
    /// let user = try User(json: data)
    /// let draft = try User(json: #"{"first_name": "Ann"}"#, options: .mutable)
    /// let built = try User(json: ["first_name": "Ann", "age": 30] as JSONValue)
    /// ```
    ///
    /// The JSON may be text, a file, a parsed node or a value: see ``JSONSource``. A node or a
    /// value is read in place and `options.parseOptions` does not apply to it.
    ///
    /// - Parameters:
    ///   - json: The JSON.
    ///   - options: Mutability, validation and parsing; see ``ModelOptions``.
    /// - Throws: ``JSONModelError/invalidJSON(_:)`` for text that is not JSON,
    ///   ``JSONModelError/unreadable(url:reason:)`` for a file that cannot be read,
    ///   ``JSONModelError/notAnObject(model:found:)`` when the top level is not an object, and
    ///   with `options.validating`, ``JSONModelError/validationFailed(_:)``.
    /// - Complexity: O(*n*) to scan text, O(1) to create the model (O(*n*) when validating).
    public convenience init(json: some JSONSource, options: ModelOptions = ModelOptions()) throws(JSONModelError) {
        let input = try json.parsedJSON(options: options.parseOptions).input
        guard input.kind == .object else {
            throw .notAnObject(model: String(describing: Self.self), found: input.kind)
        }
        self.init(ModelStorage(source: input, mutable: options.mutable))
        try validateIfAsked(by: options)
    }

    /// Creates an empty, mutable model, to fill through its properties.
    ///
    /// ```swift
    /// let user = User()
    /// user.firstName = "Ann"
    /// user.jsonModel.json()   // {"first_name":"Ann"}
    /// ```
    public convenience init() {
        self.init(ModelStorage(source: .value(.object(JSONObject())), mutable: true))
    }

    // MARK: From a metatype

    /// Creates a model of this class, or of the subclass ``modelClass(for:)`` chooses for its
    /// JSON, which an initializer cannot return.
    ///
    /// ```swift
    /// let shape = try Shape.make(json: data)                 // a Circle for {"type": "circle", …}
    /// let type: JSONModel.Type = registry.modelType(named: "Shape")!
    /// let same = try type.make(json: data, options: .validating)
    /// ```
    ///
    /// - Parameters:
    ///   - json: The JSON, whose top level is an object; see ``JSONSource``.
    ///   - options: Mutability, validation and parsing; see ``ModelOptions``.
    /// - Returns: A model of this class or one of its subclasses.
    /// - Throws: ``JSONModelError/invalidJSON(_:)``, ``JSONModelError/unreadable(url:reason:)``,
    ///   ``JSONModelError/notAnObject(model:found:)``, or ``JSONModelError/validationFailed(_:)``.
    /// - Complexity: O(*n*) to scan text, O(1) to create the model (O(*n*) when validating).
    public class func make(json: some JSONSource, options: ModelOptions = ModelOptions()) throws(JSONModelError) -> Self {
        try make(input: json.parsedJSON(options: options.parseOptions).input, options: options)
    }

    // MARK: Internals

    /// ``make(json:options:)`` over parsed JSON.
    class func make(input: JSONInput, options: ModelOptions) throws(JSONModelError) -> Self {
        guard input.kind == .object else { throw .notAnObject(model: String(describing: self), found: input.kind) }
        return try makeResolved(input, metadata: nil, mutable: options.mutable).validatedIfAsked(by: options)
    }

    /// Converts every property when `options` asks for validation, throwing what was found.
    func validateIfAsked(by options: ModelOptions) throws(JSONModelError) {
        guard options.validatesAtCreation else { return }
        do {
            try jsonModel.validate(strict: options.strict)
        } catch {
            throw .validationFailed(error)
        }
    }

    /// This model, after ``validateIfAsked(by:)``.
    func validatedIfAsked(by options: ModelOptions) throws(JSONModelError) -> Self {
        try validateIfAsked(by: options)
        return self
    }
}
