import JSONModelKitCore

/// An error that ends a stream of JSON values, with the element and its position in the whole stream.
///
/// The elements before it have been delivered. The description reads well in a log:
///
/// ```
/// JSON stream error in element 41 at line 42, column 17 (byte 3310): unexpected end of input
///   near: {"id": 42, "name": "Ann
/// ```
public struct JSONStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The element is not valid JSON; the parser's finding.
        case invalidJSON(JSONParseError.Kind)
        /// A byte that does not belong between elements: not white space, and not the `[`,
        /// a comma or the `]` of an array.
        case unexpectedByte(UInt8)
        /// The stream ended inside an element, or before the `]` of an array.
        case unexpectedEnd
        /// Something other than white space after the `]` of an array.
        case trailingContent
        /// An element larger than ``JSONStreamOptions/maxElementSize``.
        case elementTooLarge(limit: Int)
        /// An element that is valid JSON but not an object, where a model was asked for.
        case notAnObject(model: String, found: JSONKind)
        /// A model that did not validate, with ``ModelOptions/validating-property``; the diagnostics'
        /// paths start at the element.
        case validationFailed(ModelValidationError)
        /// The input could not be read; the system's reason.
        case readFailed(String)
    }

    /// What went wrong.
    public let kind: Kind
    /// The zero-based index of the element at fault: the number of elements before it.
    public let element: Int
    /// The zero-based byte offset of the fault in the whole stream.
    public let offset: Int
    /// The one-based line of the fault in the whole stream (lines end at `\n`).
    public let line: Int
    /// The one-based column of the fault, counted in Unicode scalars.
    public let column: Int
    /// A short, printable piece of the input around the fault; empty when it is not known.
    public let excerpt: String

    /// Creates an error.
    init(_ kind: Kind, element: Int, offset: Int, line: Int, column: Int, excerpt: String = "") {
        self.kind = kind
        self.element = element
        self.offset = offset
        self.line = line
        self.column = column
        self.excerpt = excerpt
    }

    /// The parser's error in an element that starts at `offset`, `line` and `column`, placed in the whole stream.
    init(parseError error: JSONParseError, element: Int, offset: Int, line: Int, column: Int) {
        self.init(
            .invalidJSON(error.kind), element: element, offset: offset + error.offset, line: line + error.line - 1,
            column: error.line == 1 ? column + error.column - 1 : error.column, excerpt: error.excerpt)
    }

    public var description: String {
        let head = "JSON stream error in element \(element) at line \(line), column \(column) (byte \(offset)): \(kind.message)"
        return excerpt.isEmpty ? head : head + "\n  near: \(excerpt)"
    }
}

extension JSONStreamError.Kind {
    /// A short phrase for logs.
    package var message: String {
        switch self {
        case .invalidJSON(let kind): kind.message
        case .unexpectedByte(let byte): "unexpected \(JSONParseError.Kind.describe(byte)) between elements"
        case .unexpectedEnd: "unexpected end of input"
        case .trailingContent: "unexpected content after the closing ']'"
        case .elementTooLarge(let limit): "element larger than the limit of \(limit) bytes"
        case .notAnObject(let model, let found): "\(model) needs a JSON object, found \(found.nameWithArticle)"
        case .readFailed(let reason): "cannot read the input: \(reason)"
        case .validationFailed(let error): error.description
        }
    }
}
