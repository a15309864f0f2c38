#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// What every creation entry point accepts, so that each is one function rather than one overload
// per form of input.

/// JSON that models, arrays of models and dictionaries of models are created from.
///
/// Text (`String`, `[UInt8]`, `Data`), a file (`URL`), a node of a parsed document (``JSONNode``)
/// and an owned value (``JSONValue``) are sources:
///
/// ```swift
/// let user = try User(json: data)
/// let same = try User(json: #"{"first_name": "Ann"}"#)
/// let users = try User.array(from: URL(fileURLWithPath: "users.json"))
/// let built = try User(json: ["first_name": "Ann"] as JSONValue)
/// ```
///
/// A literal reads as text: write `as JSONValue` after an array or dictionary literal.
///
/// To create models from another form of JSON text (a buffer of your own networking library, say),
/// conform it: parse it into a ``JSONDocument`` and return its root.
///
/// ```swift
/// extension ByteBuffer: JSONSource {
///     public func parsedJSON(options: JSONParseOptions) throws(JSONModelError) -> ParsedJSON {
///         let bytes = Array(readableBytesView)
///         do {
///             return ParsedJSON(try JSONDocument(bytes: bytes, options: options).root)
///         } catch {
///             throw .invalidJSON(error)
///         }
///     }
/// }
/// ```
public protocol JSONSource {
    /// This JSON, parsed with `options` if it is text.
    ///
    /// - Throws: ``JSONModelError/invalidJSON(_:)`` for text that is not JSON, and
    ///   ``JSONModelError/unreadable(url:reason:)`` for a file that cannot be read.
    func parsedJSON(options: JSONParseOptions) throws(JSONModelError) -> ParsedJSON
}

/// Parsed JSON, as a ``JSONSource`` gives it: a node of a document, or an owned value.
public struct ParsedJSON: Sendable {
    let input: JSONInput

    /// JSON read in place from a parsed document, which the node keeps alive.
    public init(_ node: JSONNode) {
        input = .node(node)
    }

    /// JSON held as an owned value.
    public init(_ value: JSONValue) {
        input = .value(value)
    }
}

extension String: JSONSource {
    /// Parses this text.
    public func parsedJSON(options: JSONParseOptions) throws(JSONModelError) -> ParsedJSON {
        let document = try JSONModelError.parsing { () throws(JSONParseError) in
            try JSONDocument(string: self, options: options)
        }
        return ParsedJSON(document.root)
    }
}

extension Array: JSONSource where Element == UInt8 {
    /// Parses these UTF-8 bytes.
    public func parsedJSON(options: JSONParseOptions) throws(JSONModelError) -> ParsedJSON {
        let document = try JSONModelError.parsing { () throws(JSONParseError) in
            try JSONDocument(bytes: self, options: options)
        }
        return ParsedJSON(document.root)
    }
}

extension Data: JSONSource {
    /// Parses these UTF-8 bytes.
    public func parsedJSON(options: JSONParseOptions) throws(JSONModelError) -> ParsedJSON {
        let document = try JSONModelError.parsing { () throws(JSONParseError) in
            try JSONDocument(data: self, options: options)
        }
        return ParsedJSON(document.root)
    }
}

extension URL: JSONSource {
    /// Parses the file at this URL, mapping it into memory; see ``JSONDocument/init(contentsOf:options:)``.
    ///
    /// The scan hands back the file's pages as it goes, so what stays in memory is the document's
    /// tape plus the pages of the values read. The file must not be truncated or rewritten while
    /// the document (or a model over it) lives. Other URLs are read as `Data(contentsOf:)` reads them.
    public func parsedJSON(options: JSONParseOptions) throws(JSONModelError) -> ParsedJSON {
        do {
            return ParsedJSON(try JSONDocument(contentsOf: self, options: options).root)
        } catch let error as JSONParseError {
            throw .invalidJSON(error)
        } catch {
            throw .unreadable(url: self, reason: String(describing: error))
        }
    }
}

extension JSONNode: JSONSource {
    /// This node, read in place; `options` does not apply.
    public func parsedJSON(options: JSONParseOptions) -> ParsedJSON {
        ParsedJSON(self)
    }
}

extension JSONValue: JSONSource {
    /// This value; `options` does not apply.
    public func parsedJSON(options: JSONParseOptions) -> ParsedJSON {
        ParsedJSON(self)
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
