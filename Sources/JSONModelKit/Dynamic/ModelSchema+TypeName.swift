// A property's type as a schema writes it (`[String: Double?]`), and the parser of that text.

extension ModelSchema {
    /// A type as written in a schema: `Int`, `[Order]`, `[String: Double?]`, `Customer?`.
    package indirect enum TypeName: Sendable, Hashable, CustomStringConvertible {
        case named(String)
        case array(TypeName)
        case dictionary(TypeName)
        case optional(TypeName)

        /// Parses a type expression.
        ///
        /// At most ``ModelSchema/maximumTypeNesting`` levels, each `[T]`, `[String: T]` and `?` one,
        /// and one `?` per level (`Int??` is refused: JSON has one null, which cannot tell the
        /// levels of a nested optional apart).
        ///
        /// - Throws: A message saying what is wrong, when the text is not a type.
        package init(parsing text: String) throws(ModelSchemaError) {
            var parser = TypeParser(text: Array(text.unicodeScalars))
            let type = parser.parseType()
            if let problem = parser.problem {
                throw ModelSchemaError("'\(Self.quoted(text))' \(problem)")
            }
            guard let type, parser.atEnd else {
                throw ModelSchemaError("'\(Self.quoted(text))' is not a type (expected a name, [T], [String: T] or T?)")
            }
            self = type
        }

        /// `text`, shortened to its first 60 characters for messages.
        static func quoted(_ text: String) -> String {
            text.count <= 60 ? text : text.prefix(60) + "…"
        }

        /// How many `[T]`, `[String: T]` and `?` wrap the name; computed without recursion.
        var nestingLevels: Int {
            var levels = 0
            var current = self
            while true {
                switch current {
                case .named: return levels
                case .array(let inner), .dictionary(let inner), .optional(let inner):
                    levels += 1
                    current = inner
                }
            }
        }

        /// What breaks the nesting rules, found without recursion (so also for types built in
        /// code, which no parser bounded); nil when the type keeps them.
        var nestingProblem: String? {
            var levels = 0
            var current = self
            while true {
                switch current {
                case .named: return nil
                case .optional(.optional):
                    return ModelSchema.nestedOptionalsMessage
                case .array(let inner), .dictionary(let inner), .optional(let inner):
                    levels += 1
                    if levels > ModelSchema.maximumTypeNesting { return ModelSchema.tooDeepMessage }
                    current = inner
                }
            }
        }

        package var description: String {
            switch self {
            case .named(let name): name
            case .array(let element): "[\(element)]"
            case .dictionary(let value): "[String: \(value)]"
            case .optional(let wrapped): "\(wrapped)?"
            }
        }

        /// Every name the type mentions.
        var names: [String] {
            switch self {
            case .named(let name): [name]
            case .array(let inner), .dictionary(let inner), .optional(let inner): inner.names
            }
        }
    }
}

/// A small recursive-descent parser for type expressions.
///
/// Recursion follows brackets and stops past ``ModelSchema/maximumTypeNesting`` of them; a
/// second `?` in a row stops the parse. So neither the recursion nor the type built grows
/// with the text, and the levels (brackets and `?` together) are counted on the way back up.
private struct TypeParser {
    let text: [Unicode.Scalar]
    var position = 0
    /// Brackets open around the type being parsed.
    var depth = 0
    /// Why the text is refused, when the rules (not the grammar) are broken.
    var problem: String?

    var atEnd: Bool {
        mutating get {
            skipSpaces()
            return position == text.count
        }
    }

    mutating func skipSpaces() {
        while position < text.count && text[position] == " " { position += 1 }
    }

    /// A type; nil when the text is not one, with `problem` set when it breaks the rules.
    mutating func parseType() -> ModelSchema.TypeName? {
        parseLevels()?.type
    }

    private mutating func parseLevels() -> (type: ModelSchema.TypeName, levels: Int)? {
        skipSpaces()
        guard position < text.count else { return nil }
        var type: ModelSchema.TypeName
        var levels: Int
        if text[position] == "[" {
            position += 1
            guard enter() else { return nil }
            defer { depth -= 1 }
            guard let first = parseLevels() else { return nil }
            skipSpaces()
            if position < text.count && text[position] == ":" {
                guard first.type == .named("String") else { return nil }
                position += 1
                guard let value = parseLevels() else { return nil }
                type = .dictionary(value.type)
                levels = value.levels + 1
            } else {
                type = .array(first.type)
                levels = first.levels + 1
            }
            skipSpaces()
            guard position < text.count && text[position] == "]" else { return nil }
            position += 1
        } else {
            let start = position
            while position < text.count, text[position].properties.isAlphabetic || text[position] == "_"
                || (position > start && ("0"..."9").contains(text[position]))
            {
                position += 1
            }
            guard position > start else { return nil }
            type = .named(String(String.UnicodeScalarView(text[start..<position])))
            levels = 0
        }
        skipSpaces()
        if position < text.count && text[position] == "?" {
            position += 1
            skipSpaces()
            if position < text.count && text[position] == "?" {
                problem = ModelSchema.nestedOptionalsMessage
                return nil
            }
            type = .optional(type)
            levels += 1
        }
        // Levels count up from the name, so the whole type's are checked last, at the top.
        if levels > ModelSchema.maximumTypeNesting {
            problem = ModelSchema.tooDeepMessage
            return nil
        }
        return (type, levels)
    }

    /// Opens a bracket; false (with `problem` set) past the limit.
    private mutating func enter() -> Bool {
        depth += 1
        if depth > ModelSchema.maximumTypeNesting {
            problem = ModelSchema.tooDeepMessage
            return false
        }
        return true
    }
}
