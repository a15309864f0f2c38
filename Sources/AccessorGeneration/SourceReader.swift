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
    let path: [String]
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

    /// Whether it is declared between `#if` and `#endif`.
    var isConditional: Bool { conditionalDepth > 0 }

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
    /// The source text, under `#if … #endif` when the import is conditional.
    let text: String
    /// The imported module (`Foundation` for `import struct Foundation.Date`); nil for a block.
    let module: String?
    /// The access level written on it (`internal import Foundation`), or nil when none is.
    let access: AccessLevel?
    let isConditional: Bool
}

/// What the generator needs from one Swift file.
struct SourceSummary {
    var imports: [ImportStatement] = []
    var types: [TypeDeclaration] = []
    var extensions: [ExtensionDeclaration] = []
    /// What the reader refuses to read, with where: each an error.
    var errors: [(location: SourceLocation, message: String)] = []
}

/// Reads a Swift file's type declarations, imports and registration blocks from its tokens.
///
/// Function bodies and other code blocks are skipped whole, so types declared inside functions
/// (which no extension can reach) are never reported. Every bracket and `#if` is matched once,
/// up front, so reading takes time in proportion to the file's length however deep it nests.
struct SourceReader {
    /// How deep types may nest (in each other and in extensions): each level is a recursion.
    static let maximumNesting = 100

    private let path: String
    private let text: [UInt8]
    private let tokens: [SwiftToken]
    private let lineStarts: [Int]
    /// For each token that opens a bracket, the index of the one that closes it (or the end).
    private let closes: [Int]
    /// For each token that closes a bracket, the index of the one that opens it (or -1).
    private let opens: [Int]
    /// For each `#if`, the index of its `#endif` (or the end).
    private let endifs: [Int]
    private var summary = SourceSummary()
    /// The index in `summary.types` of each class, by qualified name.
    private var classIndices: [[String]: Int] = [:]

    private init(path: String, text: String) {
        self.path = path
        self.text = Array(text.utf8)
        let (tokens, tooDeepAt) = SwiftTokenizer.tokensAndDepthFailure(of: text)
        self.tokens = tokens
        var starts = [0]
        for (offset, byte) in self.text.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        self.lineStarts = starts
        var closes = Array(repeating: tokens.count, count: tokens.count)
        var opens = Array(repeating: -1, count: tokens.count)
        var endifs = Array(repeating: tokens.count, count: tokens.count)
        var brackets: [Int] = []
        var conditions: [Int] = []
        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .punctuation("("), .punctuation("["), .punctuation("{"):
                brackets.append(index)
            case .punctuation(")"), .punctuation("]"), .punctuation("}"):
                if let open = brackets.popLast() {
                    closes[open] = index
                    opens[index] = open
                }
            case .pound("if"):
                conditions.append(index)
            case .pound("endif"):
                if let start = conditions.popLast() { endifs[start] = index }
            default:
                break
            }
        }
        self.closes = closes
        self.opens = opens
        self.endifs = endifs
        if let offset = tooDeepAt {
            summary.errors.append(
                (location(ofOffset: offset),
                 "string interpolations nest more than \(SwiftTokenizer.maximumInterpolationDepth) deep; the generator reads no further in this file"))
        }
    }

    /// The summary of one file.
    static func read(path: String, text: String) -> SourceSummary {
        var reader = SourceReader(path: path, text: text)
        reader.readMembers(
            in: reader.tokens.indices, scope: [], scopeAccess: .open, defaultAccess: .internal, conditional: 0, depth: 0)
        return reader.summary
    }

    // MARK: Positions

    private func location(of token: SwiftToken) -> SourceLocation {
        location(ofOffset: token.offset)
    }

    private func location(ofOffset offset: Int) -> SourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return SourceLocation(file: path, line: low + 1, column: offset - lineStarts[low] + 1)
    }

    /// The index of the token that closes the bracket opened at `open`, or the range's end.
    private func matchingClose(of open: Int, in range: Range<Int>) -> Int {
        min(closes[open], range.upperBound)
    }

    /// The index of the `#endif` that closes the `#if` at `start`, or the range's end.
    private func matchingEndif(of start: Int, in range: Range<Int>) -> Int {
        min(endifs[start], range.upperBound)
    }

    /// The index after the last token on the line of the token at `index`.
    private func endOfLine(from index: Int, in range: Range<Int>) -> Int {
        var next = index + 1
        while next < range.upperBound && !tokens[next].startsLine { next += 1 }
        return next
    }

    private func sourceText(from start: Int, to end: Int) -> String {
        String(decoding: text[tokens[start].offset..<tokens[end - 1].end], as: UTF8.self)
    }

    // MARK: Declarations

    private static let modifierWords: Set<String> = [
        "public", "private", "fileprivate", "internal", "package", "open", "final", "override", "static",
        "required", "convenience", "dynamic", "lazy", "weak", "unowned", "nonisolated", "indirect", "mutating",
        "nonmutating", "optional", "distributed", "isolated", "consuming", "borrowing", "prefix", "postfix", "infix",
    ]

    private static let typeKeywords: Set<String> = ["class", "struct", "enum", "actor", "protocol"]

    /// Reads the declarations in `range`, the body of a type (or the file, with an empty scope).
    private mutating func readMembers(
        in range: Range<Int>, scope: [String], scopeAccess: AccessLevel, defaultAccess: AccessLevel, conditional: Int,
        depth: Int
    ) {
        var index = range.lowerBound
        var modifiers: [String] = []
        var conditional = conditional
        // The conditions of the `#if` clauses the reading is in, outermost first: for each `#if`,
        // the conditions of its clauses so far (nil for `#else`), the current one last.
        var clauses: [[String?]] = []
        while index < range.upperBound {
            let token = tokens[index]
            switch token.kind {
            case .pound(let word) where ["if", "elseif", "else", "endif"].contains(word):
                let lineEnd = endOfLine(from: index, in: range)
                if word == "if", scope.isEmpty, let end = importOnlyBlock(at: index, in: range) {
                    let block = sourceText(from: index, to: end + 1)
                    summary.imports.append(
                        ImportStatement(
                            text: Self.guarded(block, by: clauses), module: nil, access: nil,
                            isConditional: true))
                    index = end + 1
                    continue
                }
                let condition = index + 1 < lineEnd ? sourceText(from: index + 1, to: lineEnd) : "false"
                switch word {
                case "if":
                    conditional += 1
                    clauses.append([condition])
                case "elseif":
                    if !clauses.isEmpty { clauses[clauses.count - 1].append(condition) }
                case "else":
                    if !clauses.isEmpty { clauses[clauses.count - 1].append(nil) }
                default:
                    conditional = max(0, conditional - 1)
                    _ = clauses.popLast()
                }
                index = lineEnd
                modifiers = []
                continue
            case .attribute:
                index += 1
                if index < range.upperBound, tokens[index].isPunctuation("("), index > 0,
                    tokens[index].offset == tokens[index - 1].end
                {
                    index = matchingClose(of: index, in: range) + 1
                }
                continue
            case .identifier(let word, escaped: false):
                if word == "import" && scope.isEmpty {
                    index = readImport(at: index, in: range, modifiers: modifiers, clauses: clauses)
                    modifiers = []
                    continue
                }
                if declaresType(word, at: index, in: range) {
                    index = readType(
                        at: index, modifiers: modifiers, in: range, scope: scope, scopeAccess: scopeAccess,
                        defaultAccess: defaultAccess, conditional: conditional, depth: depth)
                    modifiers = []
                    continue
                }
                if word == "extension" {
                    index = readExtension(
                        at: index, modifiers: modifiers, in: range, scope: scope, conditional: conditional, depth: depth)
                    modifiers = []
                    continue
                }
                if word == "typealias", index + 1 < range.upperBound, let name = tokens[index + 1].identifier {
                    index = readTypealias(
                        at: index, name: name, modifiers: modifiers, in: range, scope: scope, scopeAccess: scopeAccess,
                        defaultAccess: defaultAccess, conditional: conditional)
                    modifiers = []
                    continue
                }
                if word == "func", scope.isEmpty == false, modifiers.contains("class") || modifiers.contains("static"),
                    index + 1 < range.upperBound, tokens[index + 1].isKeyword("properties")
                {
                    index = readRegistration(at: index, in: range, scope: scope, conditional: conditional)
                    modifiers = []
                    continue
                }
                if Self.modifierWords.contains(word) || word == "class" {
                    modifiers.append(word)
                } else {
                    modifiers = []
                }
                index += 1
            case .punctuation("{"):
                index = matchingClose(of: index, in: range) + 1
                modifiers = []
            default:
                modifiers = []
                index += 1
            }
        }
    }

    /// `text` under `#if … #endif` with the conditions of the clauses it is in, or `text` alone
    /// outside any: a clause holds when its condition does and those of the clauses before it in
    /// its `#if` do not.
    private static func guarded(_ text: String, by clauses: [[String?]]) -> String {
        var terms: [String] = []
        for conditions in clauses {
            for earlier in conditions.dropLast() { terms.append("!(" + (earlier ?? "false") + ")") }
            if let current = conditions.last, let current { terms.append(current) }
        }
        guard !terms.isEmpty else { return text }
        let condition = terms.count == 1 ? terms[0] : terms.map { $0.hasPrefix("!(") ? $0 : "(" + $0 + ")" }.joined(separator: " && ")
        return "#if " + condition + "\n" + text + "\n#endif"
    }

    /// The end of the import statement that starts at `start` (its attributes and modifiers
    /// first): `@testable internal import struct Foundation.Date`. Nil when none starts there.
    private func importStatement(at start: Int, in range: Range<Int>) -> (end: Int, module: String, access: AccessLevel?)? {
        var index = start
        var access: AccessLevel?
        while index < range.upperBound {
            if case .attribute(let name) = tokens[index].kind {
                if name == "_implementationOnly" { access = access ?? .internal }
                index += 1
                if index < range.upperBound, tokens[index].isPunctuation("("), tokens[index].offset == tokens[index - 1].end {
                    index = matchingClose(of: index, in: range) + 1
                }
            } else if case .identifier(let word, escaped: false) = tokens[index].kind, let level = AccessLevel(keyword: word) {
                access = level
                index += 1
            } else {
                break
            }
        }
        guard index < range.upperBound, tokens[index].isKeyword("import") else { return nil }
        index += 1
        if index + 1 < range.upperBound, let kind = tokens[index].identifier, Self.importKinds.contains(kind),
            tokens[index + 1].identifier != nil
        {
            index += 1
        }
        guard index < range.upperBound, let module = tokens[index].identifier else { return nil }
        index += 1
        while index + 1 < range.upperBound, tokens[index].isPunctuation("."), tokens[index + 1].identifier != nil {
            index += 2
        }
        return (index, module, access)
    }

    private static let importKinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]

    /// Reads the import statement whose `import` keyword is at `keyword`, with the attributes and
    /// modifiers before it; returns the index after it.
    private mutating func readImport(at keyword: Int, in range: Range<Int>, modifiers: [String], clauses: [[String?]]) -> Int {
        var start = keyword
        while start > range.lowerBound {
            let before = tokens[start - 1]
            if case .attribute = before.kind {
                start -= 1
            } else if case .identifier(let word, escaped: false) = before.kind, AccessLevel(keyword: word) != nil {
                start -= 1
            } else if before.isPunctuation(")"), opens[start - 1] > range.lowerBound,
                case .attribute = tokens[opens[start - 1] - 1].kind
            {
                start = opens[start - 1] - 1
            } else {
                break
            }
        }
        guard let statement = importStatement(at: start, in: range) else { return keyword + 1 }
        summary.imports.append(
            ImportStatement(
                text: Self.guarded(sourceText(from: start, to: statement.end), by: clauses), module: statement.module,
                access: statement.access, isConditional: !clauses.isEmpty))
        return statement.end
    }

    /// Reads `typealias Name<…> = Type` at `start`; returns the index after its name.
    private mutating func readTypealias(
        at start: Int, name: String, modifiers: [String], in range: Range<Int>, scope: [String], scopeAccess: AccessLevel,
        defaultAccess: AccessLevel, conditional: Int
    ) -> Int {
        var declaration = TypeDeclaration(
            kind: .other, path: scope + [name], access: Self.access(in: modifiers, default: defaultAccess),
            enclosingAccess: scopeAccess, inherited: [], location: location(of: tokens[start + 1]),
            conditionalDepth: conditional)
        var index = start + 2
        if index < range.upperBound, tokens[index].isPunctuation("<") { index = skipAngles(from: index, in: range) }
        if index < range.upperBound, tokens[index].isPunctuation("=") {
            var parser = TypeParser(tokens: tokens[(index + 1)..<range.upperBound])
            declaration.aliased = parser.parseType()
        }
        summary.types.append(declaration)
        return start + 2
    }

    /// Whether `word` at `index` starts a type declaration: `struct`, `enum`, `actor`, `protocol`,
    /// or `class` followed by a name (not `class func`, `class var`, `class override …`).
    private func declaresType(_ word: String, at index: Int, in range: Range<Int>) -> Bool {
        guard Self.typeKeywords.contains(word), index + 1 < range.upperBound,
            case .identifier(let next, let escaped) = tokens[index + 1].kind
        else { return false }
        guard word == "class", !escaped else { return true }
        return !(Self.modifierWords.contains(next) || ["func", "var", "let", "subscript", "init"].contains(next))
    }

    /// For `#if` at `start` whose every line is a directive or one import: the index of its `#endif`.
    private func importOnlyBlock(at start: Int, in range: Range<Int>) -> Int? {
        let end = matchingEndif(of: start, in: range)
        guard end < range.upperBound else { return nil }
        var index = start
        var sawImport = false
        while index < end {
            let lineEnd = endOfLine(from: index, in: range)
            switch tokens[index].kind {
            case .pound(let word) where ["if", "elseif", "else"].contains(word):
                break
            default:
                guard importStatement(at: index, in: range)?.end == lineEnd else { return nil }
                sawImport = true
            }
            index = lineEnd
        }
        return sawImport ? end : nil
    }

    private static func access(in modifiers: [String], default defaultAccess: AccessLevel = .internal) -> AccessLevel {
        modifiers.lazy.compactMap(AccessLevel.init(keyword:)).first ?? defaultAccess
    }

    /// Reads `class Name<…>: Inherited, … where … { body }` at `start`; returns the index after it.
    private mutating func readType(
        at start: Int, modifiers: [String], in range: Range<Int>, scope: [String], scopeAccess: AccessLevel,
        defaultAccess: AccessLevel, conditional: Int, depth: Int
    ) -> Int {
        let keyword = tokens[start].identifier ?? ""
        var index = start + 1
        guard index < range.upperBound, let name = tokens[index].identifier else { return start + 1 }
        let nameToken = tokens[index]
        index += 1
        if index < range.upperBound, tokens[index].isPunctuation("<") { index = skipAngles(from: index, in: range) }
        var inherited: [TypeReference] = []
        if index < range.upperBound, tokens[index].isPunctuation(":") {
            (inherited, index) = readInheritance(from: index + 1, in: range)
        }
        while index < range.upperBound && !tokens[index].isPunctuation("{") {
            if tokens[index].isPunctuation("}") || tokens[index].isPunctuation(";") { return index }
            index += 1
        }
        guard index < range.upperBound else { return index }
        let close = matchingClose(of: index, in: range)
        guard depth < Self.maximumNesting else {
            tooDeep(at: nameToken)
            return close + 1
        }
        let access = Self.access(in: modifiers, default: defaultAccess)
        if keyword == "class" { classIndices[scope + [name]] = summary.types.count }
        summary.types.append(
            TypeDeclaration(
                kind: keyword == "class" ? .class : .other, path: scope + [name], access: access,
                enclosingAccess: scopeAccess, inherited: inherited, location: location(of: nameToken),
                conditionalDepth: conditional))
        if keyword != "protocol" {
            readMembers(
                in: (index + 1)..<close, scope: scope + [name], scopeAccess: min(scopeAccess, access),
                defaultAccess: .internal, conditional: conditional, depth: depth + 1)
        }
        return close + 1
    }

    private mutating func tooDeep(at token: SwiftToken) {
        summary.errors.append(
            (location(of: token),
             "types nest more than \(Self.maximumNesting) deep here; the generator reads no deeper: declare the models less deep"))
    }

    /// Reads `extension Some.Type: Protocols where … { body }` at `start`.
    private mutating func readExtension(
        at start: Int, modifiers: [String], in range: Range<Int>, scope: [String], conditional: Int, depth: Int
    ) -> Int {
        var parser = TypeParser(tokens: tokens[(start + 1)..<range.upperBound])
        guard case .named(let components)? = parser.parseType() else { return start + 1 }
        var index = parser.index
        var inherited: [TypeReference] = []
        if index < range.upperBound, tokens[index].isPunctuation(":") {
            (inherited, index) = readInheritance(from: index + 1, in: range)
        }
        while index < range.upperBound && !tokens[index].isPunctuation("{") { index += 1 }
        guard index < range.upperBound else { return index }
        let close = matchingClose(of: index, in: range)
        guard depth < Self.maximumNesting else {
            tooDeep(at: tokens[start])
            return close + 1
        }
        let extended = components.map(\.name)
        summary.extensions.append(ExtensionDeclaration(extended: extended, scope: scope, inherited: inherited))
        // Types nested in an extension belong to the extended type; their access is capped by
        // the extended type's, which the generator looks up when it needs it, and by the access
        // written on the extension, which is also the access of the members that write none.
        let written = modifiers.lazy.compactMap(AccessLevel.init(keyword:)).first
        readMembers(
            in: (index + 1)..<close, scope: extended, scopeAccess: written ?? .open, defaultAccess: written ?? .internal,
            conditional: conditional, depth: depth + 1)
        return close + 1
    }

    /// Reads a comma-separated list of types, up to `where` or `{`.
    private func readInheritance(from start: Int, in range: Range<Int>) -> ([TypeReference], Int) {
        var inherited: [TypeReference] = []
        var index = start
        while index < range.upperBound {
            // `@unchecked Sendable`, `@retroactive P`, `~Copyable`: attributes and `~` are skipped.
            while index < range.upperBound, case .attribute = tokens[index].kind { index += 1 }
            if index < range.upperBound, tokens[index].isPunctuation("~") { index += 1 }
            var parser = TypeParser(tokens: tokens[index..<range.upperBound])
            guard let type = parser.parseType() else { break }
            inherited.append(type)
            index = parser.index
            guard index < range.upperBound, tokens[index].isPunctuation(",") else { break }
            index += 1
        }
        return (inherited, index)
    }

    private func skipAngles(from start: Int, in range: Range<Int>) -> Int {
        var depth = 0
        var index = start
        while index < range.upperBound {
            if tokens[index].isPunctuation("<") { depth += 1 }
            if tokens[index].isPunctuation(">") {
                depth -= 1
                if depth == 0 { return index + 1 }
            }
            if tokens[index].isPunctuation("{") { return index }
            index += 1
        }
        return index
    }

    // MARK: Registration blocks

    /// Reads `func properties(_ p: PropertyRegistrar) { … }` at `start` (the `func` keyword)
    /// into the class declared last in `scope`; `conditional` counts the `#if`s it is in.
    private mutating func readRegistration(at start: Int, in range: Range<Int>, scope: [String], conditional: Int) -> Int {
        var index = start + 2
        guard index < range.upperBound, tokens[index].isPunctuation("(") else { return index }
        let close = matchingClose(of: index, in: range)
        let parameter = Array(tokens[(index + 1)..<close])
        // `_ p: PropertyRegistrar` or `p: JSONModelKit.PropertyRegistrar`: the name used inside
        // is the identifier just before the colon.
        guard let colon = parameter.firstIndex(where: { $0.isPunctuation(":") }), colon > 0,
            let name = parameter[colon - 1].identifier,
            parameter[(colon + 1)...].compactMap(\.identifier).last == "PropertyRegistrar"
        else { return close + 1 }
        index = close + 1
        while index < range.upperBound && !tokens[index].isPunctuation("{") {
            if tokens[index].isPunctuation("}") { return index }
            index += 1
        }
        guard index < range.upperBound else { return index }
        let bodyEnd = matchingClose(of: index, in: range)
        var block = readBlock(in: (index + 1)..<bodyEnd, registrar: name)
        if let typeIndex = classIndices[scope] {
            let type = summary.types[typeIndex]
            if conditional > type.conditionalDepth || type.registration?.isUnderCondition == true {
                // Two blocks under `#if … #else`, or one under `#if` alone: the members of either
                // would be wrong in the other configuration.
                if type.registration?.isUnderCondition != true {
                    summary.errors.append(
                        (location(of: tokens[start + 1]),
                         "\(type.path.joined(separator: ".")): the registration block is declared under #if, so the properties the class has depend on the build's conditions and the generator writes no typed members; declare one block and put the #if inside it (the properties declared there are then read by name)"))
                }
                block = RegistrationBlock(isUnderCondition: true)
            }
            summary.types[typeIndex].registration = block
        }
        return bodyEnd + 1
    }

    /// Reads the statements of a registration block.
    private func readBlock(in range: Range<Int>, registrar: String) -> RegistrationBlock {
        var block = RegistrationBlock()
        var index = range.lowerBound
        while index < range.upperBound {
            let token = tokens[index]
            if token.isPunctuation(";") {
                index += 1
                continue
            }
            if case .pound("if") = token.kind {
                block.unreadable.append((location(of: token), "#if"))
                index = matchingEndif(of: index, in: range) + 1
                continue
            }
            if token.isKeyword("super"), index + 3 < range.upperBound, tokens[index + 2].isKeyword("properties"),
                tokens[index + 3].isPunctuation("(")
            {
                index = matchingClose(of: index + 3, in: range) + 1
                continue
            }
            if token.identifier == registrar, index + 3 < range.upperBound, tokens[index + 1].isPunctuation("."),
                let member = tokens[index + 2].identifier, tokens[index + 3].isPunctuation("(")
            {
                let close = matchingClose(of: index + 3, in: range)
                let after = close + 1
                let endsStatement = after >= range.upperBound || tokens[after].startsLine || tokens[after].isPunctuation(";")
                if endsStatement,
                    let property = readDeclaration(member: member, memberToken: tokens[index + 2], arguments: (index + 4)..<close)
                {
                    block.properties.append(property)
                    index = after
                    continue
                }
            }
            block.unreadable.append((location(of: token), describe(token)))
            index = endOfStatement(from: index, in: range)
        }
        return block
    }

    private func describe(_ token: SwiftToken) -> String {
        switch token.kind {
        case .identifier(let word, _): return word
        case .pound(let word): return "#" + word
        default: return String(decoding: text[token.offset..<token.end], as: UTF8.self)
        }
    }

    /// The index of the first token of the next statement: the next token that starts a line
    /// outside any brackets.
    private func endOfStatement(from start: Int, in range: Range<Int>) -> Int {
        var depth = 0
        var index = start
        while index < range.upperBound {
            let token = tokens[index]
            if index > start && depth == 0 && token.startsLine { return index }
            switch token.kind {
            case .punctuation("("), .punctuation("["), .punctuation("{"): depth += 1
            case .punctuation(")"), .punctuation("]"), .punctuation("}"): depth = max(0, depth - 1)
            default: break
            }
            index += 1
        }
        return index
    }

    /// Reads the arguments of `p.member(…)`: `(Type.self, options…)`, or for `add`,
    /// `("name", Type.self, options…)`. Nil when they are not written so.
    private func readDeclaration(member: String, memberToken: SwiftToken, arguments: Range<Int>) -> DeclaredProperty? {
        var index = arguments.lowerBound
        var name = member
        var nameToken = memberToken
        if member == "add", index < arguments.upperBound, case .string(let literal) = tokens[index].kind {
            guard let literal, index + 1 < arguments.upperBound, tokens[index + 1].isPunctuation(",") else { return nil }
            name = literal
            nameToken = tokens[index]
            index += 2
        }
        var parser = TypeParser(tokens: tokens[index..<arguments.upperBound])
        guard let type = parser.parseType() else { return nil }
        index = parser.index
        guard index + 1 < arguments.upperBound || index + 1 == arguments.upperBound,
            index + 1 < tokens.count, tokens[index].isPunctuation("."), tokens[index + 1].isKeyword("self")
        else { return nil }
        index += 2
        var readOnly = false
        var readOnlyExpression: String?
        var hasDefault = false
        if index < arguments.upperBound {
            guard tokens[index].isPunctuation(",") else { return nil }
            for option in splitArguments(in: (index + 1)..<arguments.upperBound) {
                let words = tokens[option]
                guard words.count >= 3, let label = words.first?.identifier,
                    words[words.startIndex + 1].isPunctuation(":")
                else { continue }
                if label == "readOnly" {
                    if words.count == 3, words.last?.isKeyword("true") == true {
                        readOnly = true
                    } else if !(words.count == 3 && words.last?.isKeyword("false") == true) {
                        readOnlyExpression = sourceText(from: words.startIndex + 2, to: words.endIndex)
                    }
                }
                if label == "default" { hasDefault = true }
            }
        }
        return DeclaredProperty(
            name: name, type: type, isReadOnly: readOnly, readOnlyExpression: readOnlyExpression, hasDefault: hasDefault,
            location: location(of: nameToken))
    }

    /// The ranges of comma-separated arguments, splitting only outside brackets.
    private func splitArguments(in range: Range<Int>) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var depth = 0
        var start = range.lowerBound
        for index in range {
            switch tokens[index].kind {
            case .punctuation("("), .punctuation("["), .punctuation("{"): depth += 1
            case .punctuation(")"), .punctuation("]"), .punctuation("}"): depth -= 1
            case .punctuation(",") where depth == 0:
                parts.append(start..<index)
                start = index + 1
            default: break
            }
        }
        if start < range.upperBound { parts.append(start..<range.upperBound) }
        return parts
    }
}
