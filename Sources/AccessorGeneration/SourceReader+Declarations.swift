// The declarations the reader records: types, type aliases and extensions with their
// inheritance clauses, and the registration blocks of classes with the properties they declare.

extension SourceReader {
    // MARK: Types and extensions

    private static let typeKeywords: Set<String> = ["class", "struct", "enum", "actor", "protocol"]

    /// Reads `typealias Name<…> = Type` at `start`; returns the index after its name.
    mutating func readTypealias(
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
    ///
    /// `actor` and the others are words too where no declaration can start: an enum case
    /// (`case actor`), a member (`.actor`), an argument label (`make(class name: …)`); and a
    /// type's name is never a keyword (`case actor` then `case director` on the next line).
    func declaresType(_ word: String, at index: Int, in range: Range<Int>) -> Bool {
        guard Self.typeKeywords.contains(word), index + 1 < range.upperBound,
            case .identifier(let next, let escaped) = tokens[index + 1].kind
        else { return false }
        if index > range.lowerBound {
            switch tokens[index - 1].kind {
            case .punctuation("."), .punctuation("("), .punctuation(","), .identifier("case", escaped: false): return false
            default: break
            }
        }
        if !escaped && Self.keywordsNamingNoType.contains(next) { return false }
        guard word == "class", !escaped else { return true }
        return !(Self.modifierWords.contains(next) || ["func", "var", "let", "subscript", "init"].contains(next))
    }

    /// Words that cannot be a declared type's name.
    private static let keywordsNamingNoType: Set<String> = [
        "case", "func", "var", "let", "init", "deinit", "subscript", "typealias", "associatedtype", "import", "return",
        "if", "else", "switch", "for", "while", "repeat", "do", "guard", "defer", "in", "is", "as", "where", "default",
        "throws", "rethrows", "async", "await", "try", "extension", "operator", "self", "Self", "true", "false", "nil",
    ]

    private static func access(in modifiers: [String], default defaultAccess: AccessLevel = .internal) -> AccessLevel {
        modifiers.lazy.compactMap(AccessLevel.init(keyword:)).first ?? defaultAccess
    }

    /// Reads `class Name<…>: Inherited, … where … { body }` at `start`; returns the index after it.
    mutating func readType(
        at start: Int, modifiers: [String], attributes: (availability: [String], spiGroups: [String]), in range: Range<Int>,
        scope: [String], scopeAccess: AccessLevel, defaultAccess: AccessLevel, conditional: Int, depth: Int
    ) -> Int {
        let keyword = tokens[start].identifier ?? ""
        var index = start + 1
        guard index < range.upperBound, let name = tokens[index].identifier else { return start + 1 }
        let nameToken = tokens[index]
        index += 1
        var genericParameters: [String] = []
        if index < range.upperBound, tokens[index].isPunctuation("<") {
            let end = skipAngles(from: index, in: range)
            // Each parameter's name follows the `<` or a comma outside nested angles.
            var angles = 0
            for position in index..<end {
                let token = tokens[position]
                if token.isPunctuation("<") { angles += 1 } else if token.isPunctuation(">") { angles -= 1 }
                if angles == 1, token.isPunctuation("<") || token.isPunctuation(","), position + 1 < end,
                    let parameter = tokens[position + 1].identifier
                {
                    genericParameters.append(parameter == "each" && position + 2 < end ? tokens[position + 2].identifier ?? parameter : parameter)
                }
            }
            index = end
        }
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
        var declaration = TypeDeclaration(
            kind: keyword == "class" ? .class : .other, path: scope + [name], access: access,
            enclosingAccess: scopeAccess, inherited: inherited, location: location(of: nameToken),
            conditionalDepth: conditional)
        declaration.isFinal = modifiers.contains("final")
        declaration.condition = Self.condition(of: enclosingClauses)
        declaration.genericParameters = genericParameters
        declaration.availability = enclosingAvailability + attributes.availability
        declaration.spiGroups = enclosingSPIGroups + attributes.spiGroups
        summary.types.append(declaration)
        if keyword != "protocol" {
            bodies.append((scope + [name], (index + 1)..<close))
            let outer = (enclosingAvailability, enclosingSPIGroups)
            (enclosingAvailability, enclosingSPIGroups) = (declaration.availability, declaration.spiGroups)
            readMembers(
                in: (index + 1)..<close, scope: scope + [name], scopeAccess: min(scopeAccess, access),
                defaultAccess: .internal, conditional: conditional, depth: depth + 1)
            (enclosingAvailability, enclosingSPIGroups) = outer
        }
        return close + 1
    }

    private mutating func tooDeep(at token: SwiftToken) {
        summary.errors.append(
            (location(of: token),
             "types nest more than \(Self.maximumNesting) deep here; the generator reads no deeper: declare the models less deep"))
    }

    /// Reads `extension Some.Type: Protocols where … { body }` at `start`.
    mutating func readExtension(
        at start: Int, modifiers: [String], attributes: (availability: [String], spiGroups: [String]), in range: Range<Int>,
        scope: [String], conditional: Int, depth: Int
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
        bodies.append((extended, (index + 1)..<close))
        let outer = (enclosingAvailability, enclosingSPIGroups)
        enclosingAvailability += attributes.availability
        enclosingSPIGroups += attributes.spiGroups
        readMembers(
            in: (index + 1)..<close, scope: extended, scopeAccess: written ?? .open, defaultAccess: written ?? .internal,
            conditional: conditional, depth: depth + 1)
        (enclosingAvailability, enclosingSPIGroups) = outer
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
    mutating func readRegistration(
        at start: Int, isOverride: Bool, in range: Range<Int>, scope: [String], conditional: Int
    ) -> Int {
        var index = start + 2
        guard index < range.upperBound, tokens[index].isPunctuation("(") else { return index }
        let close = matchingClose(of: index, in: range)
        let parameter = Array(tokens[(index + 1)..<close])
        // `_ p: PropertyRegistrar` or `_ p: JSONModelKit.PropertyRegistrar`: one parameter with
        // no label, whose name inside is the identifier just before the colon. Another function
        // named `properties` (`properties(audit:)`, a helper the block calls) is not the block.
        // An override of it is, whatever alias names the registrar's type.
        guard parameter.count >= 4, parameter[0].isKeyword("_"), let name = parameter[1].identifier,
            parameter[2].isPunctuation(":"), !parameter.contains(where: { $0.isPunctuation(",") }),
            isOverride || parameter[3...].compactMap(\.identifier).last == "PropertyRegistrar"
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
            var head = index
            while head < range.upperBound {
                if case .attribute = tokens[head].kind {
                    head += 1
                } else if let word = tokens[head].identifier, Self.modifierWords.contains(word) {
                    head += 1
                } else {
                    break
                }
            }
            if head + 1 < range.upperBound, let word = tokens[head].identifier,
                ["struct", "enum", "class", "actor", "typealias", "protocol"].contains(word),
                let name = tokens[head + 1].identifier
            {
                block.localTypes.insert(name)
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
