#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// The creation API before `ModelOptions`: a `mutable:` flag, parse options on some forms only,
// separate `init(validating:)` initializers, and untyped errors on the forms that parse. Each
// spelling forwards to its replacement. Those that threw untyped errors still throw what they
// threw (`JSONParseError`, `ModelValidationError`) rather than the `JSONModelError` case
// wrapping it, so existing `catch` clauses keep matching until the call is moved. The lazy
// collections' former spellings are in Collections/ModelCollections+DeprecatedCreation.swift.

extension JSONModel {
    /// The former spelling of ``init(node:options:)``.
    @available(*, deprecated, message: "use init(node:options:), with options: .mutable for a mutable model")
    public convenience init(node: JSONNode, mutable: Bool) throws(JSONModelError) {
        try self.init(node: node, options: ModelOptions(mutable: mutable))
    }

    /// The former spelling of ``init(json:options:)-(Data,ModelOptions)``, which threw `JSONParseError` itself.
    @available(*, deprecated, message: "use init(json:options:), with options: .mutable for a mutable model")
    public convenience init(json data: Data, mutable: Bool, options: JSONParseOptions = JSONParseOptions()) throws {
        do {
            try self.init(json: data, options: ModelOptions(mutable: mutable, parseOptions: options))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``init(json:options:)-(Data,ModelOptions)`` with parse options only.
    ///
    /// Disfavored so that `options: .init()` picks the ``ModelOptions`` form.
    @available(*, deprecated, message: "use init(json:options:) with ModelOptions(parseOptions:)")
    @_disfavoredOverload
    public convenience init(json data: Data, options: JSONParseOptions) throws {
        do {
            try self.init(json: data, options: ModelOptions(parseOptions: options))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``init(json:options:)-(String,ModelOptions)``, which threw `JSONParseError` itself.
    @available(*, deprecated, message: "use init(json:options:), with options: .mutable for a mutable model")
    public convenience init(json string: String, mutable: Bool, options: JSONParseOptions = JSONParseOptions()) throws {
        do {
            try self.init(json: string, options: ModelOptions(mutable: mutable, parseOptions: options))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``init(json:options:)-(String,ModelOptions)`` with parse options only.
    ///
    /// Disfavored so that `options: .init()` picks the ``ModelOptions`` form.
    @available(*, deprecated, message: "use init(json:options:) with ModelOptions(parseOptions:)")
    @_disfavoredOverload
    public convenience init(json string: String, options: JSONParseOptions) throws {
        do {
            try self.init(json: string, options: ModelOptions(parseOptions: options))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``init(json:options:)-([UInt8],ModelOptions)``, which threw `JSONParseError` itself.
    @available(*, deprecated, message: "use init(json:options:), with options: .mutable for a mutable model")
    public convenience init(json bytes: [UInt8], mutable: Bool, options: JSONParseOptions = JSONParseOptions()) throws {
        do {
            try self.init(json: bytes, options: ModelOptions(mutable: mutable, parseOptions: options))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``init(json:options:)-([UInt8],ModelOptions)`` with parse options only.
    ///
    /// Disfavored so that `options: .init()` picks the ``ModelOptions`` form.
    @available(*, deprecated, message: "use init(json:options:) with ModelOptions(parseOptions:)")
    @_disfavoredOverload
    public convenience init(json bytes: [UInt8], options: JSONParseOptions) throws {
        do {
            try self.init(json: bytes, options: ModelOptions(parseOptions: options))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``init(json:options:)-(JSONValue,ModelOptions)``.
    @available(*, deprecated, message: "use init(json:options:), with options: .mutable for a mutable model")
    public convenience init(json value: JSONValue, mutable: Bool) throws(JSONModelError) {
        try self.init(json: value, options: ModelOptions(mutable: mutable))
    }

    /// The former spelling of ``init(dictionary:options:)``.
    @available(*, deprecated, message: "use init(dictionary:options:), with options: .mutable for a mutable model")
    public convenience init(dictionary: [String: Any], mutable: Bool) throws(JSONModelError) {
        try self.init(dictionary: dictionary, options: ModelOptions(mutable: mutable))
    }

    /// The former spelling of ``make(node:options:)``.
    @available(*, deprecated, message: "use make(node:options:), with options: .mutable for a mutable model")
    public class func make(node: JSONNode, mutable: Bool) throws(JSONModelError) -> Self {
        try make(node: node, options: ModelOptions(mutable: mutable))
    }

    /// The former spelling of ``make(json:options:)-(JSONValue,ModelOptions)``.
    @available(*, deprecated, message: "use make(json:options:), with options: .mutable for a mutable model")
    public class func make(json value: JSONValue, mutable: Bool) throws(JSONModelError) -> Self {
        try make(json: value, options: ModelOptions(mutable: mutable))
    }

    /// The former spelling of ``make(json:options:)-(Data,ModelOptions)``, which threw `JSONParseError` itself.
    @available(*, deprecated, message: "use make(json:options:), with options: .mutable for a mutable model")
    public class func make(json data: Data, mutable: Bool) throws -> Self {
        do {
            return try make(json: data, options: ModelOptions(mutable: mutable))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``make(json:options:)-(String,ModelOptions)``, which threw `JSONParseError` itself.
    @available(*, deprecated, message: "use make(json:options:), with options: .mutable for a mutable model")
    public class func make(json string: String, mutable: Bool) throws -> Self {
        do {
            return try make(json: string, options: ModelOptions(mutable: mutable))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``make(json:options:)-([UInt8],ModelOptions)``, which threw `JSONParseError` itself.
    @available(*, deprecated, message: "use make(json:options:), with options: .mutable for a mutable model")
    public class func make(json bytes: [UInt8], mutable: Bool) throws -> Self {
        do {
            return try make(json: bytes, options: ModelOptions(mutable: mutable))
        } catch {
            throw error.formerError
        }
    }

    // MARK: Validating

    /// The former spelling of ``init(json:options:)-(Data,ModelOptions)`` with `options: .validating`, which threw
    /// `ModelValidationError` and `JSONParseError` themselves.
    @available(*, deprecated, message: "use init(json:options:) with options: .validating")
    public convenience init(validating data: Data, mutable: Bool = false) throws {
        do {
            try self.init(json: data, options: ModelOptions(mutable: mutable, validating: true))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``init(json:options:)-(String,ModelOptions)`` with `options: .validating`, which threw
    /// `ModelValidationError` and `JSONParseError` themselves.
    @available(*, deprecated, message: "use init(json:options:) with options: .validating")
    public convenience init(validating string: String, mutable: Bool = false) throws {
        do {
            try self.init(json: string, options: ModelOptions(mutable: mutable, validating: true))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``init(json:options:)-([UInt8],ModelOptions)`` with `options: .validating`, which threw
    /// `ModelValidationError` and `JSONParseError` themselves.
    @available(*, deprecated, message: "use init(json:options:) with options: .validating")
    public convenience init(validating bytes: [UInt8], mutable: Bool = false) throws {
        do {
            try self.init(json: bytes, options: ModelOptions(mutable: mutable, validating: true))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``init(json:options:)-(JSONValue,ModelOptions)`` with `options: .validating`, which threw
    /// `ModelValidationError` and `JSONParseError` themselves.
    @available(*, deprecated, message: "use init(json:options:) with options: .validating")
    public convenience init(validating value: JSONValue, mutable: Bool = false) throws {
        do {
            try self.init(json: value, options: ModelOptions(mutable: mutable, validating: true))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``init(node:options:)`` with `options: .validating`, which threw
    /// `ModelValidationError` and `JSONParseError` themselves.
    @available(*, deprecated, message: "use init(node:options:) with options: .validating")
    public convenience init(validating node: JSONNode, mutable: Bool = false) throws {
        do {
            try self.init(node: node, options: ModelOptions(mutable: mutable, validating: true))
        } catch {
            throw error.formerError
        }
    }
}

extension ModelRegistry {
    /// The former spelling of ``makeModel(named:json:options:)-(_,Data,_)``, which threw `JSONParseError` itself.
    @available(*, deprecated, message: "use makeModel(named:json:options:), with options: .mutable for a mutable model")
    public func makeModel(named name: String, json data: Data, mutable: Bool) throws -> JSONModel {
        do {
            return try makeModel(named: name, json: data, options: ModelOptions(mutable: mutable))
        } catch {
            throw error.formerError
        }
    }

    /// The former spelling of ``makeModel(named:json:options:)-(_,JSONValue,_)``.
    @available(*, deprecated, message: "use makeModel(named:json:options:), with options: .mutable for a mutable model")
    public func makeModel(named name: String, json value: JSONValue, mutable: Bool) throws(JSONModelError) -> JSONModel {
        try makeModel(named: name, json: value, options: ModelOptions(mutable: mutable))
    }

    /// The former spelling of ``makeModel(named:node:options:)``.
    @available(*, deprecated, message: "use makeModel(named:node:options:), with options: .mutable for a mutable model")
    public func makeModel(named name: String, node: JSONNode, mutable: Bool) throws(JSONModelError) -> JSONModel {
        try makeModel(named: name, node: node, options: ModelOptions(mutable: mutable))
    }
}
