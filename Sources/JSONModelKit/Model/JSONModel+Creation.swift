#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// Creating models from JSON in its various forms. Every form takes one `ModelOptions` and
// throws `JSONModelError` alone.

extension JSONModel {
    /// Creates a model by parsing JSON bytes; nothing is converted until read.
    ///
    /// ```swift
    /// let user = try User(json: data)
    /// let draft = try User(json: data, options: .mutable)
    /// ```
    ///
    /// - Parameters:
    ///   - data: UTF-8 JSON text whose top level is an object.
    ///   - options: Mutability, validation and parsing; see ``ModelOptions``.
    /// - Throws: ``JSONModelError/invalidJSON(_:)`` for text that is not JSON,
    ///   ``JSONModelError/notAnObject(model:found:)`` when the top level is not an object, and
    ///   with `options.validating`, ``JSONModelError/validationFailed(_:)``.
    /// - Complexity: O(*n*) to scan the bytes, O(1) to create the model (O(*n*) when validating).
    public convenience init(json data: Data, options: ModelOptions = ModelOptions()) throws(JSONModelError) {
        let document = try JSONModelError.parsing { () throws(JSONParseError) in
            try JSONDocument(data: data, options: options.parseOptions)
        }
        try self.init(node: document.root, options: options)
    }

    /// Creates a model by parsing JSON text; see ``init(json:options:)-(Data,ModelOptions)``.
    ///
    /// ```swift
    /// let user = try User(json: #"{"first_name": "Ann"}"#)
    /// ```
    ///
    /// - Parameters:
    ///   - string: JSON text whose top level is an object.
    ///   - options: Mutability, validation and parsing; see ``ModelOptions``.
    /// - Throws: ``JSONModelError/invalidJSON(_:)``, ``JSONModelError/notAnObject(model:found:)``,
    ///   or ``JSONModelError/validationFailed(_:)``.
    public convenience init(json string: String, options: ModelOptions = ModelOptions()) throws(JSONModelError) {
        let document = try JSONModelError.parsing { () throws(JSONParseError) in
            try JSONDocument(string: string, options: options.parseOptions)
        }
        try self.init(node: document.root, options: options)
    }

    /// Creates a model by parsing UTF-8 JSON bytes; see ``init(json:options:)-(Data,ModelOptions)``.
    ///
    /// - Parameters:
    ///   - bytes: UTF-8 JSON text whose top level is an object.
    ///   - options: Mutability, validation and parsing; see ``ModelOptions``.
    /// - Throws: ``JSONModelError/invalidJSON(_:)``, ``JSONModelError/notAnObject(model:found:)``,
    ///   or ``JSONModelError/validationFailed(_:)``.
    public convenience init(json bytes: [UInt8], options: ModelOptions = ModelOptions()) throws(JSONModelError) {
        let document = try JSONModelError.parsing { () throws(JSONParseError) in
            try JSONDocument(bytes: bytes, options: options.parseOptions)
        }
        try self.init(node: document.root, options: options)
    }

    /// Creates a model over an owned JSON object value.
    ///
    /// ```swift
    /// let user = try User(json: ["first_name": "Ann", "age": 30])
    /// ```
    ///
    /// The value is already parsed, so `options.parseOptions` does not apply.
    ///
    /// - Parameters:
    ///   - value: An object.
    ///   - options: Mutability and validation; see ``ModelOptions``.
    /// - Throws: ``JSONModelError/notAnObject(model:found:)`` when the value is not an object, and
    ///   with `options.validating`, ``JSONModelError/validationFailed(_:)``.
    /// - Complexity: O(1), or O(*n*) in the size of the value when validating.
    public convenience init(json value: JSONValue, options: ModelOptions = ModelOptions()) throws(JSONModelError) {
        guard case .object = value else {
            throw .notAnObject(model: String(describing: Self.self), found: JSONInput.value(value).kind)
        }
        self.init(ModelStorage(source: .value(value), mutable: options.mutable))
        try validateIfAsked(by: options)
    }

    /// Creates a model over a JSON object node of a parsed document, without copying or converting.
    ///
    /// ```swift
    /// let document = try JSONDocument(data: data)
    /// let user = try User(node: document.root)
    /// ```
    ///
    /// The node is already parsed, so `options.parseOptions` does not apply.
    ///
    /// - Parameters:
    ///   - node: An object node.
    ///   - options: Mutability and validation; see ``ModelOptions``.
    /// - Throws: ``JSONModelError/notAnObject(model:found:)`` when the node is not an object, and
    ///   with `options.validating`, ``JSONModelError/validationFailed(_:)``.
    /// - Complexity: O(1), or O(*n*) in the size of the object when validating.
    public convenience init(node: JSONNode, options: ModelOptions = ModelOptions()) throws(JSONModelError) {
        guard node.kind == .object else {
            throw .notAnObject(model: String(describing: Self.self), found: node.kind)
        }
        self.init(ModelStorage(source: .node(node), mutable: options.mutable))
        try validateIfAsked(by: options)
    }

    /// Creates a model from a Foundation-style dictionary (as `JSONSerialization` returns).
    ///
    /// The dictionary is converted to a ``JSONValue``, not parsed, so `options.parseOptions`
    /// does not apply.
    ///
    /// - Parameters:
    ///   - dictionary: Strings, numbers, booleans, `NSNull`, arrays and dictionaries of them.
    ///   - options: Mutability and validation; see ``ModelOptions``.
    /// - Throws: ``JSONModelError/notRepresentable(model:detail:)`` when a value has no JSON form,
    ///   and with `options.validating`, ``JSONModelError/validationFailed(_:)``.
    /// - Complexity: O(*n*) to convert the dictionary.
    public convenience init(dictionary: [String: Any], options: ModelOptions = ModelOptions()) throws(JSONModelError) {
        let value: JSONValue
        do {
            value = try JSONValue(any: dictionary)
        } catch {
            throw .notRepresentable(model: String(describing: Self.self), detail: "\(error)")
        }
        try self.init(json: value, options: options)
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

    /// Parses JSON and creates a model of this class, or of the subclass
    /// ``modelClass(for:)`` chooses for it, which an initializer cannot return.
    ///
    /// ```swift
    /// let shape = try Shape.make(json: data)                 // a Circle for {"type": "circle", …}
    /// let type: JSONModel.Type = registry.modelType(named: "Shape")!
    /// let same = try type.make(json: data, options: .validating)
    /// ```
    ///
    /// - Parameters:
    ///   - data: UTF-8 JSON text whose top level is an object.
    ///   - options: Mutability, validation and parsing; see ``ModelOptions``.
    /// - Returns: A model of this class or one of its subclasses.
    /// - Throws: ``JSONModelError/invalidJSON(_:)``, ``JSONModelError/notAnObject(model:found:)``,
    ///   or ``JSONModelError/validationFailed(_:)``.
    public class func make(json data: Data, options: ModelOptions = ModelOptions()) throws(JSONModelError) -> Self {
        let document = try JSONModelError.parsing { () throws(JSONParseError) in
            try JSONDocument(data: data, options: options.parseOptions)
        }
        return try make(node: document.root, options: options)
    }

    /// Parses JSON text and creates a model of this class or the subclass its JSON calls for;
    /// see ``make(json:options:)-(Data,ModelOptions)``.
    ///
    /// ```swift
    /// let type: Shape.Type = Shape.self
    /// let shape = try type.make(json: #"{"type": "circle", "radius": 2}"#)   // a Circle
    /// ```
    ///
    /// - Parameters:
    ///   - string: JSON text whose top level is an object.
    ///   - options: Mutability, validation and parsing; see ``ModelOptions``.
    /// - Returns: A model of this class or one of its subclasses.
    /// - Throws: ``JSONModelError/invalidJSON(_:)``, ``JSONModelError/notAnObject(model:found:)``,
    ///   or ``JSONModelError/validationFailed(_:)``.
    public class func make(json string: String, options: ModelOptions = ModelOptions()) throws(JSONModelError) -> Self {
        let document = try JSONModelError.parsing { () throws(JSONParseError) in
            try JSONDocument(string: string, options: options.parseOptions)
        }
        return try make(node: document.root, options: options)
    }

    /// Parses UTF-8 JSON bytes and creates a model of this class or the subclass its JSON calls
    /// for; see ``make(json:options:)-(Data,ModelOptions)``.
    ///
    /// - Parameters:
    ///   - bytes: UTF-8 JSON text whose top level is an object.
    ///   - options: Mutability, validation and parsing; see ``ModelOptions``.
    /// - Returns: A model of this class or one of its subclasses.
    /// - Throws: ``JSONModelError/invalidJSON(_:)``, ``JSONModelError/notAnObject(model:found:)``,
    ///   or ``JSONModelError/validationFailed(_:)``.
    public class func make(json bytes: [UInt8], options: ModelOptions = ModelOptions()) throws(JSONModelError) -> Self {
        let document = try JSONModelError.parsing { () throws(JSONParseError) in
            try JSONDocument(bytes: bytes, options: options.parseOptions)
        }
        return try make(node: document.root, options: options)
    }

    /// Creates a model of this class or the subclass its JSON calls for, over an owned object
    /// value; `options.parseOptions` does not apply.
    ///
    /// - Parameters:
    ///   - value: An object.
    ///   - options: Mutability and validation; see ``ModelOptions``.
    /// - Returns: A model of this class or one of its subclasses.
    /// - Throws: ``JSONModelError/notAnObject(model:found:)`` or ``JSONModelError/validationFailed(_:)``.
    public class func make(json value: JSONValue, options: ModelOptions = ModelOptions()) throws(JSONModelError) -> Self {
        guard case .object = value else {
            throw .notAnObject(model: String(describing: self), found: JSONInput.value(value).kind)
        }
        return try makeResolved(.value(value), metadata: nil, mutable: options.mutable).validatedIfAsked(by: options)
    }

    /// Creates a model of this class or the subclass its JSON calls for, over an object node of a
    /// parsed document; `options.parseOptions` does not apply.
    ///
    /// - Parameters:
    ///   - node: An object node.
    ///   - options: Mutability and validation; see ``ModelOptions``.
    /// - Returns: A model of this class or one of its subclasses.
    /// - Throws: ``JSONModelError/notAnObject(model:found:)`` or ``JSONModelError/validationFailed(_:)``.
    /// - Complexity: O(1), or O(*n*) in the size of the object when validating.
    public class func make(node: JSONNode, options: ModelOptions = ModelOptions()) throws(JSONModelError) -> Self {
        guard node.kind == .object else { throw .notAnObject(model: String(describing: self), found: node.kind) }
        return try makeResolved(.node(node), metadata: nil, mutable: options.mutable).validatedIfAsked(by: options)
    }

    // MARK: Internals

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

extension JSONModelError {
    /// Runs `parse`, turning a parse error into ``invalidJSON(_:)``.
    static func parsing<Result>(_ parse: () throws(JSONParseError) -> Result) throws(JSONModelError) -> Result {
        do {
            return try parse()
        } catch {
            throw .invalidJSON(error)
        }
    }
}
