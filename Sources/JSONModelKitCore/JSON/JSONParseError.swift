/// An error found while scanning JSON text, with its position.
///
/// The description reads well in a log:
///
/// ```
/// JSON parse error at line 3, column 9 (byte 27): trailing comma before '}'
///   near: "b": 2,}
/// ```
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The input held no value, only white space or nothing at all.
        case emptyInput
        /// The input ended inside a value.
        case unexpectedEnd
        /// A byte that cannot start or continue anything here.
        case unexpectedByte(UInt8)
        /// A word that is not `true`, `false` or `null` (reported at its first letter).
        case invalidLiteral
        /// A number that does not follow the JSON grammar (leading zeros, a lone `-`, `1.`, `.5`, `1e`).
        case invalidNumber
        /// A backslash followed by something other than `"\/bfnrtu`.
        case invalidEscape
        /// `\u` not followed by four hexadecimal digits.
        case invalidUnicodeEscape
        /// A `\u` escape of a UTF-16 surrogate without its partner.
        case loneSurrogate
        /// Bytes that are not well-formed UTF-8 (including overlong forms and encoded surrogates).
        case invalidUTF8
        /// A raw control character (U+0000 to U+001F) inside a string.
        case controlCharacterInString
        /// A comma right before `]` or `}` (allowed only with `allowsTrailingCommas`).
        case trailingComma
        /// Arrays and objects nested deeper than the limit.
        case tooDeep(limit: Int)
        /// Something other than white space after the top-level value.
        case trailingContent
        /// The input is larger than 4 GiB, the largest document the tape can address.
        case documentTooLarge
        /// A single string or number of 256 MiB or more, or a container of 2^28 or more elements.
        case valueTooLarge
    }

    /// What went wrong.
    public let kind: Kind
    /// The zero-based byte offset of the fault in the input.
    public let offset: Int
    /// The one-based line of the fault (lines end at `\n`).
    public let line: Int
    /// The one-based column of the fault, counted in Unicode scalars.
    public let column: Int
    /// A short, printable piece of the input around the fault.
    package let excerpt: String

    /// Creates an error, working out line, column and excerpt from the input.
    init(_ kind: Kind, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let offset = min(max(offset, 0), bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[..<offset] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        let lower = max(0, offset - 24)
        let upper = min(bytes.count, offset + 24)
        let printable = String(decoding: bytes[lower..<upper], as: UTF8.self).unicodeScalars.map {
            $0.value < 0x20 || $0.value == 0x7F ? " " : String($0)
        }
        self.kind = kind
        self.offset = offset
        self.line = line
        self.column = column
        self.excerpt = printable.joined()
    }

    public var description: String {
        "JSON parse error at line \(line), column \(column) (byte \(offset)): \(kind.message)\n  near: \(excerpt)"
    }
}

extension JSONParseError.Kind {
    /// A short phrase for logs.
    package var message: String {
        switch self {
        case .emptyInput: "no JSON value in the input"
        case .unexpectedEnd: "unexpected end of input"
        case .unexpectedByte(let byte): "unexpected \(Self.describe(byte))"
        case .invalidLiteral: "invalid literal (expected true, false or null)"
        case .invalidNumber: "invalid number"
        case .invalidEscape: "invalid escape sequence in string"
        case .invalidUnicodeEscape: "\\u must be followed by four hexadecimal digits"
        case .loneSurrogate: "\\u escape of a lone UTF-16 surrogate"
        case .invalidUTF8: "invalid UTF-8"
        case .controlCharacterInString: "unescaped control character in string"
        case .trailingComma: "trailing comma"
        case .tooDeep(let limit): "nesting deeper than \(limit) levels"
        case .trailingContent: "unexpected content after the top-level value"
        case .documentTooLarge: "document larger than 4 GiB"
        case .valueTooLarge: "string or number of 256 MiB or more, or container of 2^28 or more elements"
        }
    }

    package static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }
}
