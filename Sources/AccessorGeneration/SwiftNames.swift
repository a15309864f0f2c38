/// What makes a name a Swift identifier, and how the generated code spells names.
enum SwiftNames {
    /// Whether `name` is a Swift identifier: a letter, `_` or another identifier-head character
    /// (most scripts, symbols and emoji), then those or digits, combining marks and `$`. `_` alone is
    /// no name a member can take.
    static func isIdentifier(_ name: String) -> Bool {
        var scalars = name.unicodeScalars.makeIterator()
        guard let first = scalars.next(), isHead(first), name != "_" else { return false }
        while let scalar = scalars.next() {
            guard isHead(scalar) || continues(scalar) else { return false }
        }
        return true
    }

    /// `name` as a member declaration or a type name component writes it: in backticks when it
    /// is a keyword there (`Type` and `Protocol` too, which `x.Type` would mean otherwise), or no
    /// plain identifier (a raw identifier such as `` `Old Model` ``). `Any` and `Self` name the
    /// types themselves, unescaped.
    static func escaped(_ name: String, asType: Bool = false) -> String {
        let reserved =
            (keywords.contains(name) && !(asType && (name == "Any" || name == "Self"))) || name == "Type"
            || name == "Protocol"
        return reserved || !isIdentifier(name) ? "`\(name)`" : name
    }

    /// Swift's keywords, which a declaration must escape with backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "package",
    ]

    private static func isHead(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch value {
        case 0x41...0x5A, 0x61...0x7A, 0x5F: return true
        case 0x00A8, 0x00AA, 0x00AD, 0x00AF, 0x00B2...0x00B5, 0x00B7...0x00BA, 0x00BC...0x00BE, 0x00C0...0x00D6,
            0x00D8...0x00F6, 0x00F8...0x00FF, 0x0100...0x02FF, 0x0370...0x167F, 0x1681...0x180D, 0x180F...0x1DBF,
            0x1E00...0x1FFF, 0x200B...0x200D, 0x202A...0x202E, 0x203F...0x2040, 0x2054, 0x2060...0x206F,
            0x2070...0x20CF, 0x2100...0x218F, 0x2460...0x24FF, 0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF,
            0x3004...0x3007, 0x3031...0x303F, 0x3040...0xD7FF, 0xF900...0xFD3D, 0xFD40...0xFDCF,
            0xFDF0...0xFE1F, 0xFE30...0xFE44, 0xFE47...0xFFF8:
            return true
        case 0x10000...0xEFFFD:
            // Every plane but the last two, without each plane's last two code points.
            return value & 0xFFFF <= 0xFFFD
        default: return false
        }
    }

    private static func continues(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        // `$` continues a name (`total$`), as the compiler reads it, though it may not start one;
        // so do the Hangzhou numerals (U+3021 to U+302F), which the grammar lets start a name but
        // the compiler reads as an operator there.
        case 0x24, 0x30...0x39, 0x0300...0x036F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F, 0x3021...0x302F:
            return true
        default: return false
        }
    }
}
