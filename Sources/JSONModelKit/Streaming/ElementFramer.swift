#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("ElementFramer needs the C library: no Glibc, Musl or Darwin module here")
#endif
import JSONModelKitCore

// The framer of a stream's elements: its state, the walk over a chunk, what comes between
// elements, and positions and errors. The scanning of one element, in place or gathered a chunk
// at a time, is in ElementFramer+Elements.swift.

/// The bytes of one element of a stream, with where it starts in the whole stream.
struct FramedElement: Sendable {
    /// The element's JSON text, to parse as a document of its own.
    var bytes: [UInt8]
    /// The number of elements before it.
    var index: Int
    /// Where its first byte is in the whole stream.
    var offset: Int
    var line: Int
    var column: Int
    /// The element already parsed, when it was scanned in place.
    var document: JSONDocument?
}

/// A tape buffer reused for every element scanned in place, whose tape is then copied to its size.
final class TapeScratch {
    static let words = 1 << 14
    let buffer = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: words)
    deinit { buffer.deallocate() }
}

/// Finds where the elements of a stream begin and end, a chunk of bytes at a time, and
/// gathers each element's bytes.
///
/// The framer only finds boundaries: it tracks strings, escapes, comments (where the options
/// allow them) and nesting depth (for an array, also the `[`, the commas and the `]`; for JSON
/// Lines, the newlines). Whether an element is valid JSON is for the parser to say, which then
/// reads the element's own bytes.
/// It keeps the line and column of the current position, so that errors can name their place in
/// the whole stream while only the element in progress is held.
struct ElementFramer {
    enum Phase {
        /// Before anything but white space.
        case start
        /// After `[`: an element or `]` comes next.
        case open
        /// In an element of an array.
        case element
        /// After an element of an array: a comma or `]` comes next.
        case afterElement
        /// After a comma: an element comes next (or `]`, with trailing commas allowed).
        case afterComma
        /// After the closing `]`: only white space may follow.
        case closed
        /// Values separated by white space, between elements.
        case values
        /// JSON Lines, between elements.
        case lines
        /// JSON Lines, in an element: it ends at the next newline.
        case lineElement
    }

    /// Where the framer is in a comment of an element, with comments allowed.
    enum Comment {
        /// Not in a comment.
        case none
        /// After a `/`: a comment starts when `/` or `*` follows.
        case slash
        /// In a `//` comment, which ends at the next line feed.
        case line
        /// In a `/* */` comment.
        case block
        /// In a `/* */` comment, after a `*`: a `/` ends it.
        case blockStar
    }

    var format: JSONStreamFormat
    var phase = Phase.start
    let limit: Int
    private let allowsTrailingCommas: Bool
    let allowsComments: Bool
    let parseOptions: JSONParseOptions
    let scratch = TapeScratch()

    // The element in progress.
    var depth = 0
    var inString = false
    var escaped = false
    var comment = Comment.none
    var isScalar = false
    /// Its bytes from earlier chunks.
    var pending: [UInt8] = []
    var startOffset = 0
    var startLine = 0
    var startColumn = 0

    /// The number of elements delivered.
    var count = 0
    /// The stream offset of the current chunk's first byte.
    var base = 0
    var line = 1
    /// Unicode scalars on the current line before the stream offset `countedTo`.
    var lineScalars = 0
    var countedTo = 0

    init(options: JSONStreamOptions) {
        format = options.format
        limit = options.maxElementSize
        allowsTrailingCommas = options.parseOptions.allowsTrailingCommas
        allowsComments = options.parseOptions.allowsComments
        parseOptions = options.parseOptions
    }

    /// The stream offset just past the bytes consumed so far.
    var streamOffset: Int { base }

    /// Lets go of the element in progress (when reading stops early).
    mutating func release() {
        pending = []
    }

    /// An error at the current position, between chunks (a failed read, a cancellation).
    mutating func failure(_ kind: JSONStreamError.Kind) -> JSONStreamError {
        error(kind, at: base, nil)
    }

    /// The next complete element in `chunk` from `index` on, advancing `index` past it; nil when
    /// the chunk is used up (`index == chunk.count`), after which the next chunk is given.
    mutating func next(in chunk: UnsafeBufferPointer<UInt8>, at index: inout Int) throws(JSONStreamError)
        -> FramedElement?
    {
        var i = index
        let n = chunk.count
        while i < n {
            let byte = chunk[i]
            switch phase {
            case .start, .open, .afterElement, .afterComma, .closed, .values, .lines:
                if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                    i += 1
                    continue
                }
                if byte == 0x0A {
                    newline(at: i)
                    i += 1
                    continue
                }
                if let element = try between(byte, chunk, &i) {
                    index = i
                    return element
                }
            case .element:
                if let end = scanElement(chunk, from: i) {
                    index = end
                    phase = format == .values ? .values : .afterElement
                    return try finish(chunk, upTo: end)
                }
                i = n
            case .lineElement:
                let rest = n - i
                let found = chunk.baseAddress.flatMap { memchr($0 + i, 0x0A, rest) }
                if let found {
                    let end = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - chunk.baseAddress!
                    index = end
                    phase = .lines
                    return try finish(chunk, upTo: end)
                }
                i = n
            }
        }
        try endOfChunk(chunk)
        index = n
        return nil
    }

    /// The last element at the end of the input, if one is pending (JSON Lines without a final
    /// newline); throws when the input ended inside an element or an array.
    mutating func finish() throws(JSONStreamError) -> FramedElement? {
        switch phase {
        case .start:
            if format == .array { throw error(.unexpectedEnd, at: base, nil) }
            return nil
        case .closed, .lines, .values:
            return nil
        case .element where format == .values && isScalar:
            // A number or literal that ends with the input.
            phase = .values
            let element = FramedElement(
                bytes: pending, index: count, offset: startOffset, line: startLine, column: startColumn)
            pending = []
            count += 1
            return element
        case .lineElement:
            phase = .lines
            let element = FramedElement(
                bytes: pending, index: count, offset: startOffset, line: startLine, column: startColumn)
            pending = []
            count += 1
            return element
        case .open, .afterElement, .afterComma, .element:
            throw error(.unexpectedEnd, at: base, nil)
        }
    }

    // MARK: Between elements

    /// A byte other than white space between elements; the element that starts there when it
    /// could be scanned in place.
    private mutating func between(_ byte: UInt8, _ chunk: UnsafeBufferPointer<UInt8>, _ i: inout Int)
        throws(JSONStreamError) -> FramedElement?
    {
        switch phase {
        case .start:
            if format == .automatic { format = byte == UInt8(ascii: "[") ? .array : .values }
            if format == .lines || format == .values {
                phase = format == .lines ? .lines : .values
                return nil
            }
            guard byte == UInt8(ascii: "[") else { throw error(.unexpectedByte(byte), at: i, chunk) }
            phase = .open
            i += 1
        case .open, .afterComma, .values:
            if byte == UInt8(ascii: "]") && phase != .values {
                guard phase == .open || allowsTrailingCommas else {
                    throw error(.invalidJSON(.trailingComma), at: i, chunk)
                }
                phase = .closed
                i += 1
                return nil
            }
            if byte == UInt8(ascii: ",") && phase != .values { throw error(.unexpectedByte(byte), at: i, chunk) }
            begin(at: i, chunk)
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "["), let element = try scanInPlace(chunk, &i) {
                phase = format == .values ? .values : .afterElement
                return element
            }
            depth = 0
            inString = false
            escaped = false
            comment = .none
            isScalar = false
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth = 1
            case UInt8(ascii: "\""): inString = true
            default: isScalar = true
            }
            phase = .element
            i += 1
        case .afterElement:
            switch byte {
            case UInt8(ascii: ","): phase = .afterComma
            case UInt8(ascii: "]"): phase = .closed
            default: throw error(.unexpectedByte(byte), at: i, chunk)
            }
            i += 1
        case .closed:
            throw error(.trailingContent, at: i, chunk)
        case .lines:
            begin(at: i, chunk)
            phase = .lineElement
        case .element, .lineElement:
            preconditionFailure("not between elements")
        }
        return nil
    }

    /// Notes the start of an element at `i`.
    private mutating func begin(at i: Int, _ chunk: UnsafeBufferPointer<UInt8>) {
        startOffset = base + i
        startLine = line
        startColumn = column(at: i, chunk)
        pending.removeAll(keepingCapacity: false)
    }

    // MARK: Positions

    mutating func newline(at i: Int) {
        line += 1
        lineScalars = 0
        countedTo = base + i + 1
    }

    /// The column of chunk index `i`, at or after every position asked for before.
    mutating func column(at i: Int, _ chunk: UnsafeBufferPointer<UInt8>) -> Int {
        let from = countedTo - base
        if i > from {
            var scalars = 0
            var j = from
            // Most often a separator or two since the last count: no whole block.
            if let base = chunk.baseAddress, i &- j >= ByteBlock.width {
                let blocks = (i &- j) / ByteBlock.width
                scalars = ByteBlock.scalarCount(from: base + j, blocks: blocks).scalars
                j &+= blocks &* ByteBlock.width
            }
            for byte in UnsafeBufferPointer(rebasing: chunk[j..<i]) where byte & 0xC0 != 0x80 { scalars += 1 }
            lineScalars += scalars
            countedTo = base + i
        }
        return lineScalars + 1
    }

    /// An error at chunk index `i` of `chunk` (or at the stream offset `i` past the last chunk).
    mutating func error(_ kind: JSONStreamError.Kind, at i: Int, _ chunk: UnsafeBufferPointer<UInt8>?)
        -> JSONStreamError
    {
        guard let chunk else {
            let tail = pending.suffix(24)
            return JSONStreamError(
                kind, element: count, offset: i, line: line, column: lineScalars + 1,
                excerpt: Self.printable(tail.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }))
        }
        let column = column(at: i, chunk)
        let lower = max(0, i - 24)
        let upper = min(chunk.count, i + 24)
        let text = String(decoding: UnsafeBufferPointer(rebasing: chunk[lower..<upper]), as: UTF8.self)
        return JSONStreamError(kind, element: count, offset: base + i, line: line, column: column, excerpt: Self.printable(text))
    }

    func error(_ kind: JSONStreamError.Kind, atOffset offset: Int, line: Int, column: Int) -> JSONStreamError {
        JSONStreamError(kind, element: count, offset: offset, line: line, column: column)
    }

    /// `text` with control characters as spaces, for an excerpt.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }
}
