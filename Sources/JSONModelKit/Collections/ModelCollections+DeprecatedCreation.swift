#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// The former creation API of the lazy collections, before `ModelOptions`: a `mutable:` flag and
// untyped errors on the forms that parse. Each spelling forwards to its replacement; see
// Model/DeprecatedCreation.swift for the models' own, and for why errors keep their former types.

extension ModelCollectionCreating {
    /// The former spelling of ``array(from:options:)-(Data,ModelOptions)``, which threw `JSONParseError` itself.
    @available(*, deprecated, message: "use array(from:options:), with options: .mutable for a mutable model")
    public static func array(from data: Data, mutable: Bool) throws -> ModelArray<Self> {
        do {
            return try array(from: data, options: ModelOptions(mutable: mutable))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``array(from:options:)-([UInt8],ModelOptions)``, which threw `JSONParseError` itself.
    @available(*, deprecated, message: "use array(from:options:), with options: .mutable for a mutable model")
    public static func array(from bytes: [UInt8], mutable: Bool) throws -> ModelArray<Self> {
        do {
            return try array(from: bytes, options: ModelOptions(mutable: mutable))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``array(from:options:)-(URL,ModelOptions)``, which threw the error reading the file, or
    /// `JSONParseError`, itself.
    @available(*, deprecated, message: "use array(from:options:), with options: .mutable for a mutable model")
    public static func array(from url: URL, mutable: Bool) throws -> ModelArray<Self> {
        try array(from: JSONDocument(contentsOf: url).root, options: ModelOptions(mutable: mutable))
    }

    /// The former spelling of ``array(from:options:)-(String,ModelOptions)``, which threw `JSONParseError` itself.
    @available(*, deprecated, message: "use array(from:options:), with options: .mutable for a mutable model")
    public static func array(from string: String, mutable: Bool) throws -> ModelArray<Self> {
        do {
            return try array(from: string, options: ModelOptions(mutable: mutable))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``array(from:options:)-(JSONNode,ModelOptions)``.
    @available(*, deprecated, message: "use array(from:options:), with options: .mutable for a mutable model")
    public static func array(from node: JSONNode, mutable: Bool) throws(JSONModelError) -> ModelArray<Self> {
        try array(from: node, options: ModelOptions(mutable: mutable))
    }

    /// The former spelling of ``array(from:options:)-(JSONValue,ModelOptions)``.
    @available(*, deprecated, message: "use array(from:options:), with options: .mutable for a mutable model")
    public static func array(from value: JSONValue, mutable: Bool) throws(JSONModelError) -> ModelArray<Self> {
        try array(from: value, options: ModelOptions(mutable: mutable))
    }

    /// The former spelling of ``array(from:options:)-([Any],ModelOptions)``.
    @available(*, deprecated, message: "use array(from:options:), with options: .mutable for a mutable model")
    public static func array(from objects: [Any], mutable: Bool) throws(JSONModelError) -> ModelArray<Self> {
        try array(from: objects, options: ModelOptions(mutable: mutable))
    }
}

extension ModelDictionary {
    /// The former spelling of ``init(json:options:)-(Data,ModelOptions)``, which threw `JSONParseError` itself.
    @available(*, deprecated, message: "use init(json:options:), with options: .mutable for a mutable model")
    public init(json data: Data, mutable: Bool) throws {
        do {
            try self.init(json: data, options: ModelOptions(mutable: mutable))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``init(json:options:)-(String,ModelOptions)``, which threw `JSONParseError` itself.
    @available(*, deprecated, message: "use init(json:options:), with options: .mutable for a mutable model")
    public init(json string: String, mutable: Bool) throws {
        do {
            try self.init(json: string, options: ModelOptions(mutable: mutable))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``init(json:options:)-(JSONValue,ModelOptions)``.
    @available(*, deprecated, message: "use init(json:options:), with options: .mutable for a mutable model")
    public init(json value: JSONValue, mutable: Bool) throws(JSONModelError) {
        try self.init(json: value, options: ModelOptions(mutable: mutable))
    }
}
