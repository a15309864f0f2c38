/// A path to a value inside JSON: a list of object keys and array indices.
///
/// Write a path as a dotted string, with `[n]` for array indices and
/// `["…"]` for keys that contain dots or brackets:
///
/// ```swift
/// let path: JSONPath = "items[3].owner.id"
/// path.segments    // [.key("items"), .index(3), .key("owner"), .key("id")]
/// let odd: JSONPath = #"meta["build.number"]"#
/// odd.segments     // [.key("meta"), .key("build.number")]
/// let listed: JSONPath = ["items", 3, "owner"]
/// ```
///
/// The root path (no segments) is written `$`. A path's ``description`` always
/// parses back to the same path: `JSONPath(parsing: path.description) == path`.
///
/// Parsing never fails. Text that is not a well-formed bracket is taken
/// literally as part of a key, and every dot separates keys, so:
///
/// | Text        | Segments                     |
/// |-------------|------------------------------|
/// | `""`, `"$"` | none (the root)              |
/// | `"a..b"`    | `a`, `""`, `b`               |
/// | `"a."`      | `a`, `""`                    |
/// | `"a["`      | `a[`                         |
/// | `"[x]"`     | `[x]`                        |
/// | `"a[1]b"`   | `a`, `1`, `b`                |
/// | `"0"`       | the key `0` (indices need brackets) |
/// | `"a[99999999999999999999]"` | `a`, the index `Int.max` (an index past `Int` holds at its bound) |
public struct JSONPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral
{
    /// One step of a path: an object key or an array index.
    public enum Segment: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        /// A member of an object.
        case key(String)
        /// An element of an array, counted from 0.
        case index(Int)

        /// Creates a key segment.
        public init(stringLiteral value: String) { self = .key(value) }

        /// Creates an index segment.
        public init(integerLiteral value: Int) { self = .index(value) }

        /// The segment as it appears in a path description: `key`, `["a.b"]`
        /// or `[3]`; a path's ``JSONPath/description`` is the public form.
        package var description: String {
            JSONPath([self]).description
        }

        /// Whether two segments are the same step: keys compare by their UTF-8 bytes, as JSON
        /// keys do (`"\u{E1}"` and `"a\u{301}"` are two keys), indices by value.
        public static func == (lhs: Segment, rhs: Segment) -> Bool {
            switch (lhs, rhs) {
            case (.key(let a), .key(let b)): return a.isSameJSONKey(as: b)
            case (.index(let a), .index(let b)): return a == b
            default: return false
            }
        }

        /// Hashes the segment consistently with ``==(_:_:)``.
        public func hash(into hasher: inout Hasher) {
            switch self {
            case .key(let key):
                hasher.combine(0 as UInt8)
                hasher.combine(ExactKey(key))
            case .index(let index):
                hasher.combine(1 as UInt8)
                hasher.combine(index)
            }
        }
    }

    /// The steps from the root, in order.
    public var segments: [Segment]

    /// Creates a path from segments.
    ///
    /// - Parameter segments: The steps from the root, in order.
    public init(_ segments: [Segment]) {
        self.segments = segments
    }

    /// The root path, with no segments.
    package static var root: JSONPath { JSONPath([]) }

    /// The largest index a declared path may hold, and the most `null`s a write through
    /// ``JSONValue/setValue(_:at:)`` (or the subscript) pads an array with: 10,000.
    ///
    /// A property's path (`jsonPath`, `anyOf`, `embedPath`, compiled or from a schema) with a
    /// larger index, a negative one, or no segments at all (`"$"`, `""`: the root) is a
    /// declaration problem: the class fails ``JSONModel/validateDeclarations()`` and a schema
    /// fails to load, naming the model and property. Writing a declared property therefore
    /// never pads more than 10,000 `null`s.
    package static let maximumIndex = 10_000

    /// What is wrong with this path as a declared property's path, or nil.
    package var declarationProblem: String? {
        if segments.isEmpty { return "names the root (\"$\"); a property's path needs at least one key or index" }
        for case .index(let index) in segments {
            if index < 0 { return "has a negative index (\(index)); indices count from 0" }
            if index > JSONPath.maximumIndex {
                return "has index \(index), beyond the largest index a declared path may hold (\(JSONPath.maximumIndex))"
            }
        }
        return nil
    }

    /// Creates a path from an array literal of segments.
    public init(arrayLiteral elements: Segment...) {
        self.segments = elements
    }

    /// Creates a path by parsing a string literal; see ``init(parsing:)``.
    public init(stringLiteral value: String) {
        self.init(parsing: value)
    }

    /// Creates a path by parsing dotted text such as `items[3].owner.id`.
    ///
    /// Keys are separated by `.`; `[n]` (optionally negative) is an index and
    /// `["…"]` a quoted key in which `\"` and `\\` stand for `"` and `\`. The
    /// text `""` and `"$"` give the root. Parsing never fails: see the type's
    /// discussion for how odd text is read.
    ///
    /// - Parameter text: The path text.
    /// - Complexity: O(*n*), where *n* is the length of `text`.
    public init(parsing text: String) {
        self.segments = JSONPath.parse(Array(text.utf8))
    }

    /// Whether this is the root path.
    package var isEmpty: Bool { segments.isEmpty }

    /// Returns this path followed by one more segment.
    ///
    /// ```swift
    /// let items: JSONPath = "items"
    /// items.appending(2).appending("id")   // items[2].id
    /// ```
    ///
    /// - Parameter segment: The segment to add.
    /// - Returns: The longer path.
    package func appending(_ segment: Segment) -> JSONPath {
        var copy = self
        copy.segments.append(segment)
        return copy
    }

    /// Returns this path followed by the segments of another path.
    ///
    /// ```swift
    /// let base: JSONPath = "user"
    /// base.appending(contentsOf: "address.city")   // user.address.city
    /// ```
    ///
    /// - Parameter path: The path to add, relative to this one.
    /// - Returns: The longer path.
    package func appending(contentsOf path: JSONPath) -> JSONPath {
        var copy = self
        copy.segments.append(contentsOf: path.segments)
        return copy
    }

    /// Adds a segment at the end.
    ///
    /// - Parameter segment: The segment to add.
    package mutating func append(_ segment: Segment) {
        segments.append(segment)
    }

    /// The path without its last segment, or `nil` for the root.
    package var parent: JSONPath? {
        segments.isEmpty ? nil : JSONPath(Array(segments.dropLast()))
    }

    /// The path as text, such as `items[3].owner.id`; the root is `$`.
    ///
    /// Keys that are empty, equal to `$`, or contain `.`, `[`, `]` or `"` are
    /// written quoted, as in `["a.b"]`, so that the text always parses back to
    /// the same path.
    public var description: String {
        if segments.isEmpty { return "$" }
        var text = ""
        for (position, segment) in segments.enumerated() {
            switch segment {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if JSONPath.needsQuoting(key) {
                    text += "[\""
                    for character in key.unicodeScalars {
                        if character == "\"" || character == "\\" { text.unicodeScalars.append("\\") }
                        text.unicodeScalars.append(character)
                    }
                    text += "\"]"
                } else {
                    if position > 0 { text += "." }
                    text += key
                }
            }
        }
        return text
    }

    // MARK: Parsing

    private static func needsQuoting(_ key: String) -> Bool {
        if key.isEmpty || key == "$" { return true }
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\""):
                return true
            default:
                continue
            }
        }
        return false
    }

    private static func parse(_ bytes: [UInt8]) -> [Segment] {
        if bytes.isEmpty || bytes == [UInt8(ascii: "$")] { return [] }
        var segments: [Segment] = []
        var i = 0
        let n = bytes.count
        while true {
            // One dot-separated component: an optional plain key, then brackets
            // (or more key text after them).
            var key: [UInt8] = []
            var hasKeyText = false
            var hadBracket = false
            while i < n && bytes[i] != UInt8(ascii: ".") {
                if bytes[i] == UInt8(ascii: "["), let (segment, next) = parseBracket(bytes, at: i) {
                    if hasKeyText {
                        segments.append(.key(String(decoding: key, as: UTF8.self)))
                        key.removeAll()
                        hasKeyText = false
                    }
                    segments.append(segment)
                    hadBracket = true
                    i = next
                    continue
                }
                key.append(bytes[i])
                hasKeyText = true
                i += 1
            }
            if hasKeyText || !hadBracket {
                segments.append(.key(String(decoding: key, as: UTF8.self)))
            }
            if i >= n { break }
            i += 1  // the dot
        }
        return segments
    }

    /// Parses `[digits]` or `["quoted"]` starting at the `[` at `start`.
    private static func parseBracket(_ bytes: [UInt8], at start: Int) -> (Segment, Int)? {
        var i = start + 1
        let n = bytes.count
        guard i < n else { return nil }
        if bytes[i] == UInt8(ascii: "\"") {
            i += 1
            var key: [UInt8] = []
            while i < n {
                let byte = bytes[i]
                if byte == UInt8(ascii: "\\") {
                    guard i + 1 < n, bytes[i + 1] == UInt8(ascii: "\"") || bytes[i + 1] == UInt8(ascii: "\\") else {
                        return nil
                    }
                    key.append(bytes[i + 1])
                    i += 2
                } else if byte == UInt8(ascii: "\"") {
                    guard i + 1 < n, bytes[i + 1] == UInt8(ascii: "]") else { return nil }
                    return (.key(String(decoding: key, as: UTF8.self)), i + 2)
                } else {
                    key.append(byte)
                    i += 1
                }
            }
            return nil
        }
        var negative = false
        if bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var value = 0
        var digitCount = 0
        var overflowed = false
        while i < n, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            // Accumulate negative values downwards so that Int.min parses.
            let digit = Int(bytes[i] - UInt8(ascii: "0"))
            let (sum, overflow2) =
                negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            overflowed = overflowed || overflow1 || overflow2
            value = sum
            digitCount += 1
            i += 1
        }
        // An index past `Int` is still an index, held at the bound, which every check of an
        // index's range refuses; read as a key, it would be a key no document has.
        if overflowed { value = negative ? Int.min : Int.max }
        guard digitCount > 0, i < n, bytes[i] == UInt8(ascii: "]") else { return nil }
        return (.index(value), i + 1)
    }
}

/// Why ``JSONValue/setValue(_:at:)`` refused a write: a negative index, a level of the wrong
/// kind on the way (a string where a key is next), or more padding than
/// ``JSONPath/maximumIndex`` allows.
package struct JSONPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path of the refused write.
    package let path: JSONPath
    /// What is wrong.
    package let message: String

    package init(path: JSONPath, message: String) {
        self.path = path
        self.message = message
    }

    /// `cannot write at a[1000000000]: …`.
    package var description: String { "cannot write at \(path): \(message)" }
}
