/// A token of Swift source, as far as the accessor generator needs to tell them apart.
///
/// Comments and white space are dropped; a string literal is one token however many
/// lines, interpolations and nested strings it holds, so nothing inside it is ever taken
/// for code.
struct SwiftToken: Equatable {
    enum Kind: Equatable {
        /// An identifier or keyword; `name` is without backticks.
        case identifier(String, escaped: Bool)
        /// A string literal; the text when it is a plain literal, nil when it interpolates.
        case string(String?)
        /// A regex literal (`/a+/`, `#/a/b/#`), one token like a string.
        case regex
        /// A number literal.
        case number
        /// `#if`, `#endif`, `#selector`, …: the word after `#`.
        case pound(String)
        /// `@attribute`: the word after `@`.
        case attribute(String)
        /// `->`.
        case arrow
        /// Any other character of punctuation or an operator, one at a time.
        case punctuation(Character)
    }

    let kind: Kind
    /// Where the token starts, as a position in the file's UTF-8 bytes.
    let offset: Int
    /// Where the token ends (exclusive).
    let end: Int
    /// Whether a line break comes between this token and the one before it.
    let startsLine: Bool

    var identifier: String? {
        if case .identifier(let name, _) = kind { return name }
        return nil
    }

    func isPunctuation(_ character: Character) -> Bool {
        kind == .punctuation(character)
    }

    /// Whether this is the unescaped word `word`: a keyword in position.
    func isKeyword(_ word: String) -> Bool {
        kind == .identifier(word, escaped: false)
    }
}

/// Splits Swift source into ``SwiftToken``s.
///
/// Knows Swift's comments (nested block comments too), string literals (single- and
/// multi-line, raw with any number of `#`, interpolations holding further strings and
/// parentheses), regex literals (`#/…/#` always; `/…/` where an expression starts and the
/// literal closes on its line), identifiers (backticked too, raw identifiers with spaces and
/// operator characters included), numbers, `#` directives, attributes and punctuation.
/// Anything it does not recognize becomes punctuation, so reading never fails; interpolations
/// nested deeper than ``maximumInterpolationDepth`` end the tokens and set ``tooDeepAt``.
struct SwiftTokenizer {
    /// How deep string interpolations may nest (`"\("\("…")")"`): each level is a recursion.
    static let maximumInterpolationDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var sawLineBreak = true
    /// The token before the current one, to tell a regex literal's `/` from division.
    private var previous: SwiftToken.Kind?
    private var interpolationDepth = 0
    /// Where interpolations nested too deep, when they did: the tokens stop there.
    private(set) var tooDeepAt: Int?

    init(_ source: String) {
        bytes = Array(source.utf8)
        // A byte-order mark starts no token: the compiler skips it, and joined to the first
        // word it would hide an `import` or a declaration.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        // Nor does a `#!` line at the start of a script, which the compiler skips.
        if bytes[index...].starts(with: [UInt8(ascii: "#"), UInt8(ascii: "!")]) {
            while let byte = byte(at: index), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") { index += 1 }
        }
    }

    /// The tokens of `source`, in order.
    static func tokens(of source: String) -> [SwiftToken] {
        tokensAndDepthFailure(of: source).tokens
    }

    /// The tokens of `source`, and the offset where interpolations nested too deep, if they did.
    static func tokensAndDepthFailure(of source: String) -> (tokens: [SwiftToken], tooDeepAt: Int?) {
        var tokenizer = SwiftTokenizer(source)
        var tokens: [SwiftToken] = []
        while let token = tokenizer.next() { tokens.append(token) }
        return (tokens, tokenizer.tooDeepAt)
    }

    private func byte(at offset: Int) -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    mutating func next() -> SwiftToken? {
        skipTrivia()
        guard let first = byte(at: index) else { return nil }
        let start = index
        let startsLine = sawLineBreak
        sawLineBreak = false
        let kind: SwiftToken.Kind
        switch first {
        case UInt8(ascii: "\""):
            kind = .string(readString(hashes: 0))
        case UInt8(ascii: "#"):
            var hashes = 0
            while byte(at: index + hashes) == UInt8(ascii: "#") { hashes += 1 }
            if byte(at: index + hashes) == UInt8(ascii: "\"") {
                index += hashes
                kind = .string(readString(hashes: hashes))
            } else if byte(at: index + hashes) == UInt8(ascii: "/") {
                index += hashes
                readExtendedRegex(hashes: hashes)
                kind = .regex
            } else {
                index += 1
                kind = .pound(readWord())
            }
        case UInt8(ascii: "@"):
            index += 1
            kind = .attribute(readWord())
        case UInt8(ascii: "`"):
            index += 1
            kind = .identifier(readRawIdentifier(), escaped: true)
        case UInt8(ascii: "/") where startsRegex():
            readBareRegex()
            kind = .regex
        case UInt8(ascii: "-") where byte(at: index + 1) == UInt8(ascii: ">"):
            index += 2
            kind = .arrow
        case _ where Self.isDigit(first):
            readNumber()
            kind = .number
        case _ where Self.startsIdentifier(first):
            kind = .identifier(readWord(), escaped: false)
        default:
            kind = .punctuation(readCharacter())
        }
        previous = kind
        return SwiftToken(kind: kind, offset: start, end: index, startsLine: startsLine)
    }

    // MARK: Trivia

    private mutating func skipTrivia() {
        while let byte = byte(at: index) {
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                sawLineBreak = true
                index += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0B, 0x0C:
                index += 1
            case 0xC2 where isNoBreakSpace(at: index):
                // A no-break space separates words for the compiler (with a warning).
                index += 2
            case UInt8(ascii: "/") where self.byte(at: index + 1) == UInt8(ascii: "/"):
                // To the end of the line, which a carriage return alone also ends.
                while let next = self.byte(at: index), next != UInt8(ascii: "\n"), next != UInt8(ascii: "\r") { index += 1 }
            case UInt8(ascii: "/") where self.byte(at: index + 1) == UInt8(ascii: "*"):
                skipBlockComment()
            default:
                return
            }
        }
    }

    private mutating func skipBlockComment() {
        var depth = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/"), byte(at: index + 1) == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*"), byte(at: index + 1) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                if bytes[index] == UInt8(ascii: "\n") || bytes[index] == UInt8(ascii: "\r") { sawLineBreak = true }
                index += 1
            }
        }
    }

    // MARK: Literals and words

    /// Reads a string literal starting at its first quote (after any `#`s); returns its text
    /// when it has no interpolation and no escapes other than the simple ones.
    private mutating func readString(hashes: Int) -> String? {
        var multiline = byte(at: index + 1) == UInt8(ascii: "\"") && byte(at: index + 2) == UInt8(ascii: "\"")
        if multiline && hashes > 0 {
            // As the compiler reads it: `#"""#` and `#"""quoted" text"#` are one-line raw
            // strings, since a quote and the delimiter come before the line ends.
            var next = index + 2
            while let byte = byte(at: next), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") {
                if byte == UInt8(ascii: "\""), hasHashes(hashes, at: next + 1) {
                    multiline = false
                    break
                }
                next += 1
            }
        }
        index += multiline ? 3 : 1
        var text: [UInt8] = []
        var plain = true
        while let byte = byte(at: index) {
            if byte == UInt8(ascii: "\\") && hasHashes(hashes, at: index + 1) {
                let escaped = index + 1 + hashes
                if self.byte(at: escaped) == UInt8(ascii: "(") {
                    plain = false
                    index = escaped
                    skipInterpolation()
                    continue
                }
                let character = self.byte(at: escaped)
                switch character {
                case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): text.append(character!)
                default: plain = false
                }
                index = escaped + 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                let closes = multiline
                    ? self.byte(at: index + 1) == UInt8(ascii: "\"") && self.byte(at: index + 2) == UInt8(ascii: "\"")
                    : true
                let quotes = multiline ? 3 : 1
                if closes && hasHashes(hashes, at: index + quotes) {
                    index += quotes + hashes
                    return plain && !multiline ? String(decoding: text, as: UTF8.self) : nil
                }
            }
            if byte == UInt8(ascii: "\n") && !multiline {
                // An unterminated literal: end it at the line, as the compiler's recovery does.
                return nil
            }
            text.append(byte)
            index += 1
        }
        return nil
    }

    private func hasHashes(_ count: Int, at offset: Int) -> Bool {
        for position in offset..<(offset + count) where byte(at: position) != UInt8(ascii: "#") { return false }
        return true
    }

    /// Skips `( … )` of an interpolation, with nested parentheses, strings and comments.
    private mutating func skipInterpolation() {
        guard interpolationDepth < Self.maximumInterpolationDepth else {
            tooDeepAt = tooDeepAt ?? index
            index = bytes.count
            return
        }
        interpolationDepth += 1
        defer { interpolationDepth -= 1 }
        var depth = 0
        let savedLineBreak = sawLineBreak
        let savedPrevious = previous
        defer { previous = savedPrevious }
        while let token = next() {
            if token.isPunctuation("(") { depth += 1 }
            if token.isPunctuation(")") {
                depth -= 1
                if depth == 0 { break }
            }
        }
        sawLineBreak = savedLineBreak
    }

    /// Reads the name between backticks, up to the closing one (raw identifiers may hold
    /// spaces, operator characters and comment markers) or, when there is none, the line's end.
    private mutating func readRawIdentifier() -> String {
        let start = index
        while let byte = byte(at: index), byte != UInt8(ascii: "`"), byte != UInt8(ascii: "\n"),
            byte != UInt8(ascii: "\r")
        {
            index += 1
        }
        let name = String(decoding: bytes[start..<index], as: UTF8.self)
        if byte(at: index) == UInt8(ascii: "`") { index += 1 }
        return name
    }

    /// Reads `#/…/#` (after its `#`s), single- or multi-line, to the `/` followed by as many `#`s.
    private mutating func readExtendedRegex(hashes: Int) {
        index += 1
        while let byte = byte(at: index) {
            if byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if byte == UInt8(ascii: "/") && hasHashes(hashes, at: index + 1) {
                index += 1 + hashes
                return
            }
            index += 1
        }
    }

    /// Whether the `/` at the current position opens a bare regex literal: it stands where an
    /// expression starts (not after a name, a literal or a closing bracket, which make it
    /// division), is not followed by a space, and a closing `/` follows on the same line.
    private func startsRegex() -> Bool {
        switch previous {
        case .identifier(let word, let escaped):
            if escaped || !Self.keywordsBeforeExpressions.contains(word) { return false }
        case .number, .string, .regex, .punctuation(")"), .punctuation("]"), .punctuation("}"):
            return false
        default:
            break
        }
        guard let next = byte(at: index + 1), next != UInt8(ascii: " "), next != UInt8(ascii: "\t"),
            next != UInt8(ascii: "\n"), next != UInt8(ascii: "\r")
        else { return false }
        return closingSlashOfBareRegex() != nil
    }

    /// The offset of the `/` that closes a bare regex opened at the current position, on its line.
    private func closingSlashOfBareRegex() -> Int? {
        var offset = index + 1
        while let byte = byte(at: offset), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") {
            if byte == UInt8(ascii: "\\") {
                offset += 2
                continue
            }
            if byte == UInt8(ascii: "/") { return offset }
            offset += 1
        }
        return nil
    }

    private mutating func readBareRegex() {
        index = (closingSlashOfBareRegex() ?? index) + 1
    }

    /// Keywords after which an expression starts, so a `/` there opens a regex literal.
    private static let keywordsBeforeExpressions: Set<String> = [
        "return", "case", "in", "where", "if", "guard", "while", "else", "try", "await", "throw", "is", "as", "switch",
        "repeat", "let", "var", "yield", "defer", "do", "catch", "for",
    ]

    private mutating func readWord() -> String {
        let start = index
        while let byte = byte(at: index), Self.continuesIdentifier(byte), !isNoBreakSpace(at: index) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Whether a no-break space (U+00A0) starts at `index`: white space to the compiler.
    private func isNoBreakSpace(at index: Int) -> Bool {
        byte(at: index) == 0xC2 && byte(at: index + 1) == 0xA0
    }

    private mutating func readNumber() {
        while let byte = byte(at: index) {
            if Self.continuesIdentifier(byte) {
                index += 1
            } else if byte == UInt8(ascii: "."), let next = self.byte(at: index + 1), Self.isDigit(next) {
                index += 1
            } else {
                return
            }
        }
    }

    /// One character of punctuation (a whole UTF-8 sequence for anything outside ASCII).
    private mutating func readCharacter() -> Character {
        var end = index + 1
        while let byte = byte(at: end), byte & 0xC0 == 0x80 { end += 1 }
        let text = String(decoding: bytes[index..<end], as: UTF8.self)
        index = end
        return text.first ?? "?"
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Letters, `_`, `$` and any byte of a non-ASCII character (Swift allows most of them in names).
    private static func startsIdentifier(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private static func continuesIdentifier(_ byte: UInt8) -> Bool {
        startsIdentifier(byte) || isDigit(byte)
    }
}
