#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Creating models by the name they are registered under: the registry's side of the creation
// API (JSONModel+Creation.swift), with the same options and errors.

extension ModelRegistry {
    /// Parses JSON and creates a model of the class (or schema model) registered under `name`,
    /// or of the subclass its JSON calls for.
    ///
    /// ```swift
    /// let invoice = try ModelRegistry.shared.makeModel(named: "Invoice", json: data, options: .validating)
    /// ```
    ///
    /// - Parameters:
    ///   - name: A registered class or schema model name.
    ///   - data: UTF-8 JSON text whose top level is an object.
    ///   - options: Mutability, validation and parsing; see ``ModelOptions``.
    /// - Throws: ``JSONModelError/unknownModel(name:)``, ``JSONModelError/invalidJSON(_:)``,
    ///   ``JSONModelError/notAnObject(model:found:)``, or with `options.validating`,
    ///   ``JSONModelError/validationFailed(_:)``.
    public func makeModel(named name: String, json data: Data, options: ModelOptions = ModelOptions())
        throws(JSONModelError) -> JSONModel
    {
        if schemaMetadata(named: name) == nil, modelType(named: name) == nil { throw .unknownModel(name: name) }
        let document = try JSONModelError.parsing { () throws(JSONParseError) in
            try JSONDocument(data: data, options: options.parseOptions)
        }
        return try makeModel(named: name, input: .node(document.root), options: options)
    }

    /// Creates a model of the class (or schema model) registered under `name` over an object
    /// value; `options.parseOptions` does not apply.
    ///
    /// - Parameters:
    ///   - name: A registered class or schema model name.
    ///   - value: An object.
    ///   - options: Mutability and validation; see ``ModelOptions``.
    /// - Throws: ``JSONModelError/unknownModel(name:)``, ``JSONModelError/notAnObject(model:found:)``,
    ///   or ``JSONModelError/validationFailed(_:)``.
    public func makeModel(named name: String, json value: JSONValue, options: ModelOptions = ModelOptions())
        throws(JSONModelError) -> JSONModel
    {
        try makeModel(named: name, input: .value(value), options: options)
    }

    /// Creates a model of the class (or schema model) registered under `name` over an object node
    /// of a parsed document, without copying it (an element of a large array, for one);
    /// `options.parseOptions` does not apply.
    ///
    /// - Parameters:
    ///   - name: A registered class or schema model name.
    ///   - node: An object node.
    ///   - options: Mutability and validation; see ``ModelOptions``.
    /// - Throws: ``JSONModelError/unknownModel(name:)``, ``JSONModelError/notAnObject(model:found:)``,
    ///   or ``JSONModelError/validationFailed(_:)``.
    public func makeModel(named name: String, node: JSONNode, options: ModelOptions = ModelOptions())
        throws(JSONModelError) -> JSONModel
    {
        try makeModel(named: name, input: .node(node), options: options)
    }

    /// Creates a model of the schema model or class registered under `name` over `input`.
    private func makeModel(named name: String, input: JSONInput, options: ModelOptions) throws(JSONModelError)
        -> JSONModel
    {
        if let schemaModel = schemaMetadata(named: name) {
            let model = try DynamicModel.make(metadata: schemaModel, source: input, mutable: options.mutable)
            try model.validateIfAsked(by: options)
            return model
        }
        guard let type = modelType(named: name) else { throw .unknownModel(name: name) }
        switch input {
        case .node(let node): return try type.make(node: node, options: options)
        case .value(let value): return try type.make(json: value, options: options)
        }
    }
}
