#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Creating models by the name they are registered under: the registry's side of the creation
// API (JSONModel+Creation.swift), with the same options and errors.

extension ModelRegistry {
    /// Creates a model of the class (or schema model) registered under `name`, or of the
    /// subclass its JSON calls for.
    ///
    /// ```swift
    /// let invoice = try ModelRegistry.shared.makeModel(named: "Invoice", json: data, options: .validating)
    /// ```
    ///
    /// - Parameters:
    ///   - name: A registered class or schema model name.
    ///   - json: The JSON, whose top level is an object; see ``JSONSource``.
    ///   - options: Mutability, validation and parsing; see ``ModelOptions``.
    /// - Throws: ``JSONModelError/unknownModel(name:)`` (before the JSON is read),
    ///   ``JSONModelError/invalidJSON(_:)``, ``JSONModelError/unreadable(url:reason:)``,
    ///   ``JSONModelError/notAnObject(model:found:)``, or with `options.validating`,
    ///   ``JSONModelError/validationFailed(_:)``.
    public func makeModel(named name: String, json: some JSONSource, options: ModelOptions = ModelOptions())
        throws(JSONModelError) -> JSONModel
    {
        if schemaMetadata(named: name) == nil, modelType(named: name) == nil { throw .unknownModel(name: name) }
        return try makeModel(named: name, input: json.parsedJSON(options: options.parseOptions).input, options: options)
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
        return try type.make(input: input, options: options)
    }
}
