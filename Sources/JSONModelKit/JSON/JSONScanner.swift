/// Turns JSON bytes into a tape in one pass, validating everything RFC 8259 asks.
///
/// The scanner never recurses: open containers live on an explicit stack, so nesting depth is
/// bounded only by `maxDepth`, not by the thread's stack.
///
/// White space, strings and UTF-8 are scanned a ``ByteBlock`` (16 bytes) at a time: a block is
/// classified at once and the scanner jumps to its first byte that needs a look, which the
/// byte-at-a-time code then handles as before. Blocks are loaded only where 16 bytes remain
/// before the end; the last bytes of the input always go through the byte-at-a-time code, so
/// nothing past the buffer is read. Errors are always reported by the byte-at-a-time code, at
/// the same position whichever path found them.
///
/// This file holds what writes the tape; ``Input`` (JSONScanner+Input.swift) reads and checks
/// what leaves no tape entry of its own: white space, escapes, UTF-8. The read position is a
/// local of ``scan()`` that every step takes and returns, so it stays in a register: kept in
/// the scanner, each step would store it and the next load it back, on the one chain of
/// dependent instructions that parsing is.
struct JSONScanner: ~Copyable {
    private let input: Input
    private let options: JSONParseOptions
    private(set) var tape: TapeBuilder
    private(set) var valueCount = 0
    private(set) var deepest = 0

    /// An open container.
    private struct Frame {
        var tapeIndex: Int
        var count: Int
        var isObject: Bool
    }

    /// - Parameter tapeBuffer: Storage to write the tape into while it fits (see ``TapeBuilder``).
    init(bytes: UnsafeBufferPointer<UInt8>, options: JSONParseOptions, tapeBuffer: UnsafeMutableBufferPointer<UInt64>? = nil) {
        input = Input(bytes, allowsComments: options.allowsComments)
        self.options = options
        // Typical documents need one tape word per 6 to 12 input bytes; the builder grows if not.
        if let tapeBuffer, tapeBuffer.count > 0 {
            tape = TapeBuilder(lending: tapeBuffer)
        } else {
            tape = TapeBuilder(capacity: bytes.count / 8 + 16)
        }
    }

    private var start: UnsafePointer<UInt8> { input.start }
    private var end: UnsafePointer<UInt8> { input.end }

    private func error(_ kind: JSONParseError.Kind, at pointer: UnsafePointer<UInt8>) -> JSONParseError {
        input.error(kind, at: pointer)
    }

    // MARK: - The value loop

    mutating func scan() throws(JSONParseError) {
        guard end - start <= Int(UInt32.max) else { throw error(.documentTooLarge, at: start) }
        // The innermost open container is `current`; the ones around it are on `outer`.
        var outer: [Frame] = []
        outer.reserveCapacity(min(options.maxDepth, 64))
        var current = Frame(tapeIndex: 0, count: 0, isObject: false)
        var depth = 0
        var values = 0
        var p = try input.skipWhitespace(from: start)
        guard p < end else { throw error(.emptyInput, at: p) }
        // Whether a member's key comes first at `p`. Keys are scanned in this one place, so the
        // compiler inlines the scan.
        var atKey = false

        value: while true {
            if atKey { p = try scanKey(at: p) }
            // Here a value must start at `p` (white space already skipped).
            guard p < end else { throw error(.unexpectedEnd, at: p) }
            values += 1
            switch p.pointee {
            case UInt8(ascii: "\""):
                p = try scanString(at: p)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                p = try scanNumber(at: p)
            case UInt8(ascii: "t"):
                p = try scanLiteral("true", .true, at: p)
            case UInt8(ascii: "f"):
                p = try scanLiteral("false", .false, at: p)
            case UInt8(ascii: "n"):
                p = try scanLiteral("null", .null, at: p)
            case let opener where opener == UInt8(ascii: "[") || opener == UInt8(ascii: "{"):
                let isObject = opener == UInt8(ascii: "{")
                guard depth < options.maxDepth else { throw error(.tooDeep(limit: options.maxDepth), at: p) }
                if depth > 0 { outer.append(current) }
                depth += 1
                deepest = max(deepest, depth)
                current = Frame(tapeIndex: tape.count, count: 0, isObject: isObject)
                tape.append(TapeEntry(bits: 0))  // patched when the container closes
                p = try input.skipWhitespace(from: p + 1)
                guard p < end else { throw error(.unexpectedEnd, at: p) }
                if p.pointee == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    p += 1
                    try close(&current, outer: &outer, depth: &depth, at: p)
                } else {
                    atKey = isObject
                    continue value
                }
            default:
                throw error(.unexpectedByte(p.pointee), at: p)
            }

            // A value just ended: a separator, a closer, or the end of the document follows.
            while true {
                guard depth > 0 else {
                    p = try input.skipWhitespace(from: p)
                    guard p == end else { throw error(.trailingContent, at: p) }
                    valueCount = values
                    return
                }
                current.count += 1
                p = try input.skipWhitespace(from: p)
                guard p < end else { throw error(.unexpectedEnd, at: p) }
                let closer = current.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                switch p.pointee {
                case UInt8(ascii: ","):
                    let comma = p
                    p = try input.skipWhitespace(from: p + 1)
                    if p < end && p.pointee == closer {
                        guard options.allowsTrailingCommas else { throw error(.trailingComma, at: comma) }
                        p += 1
                        try close(&current, outer: &outer, depth: &depth, at: p)
                        continue
                    }
                    atKey = current.isObject
                    continue value
                case closer:
                    p += 1
                    try close(&current, outer: &outer, depth: &depth, at: p)
                default:
                    throw error(.unexpectedByte(p.pointee), at: p)
                }
            }
        }
    }

    /// Writes the tape entry of the innermost container, whose closer ends just before `p`, and
    /// makes the one around it current.
    @inline(__always)
    private mutating func close(
        _ current: inout Frame, outer: inout [Frame], depth: inout Int, at p: UnsafePointer<UInt8>
    ) throws(JSONParseError) {
        guard current.count <= TapeEntry.maxField else { throw error(.valueTooLarge, at: p - 1) }
        tape.patch(current.tapeIndex, TapeEntry(current.isObject ? .object : .array, high: current.count, low: tape.count))
        depth -= 1
        if depth > 0 { current = outer.removeLast() }
    }

    /// Scans `"key" :` at `p` and returns where the member's value starts.
    @inline(__always)
    private mutating func scanKey(at p: UnsafePointer<UInt8>) throws(JSONParseError) -> UnsafePointer<UInt8> {
        guard p < end else { throw error(.unexpectedEnd, at: p) }
        guard p.pointee == UInt8(ascii: "\"") else { throw error(.unexpectedByte(p.pointee), at: p) }
        let colon = try input.skipWhitespace(from: scanString(at: p))
        guard colon < end else { throw error(.unexpectedEnd, at: colon) }
        guard colon.pointee == UInt8(ascii: ":") else { throw error(.unexpectedByte(colon.pointee), at: colon) }
        return try input.skipWhitespace(from: colon + 1)
    }

    // MARK: - Scalars

    /// Scans `word` at `literalStart`, appends its tape entry and returns the position after it.
    @inline(__always)
    private mutating func scanLiteral(
        _ word: StaticString, _ tag: TapeEntry.Tag, at literalStart: UnsafePointer<UInt8>
    ) throws(JSONParseError) -> UnsafePointer<UInt8> {
        let length = word.utf8CodeUnitCount
        assert(length == 4 || length == 5)
        // The first four letters at once where the input has them all; else one at a time,
        // which also tells where the input breaks off.
        guard end - literalStart >= length
            && UnsafeRawPointer(literalStart).loadUnaligned(as: UInt32.self)
                == UnsafeRawPointer(word.utf8Start).loadUnaligned(as: UInt32.self)
            && (length == 4 || literalStart[4] == word.utf8Start[4])
        else { throw literalError(word, at: literalStart) }
        tape.append(TapeEntry(tag, high: length, low: literalStart - start))
        return literalStart + length
    }

    /// The error in a literal that does not match `word`: where the input ends inside it, or
    /// at its start.
    @inline(never)
    private func literalError(_ word: StaticString, at literalStart: UnsafePointer<UInt8>) -> JSONParseError {
        var p = literalStart
        for index in 0..<word.utf8CodeUnitCount {
            guard p < end else { return error(.unexpectedEnd, at: p) }
            guard p.pointee == word.utf8Start[index] else { break }
            p += 1
        }
        return error(.invalidLiteral, at: literalStart)
    }

    /// Scans the number at `numberStart`, appends its tape entry and returns the position after it.
    private mutating func scanNumber(at numberStart: UnsafePointer<UInt8>) throws(JSONParseError) -> UnsafePointer<UInt8> {
        var p = numberStart
        var isInteger = true
        if p.pointee == UInt8(ascii: "-") {
            p += 1
            guard p < end else { throw error(.unexpectedEnd, at: p) }
        }
        if p.pointee == UInt8(ascii: "0") {
            p += 1
            if p < end && Input.isDigit(p.pointee) { throw error(.invalidNumber, at: numberStart) }
        } else if Input.isDigit(p.pointee) {
            p = input.skipDigits(from: p + 1)
        } else {
            throw error(.invalidNumber, at: numberStart)
        }
        if p < end && p.pointee == UInt8(ascii: ".") {
            isInteger = false
            p += 1
            guard p < end && Input.isDigit(p.pointee) else { throw error(.invalidNumber, at: numberStart) }
            p = input.skipDigits(from: p)
        }
        if p < end && (p.pointee | 0x20) == UInt8(ascii: "e") {
            isInteger = false
            p += 1
            if p < end && (p.pointee == UInt8(ascii: "+") || p.pointee == UInt8(ascii: "-")) { p += 1 }
            guard p < end && Input.isDigit(p.pointee) else { throw error(.invalidNumber, at: numberStart) }
            p = input.skipDigits(from: p)
        }
        let length = p - numberStart
        guard length <= TapeEntry.maxField else { throw error(.valueTooLarge, at: numberStart) }
        tape.append(TapeEntry(isInteger ? .integer : .decimal, high: length, low: numberStart - start))
        return p
    }

    // MARK: - Strings

    /// Scans the string whose opening quote is at `opening`, appends its tape entry and returns
    /// the position after its closing quote.
    @inline(__always)
    private mutating func scanString(at opening: UnsafePointer<UInt8>) throws(JSONParseError) -> UnsafePointer<UInt8> {
        let contentStart = opening + 1
        // Most strings are plain: their closing quote is the first byte flagged. Anything else
        // (escapes, non-ASCII, the last 15 bytes of the input) goes out of line.
        var q = contentStart
        while end - q >= ByteBlock.width {
            let lane = ByteBlock.firstLane(input.block(at: q).plainStringEnds)
            q += lane
            if lane < ByteBlock.width {
                guard q.pointee == UInt8(ascii: "\""), q - contentStart <= TapeEntry.maxField else { break }
                tape.append(TapeEntry(.string, high: q - contentStart, low: contentStart - start))
                return q + 1
            }
        }
        return try scanStringContent(from: opening, at: q)
    }

    /// The general case of ``scanString(at:)``: `p` is in the string, where a character starts,
    /// with everything from the opening quote to `p` plain ASCII.
    private mutating func scanStringContent(
        from opening: UnsafePointer<UInt8>, at p: UnsafePointer<UInt8>
    ) throws(JSONParseError) -> UnsafePointer<UInt8> {
        let contentStart = opening + 1
        let p = try input.skipStringContent(from: p, after: contentStart)
        let length = p.end - contentStart
        guard length <= TapeEntry.maxField else { throw error(.valueTooLarge, at: opening) }
        tape.append(TapeEntry(p.hasEscapes ? .escapedString : .string, high: length, low: contentStart - start))
        return p.end + 1  // past the closing quote
    }
}

