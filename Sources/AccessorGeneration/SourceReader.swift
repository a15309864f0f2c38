// The reader of a Swift file: its tokens, brackets and positions, the walk over the members of
// the file and of each type, and imports. Types, extensions and registration blocks are read in
// SourceReader+Declarations.swift.

/// Reads a Swift file's type declarations, imports and registration blocks from its tokens.
///
/// Function bodies and other code blocks are skipped whole, so types declared inside functions
/// (which no extension can reach) are never reported. Every bracket and `#if` is matched once,
/// up front, so reading takes time in proportion to the file's length however deep it nests.
struct SourceReader {
    /// How deep types may nest (in each other and in extensions): each level is a recursion.
    static let maximumNesting = 100

    private let path: String
    let text: [UInt8]
    let tokens: [SwiftToken]
    private let lineStarts: [Int]
    /// For each token that opens a bracket, the index of the one that closes it (or the end).
    private let closes: [Int]
    /// For each token that closes a bracket, the index of the one that opens it (or -1).
    private let opens: [Int]
    /// For each `#if`, the index of its `#endif` (or the end).
    private let endifs: [Int]
    var summary = SourceSummary()
    /// The index in `summary.types` of each class, by qualified name.
    var classIndices: [[String]: Int] = [:]
    /// The `@available` attributes and `@_spi` groups of the types and extensions being read,
    /// outermost first: the types declared in them have them too.
    var enclosingAvailability: [String] = []
    var enclosingSPIGroups: [String] = []
    /// The `#if` clauses around the body being read (see ``readMembers(in:scope:scopeAccess:defaultAccess:conditional:depth:)``).
    var enclosingClauses: [[String?]] = []
    /// The token ranges of the bodies of the types and extensions read, with their qualified names.
    var bodies: [(path: [String], range: Range<Int>)] = []

    private init(path: String, text: String) {
        self.path = path
        self.summary.path = path
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
        reader.findGlobalFunctionCalls()
        return reader.summary
    }

    /// Notes each call of a function of ``globalFunctions`` by its bare name in the body of the
    /// innermost type or extension around it, in one pass: bodies nest as brackets do.
    private mutating func findGlobalFunctionCalls() {
        let ordered = bodies.sorted { $0.range.lowerBound < $1.range.lowerBound }
        var next = 0
        var open: [(path: [String], range: Range<Int>)] = []
        for (index, token) in tokens.enumerated().dropFirst() {
            guard case .identifier(let name, escaped: false) = token.kind, Self.globalFunctions.contains(name),
                index + 1 < tokens.count, tokens[index + 1].isPunctuation("("), !tokens[index - 1].isPunctuation(".")
            else { continue }
            while next < ordered.count, ordered[next].range.lowerBound <= index {
                while let last = open.last, last.range.upperBound <= ordered[next].range.lowerBound { open.removeLast() }
                open.append(ordered[next])
                next += 1
            }
            while let last = open.last, !last.range.contains(index) { open.removeLast() }
            guard let body = open.last else { continue }
            summary.globalFunctionCalls[body.path, default: []].insert(name)
        }
    }

    /// Functions of the standard library that code calls by their bare name: in a class with a
    /// member of the same name, such a call finds the member instead, and no longer builds.
    static let globalFunctions: Set<String> = [
        "min", "max", "abs", "print", "debugPrint", "dump", "zip", "stride", "swap", "sequence", "repeatElement",
        "precondition", "preconditionFailure", "assert", "assertionFailure", "fatalError", "type", "numericCast",
        "readLine", "unsafeBitCast", "isKnownUniquelyReferenced", "withExtendedLifetime", "withUnsafePointer",
        "withUnsafeMutablePointer", "withUnsafeBytes", "withUnsafeMutableBytes", "withoutActuallyEscaping",
        "withTaskGroup", "withThrowingTaskGroup", "withCheckedContinuation", "withCheckedThrowingContinuation",
        "withTaskCancellationHandler", "withUnsafeContinuation", "withUnsafeThrowingContinuation",
    ]

    // MARK: Positions

    func location(of token: SwiftToken) -> SourceLocation {
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
    func matchingClose(of open: Int, in range: Range<Int>) -> Int {
        min(closes[open], range.upperBound)
    }

    /// The index of the `#endif` that closes the `#if` at `start`, or the range's end.
    func matchingEndif(of start: Int, in range: Range<Int>) -> Int {
        min(endifs[start], range.upperBound)
    }

    /// The index after the condition of the directive at `index` (`#if`, `#elseif`, `#else`): the
    /// end of its line, or of the line its parentheses close on when they span lines.
    private func directiveEnd(from index: Int, in range: Range<Int>) -> Int {
        var end = endOfLine(from: index, in: range)
        var next = index + 1
        while next < end {
            if tokens[next].isPunctuation("("), closes[next] >= end {
                let close = matchingClose(of: next, in: range)
                guard close < range.upperBound else { return range.upperBound }
                end = endOfLine(from: close, in: range)
                next = close
            }
            next += 1
        }
        return end
    }

    /// The index after the `case` declaration at `start`: its names, associated values and raw
    /// values, over lines its commas continue.
    private func endOfCaseList(from start: Int, in range: Range<Int>) -> Int {
        var index = start + 1
        while index < range.upperBound {
            let token = tokens[index]
            if token.startsLine, !tokens[index - 1].isPunctuation(",") { break }
            if token.isPunctuation("{") || token.isPunctuation("}") || token.isPunctuation(";") { break }
            if token.isPunctuation("(") || token.isPunctuation("[") {
                index = matchingClose(of: index, in: range) + 1
                continue
            }
            index += 1
        }
        return index
    }

    /// The index after the last token on the line of the token at `index`.
    private func endOfLine(from index: Int, in range: Range<Int>) -> Int {
        var next = index + 1
        while next < range.upperBound && !tokens[next].startsLine { next += 1 }
        return next
    }

    func sourceText(from start: Int, to end: Int) -> String {
        String(decoding: text[tokens[start].offset..<tokens[end - 1].end], as: UTF8.self)
    }

    // MARK: Declarations

    static let modifierWords: Set<String> = [
        "public", "private", "fileprivate", "internal", "package", "open", "final", "override", "static",
        "required", "convenience", "dynamic", "lazy", "weak", "unowned", "nonisolated", "indirect", "mutating",
        "nonmutating", "optional", "distributed", "isolated", "consuming", "borrowing", "prefix", "postfix", "infix",
    ]

    /// Reads the declarations in `range`, the body of a type (or the file, with an empty scope).
    mutating func readMembers(
        in range: Range<Int>, scope: [String], scopeAccess: AccessLevel, defaultAccess: AccessLevel, conditional: Int,
        depth: Int
    ) {
        var index = range.lowerBound
        var modifiers: [String] = [] {
            didSet { if modifiers.isEmpty { attributes = ([], []) } }
        }
        // The `@available` and `@_spi` attributes before the declaration being read.
        var attributes: (availability: [String], spiGroups: [String]) = ([], [])
        var conditional = conditional
        // The conditions of the `#if` clauses the reading is in, outermost first: for each `#if`,
        // the conditions of its clauses so far (nil for `#else`), the current one last.
        var clauses: [[String?]] = []
        while index < range.upperBound {
            let token = tokens[index]
            switch token.kind {
            case .pound(let word) where ["if", "elseif", "else", "endif"].contains(word):
                let lineEnd = directiveEnd(from: index, in: range)
                if word == "if", scope.isEmpty, let (end, modules) = importOnlyBlock(at: index, in: range) {
                    let block = sourceText(from: index, to: end + 1)
                    summary.imports.append(
                        ImportStatement(text: Self.guarded(block, by: clauses), modules: modules, isConditional: true))
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
            case .attribute(let name):
                let start = index
                index += 1
                if index < range.upperBound, tokens[index].isPunctuation("("), index > 0,
                    tokens[index].offset == tokens[index - 1].end
                {
                    let close = matchingClose(of: index, in: range)
                    if name == "available" {
                        attributes.availability.append(sourceText(from: start, to: min(close + 1, range.upperBound)))
                    } else if name == "_spi", index + 2 == close, let group = tokens[index + 1].identifier {
                        attributes.spiGroups.append(group)
                    }
                    index = close + 1
                }
                continue
            case .identifier(_, escaped: false) where index > range.lowerBound && tokens[index - 1].isPunctuation("."):
                // A member after a dot (`.private`, `.extension`): a name, not a keyword, and it
                // ends the modifiers before it, as any other word does.
                modifiers = []
                index += 1
            case .identifier(let word, escaped: false):
                if word == "import" && scope.isEmpty {
                    index = readImport(at: index, in: range, modifiers: modifiers, clauses: clauses)
                    modifiers = []
                    continue
                }
                if declaresType(word, at: index, in: range) {
                    let outer = enclosingClauses
                    enclosingClauses += clauses
                    defer { enclosingClauses = outer }
                    index = readType(
                        at: index, modifiers: modifiers, attributes: attributes, in: range, scope: scope,
                        scopeAccess: scopeAccess, defaultAccess: defaultAccess, conditional: conditional, depth: depth)
                    modifiers = []
                    continue
                }
                if word == "extension" {
                    let outer = enclosingClauses
                    enclosingClauses += clauses
                    defer { enclosingClauses = outer }
                    index = readExtension(
                        at: index, modifiers: modifiers, attributes: attributes, in: range, scope: scope,
                        conditional: conditional, depth: depth)
                    modifiers = []
                    continue
                }
                if word == "case" {
                    // An enum's cases are names, not modifiers: `case package` then a class.
                    index = endOfCaseList(from: index, in: range)
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
                    index = readRegistration(
                        at: index, isOverride: modifiers.contains("override"), in: range, scope: scope,
                        conditional: conditional)
                    modifiers = []
                    continue
                }
                if ["var", "let", "func"].contains(word), !scope.isEmpty, !modifiers.contains("static"),
                    !modifiers.contains("class"), index + 1 < range.upperBound, let member = tokens[index + 1].identifier
                {
                    summary.memberNames[scope, default: []].insert(member)
                }
                if Self.modifierWords.contains(word) || word == "class" {
                    modifiers.append(word)
                } else {
                    modifiers = []
                }
                index += 1
            case .punctuation("{"), .punctuation("("), .punctuation("["):
                // Bodies, parameter lists and literals declare no types and import nothing:
                // `func load(import path: String)` has no import.
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
        guard let condition = condition(of: clauses) else { return text }
        return "#if " + condition + "\n" + text + "\n#endif"
    }

    /// The condition under which the clauses hold, or nil outside any.
    static func condition(of clauses: [[String?]]) -> String? {
        var terms: [String] = []
        for conditions in clauses {
            for earlier in conditions.dropLast() { terms.append("!(" + (earlier ?? "false") + ")") }
            if let current = conditions.last, let current { terms.append(current) }
        }
        guard !terms.isEmpty else { return nil }
        return terms.count == 1 ? terms[0] : terms.map { $0.hasPrefix("!(") ? $0 : "(" + $0 + ")" }.joined(separator: " && ")
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
            } else if case .identifier(let word, escaped: false) = before.kind, AccessLevel(keyword: word) != nil,
                start - 2 < range.lowerBound || !tokens[start - 2].isPunctuation(".")
            {
                // A modifier, not a member after a dot (`= .private` on the line before).
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
                text: Self.guarded(sourceText(from: start, to: statement.end), by: clauses),
                modules: [ImportStatement.Module(name: statement.module, access: statement.access)],
                isConditional: !clauses.isEmpty,
                isPlain: clauses.isEmpty && statement.end - start == (start == keyword ? 2 : 3)))
        return statement.end
    }

    /// For `#if` at `start` whose every line is a directive or one import: the index of its
    /// `#endif`, and the modules its imports name, each with its access.
    private func importOnlyBlock(at start: Int, in range: Range<Int>) -> (end: Int, modules: [ImportStatement.Module])? {
        let end = matchingEndif(of: start, in: range)
        guard end < range.upperBound else { return nil }
        var index = start
        var modules: [ImportStatement.Module] = []
        while index < end {
            switch tokens[index].kind {
            case .pound(let word) where ["if", "elseif", "else"].contains(word):
                index = directiveEnd(from: index, in: range)
            default:
                let lineEnd = endOfLine(from: index, in: range)
                guard let statement = importStatement(at: index, in: range), statement.end == lineEnd else { return nil }
                modules.append(ImportStatement.Module(name: statement.module, access: statement.access))
                index = lineEnd
            }
        }
        return modules.isEmpty ? nil : (end, modules)
    }
}
