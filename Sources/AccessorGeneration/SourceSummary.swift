// What the accessor generator needs from one Swift file, as SourceReader.swift reads it: its
// imports, its types and extensions, and the registration blocks of its classes.

/// Swift's access levels, in order, for the members the generator writes.
enum AccessLevel: Int, Comparable {
    case `private`, `fileprivate`, `internal`, `package`, `public`, `open`

    static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    init?(keyword: String) {
        switch keyword {
        case "private": self = .private
        case "fileprivate": self = .fileprivate
        case "internal": self = .internal
        case "package": self = .package
        case "public": self = .public
        case "open": self = .open
        default: return nil
        }
    }
}

/// A place in a source file, 1-based.
struct SourceLocation: Equatable {
    let file: String
    let line: Int
    let column: Int
}

/// A type declared in a file: enough to tell models, their bases and their access.
struct TypeDeclaration {
    enum Kind { case `class`, other }

    let kind: Kind
    /// The qualified name, outermost first (`["Event", "Payload"]`).
    var path: [String]
    /// The access level written on the declaration (when none is: internal, or the access
    /// written on the extension it is declared in).
    let access: AccessLevel
    /// The lowest access level of the types it is nested in.
    let enclosingAccess: AccessLevel
    /// The inheritance clause: for a class, its superclass (if any) comes first.
    let inherited: [TypeReference]
    let location: SourceLocation
    /// How many `#if`s it is declared in.
    let conditionalDepth: Int
    /// For a `typealias`, the type it names.
    var aliased: TypeReference? = nil
    /// The class's registration block, when it overrides `properties(_:)`.
    var registration: RegistrationBlock?
    /// Whether it is declared `final`.
    var isFinal = false
    /// The condition of the `#if` clauses it is declared in, as an `#if` line writes it.
    var condition: String?
    /// The names of its generic parameters (`Item` of `Page<Item: JSONModel>`).
    var genericParameters: [String] = []
    /// The `@available` attributes written on it and on the types and extensions it is
    /// declared in, which its generated extension repeats.
    var availability: [String] = []
    /// The groups of its `@_spi(Group)` attributes, and those of the types it is declared in.
    var spiGroups: [String] = []

    /// The scope the names in its declaration are looked up from.
    var scope: [String] { Array(path.dropLast()) }
}

/// An extension in a file, for the protocols it adds.
struct ExtensionDeclaration {
    let extended: [String]
    let scope: [String]
    let inherited: [TypeReference]
}

/// The registration block of a class: the properties it could read, and what it could not.
struct RegistrationBlock {
    var properties: [DeclaredProperty] = []
    /// Statements that are not declarations the generator reads (loops, conditions, `#if`, calls of
    /// other functions), each with a short description.
    var unreadable: [(location: SourceLocation, description: String)] = []
    /// Whether the block is declared under an `#if` of the class's body: which properties the
    /// class has then depends on the build's conditions, so the generator writes no members.
    var isUnderCondition = false
    /// The types and type aliases the block declares: no extension can name them.
    var localTypes: Set<String> = []
}

/// One `p.name(Type.self, options…)` or `p.add("name", Type.self, options…)` call.
struct DeclaredProperty {
    let name: String
    let type: TypeReference
    let isReadOnly: Bool
    /// The value given to `readOnly:` when it is not the literal `true` or `false`: the generator
    /// cannot tell whether the property may be written.
    let readOnlyExpression: String?
    /// Whether the call passes `default:`.
    let hasDefault: Bool
    let location: SourceLocation
}

/// An import of a file, or a whole `#if` block of imports, as the generated file repeats it.
struct ImportStatement: Equatable {
    /// One module an import statement names, with the access level written on it
    /// (`internal import Foundation`), or nil when none is.
    struct Module: Equatable {
        /// `Foundation` for `import struct Foundation.Date`.
        let name: String
        let access: AccessLevel?
    }

    /// The source text, under `#if … #endif` when the import is conditional.
    let text: String
    /// The module it imports; for a block, the module of each import in it, in every clause.
    let modules: [Module]
    let isConditional: Bool
    /// Whether it is `import Module` with at most an access level, outside any `#if`: such
    /// imports of one module in several files are written once, at the widest access.
    var isPlain = false
}

/// What the generator needs from one Swift file.
struct SourceSummary {
    /// The file's path, as given to the generator.
    var path = ""
    var imports: [ImportStatement] = []
    var types: [TypeDeclaration] = []
    var extensions: [ExtensionDeclaration] = []
    /// The names of the instance properties and methods declared in each type and extension,
    /// by the qualified name written: a typed member of the same name would not build.
    var memberNames: [[String]: Set<String>] = [:]
    /// The functions of the standard library each type and extension calls by their bare name
    /// (`max(a, b)`) in its own body, outside the types nested in it, by the qualified name written.
    var globalFunctionCalls: [[String]: Set<String>] = [:]
    /// What the reader refuses to read, with where: each an error.
    var errors: [(location: SourceLocation, message: String)] = []
}
