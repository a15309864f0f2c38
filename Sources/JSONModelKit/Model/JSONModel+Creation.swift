#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Creating models from JSON in its various forms.

extension JSONModel {
    /// Creates a model over a JSON object node of a parsed document, without copying or converting.
    ///
    /// ```swift
    /// let document = try JSONDocument(data: data)
    /// let user = try User(node: document.root)
    /// ```
    ///
    /// - Parameters:
    ///   - node: An object node.
    ///   - mutable: Whether the model accepts writes.
    /// - Throws: ``JSONModelError/notAnObject(model:found:)`` when the node is not an object.
    /// - Complexity: O(1).
    public convenience init(node: JSONNode, mutable: Bool = false) throws(JSONModelError) {
        guard node.kind == .object else {
            throw .notAnObject(model: String(describing: Self.self), found: node.kind)
        }
        self.init(ModelStorage(source: .node(node), mutable: mutable))
    }

    /// Creates a model by parsing JSON bytes; nothing is converted until read.
    ///
    /// - Parameters:
    ///   - data: UTF-8 JSON text whose top level is an object.
    ///   - mutable: Whether the model accepts writes.
    ///   - options: Parsing options.
    /// - Throws: `JSONParseError` for invalid JSON, ``JSONModelError`` when the top level is not an object.
    /// - Complexity: O(*n*) to scan the bytes, O(1) to create the model.
    public convenience init(json data: Data, mutable: Bool = false, options: JSONParseOptions = JSONParseOptions())
        throws
    {
        let document = try JSONDocument(data: data, options: options)
        try self.init(node: document.root, mutable: mutable)
    }

    /// Creates a model by parsing JSON text.
    ///
    /// ```swift
    /// let user = try User(json: #"{"first_name": "Ann"}"#)
    /// ```
    ///
    /// - Throws: `JSONParseError` for invalid JSON, ``JSONModelError`` when the top level is not an object.
    public convenience init(json string: String, mutable: Bool = false, options: JSONParseOptions = JSONParseOptions())
        throws
    {
        let document = try JSONDocument(string: string, options: options)
        try self.init(node: document.root, mutable: mutable)
    }

    /// Creates a model by parsing UTF-8 JSON bytes.
    ///
    /// - Throws: `JSONParseError` for invalid JSON, ``JSONModelError`` when the top level is not an object.
    public convenience init(json bytes: [UInt8], mutable: Bool = false, options: JSONParseOptions = JSONParseOptions())
        throws
    {
        let document = try JSONDocument(bytes: bytes, options: options)
        try self.init(node: document.root, mutable: mutable)
    }

    /// Creates a model over an owned JSON object value.
    ///
    /// ```swift
    /// let user = try User(json: ["first_name": "Ann", "age": 30])
    /// ```
    ///
    /// - Throws: ``JSONModelError/notAnObject(model:found:)`` when the value is not an object.
    /// - Complexity: O(1).
    public convenience init(json value: JSONValue, mutable: Bool = false) throws(JSONModelError) {
        guard case .object = value else {
            throw .notAnObject(model: String(describing: Self.self), found: JSONInput.value(value).kind)
        }
        self.init(ModelStorage(source: .value(value), mutable: mutable))
    }

    /// Creates a model from a Foundation-style dictionary (as `JSONSerialization` returns).
    ///
    /// - Throws: ``JSONModelError/notRepresentable(model:detail:)`` when a value has no JSON form.
    /// - Complexity: O(*n*) to convert the dictionary.
    public convenience init(dictionary: [String: Any], mutable: Bool = false) throws(JSONModelError) {
        let value: JSONValue
        do {
            value = try JSONValue(any: dictionary)
        } catch {
            throw .notRepresentable(model: String(describing: Self.self), detail: "\(error)")
        }
        try self.init(json: value, mutable: mutable)
    }

    /// Creates an empty, mutable model, to fill through its properties.
    ///
    /// ```swift
    /// let user = User()
    /// user.firstName = "Ann"
    /// user.json()   // {"first_name":"Ann"}
    /// ```
    public convenience init() {
        self.init(ModelStorage(source: .value(.object(JSONObject())), mutable: true))
    }

    // MARK: From a metatype

    /// Creates a model of this class over an object node; usable through a metatype
    /// (`let type: JSONModel.Type = …; try type.make(node: node)`), unlike the initializers.
    ///
    /// - Throws: ``JSONModelError/notAnObject(model:found:)`` when the node is not an object.
    /// - Complexity: O(1).
    public class func make(node: JSONNode, mutable: Bool = false) throws(JSONModelError) -> Self {
        guard node.kind == .object else { throw .notAnObject(model: String(describing: self), found: node.kind) }
        return makeResolved(.node(node), metadata: nil, mutable: mutable)
    }

    /// Creates a model of this class over an owned object value; usable through a metatype.
    ///
    /// - Throws: ``JSONModelError/notAnObject(model:found:)`` when the value is not an object.
    public class func make(json value: JSONValue, mutable: Bool = false) throws(JSONModelError) -> Self {
        guard case .object = value else {
            throw .notAnObject(model: String(describing: self), found: JSONInput.value(value).kind)
        }
        return makeResolved(.value(value), metadata: nil, mutable: mutable)
    }

    /// Parses JSON and creates a model of this class; usable through a metatype.
    ///
    /// - Throws: `JSONParseError`, or ``JSONModelError`` when the top level is not an object.
    public class func make(json data: Data, mutable: Bool = false) throws -> Self {
        try make(node: JSONDocument(data: data).root, mutable: mutable)
    }

    /// Parses JSON text and creates a model of this class; usable through a metatype.
    ///
    /// ```swift
    /// let type: Shape.Type = Shape.self
    /// let shape = try type.make(json: #"{"type": "circle", "radius": 2}"#)   // a Circle
    /// ```
    ///
    /// - Throws: `JSONParseError`, or ``JSONModelError`` when the top level is not an object.
    public class func make(json string: String, mutable: Bool = false) throws -> Self {
        try make(node: JSONDocument(string: string).root, mutable: mutable)
    }

    /// Parses UTF-8 JSON bytes and creates a model of this class; usable through a metatype.
    ///
    /// - Throws: `JSONParseError`, or ``JSONModelError`` when the top level is not an object.
    public class func make(json bytes: [UInt8], mutable: Bool = false) throws -> Self {
        try make(node: JSONDocument(bytes: bytes).root, mutable: mutable)
    }

    // MARK: Validating

    /// Parses JSON and converts every property eagerly (nested models included).
    ///
    /// - Throws: `JSONParseError`, ``JSONModelError``, or ``ModelValidationError``
    ///   listing every value that did not convert cleanly, with its path.
    public convenience init(validating data: Data, mutable: Bool = false) throws {
        try self.init(json: data, mutable: mutable)
        try validate()
    }

    /// Parses JSON text and converts every property eagerly; see ``init(validating:mutable:)-(Data,_)``.
    public convenience init(validating string: String, mutable: Bool = false) throws {
        try self.init(json: string, mutable: mutable)
        try validate()
    }

    /// Parses UTF-8 JSON bytes and converts every property eagerly.
    public convenience init(validating bytes: [UInt8], mutable: Bool = false) throws {
        try self.init(json: bytes, mutable: mutable)
        try validate()
    }

    /// Wraps a JSON object value and converts every property eagerly.
    public convenience init(validating value: JSONValue, mutable: Bool = false) throws {
        try self.init(json: value, mutable: mutable)
        try validate()
    }

    /// Wraps an object node and converts every property eagerly.
    public convenience init(validating node: JSONNode, mutable: Bool = false) throws {
        try self.init(node: node, mutable: mutable)
        try validate()
    }
}
