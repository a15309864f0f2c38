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
    private enum Phase {
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
    private enum Comment {
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

    private var format: JSONStreamFormat
    private var phase = Phase.start
    private let limit: Int
    private let allowsTrailingCommas: Bool
    private let allowsComments: Bool
    private let parseOptions: JSONParseOptions
    private let scratch = TapeScratch()

    // The element in progress.
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var comment = Comment.none
    private var isScalar = false
    /// Its bytes from earlier chunks.
    private var pending: [UInt8] = []
    private var startOffset = 0
    private var startLine = 0
    private var startColumn = 0

    /// The number of elements delivered.
    private(set) var count = 0
    /// The stream offset of the current chunk's first byte.
    private var base = 0
    private var line = 1
    /// Unicode scalars on the current line before the stream offset `countedTo`.
    private var lineScalars = 0
    private var countedTo = 0

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

    /// Whether every byte of `bytes` from `offset` on may belong to a JSON number.
    private static func isNumberText(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Bool {
        guard offset >= 0, offset < bytes.count else { return false }
        return bytes[offset...].allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                UInt8(ascii: "+"), UInt8(ascii: "-"):
                true
            default: false
            }
        }
    }

    /// The array or object starting at chunk index `i`, parsed where it lies when it ends in
    /// this chunk, advancing `i` past it; nil when it may go on past the chunk, for the framer
    /// to gather and the parser to read as usual.
    ///
    /// Scanning in place spares a second pass over the element's bytes. The parser stops where
    /// the value ends; it finds the same faults, at the same places, as when it reads the
    /// gathered bytes.
    private mutating func scanInPlace(_ chunk: UnsafeBufferPointer<UInt8>, _ i: inout Int) throws(JSONStreamError)
        -> FramedElement?
    {
        // At most 16 MiB ahead: larger elements are gathered by the framer.
        let rest = UnsafeBufferPointer(rebasing: chunk[i..<min(chunk.count, i + (1 << 24))])
        let scanned: (document: JSONDocument, length: Int)
        do {
            scanned = try JSONDocument.scanningFirstValue(of: rest, options: parseOptions, scratch: scratch.buffer)
        } catch {
            // A fault near the end of the chunk may only be where the chunk cuts the element; so
            // may a number reported at its first byte that runs on to the chunk's end, however
            // long (cut after its `.`, `e` or sign, it is not yet valid).
            if error.kind == .unexpectedEnd || error.offset >= rest.count - 16
                || (error.kind == .invalidNumber && Self.isNumberText(rest, from: error.offset))
            {
                return nil
            }
            throw JSONStreamError(
                parseError: error, element: count, offset: startOffset, line: startLine, column: startColumn)
        }
        let length = scanned.length
        if length > limit {
            throw error(.elementTooLarge(limit: limit), atOffset: startOffset, line: startLine, column: startColumn)
        }
        // Line feeds in the element (outside strings, as it is valid), and in the same pass the
        // scalars after the last one, so that the column count (``column(at:_:)``) need not
        // pass over the element again.
        var newlines = 0
        var last = -1
        var scalars = 0  // since the last line feed, or since the element's start
        var j = i
        let end = i + length
        /// Counts the lanes of `block` from `lane` on, lane `lane` being chunk index `j`.
        @inline(__always)
        func countLanes(_ block: ByteBlock, from lane: Int) {
            let feeds = UInt32(block.lineFeeds) &>> UInt32(truncatingIfNeeded: lane)
            let starts = UInt32(~block.continuations) &>> UInt32(truncatingIfNeeded: lane)
            if feeds != 0 {
                newlines &+= feeds.nonzeroBitCount
                let lastFeed = UInt32.bitWidth &- 1 &- feeds.leadingZeroBitCount
                last = j &+ lastFeed
                scalars = (starts &>> UInt32(lastFeed &+ 1)).nonzeroBitCount
            } else {
                scalars &+= starts.nonzeroBitCount
            }
        }
        if let pointer = chunk.baseAddress {
            // Most elements of a compact array hold no line feed: their scalars are counted
            // without the lookout for one; the others are counted again, block by block.
            let blocks = (end &- j) / ByteBlock.width
            let counted = ByteBlock.scalarCount(from: pointer + j, blocks: blocks)
            if !counted.hasLineFeed {
                scalars = counted.scalars
                j &+= blocks &* ByteBlock.width
            }
            while j &+ ByteBlock.width <= end {
                countLanes(ByteBlock(UnsafeRawPointer(pointer + j).loadUnaligned(as: SIMD16<UInt8>.self)), from: 0)
                j &+= ByteBlock.width
            }
            // The last bytes, fewer than sixteen, as the new lanes of the block that ends with
            // the element (when it is that long): a byte at a time cost more than the blocks.
            if j < end && end &- i >= ByteBlock.width {
                let block = ByteBlock(UnsafeRawPointer(pointer + (end &- ByteBlock.width)).loadUnaligned(as: SIMD16<UInt8>.self))
                countLanes(block, from: ByteBlock.width &- (end &- j))
                j = end
            }
        }
        while j < end {
            let byte = chunk[j]
            if byte == 0x0A {
                newlines += 1
                last = j
                scalars = 0
            } else if byte & 0xC0 != 0x80 {
                scalars += 1
            }
            j += 1
        }
        // ``begin(at:_:)`` brought the column count to the element's start; after a line feed
        // it starts again there.
        assert(countedTo == base + i, "the column count is not at the element's start")
        if last >= 0 {
            line += newlines - 1
            newline(at: last)
        }
        lineScalars += scalars
        countedTo = base + end
        let element = FramedElement(
            bytes: [], index: count, offset: startOffset, line: startLine, column: startColumn, document: scanned.document)
        count += 1
        i = end
        return element
    }

    /// The index of the first byte from `start` on that `flags` flags, or the index from which
    /// fewer than sixteen bytes are left (``ByteBlock/advance(_:before:toFirst:)``).
    @inline(__always)
    private static func firstFlagged(
        in chunk: UnsafeBufferPointer<UInt8>, from start: Int, _ flags: (ByteBlock) -> ByteBlock.Mask
    ) -> Int {
        guard let pointer = chunk.baseAddress else { return start }
        var p = UnsafePointer(pointer + start)
        ByteBlock.advance(&p, before: pointer + chunk.count, toFirst: flags)
        return p - pointer
    }

    /// Notes the start of an element at `i`.
    private mutating func begin(at i: Int, _ chunk: UnsafeBufferPointer<UInt8>) {
        startOffset = base + i
        startLine = line
        startColumn = column(at: i, chunk)
        pending.removeAll(keepingCapacity: false)
    }

    // MARK: In an element

    /// The chunk index just past the end of the array element in progress, or nil when it goes
    /// on past the chunk. Counts the newlines outside strings (a string holds none when valid).
    private mutating func scanElement(_ chunk: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        let n = chunk.count
        if isScalar {
            while i < n {
                switch chunk[i] {
                case 0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: ","), UInt8(ascii: "]"): return i
                default: i += 1
                }
            }
            return nil
        }
        while i < n {
            if inString {
                if escaped {
                    escaped = false
                    i += 1
                }
                // Skip the string's content up to a quote or a backslash, sixteen bytes at a time.
                i = Self.firstFlagged(in: chunk, from: i) { $0.quotesAndBackslashes }
                while i < n {
                    let byte = chunk[i]
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
                    i += 1
                }
                guard i < n else { return nil }
                i += 1
                if chunk[i - 1] == UInt8(ascii: "\\") {
                    escaped = true
                    continue
                }
                inString = false
                if depth == 0 { return i }
                continue
            }
            if comment != .none {
                guard let end = skipComment(chunk, from: i) else { return nil }
                i = end
                continue
            }
            // Skip to the next quote, bracket, brace or line feed (or slash, which may start a
            // comment), sixteen bytes at a time.
            if allowsComments {
                i = Self.firstFlagged(in: chunk, from: i) { $0.framingStopsAndSlashes }
            } else {
                i = Self.firstFlagged(in: chunk, from: i) { $0.framingStops }
            }
            guard i < n else { return nil }
            switch chunk[i] {
            case UInt8(ascii: "/") where allowsComments: comment = .slash
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return i + 1 }
            case 0x0A: newline(at: i)
            default: break
            }
            i += 1
        }
        return nil
    }

    /// The chunk index where the comment in progress ends (at the line feed that ends a `//`
    /// comment, or just past the `*/` of a block comment), or nil when it goes on past the
    /// chunk. Counts the line feeds in a block comment. After a `/` that starts no comment, the
    /// index of the byte after it: the parser reports that slash.
    private mutating func skipComment(_ chunk: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        let n = chunk.count
        while i < n {
            let byte = chunk[i]
            switch comment {
            case .none:
                return i
            case .slash:
                switch byte {
                case UInt8(ascii: "/"): comment = .line
                case UInt8(ascii: "*"): comment = .block
                default:
                    comment = .none
                    return i
                }
            case .line:
                let found = chunk.baseAddress.flatMap { memchr($0 + i, 0x0A, n - i) }
                guard let found else { return nil }
                comment = .none
                // The line feed is left for the element's scan to count.
                return UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - chunk.baseAddress!
            case .block, .blockStar:
                if byte == UInt8(ascii: "/") && comment == .blockStar {
                    comment = .none
                    return i + 1
                }
                comment = byte == UInt8(ascii: "*") ? .blockStar : .block
                if byte == 0x0A { newline(at: i) }
            }
            i += 1
        }
        return nil
    }

    /// The element that ends at chunk index `end`.
    private mutating func finish(_ chunk: UnsafeBufferPointer<UInt8>, upTo end: Int) throws(JSONStreamError)
        -> FramedElement
    {
        let first = max(startOffset - base, 0)
        let size = pending.count + end - first
        if size > limit && size - trailingCarriageReturn(chunk, from: first, upTo: end) > limit { throw error(.elementTooLarge(limit: limit), atOffset: startOffset, line: startLine, column: startColumn) }
        let bytes: [UInt8]
        if pending.isEmpty {
            bytes = Array(UnsafeBufferPointer(rebasing: chunk[first..<end]))
        } else {
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[first..<end]))
            bytes = pending
            pending = []
        }
        let element = FramedElement(bytes: bytes, index: count, offset: startOffset, line: startLine, column: startColumn)
        count += 1
        return element
    }

    /// 1 when the element in progress, up to chunk index `end`, is a JSON line ending with a
    /// carriage return, which belongs to its CRLF line ending and not to its size; 0 otherwise.
    private func trailingCarriageReturn(_ chunk: UnsafeBufferPointer<UInt8>, from first: Int, upTo end: Int) -> Int {
        guard format == .lines else { return 0 }
        let last = end > first ? chunk[end - 1] : pending.last
        return last == 0x0D ? 1 : 0
    }

    /// Keeps the part of the element in progress that is in `chunk`, and the column count, before
    /// the chunk goes.
    private mutating func endOfChunk(_ chunk: UnsafeBufferPointer<UInt8>) throws(JSONStreamError) {
        let n = chunk.count
        if phase == .element || phase == .lineElement {
            let first = max(startOffset - base, 0)
            let size = pending.count + n - first
            if size > limit && size - trailingCarriageReturn(chunk, from: first, upTo: n) > limit {
                throw error(.elementTooLarge(limit: limit), atOffset: startOffset, line: startLine, column: startColumn)
            }
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[first..<n]))
        }
        _ = column(at: n, chunk)
        base += n
    }

    // MARK: Positions

    private mutating func newline(at i: Int) {
        line += 1
        lineScalars = 0
        countedTo = base + i + 1
    }

    /// The column of chunk index `i`, at or after every position asked for before.
    private mutating func column(at i: Int, _ chunk: UnsafeBufferPointer<UInt8>) -> Int {
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
    private mutating func error(_ kind: JSONStreamError.Kind, at i: Int, _ chunk: UnsafeBufferPointer<UInt8>?)
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

    private func error(_ kind: JSONStreamError.Kind, atOffset offset: Int, line: Int, column: Int) -> JSONStreamError {
        JSONStreamError(kind, element: count, offset: offset, line: line, column: column)
    }

    /// `text` with control characters as spaces, for an excerpt.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }
}
