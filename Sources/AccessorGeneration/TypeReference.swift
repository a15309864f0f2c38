/// A Swift type as spelled in a registration block (`[String: [Item]]?` in `p.x([String: [Item]]?.self)`).
///
/// `Optional<T>`, `Array<T>` and `Dictionary<K, V>` are read as `T?`, `[T]` and `[K: V]`, so
/// every spelling of a type prints the same way.
indirect enum TypeReference: Equatable {
    /// A named type, with the components of a qualified name (`Event.Kind`) and generic arguments.
    case named([NameComponent])
    case optional(TypeReference)
    case array(TypeReference)
    case dictionary(key: TypeReference, value: TypeReference)
    /// What the engine never supports, with the spelling for the message: tuples, functions,
    /// `any`/`some` types, metatypes, implicitly unwrapped optionals.
    case unsupported(String)

    struct NameComponent: Equatable {
        let name: String
        let arguments: [TypeReference]
    }

    /// The type as Swift source, names that need them in backticks.
    var source: String {
        switch self {
        case .named(let components):
            return components.map { component in
                let name = SwiftNames.escaped(component.name, asType: true)
                return component.arguments.isEmpty
                    ? name : name + "<" + component.arguments.map(\.source).joined(separator: ", ") + ">"
            }.joined(separator: ".")
        case .optional(let wrapped): return wrapped.source + "?"
        case .array(let element): return "[" + element.source + "]"
        case .dictionary(let key, let value): return "[" + key.source + ": " + value.source + "]"
        case .unsupported(let spelling): return spelling
        }
    }

    /// The qualified names of the named types it mentions, generic arguments included.
    var namedTypes: [[String]] {
        switch self {
        case .named(let components):
            return [components.map(\.name)] + components.flatMap { $0.arguments.flatMap(\.namedTypes) }
        case .optional(let wrapped): return wrapped.namedTypes
        case .array(let element): return element.namedTypes
        case .dictionary(let key, let value): return key.namedTypes + value.namedTypes
        case .unsupported: return []
        }
    }

    /// Why the engine cannot hold a property of this type, or nil when it may (a name the
    /// generator does not know may still be an enum, a `JSONConvertible` type or a type with a
    /// registered converter; the engine checks those when the class is first used).
    ///
    /// `declared` says whether a qualified name is a type the target declares: such a name is
    /// the user's type, not the standard library's (a model named `Character`), and a
    /// dictionary keyed by one (`[UserID: String]` with `typealias UserID = String`) is left to
    /// the engine, which knows what the name stands for.
    func unsupportedReason(declared: ([String]) -> Bool) -> String? {
        switch self {
        case .unsupported(let spelling):
            return "\(spelling) is not a type a property can have"
        case .optional(let wrapped):
            return wrapped.unsupportedReason(declared: declared)
        case .array(let element):
            return element.unsupportedReason(declared: declared)
        case .dictionary(let key, let value):
            let declaredKey = if case .named(let components) = key { declared(components.map(\.name)) } else { false }
            guard key.isString || declaredKey else {
                return "\(source) has \(key.source) keys; JSON object keys are strings, so declare [String: \(value.source)]"
            }
            return value.unsupportedReason(declared: declared)
        case .named(let components):
            let name = components.map(\.name)
            let last = name.count == 2 && name[0] == "Swift" ? name[1] : (name.count == 1 && !declared(name) ? name[0] : nil)
            if let last, let reason = Self.unsupportedNames[last] { return "\(source) \(reason)" }
            for argument in components.flatMap(\.arguments) {
                if let reason = argument.unsupportedReason(declared: declared) { return reason }
            }
            return nil
        }
    }

    /// `URL`, `UUID` or `Date` when the type is one of those, not optional: the engine has no
    /// value for it when the JSON lacks one, so the declaration needs a default.
    var typeWithoutNaturalDefault: String? {
        guard case .named(let components) = self, components.allSatisfy(\.arguments.isEmpty) else { return nil }
        let names = components.map(\.name)
        let name = names.count == 2 && names[0] == "Foundation" ? names[1] : (names.count == 1 ? names[0] : "")
        return ["URL", "UUID", "Date"].contains(name) ? name : nil
    }

    private var isString: Bool {
        self == .named([NameComponent(name: "String", arguments: [])])
            || self == .named([NameComponent(name: "Swift", arguments: []), NameComponent(name: "String", arguments: [])])
    }

    /// Standard library types with no JSON form the engine reads.
    private static let unsupportedNames: [String: String] = [
        "Any": "has no JSON form; declare the type, or JSONValue for any JSON",
        "AnyObject": "has no JSON form; declare the type, or JSONValue for any JSON",
        "AnyHashable": "has no JSON form; declare the type, or JSONValue for any JSON",
        "Set": "is not supported; declare an array",
        "Character": "is not supported; declare String",
        "Substring": "is not supported; declare String",
        "Never": "has no values",
        "Void": "has no JSON form",
    ]
}

/// Reads a type from tokens, stopping before `.self`.
struct TypeParser {
    let tokens: ArraySlice<SwiftToken>
    private(set) var index: Int

    init(tokens: ArraySlice<SwiftToken>) {
        self.tokens = tokens
        self.index = tokens.startIndex
    }

    private var current: SwiftToken? { index < tokens.endIndex ? tokens[index] : nil }

    private func peek(_ offset: Int) -> SwiftToken? {
        index + offset < tokens.endIndex ? tokens[index + offset] : nil
    }

    /// Reads a type; nil when the tokens do not spell one.
    mutating func parseType(depth: Int = 0) -> TypeReference? {
        // Nested types deeper than anyone writes are not worth reading (and bound the recursion).
        guard depth < 64, var type = parsePrimary(depth: depth) else { return nil }
        while let token = current {
            if token.isPunctuation("?") {
                type = .optional(type)
                index += 1
            } else if token.isPunctuation("!") {
                type = .unsupported(type.source + "!")
                index += 1
            } else if token.isPunctuation("."), let next = peek(1), next.isKeyword("Type") || next.isKeyword("Protocol") {
                type = .unsupported(type.source + "." + (next.identifier ?? ""))
                index += 2
            } else {
                break
            }
        }
        return type
    }

    private mutating func parsePrimary(depth: Int) -> TypeReference? {
        guard let token = current else { return nil }
        if token.isPunctuation("[") {
            index += 1
            guard let first = parseType(depth: depth + 1) else { return nil }
            if current?.isPunctuation(":") == true {
                index += 1
                guard let value = parseType(depth: depth + 1), current?.isPunctuation("]") == true else { return nil }
                index += 1
                return .dictionary(key: first, value: value)
            }
            guard current?.isPunctuation("]") == true else { return nil }
            index += 1
            return .array(first)
        }
        if token.isPunctuation("(") {
            index += 1
            var elements: [TypeReference] = []
            while let next = current, !next.isPunctuation(")") {
                // A labelled tuple element (`(x: Int, y: Int)`).
                if next.identifier != nil, peek(1)?.isPunctuation(":") == true { index += 2 }
                guard let element = parseType(depth: depth + 1) else { return nil }
                elements.append(element)
                if current?.isPunctuation(",") == true { index += 1 }
            }
            guard current?.isPunctuation(")") == true else { return nil }
            index += 1
            let spelling = "(" + elements.map(\.source).joined(separator: ", ") + ")"
            if current?.kind == .arrow {
                index += 1
                guard let result = parseType(depth: depth + 1) else { return nil }
                return .unsupported(spelling + " -> " + result.source)
            }
            if elements.count == 1 { return elements[0] }
            return .unsupported(spelling)
        }
        if token.isKeyword("any") || token.isKeyword("some"), case .identifier = peek(1)?.kind {
            index += 1
            guard let constraint = parseType(depth: depth + 1) else { return nil }
            return .unsupported((token.identifier ?? "") + " " + constraint.source)
        }
        return parseNamed(depth: depth)
    }

    private mutating func parseNamed(depth: Int) -> TypeReference? {
        var components: [TypeReference.NameComponent] = []
        while let token = current, let name = token.identifier, !(token.isKeyword("self") && !components.isEmpty) {
            index += 1
            var arguments: [TypeReference] = []
            if current?.isPunctuation("<") == true {
                index += 1
                while true {
                    guard let argument = parseType(depth: depth + 1) else { return nil }
                    arguments.append(argument)
                    if current?.isPunctuation(",") == true {
                        index += 1
                        continue
                    }
                    break
                }
                guard current?.isPunctuation(">") == true else { return nil }
                index += 1
            }
            components.append(TypeReference.NameComponent(name: name, arguments: arguments))
            // A dot continues the name unless `self`, `Type` or `Protocol` follows it.
            guard current?.isPunctuation(".") == true, let next = peek(1), next.identifier != nil,
                !(next.isKeyword("self") || next.isKeyword("Type") || next.isKeyword("Protocol"))
            else { break }
            index += 1
        }
        guard !components.isEmpty else { return nil }
        return Self.normalized(components)
    }

    /// `Optional<T>`, `Array<T>` and `Dictionary<K, V>` (also `Swift.`-qualified) as `T?`, `[T]` and `[K: V]`.
    private static func normalized(_ components: [TypeReference.NameComponent]) -> TypeReference {
        let unqualified = components.count == 2 && components[0].name == "Swift" && components[0].arguments.isEmpty
        guard components.count == 1 || unqualified, let component = components.last else { return .named(components) }
        switch (component.name, component.arguments.count) {
        case ("Optional", 1): return .optional(component.arguments[0])
        case ("Array", 1): return .array(component.arguments[0])
        case ("Dictionary", 2): return .dictionary(key: component.arguments[0], value: component.arguments[1])
        default: return .named(components)
        }
    }
}
