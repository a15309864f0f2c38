#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("ElementFramer+Elements needs the C library: no Glibc, Musl or Darwin module here")
#endif
import JSONModelKitCore

// The scanning of one element of a stream: an array or object parsed where it lies when it ends
// in the chunk, or any element gathered a chunk at a time, with the comments it holds.

extension ElementFramer {
    // MARK: In place

    /// Whether `error`, found parsing `bytes`, may only be where the input is cut short, so the
    /// bytes after them may mend it: the end reached, a literal, an escape or a character cut
    /// near the end, or a number reported at its first byte that runs on to the end, however
    /// long (cut after its `.`, `e` or sign, it is not yet valid). A byte that is there and cannot
    /// be where it is is a fault wherever it lies.
    private static func mayBeACut(_ error: JSONParseError, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        error.kind == .unexpectedEnd || (mayBeACut(error.kind) && error.offset >= bytes.count - 16)
            || (error.kind == .invalidNumber && isNumberText(bytes, from: error.offset))
    }

    /// Whether `error` is where `bytes` stop inside a number, an escape or a character that
    /// would be valid had more bytes come: what follows the fault is a strict beginning of what
    /// its kind expects (`1.`, `1e+`, `\u00`, `\ud83d` or `\ud83d\u`, a lead byte without all its
    /// continuation bytes), with nothing after it.
    static func isCutShort(_ error: JSONParseError, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard error.offset >= 0, error.offset < bytes.count else { return false }
        let tail = Array(bytes[error.offset...])
        func isHex(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
            default: false
            }
        }
        /// Whether `part` begins `\u` and four hex digits without being all of them.
        func beginsEscape(_ part: ArraySlice<UInt8>) -> Bool {
            guard part.count < 6 else { return false }
            for (position, byte) in part.enumerated() {
                switch position {
                case 0: if byte != UInt8(ascii: "\\") { return false }
                case 1: if byte != UInt8(ascii: "u") { return false }
                default: if !isHex(byte) { return false }
                }
            }
            return true
        }
        switch error.kind {
        case .invalidNumber:
            return Self.isNumberBeginning(tail)
        case .invalidEscape, .invalidUnicodeEscape:
            return !tail.isEmpty && beginsEscape(tail[...])
        case .loneSurrogate:
            // A high surrogate's escape, then nothing or the beginning of the low one's.
            guard tail.count >= 6, tail[0] == UInt8(ascii: "\\"), tail[1] == UInt8(ascii: "u"), tail[2..<6].allSatisfy(isHex)
            else { return false }
            return tail.count == 6 || beginsEscape(tail[6...])
        case .invalidUTF8:
            let lead = tail[0]
            let needed = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xC2 && lead <= 0xDF ? 2 : 0
            return tail.count < needed && tail.dropFirst().allSatisfy { $0 >= 0x80 && $0 <= 0xBF }
        default:
            return false
        }
    }

    /// Whether `text` is a strict beginning of a JSON number: valid so far, and needing more
    /// (it ends after `-`, `.`, an exponent's `e` or its sign).
    private static func isNumberBeginning(_ text: [UInt8]) -> Bool {
        enum State { case start, minus, zero, integer, dot, fraction, exponent, sign, exponentDigits }
        var state = State.start
        for byte in text {
            let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            switch (state, byte) {
            case (.start, UInt8(ascii: "-")): state = .minus
            case (.start, UInt8(ascii: "0")), (.minus, UInt8(ascii: "0")): state = .zero
            case (.start, _) where digit, (.minus, _) where digit, (.integer, _) where digit: state = .integer
            case (.zero, UInt8(ascii: ".")), (.integer, UInt8(ascii: ".")): state = .dot
            case (.dot, _) where digit, (.fraction, _) where digit: state = .fraction
            case (.zero, UInt8(ascii: "e")), (.zero, UInt8(ascii: "E")), (.integer, UInt8(ascii: "e")),
                (.integer, UInt8(ascii: "E")), (.fraction, UInt8(ascii: "e")), (.fraction, UInt8(ascii: "E")):
                state = .exponent
            case (.exponent, UInt8(ascii: "+")), (.exponent, UInt8(ascii: "-")): state = .sign
            case (.exponent, _) where digit, (.sign, _) where digit, (.exponentDigits, _) where digit: state = .exponentDigits
            default: return false
            }
        }
        return state == .minus || state == .dot || state == .exponent || state == .sign
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
    mutating func scanInPlace(_ chunk: UnsafeBufferPointer<UInt8>, _ i: inout Int) throws(JSONStreamError)
        -> FramedElement?
    {
        // At most 16 MiB ahead, and at most one byte past the largest element allowed: larger
        // elements are gathered by the framer, which refuses one over the limit as it gathers,
        // so that a large element in memory is not scanned whole, its tape built, only to be
        // refused (a 5 MB element under a limit of 1 KiB took a 20 MB tape).
        let window = min(chunk.count - i, 1 << 24, limit < 1 << 24 ? limit + 1 : 1 << 24)
        let rest = UnsafeBufferPointer(rebasing: chunk[i..<(i + window)])
        let scanned: (document: JSONDocument, length: Int)
        do {
            scanned = try JSONDocument.scanningFirstValue(of: rest, options: parseOptions, scratch: scratch.buffer)
        } catch {
            // Where the chunk may only cut the element, it is gathered; any other fault is
            // reported here.
            if Self.mayBeACut(error, in: rest) { return nil }
            throw placed(error, chunk, i)
        }
        let length = scanned.length
        if length > limit { throw placed(.elementTooLarge(limit: limit), chunk, i) }
        // The line feeds and columns in the element are counted only when a position after it
        // is asked for (``position(at:_:)``).
        let end = i + length
        inPlaceEnd = base + end
        let element = FramedElement(document: scanned.document, index: count, offset: startOffset)
        count += 1
        i = end
        return element
    }

    /// Whether a fault of this kind may come of the input being cut short just after it: not
    /// for a byte that is there and wrong (but a `/` that may start a comment), a control
    /// character in a string, a trailing comma, or nesting too deep.
    static func mayBeACut(_ kind: JSONParseError.Kind) -> Bool {
        switch kind {
        case .unexpectedByte(let byte): byte == UInt8(ascii: "/")
        case .controlCharacterInString, .trailingComma, .tooDeep, .trailingContent, .emptyInput, .documentTooLarge,
            .valueTooLarge:
            false
        case .unexpectedEnd, .invalidLiteral, .invalidNumber, .invalidEscape, .invalidUnicodeEscape, .loneSurrogate,
            .invalidUTF8:
            true
        }
    }

    /// The array or object that starts the JSON line at chunk index `i`, parsed where it lies
    /// when the line ends in this chunk and holds nothing after the value but white space,
    /// advancing `i` to the line feed; nil otherwise, for the framer to gather the line and the
    /// parser to read it, and report what is wrong with it, as usual.
    ///
    /// The parser reads the line alone, up to its line feed, so it finds the same faults, at the
    /// same places, as in the gathered line, and the element holds no line feed for the count of
    /// lines to pass over.
    mutating func scanLineInPlace(_ chunk: UnsafeBufferPointer<UInt8>, _ i: inout Int) throws(JSONStreamError)
        -> FramedElement?
    {
        guard let base = chunk.baseAddress, let found = memchr(base + i, 0x0A, chunk.count - i) else { return nil }
        let lineEnd = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
        if lineEnd - i - trailingCarriageReturn(chunk, from: i, upTo: lineEnd) > limit {
            throw placed(.elementTooLarge(limit: limit), chunk, i)
        }
        guard lineEnd - i <= 1 << 24 else { return nil }
        let line = UnsafeBufferPointer(rebasing: chunk[i..<lineEnd])
        let scanned: (document: JSONDocument, length: Int)
        do {
            scanned = try JSONDocument.scanningFirstValue(of: line, options: parseOptions, scratch: scratch.buffer)
        } catch {
            throw placed(error, chunk, i)
        }
        // Anything after the value but white space is the gathered line's fault to report.
        var after = i + scanned.length
        while after < lineEnd && (chunk[after] == 0x20 || chunk[after] == 0x09 || chunk[after] == 0x0D) { after += 1 }
        guard after == lineEnd else { return nil }
        let element = FramedElement(document: scanned.document, index: count, offset: startOffset)
        count += 1
        i = lineEnd
        return element
    }

    /// `kind`, an error of the element in progress, which starts at chunk index `i`, placed at
    /// its start.
    private mutating func placed(_ kind: JSONStreamError.Kind, _ chunk: UnsafeBufferPointer<UInt8>, _ i: Int) -> JSONStreamError {
        let start = position(at: i, chunk)
        return error(kind, atOffset: startOffset, line: start.line, column: start.column)
    }

    /// The parser's error in the element in progress, which starts at chunk index `i`, placed in
    /// the whole stream.
    private mutating func placed(_ error: JSONParseError, _ chunk: UnsafeBufferPointer<UInt8>, _ i: Int) -> JSONStreamError {
        let start = position(at: i, chunk)
        return JSONStreamError(parseError: error, element: count, offset: startOffset, line: start.line, column: start.column)
    }

    // MARK: In an element

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

    /// The chunk index just past the end of the array element in progress, or nil when it goes
    /// on past the chunk. Counts the newlines outside strings (a string holds none when valid).
    mutating func scanElement(_ chunk: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        let n = chunk.count
        if isScalar {
            // A number or a literal ends at the first byte that cannot continue it and may
            // follow it: white space, a separator, or the start of the next value, which values
            // one after another need not separate (`1{"id":2}`, as `jq -j` writes them). A
            // slash ends it too: comments are not recognized between elements, with or without
            // white space before them.
            while i < n {
                switch chunk[i] {
                case 0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "{"),
                    UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "/"):
                    return i
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
            case 0x0A: newline(at: i, chunk)
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
                if byte == 0x0A { newline(at: i, chunk) }
            }
            i += 1
        }
        return nil
    }

    /// The element that ends at chunk index `end`.
    mutating func finish(_ chunk: UnsafeBufferPointer<UInt8>, upTo end: Int) throws(JSONStreamError)
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
        gathered = bytes
        gatheredTerminator = isScalar && format != .lines && end < chunk.count ? chunk[end] : nil
        let element = FramedElement(index: count, offset: startOffset)
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

    /// Keeps the part of the element in progress that is in `chunk`, and, when `counting`, the
    /// count of lines and columns, before the chunk goes.
    mutating func endOfChunk(_ chunk: UnsafeBufferPointer<UInt8>, counting: Bool = true) throws(JSONStreamError) {
        let n = chunk.count
        if phase == .element || phase == .lineElement {
            let first = max(startOffset - base, 0)
            let size = pending.count + n - first
            let tooLarge = size > limit && size - trailingCarriageReturn(chunk, from: first, upTo: n) > limit
            // Of an element over the limit, no more than one byte past it is kept: all of the
            // rest of a large chunk (an input in memory is one) would cost memory in proportion
            // to the input, and a fault past the limit would be reported instead of its size.
            let kept = tooLarge ? min(n, first + max(0, limit + 1 - pending.count)) : n
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[first..<kept]))
            // Counting brackets finds no fault: a value left open, then the next one, would be
            // gathered up to the limit or the end of the input, however soon the fault came. So
            // the bytes gathered are parsed each time they have doubled (twice their size in
            // all), and when they pass the limit, and a fault no later byte can mend is reported
            // where it is.
            if phase == .element && (pending.count >= nextFaultCheck || tooLarge) {
                nextFaultCheck = 2 * pending.count
                if let fault = gatheredFault(atEnd: false) { throw fault }
            }
            if tooLarge { throw error(.elementTooLarge(limit: limit), atOffset: startOffset, line: startLine, column: startColumn) }
        }
        if counting {
            countLines(to: n, chunk)
            if phase == .afterComma { noteComma(before: n, chunk) }
        }
        scalarsBeforeChunk = counting ? lineScalars : nil
        base += n
    }

    /// The fault the bytes gathered of the element in progress hold, placed in the stream; nil
    /// when they are valid so far. Before the end of the input, a fault that the next bytes may
    /// mend (the input cut in a literal, an escape, a character or a number) is none.
    func gatheredFault(atEnd: Bool) -> JSONStreamError? {
        let fault = pending.withUnsafeBufferPointer { bytes -> JSONParseError? in
            do throws(JSONParseError) {
                _ = try JSONDocument.scanningFirstValue(of: bytes, options: parseOptions, scratch: scratch.buffer)
                return nil
            } catch {
                if error.kind == .unexpectedEnd || (!atEnd && Self.mayBeACut(error, in: bytes)) { return nil }
                // At the end of the input, a number, escape or character cut short is the end.
                if atEnd && Self.isCutShort(error, in: bytes) { return nil }
                return error
            }
        }
        return fault.map { JSONStreamError(parseError: $0, element: count, offset: startOffset, line: startLine, column: startColumn) }
    }
}
