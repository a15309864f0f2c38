// Escaping text taken from the input (a key, a quoted value) so that it cannot break a line of
// a description or a diagnostic: for the descriptions, and for diagnostics, which know nothing
// of descriptions.

/// The escapes of the text that descriptions and diagnostics show.
enum TextEscapes {
    /// `text` on one line: control characters, line and paragraph separators escaped as
    /// ``appendEscaped(_:quotes:to:)`` escapes them, quotes and backslashes left as they are.
    /// For text made of the input (a diagnostic quoting a value or a key), which would otherwise
    /// start what reads as a line of its own in a log.
    static func oneLine(_ text: String) -> String {
        guard breaksLines(text) else { return text }
        var result = ""
        for scalar in text.unicodeScalars { appendEscaped(scalar, quotes: false, to: &result) }
        return result
    }

    /// Appends `scalar` escaped as a description quotes text: a quote, a backslash, a control
    /// character, a line or paragraph separator; `quotes` false leaves quotes and backslashes as
    /// they are.
    static func appendEscaped(_ scalar: Unicode.Scalar, quotes: Bool, to result: inout String) {
        switch scalar {
        case "\"" where quotes: result += "\\\""
        case "\\" where quotes: result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case "\0": result += "\\0"
        case "\"", "\\": result.unicodeScalars.append(scalar)
        default:
            if needsEscape(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }

    /// Whether `text` holds a character ``appendEscaped(_:quotes:to:)`` escapes other than a
    /// quote or a backslash: a control character or a line or paragraph separator.
    static func breaksLines(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\"" && $0 != "\\" && needsEscape($0) }
    }

    /// Whether ``appendEscaped(_:quotes:to:)`` escapes `scalar` when it escapes quotes.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x22, 0x5C, 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029: return true
        default: return false
        }
    }
}
