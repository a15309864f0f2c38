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

/// One element of a stream, with where it starts in the whole stream.
///
/// An element holds one reference, its document, and is read before the next one is framed: the
/// framer keeps a gathered element's text (``ElementFramer/gathered``) and the line and column
/// of its start. With a second reference, the compiler copies and destroys an element (and the
/// optional one a reader returns) through its type's value witnesses, a call into the runtime
/// that costs about a hundred instructions (PERF: jsonmodel-bench --section stream, row (a), in
/// callgrind). The reader takes the document out (``ElementFramer/takeDocument(of:)``) and hands
/// it to the model: a copy would cost a retain and a release, atomic operations both.
struct FramedElement: Sendable {
    /// The element parsed where it lay in the chunk, until it is taken; nil for an element
    /// gathered from its bytes, which ``ElementFramer/takeDocument(of:)`` parses.
    var document: JSONDocument?
    /// The number of elements before it.
    var index: Int
    /// Where its first byte is in the whole stream.
    var offset: Int
    /// Whether it was parsed where it lay in the chunk, rather than gathered from its bytes.
    let scannedInPlace: Bool

    init(document: JSONDocument? = nil, index: Int, offset: Int) {
        self.document = document
        self.index = index
        self.offset = offset
        scannedInPlace = document != nil
    }
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
///
/// It counts lines and columns, so that errors can name their place in the whole stream while
/// only the element in progress is held. The count lags behind: an element scanned in place is
/// not counted when it is framed, as most never need a position; its bytes are counted when a
/// later position is asked for (an error, the start of an element gathered from its bytes, a
/// line feed between elements) or at the end of the chunk, a block at a time.
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
    /// The size of `pending` at which it is next parsed for a fault (``endOfChunk(_:counting:)``).
    var nextFaultCheck = 0
    /// The stream offset, line and column of the comma before the current chunk, when a chunk
    /// ended after one (``noteComma(before:_:)``).
    var lastComma: (offset: Int, line: Int, column: Int)?
    /// The Unicode scalars on the line before the current chunk's first byte, when the count
    /// stood there as the chunk began (after a chunk whose lines were counted, or at the start).
    var scalarsBeforeChunk: Int? = 0
    /// The text of the last element gathered from its bytes, until the next element is framed.
    var gathered: [UInt8] = []
    /// The byte that ended it, when it is a number or literal that a separator or the next
    /// value ended: a fault at its end is judged with that byte after it, as in the whole input.
    var gatheredTerminator: UInt8?
    var startOffset = 0
    var startLine = 0
    var startColumn = 0

    /// The number of elements delivered.
    var count = 0
    /// The stream offset of the current chunk's first byte.
    var base = 0
    /// The line of the stream offset `countedTo`: how far lines and columns are counted.
    var line = 1
    /// Unicode scalars on the current line before the stream offset `countedTo`.
    var lineScalars = 0
    var countedTo = 0
    /// The stream offset just past the last element scanned in place: the count has not passed
    /// over its line feeds while `countedTo` is below it.
    var inPlaceEnd = 0

    init(options: JSONStreamOptions) {
        format = options.format
        limit = options.maxElementSize
        allowsTrailingCommas = options.parseOptions.allowsTrailingCommas
        allowsComments = options.parseOptions.allowsComments
        parseOptions = options.parseOptions
    }

    /// The stream offset just past the bytes consumed so far.
    var streamOffset: Int { base }

    /// Lets go of the element in progress and of the last one gathered (when reading stops early).
    mutating func release() {
        pending = []
        gathered = []
    }

    /// An error at the current position, between chunks (a failed read, a cancellation).
    mutating func failure(_ kind: JSONStreamError.Kind) -> JSONStreamError {
        error(kind, at: base, nil)
    }

    /// The next complete element in `chunk` from `index` on, advancing `index` past it; nil when
    /// the chunk is used up (`index == chunk.count`), after which the next chunk is given.
    ///
    /// `isLast` says that the input ends with `chunk`, which stays readable for
    /// ``finish(after:)``: then the lines and columns after the last element are counted only
    /// for an error at the end that wants them.
    mutating func next(in chunk: UnsafeBufferPointer<UInt8>, at index: inout Int, isLast: Bool = false)
        throws(JSONStreamError) -> FramedElement?
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
                    newline(at: i, chunk)
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
        try endOfChunk(chunk, counting: !isLast)
        index = n
        return nil
    }

    /// The last element at the end of the input, if one is pending (JSON Lines without a final
    /// newline); throws when the input ended inside an element or an array. `lastChunk` is the
    /// chunk given last with `isLast` (``next(in:at:isLast:)``), whose count was left.
    mutating func finish(after lastChunk: UnsafeBufferPointer<UInt8>? = nil) throws(JSONStreamError) -> FramedElement? {
        switch phase {
        case .start:
            if format == .array { throw unexpectedEnd(after: lastChunk) }
            return nil
        case .closed, .lines, .values:
            return nil
        case .element where format == .values && isScalar:
            // A number or literal that ends with the input.
            phase = .values
            gathered = pending
            gatheredTerminator = nil
            let element = FramedElement(index: count, offset: startOffset)
            pending = []
            count += 1
            return element
        case .lineElement:
            phase = .lines
            gathered = pending
            gatheredTerminator = nil
            let element = FramedElement(index: count, offset: startOffset)
            pending = []
            count += 1
            return element
        case .element:
            // Gathered by counting brackets, the element was never parsed: a fault inside it (a
            // value left open, then the next one) is reported where it is, not as the end.
            if let fault = gatheredFault(atEnd: true) { throw fault }
            throw unexpectedEnd(after: lastChunk)
        case .open, .afterElement, .afterComma:
            throw unexpectedEnd(after: lastChunk)
        }
    }

    /// The error of an input that ends too soon, at its end, once the count has caught up over
    /// `lastChunk`, when it was left.
    private mutating func unexpectedEnd(after lastChunk: UnsafeBufferPointer<UInt8>?) -> JSONStreamError {
        if let lastChunk, countedTo < base {
            base -= lastChunk.count
            countLines(to: lastChunk.count, lastChunk)
            base += lastChunk.count
        }
        return error(.unexpectedEnd, at: base, nil)
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
                guard phase == .open || allowsTrailingCommas else { throw trailingComma(closedAt: i, chunk) }
                phase = .closed
                i += 1
                return nil
            }
            // A separator or a closing bracket can start no value: between values too, it is
            // a byte that does not belong there, not an element of its own.
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: ":") {
                throw error(.unexpectedByte(byte), at: i, chunk)
            }
            begin(at: i)
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "["), let element = try scanInPlace(chunk, &i) {
                phase = format == .values ? .values : .afterElement
                return element
            }
            placeStart(chunk)
            nextFaultCheck = 0
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
            begin(at: i)
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "["), let element = try scanLineInPlace(chunk, &i) {
                return element
            }
            placeStart(chunk)
            phase = .lineElement
        case .element, .lineElement:
            preconditionFailure("not between elements")
        }
        return nil
    }

    /// Notes the start of an element at `i`.
    private mutating func begin(at i: Int) {
        startOffset = base + i
        // Already empty but after an element that ended the reading (each element's end empties
        // it): assigning only when it is not spares a release of the empty array per element.
        if !pending.isEmpty { pending = [] }
        // The text of the element gathered last was parsed when it was taken: it is let go here,
        // not held until another element is gathered.
        if !gathered.isEmpty { gathered = [] }
    }

    /// Counts the line and column of the element in progress, which starts in `chunk`, for an
    /// element gathered from its bytes (one scanned in place is counted only when asked).
    private mutating func placeStart(_ chunk: UnsafeBufferPointer<UInt8>) {
        (startLine, startColumn) = position(at: startOffset - base, chunk)
    }

    /// The document of `element`, the last one framed, moved out of it: the one parsed in
    /// place, or its gathered text parsed now, with the parser's error placed in the whole
    /// stream.
    ///
    /// Mutating, though only the text gathered changes: called on a reader's stored framer, a
    /// method that is not copied the framer, all its arrays retained, for every element.
    mutating func takeDocument(of element: inout FramedElement) throws(JSONStreamError) -> JSONDocument {
        if let document = element.document.take() { return document }
        do {
            let document = try JSONDocument(bytes: gathered, options: parseOptions)
            gathered = []  // parsed: let go of the text now
            return document
        } catch {
            var fault = error
            // `tru,` parsed as `tru` ends unexpectedly; with its `,` it is an invalid literal at
            // its start, as the whole input says (and `-,` an invalid number).
            if fault.kind == .unexpectedEnd, fault.offset == gathered.count, let terminator = gatheredTerminator {
                do {
                    _ = try JSONDocument(bytes: gathered + [terminator], options: parseOptions)
                } catch {
                    if error.offset < gathered.count { fault = error }
                }
            }
            throw JSONStreamError(
                parseError: fault, element: element.index, offset: element.offset, line: startLine, column: startColumn)
        }
    }

    /// A model of `element`, the last one framed, in `chunk` (empty for one the end of the
    /// input gave), with an error placed in the whole stream.
    mutating func model<Model: JSONModel>(
        _ type: Model.Type, of element: consuming FramedElement, in chunk: UnsafeBufferPointer<UInt8>, options: ModelOptions
    ) throws(JSONStreamError) -> Model {
        var element = element
        let document = try takeDocument(of: &element)
        do throws(ElementFailure) {
            return try Model.make(consume document, options: options)
        } catch {
            throw self.error(error.kind, of: element, in: chunk)
        }
    }

    /// `kind`, an error of `element`, the last one framed, in `chunk`, placed at its start.
    mutating func error(_ kind: JSONStreamError.Kind, of element: FramedElement, in chunk: UnsafeBufferPointer<UInt8>)
        -> JSONStreamError
    {
        let start = position(of: element, in: chunk)
        return JSONStreamError(kind, element: element.index, offset: element.offset, line: start.line, column: start.column)
    }

    // MARK: Positions

    /// Notes a line feed at chunk index `i`.
    mutating func newline(at i: Int, _ chunk: UnsafeBufferPointer<UInt8>) {
        // Up to an element scanned in place, the count has not seen its line feeds; beyond it,
        // the framer has seen every one, so a line feed only starts the next line.
        if countedTo < inPlaceEnd { countLines(to: i, chunk) }
        line += 1
        lineScalars = 0
        countedTo = base + i + 1
    }

    /// The line and column of chunk index `i`, at or after every position asked for before.
    mutating func position(at i: Int, _ chunk: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        countLines(to: i, chunk)
        return (line, lineScalars + 1)
    }

    /// The line and column where `element`, the last one framed, starts: noted when it was
    /// gathered, or counted now for an element scanned in place, which starts in `chunk` (the
    /// chunk it was framed in).
    mutating func position(of element: FramedElement, in chunk: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        assert(element.offset == startOffset, "a position is asked for an element other than the last")
        if !element.scannedInPlace { return (startLine, startColumn) }
        let i = element.offset - base
        assert(element.offset >= countedTo && i <= chunk.count, "an element's position is asked for after the count passed it")
        return position(at: min(max(i, countedTo - base), chunk.count), chunk)
    }

    /// Brings the count of lines and columns from `countedTo` to chunk index `i`, a block at a
    /// time: each block's line feeds, and the Unicode scalars (bytes but UTF-8 continuation
    /// bytes) after the last of them.
    mutating func countLines(to i: Int, _ chunk: UnsafeBufferPointer<UInt8>) {
        var j = countedTo &- base
        guard i > j, let pointer = chunk.baseAddress else { return }
        var newlines = 0
        var sawLineFeed = false
        var scalars = 0  // since the last line feed, or since `j`
        /// Counts the lanes of `block` from `lane` on, lane `lane` being chunk index `j`.
        @inline(__always)
        func countLanes(_ block: ByteBlock, from lane: Int) {
            let feeds = UInt32(block.lineFeeds) &>> UInt32(truncatingIfNeeded: lane)
            let starts = UInt32(~block.continuations) &>> UInt32(truncatingIfNeeded: lane)
            if feeds != 0 {
                newlines &+= feeds.nonzeroBitCount
                sawLineFeed = true
                let lastFeed = UInt32.bitWidth &- 1 &- feeds.leadingZeroBitCount
                scalars = (starts &>> UInt32(lastFeed &+ 1)).nonzeroBitCount
            } else {
                scalars &+= starts.nonzeroBitCount
            }
        }
        // Most stretches of a compact array hold no line feed: their scalars are counted without
        // the lookout for one; the others are counted again, block by block.
        let blocks = (i &- j) / ByteBlock.width
        let counted = ByteBlock.scalarCount(from: pointer + j, blocks: blocks)
        if !counted.hasLineFeed {
            scalars = counted.scalars
            j &+= blocks &* ByteBlock.width
        }
        while j &+ ByteBlock.width <= i {
            countLanes(ByteBlock(UnsafeRawPointer(pointer + j).loadUnaligned(as: SIMD16<UInt8>.self)), from: 0)
            j &+= ByteBlock.width
        }
        // The last bytes, fewer than sixteen, as the new lanes of the block that ends at `i`
        // (where the chunk has sixteen bytes before it), not a byte at a time.
        if j < i && i >= ByteBlock.width {
            let block = ByteBlock(UnsafeRawPointer(pointer + (i &- ByteBlock.width)).loadUnaligned(as: SIMD16<UInt8>.self))
            countLanes(block, from: ByteBlock.width &- (i &- j))
            j = i
        }
        while j < i {
            let byte = pointer[j]
            if byte == 0x0A {
                newlines &+= 1
                sawLineFeed = true
                scalars = 0
            } else if byte & 0xC0 != 0x80 {
                scalars &+= 1
            }
            j &+= 1
        }
        if sawLineFeed {
            line &+= newlines
            lineScalars = scalars
        } else {
            lineScalars &+= scalars
        }
        countedTo = base &+ i
    }

    /// A trailing comma, reported at the comma as the parser reports one, when the comma is in
    /// `chunk` or was noted at the end of an earlier one (``noteComma(before:_:)``), and its line
    /// can be told; else at the closing bracket, chunk index `i`.
    private mutating func trailingComma(closedAt i: Int, _ chunk: UnsafeBufferPointer<UInt8>) -> JSONStreamError {
        let atBracket = error(.invalidJSON(.trailingComma), at: i, chunk)
        let place: (offset: Int, line: Int, column: Int)?
        if let comma = Self.lastNonWhiteSpace(before: i, in: chunk) {
            place = chunk[comma] == UInt8(ascii: ",")
                ? Self.commaPosition(comma, before: i, line: atBracket.line, column: atBracket.column, chunk, scalarsBeforeChunk)
                    .map { (base + comma, $0.line, $0.column) }
                : nil
        } else {
            place = lastComma
        }
        guard let place else { return atBracket }
        return JSONStreamError(
            atBracket.kind, element: atBracket.element, offset: place.offset, line: place.line, column: place.column,
            excerpt: atBracket.excerpt)
    }

    /// Notes where the comma before chunk index `end` is, at the end of a chunk that leaves the
    /// framer after a comma: the bracket that makes it a trailing one may come in a later chunk,
    /// and the lines of this one are counted and gone by then. `end` is where the count stands.
    mutating func noteComma(before end: Int, _ chunk: UnsafeBufferPointer<UInt8>) {
        guard let comma = Self.lastNonWhiteSpace(before: end, in: chunk), chunk[comma] == UInt8(ascii: ",")
        else { return }
        lastComma = Self.commaPosition(comma, before: end, line: line, column: lineScalars + 1, chunk, scalarsBeforeChunk)
            .map { (base + comma, $0.line, $0.column) }
    }

    /// The index of the last byte before `end` that is not JSON white space.
    private static func lastNonWhiteSpace(before end: Int, in chunk: UnsafeBufferPointer<UInt8>) -> Int? {
        chunk[..<end].lastIndex { ![0x20, 0x09, 0x0D, 0x0A].contains($0) }
    }

    /// The line and column of the comma at chunk index `comma`, from those of chunk index `i`,
    /// with only white space between them; nil when the comma's line starts before the chunk
    /// and the scalars on it before the chunk, `scalarsBefore`, are not known.
    ///
    /// Going back from a known position needs no count of the lines before it, which the framer
    /// counts only when asked.
    private static func commaPosition(
        _ comma: Int, before i: Int, line: Int, column: Int, _ chunk: UnsafeBufferPointer<UInt8>, _ scalarsBefore: Int?
    ) -> (line: Int, column: Int)? {
        let feeds = chunk[(comma + 1)..<i].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        if feeds == 0 { return (line, column - (i - comma)) }
        // The comma's line starts after a line feed in this chunk, or before the chunk.
        let lineStart = chunk[..<comma].lastIndex(of: 0x0A).map { $0 + 1 }
        guard let before = lineStart == nil ? scalarsBefore : 0 else { return nil }
        // Unicode scalars: bytes but UTF-8 continuation bytes.
        let scalars = chunk[(lineStart ?? 0)..<comma].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return (line - feeds, before + scalars + 1)
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
        let (line, column) = position(at: i, chunk)
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
