#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// A note about a JSON value that did not convert cleanly to its property's type.
///
/// Reads never throw. When a value does not convert, the read gives the
/// property's default (nil for optionals) and the model records a diagnostic;
/// ``JSONModelView/diagnostics`` lists the ones recorded so far.
///
/// ```swift
/// let user = try User(json: #"{"age": "old"}"#)
/// user.age                       // 0, the default
/// user.jsonModel.diagnostics.first?.path   // age
/// ```
public struct ModelDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// The JSON value has a kind the property's type cannot be read from.
        case typeMismatch
        /// The value converted, but not exactly (2.5 read as an `Int` gives 3).
        case lossy
        /// A number does not fit the property's type.
        case outOfRange
        /// The value has the right JSON kind but its text is not valid for the type
        /// (an unparsable date, URL, UUID or base64 string).
        case invalidValue
        /// A required property (declared `required`, or a non-optional of a model that
        /// requires non-optionals) is missing or `null`; the read gives its default.
        case missingRequired
    }

    /// What went wrong.
    public let kind: Kind
    /// Where the value is, relative to the model's JSON object.
    public let path: JSONPath
    /// The declared property being read.
    public let property: String
    /// The model class that declares the property.
    public let model: String
    /// A sentence that explains the problem.
    public let message: String

    /// Creates a diagnostic.
    package init(kind: Kind, path: JSONPath, property: String, model: String, message: String) {
        self.kind = kind
        self.path = path
        self.property = property
        self.model = model
        self.message = message
    }

    /// `path: message (Model.property, kind)`, on one line: line breaks and other control
    /// characters that the path or message take from the input (a key, a quoted value) are
    /// escaped (`\n`, `\u{2028}`), so a diagnostic in a log cannot pass for a line of its own.
    public var description: String {
        TextEscapes.oneLine("\(path.isEmpty ? "$" : path.description): \(message) (\(model).\(property), \(kind.rawValue))")
    }

    /// The same diagnostic seen from a containing model, with `prefix` put before its path.
    func prefixed(by prefix: JSONPath) -> ModelDiagnostic {
        ModelDiagnostic(kind: kind, path: prefix.appending(contentsOf: path), property: property, model: model, message: message)
    }
}

/// Every diagnostic found while converting every property, with its JSON path: what
/// ``JSONModelView/validate(strict:)`` throws, and what a creation with ``ModelOptions/validating-property``
/// carries in ``JSONModelError/validationFailed(_:)``.
///
/// ```swift
/// do { _ = try User(json: data, options: .validating) } catch .validationFailed(let error) {
///     for diagnostic in error.diagnostics { print(diagnostic) }
/// }
/// ```
public struct ModelValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model class validated.
    public let model: String
    /// Every problem found, in property order; nested models' problems carry the full path.
    public let diagnostics: [ModelDiagnostic]

    /// Creates the error.
    init(model: String, diagnostics: [ModelDiagnostic]) {
        self.model = model
        self.diagnostics = diagnostics
    }

    /// One line per diagnostic after a summary line.
    public var description: String {
        let count = diagnostics.count
        var text = "\(model) failed validation with \(count) problem\(count == 1 ? "" : "s"):"
        for diagnostic in diagnostics { text += "\n  \(diagnostic)" }
        return text
    }
}

/// Errors from creating or changing a model.
///
/// Every creation form throws this type alone, so one `catch` covers bad JSON, JSON of the
/// wrong shape and, with ``ModelOptions/validating-property``, values that do not convert:
///
/// ```swift
/// do {
///     let user = try User(json: data, options: .validating)
/// } catch .invalidJSON(let error) {
///     print(error.line, error.column)          // where the text stops being JSON
/// } catch .validationFailed(let error) {
///     print(error.diagnostics)                 // every value that did not convert, with its path
/// } catch {
///     print(error)                             // not an object, and the rest
/// }
/// ```
public enum JSONModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input is not valid JSON; the parse error gives the line, column and reason.
    case invalidJSON(JSONParseError)
    /// A model created with ``ModelOptions/validating-property`` holds values that do not convert
    /// cleanly; the validation error lists every one with its path.
    case validationFailed(ModelValidationError)
    /// The file (or other resource) at `url` could not be read; `reason` is what reading it reported.
    case unreadable(url: URL, reason: String)
    /// The JSON is valid but its top level is not an object.
    case notAnObject(model: String, found: JSONKind)
    /// A merge patch (``JSONModelView/update(with:)``, ``JSONModelView/merging(_:)``) that is not
    /// a JSON object: JSON Merge Patch replaces the whole target with anything else, which a
    /// model, always an object, cannot be.
    case mergePatchNotAnObject(model: String, found: JSONKind)
    /// A write to a model created immutable.
    case immutable(model: String, property: String)
    /// A write to a property declared `readOnly`.
    case readOnly(model: String, property: String)
    /// A model name nothing is registered under.
    case unknownModel(name: String)
    /// A name that is not a declared property.
    case unknownProperty(model: String, property: String)
    /// A written value that cannot be turned into the property's type.
    case typeMismatch(model: String, property: String, expected: String, found: String)
    /// The JSON is valid but is not an array where an array of models was asked for.
    case notAnArray(model: String, found: JSONKind)
    /// A written value JSON cannot hold: a `Double` or `Float` that is NaN or infinite, a
    /// `Decimal` NaN, or a date the property's format cannot write (a year outside 0000–9999).
    /// `reason` says which, with the element's path inside a collection (`[3]: …`).
    case unwritable(model: String, property: String, reason: String)

    public var description: String {
        switch self {
        case .invalidJSON(let error):
            return error.description
        case .validationFailed(let error):
            return error.description
        case .unreadable(let url, let reason):
            return "cannot read \(url.isFileURL ? url.path : url.absoluteString): \(reason)"
        case .notAnObject(let model, let found):
            return "\(model) needs a JSON object at the top level, found \(found)"
        case .mergePatchNotAnObject(let model, let found):
            return "a merge patch for \(model) must be a JSON object, found \(found)"
        case .immutable(let model, let property):
            return "cannot set '\(property)' on an immutable \(model); use mutableCopy() or mutate { }"
        case .readOnly(let model, let property):
            return "cannot set '\(property)' on \(model): the property is declared readOnly"
        case .unknownModel(let name):
            return "no model is registered under the name '\(name)'"
        case .unknownProperty(let model, let property):
            return "\(model) has no declared property '\(property)'"
        case .typeMismatch(let model, let property, let expected, let found):
            return "cannot set '\(property)' on \(model): expected \(expected), got \(found)"
        case .notAnArray(let model, let found):
            return "an array of \(model) needs a JSON array, found \(found)"
        case .unwritable(let model, let property, let reason):
            return "cannot set '\(property)' on \(model): \(reason)"
        }
    }
}
