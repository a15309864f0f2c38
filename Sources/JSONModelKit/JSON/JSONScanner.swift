/// Turns JSON bytes into a tape in one pass, validating everything RFC 8259 asks.
///
/// The scanner never recurses: open containers live on an explicit stack, so nesting depth is
/// bounded only by `maxDepth`, not by the thread's stack.
///
/// White space, strings and UTF-8 are scanned a ``ByteBlock`` (16 bytes) at a time: a block is
/// classified at once and the scanner jumps to its first byte that needs a look, which the
/// byte-at-a-time code then handles as before. Blocks are loaded only where 16 bytes remain
/// before `end`; the last bytes of the input always go through the byte-at-a-time code, so
/// nothing past the buffer is read. Errors are always reported by the byte-at-a-time code, at
/// the same position whichever path found them.
struct JSONScanner: ~Copyable {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let start: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>
    private var p: UnsafePointer<UInt8>
    private let options: JSONParseOptions
    private(set) var tape: TapeBuilder
    private(set) var valueCount = 0
    private(set) var deepest = 0

    /// An open container on the scanner's stack.
    private struct Frame {
        var tapeIndex: Int
        var count: Int
        var isObject: Bool
    }

    /// - Parameter tapeBuffer: Storage to write the tape into while it fits (see ``TapeBuilder``).
    init(bytes: UnsafeBufferPointer<UInt8>, options: JSONParseOptions, tapeBuffer: UnsafeMutableBufferPointer<UInt64>? = nil) {
        self.bytes = bytes
        // An empty buffer may have no base address; any valid pointer serves, as nothing is read.
        let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1).unsafelyUnwrapped
        start = base
        end = base + bytes.count
        p = base
        self.options = options
        // Typical documents need one tape word per 6 to 12 input bytes; the builder grows if not.
        if let tapeBuffer, tapeBuffer.count > 0 {
            tape = TapeBuilder(lending: tapeBuffer)
        } else {
            tape = TapeBuilder(capacity: bytes.count / 8 + 16)
        }
    }

    private func error(_ kind: JSONParseError.Kind, at pointer: UnsafePointer<UInt8>) -> JSONParseError {
        JSONParseError(kind, at: pointer - start, in: bytes)
    }

    // MARK: - The value loop

    mutating func scan() throws(JSONParseError) {
        guard bytes.count <= Int(UInt32.max) else { throw error(.documentTooLarge, at: start) }
        var stack: [Frame] = []
        stack.reserveCapacity(min(options.maxDepth, 64))
        try skipWhitespace()
        guard p < end else { throw error(.emptyInput, at: p) }

        value: while true {
            // Here a value must start at `p` (white space already skipped).
            guard p < end else { throw error(.unexpectedEnd, at: p) }
            valueCount += 1
            switch p.pointee {
            case UInt8(ascii: "\""):
                try scanString(isKey: false)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try scanNumber()
            case UInt8(ascii: "t"):
                try scanLiteral("true", .true)
            case UInt8(ascii: "f"):
                try scanLiteral("false", .false)
            case UInt8(ascii: "n"):
                try scanLiteral("null", .null)
            case let opener where opener == UInt8(ascii: "[") || opener == UInt8(ascii: "{"):
                let isObject = opener == UInt8(ascii: "{")
                guard stack.count < options.maxDepth else {
                    throw error(.tooDeep(limit: options.maxDepth), at: p)
                }
                stack.append(Frame(tapeIndex: tape.count, count: 0, isObject: isObject))
                deepest = max(deepest, stack.count)
                tape.append(TapeEntry(bits: 0))  // patched when the container closes
                p += 1
                try skipWhitespace()
                guard p < end else { throw error(.unexpectedEnd, at: p) }
                if p.pointee == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    p += 1
                    try close(&stack)
                } else if isObject {
                    try scanKey()
                    continue value
                } else {
                    continue value
                }
            default:
                throw error(.unexpectedByte(p.pointee), at: p)
            }

            // A value just ended: a separator, a closer, or the end of the document follows.
            while true {
                guard !stack.isEmpty else {
                    try skipWhitespace()
                    guard p == end else { throw error(.trailingContent, at: p) }
                    return
                }
                stack[stack.count - 1].count += 1
                try skipWhitespace()
                guard p < end else { throw error(.unexpectedEnd, at: p) }
                let isObject = stack[stack.count - 1].isObject
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                switch p.pointee {
                case UInt8(ascii: ","):
                    let comma = p
                    p += 1
                    try skipWhitespace()
                    if p < end && p.pointee == closer {
                        guard options.allowsTrailingCommas else { throw error(.trailingComma, at: comma) }
                        p += 1
                        try close(&stack)
                        continue
                    }
                    if isObject { try scanKey() }
                    continue value
                case closer:
                    p += 1
                    try close(&stack)
                default:
                    throw error(.unexpectedByte(p.pointee), at: p)
                }
            }
        }
    }

    /// Pops the innermost container and writes its tape entry.
    @inline(__always)
    private mutating func close(_ stack: inout [Frame]) throws(JSONParseError) {
        let frame = stack.removeLast()
        guard frame.count <= TapeEntry.maxField else { throw error(.valueTooLarge, at: p - 1) }
        tape.patch(frame.tapeIndex, TapeEntry(frame.isObject ? .object : .array, high: frame.count, low: tape.count))
    }

    /// Scans `"key" :` and leaves `p` at the member's value.
    @inline(__always)
    private mutating func scanKey() throws(JSONParseError) {
        guard p < end else { throw error(.unexpectedEnd, at: p) }
        guard p.pointee == UInt8(ascii: "\"") else { throw error(.unexpectedByte(p.pointee), at: p) }
        try scanString(isKey: true)
        try skipWhitespace()
        guard p < end else { throw error(.unexpectedEnd, at: p) }
        guard p.pointee == UInt8(ascii: ":") else { throw error(.unexpectedByte(p.pointee), at: p) }
        p += 1
        try skipWhitespace()
    }

    // MARK: - White space and comments

    @inline(__always)
    private mutating func skipWhitespace() throws(JSONParseError) {
        // Most calls meet no white space: a value, a separator or a closer follows at once.
        guard p < end, p.pointee <= UInt8(ascii: " ") || p.pointee == UInt8(ascii: "/") else { return }
        try skipWhitespaceRun()
    }

    /// Skips white space (and comments, where allowed) from `p`, a block at a time.
    private mutating func skipWhitespaceRun() throws(JSONParseError) {
        // Next most often a single space, as after a colon: no block for that.
        if p.pointee == UInt8(ascii: " ") && end - p >= 2 && p[1] > UInt8(ascii: " ") && p[1] != UInt8(ascii: "/") {
            p += 1
            return
        }
        while true {
            if end - p >= ByteBlock.width {
                let lane = ByteBlock.firstLane(block(at: p).nonWhitespace)
                p += lane
                if lane == ByteBlock.width { continue }
            } else {
                while p < end && isWhitespace(p.pointee) { p += 1 }
            }
            guard options.allowsComments, p < end, p.pointee == UInt8(ascii: "/") else { return }
            try skipComment()
        }
    }

    @inline(__always)
    private func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }

    /// The 16 bytes at `pointer`, which must lie inside the input with 16 bytes to go.
    @inline(__always)
    private func block(at pointer: UnsafePointer<UInt8>) -> ByteBlock {
        assert(pointer >= start && end - pointer >= ByteBlock.width)
        return ByteBlock(UnsafeRawPointer(pointer).loadUnaligned(as: SIMD16<UInt8>.self))
    }

    private mutating func skipComment() throws(JSONParseError) {
        let opening = p
        guard end - p >= 2 else { throw error(.unexpectedByte(p.pointee), at: p) }
        switch p[1] {
        case UInt8(ascii: "/"):
            p += 2
            while p < end && p.pointee != UInt8(ascii: "\n") { p += 1 }
        case UInt8(ascii: "*"):
            p += 2
            while end - p >= 2 && !(p[0] == UInt8(ascii: "*") && p[1] == UInt8(ascii: "/")) { p += 1 }
            guard end - p >= 2 else { throw error(.unexpectedEnd, at: opening) }
            p += 2
        default:
            throw error(.unexpectedByte(p.pointee), at: p)
        }
    }

    // MARK: - Scalars

    private mutating func scanLiteral(_ word: StaticString, _ tag: TapeEntry.Tag) throws(JSONParseError) {
        let length = word.utf8CodeUnitCount
        let literalStart = p
        for index in 0..<length {
            guard p < end else { throw error(.unexpectedEnd, at: p) }
            guard p.pointee == word.utf8Start[index] else { throw error(.invalidLiteral, at: literalStart) }
            p += 1
        }
        tape.append(TapeEntry(tag, high: length, low: literalStart - start))
    }

    private mutating func scanNumber() throws(JSONParseError) {
        let numberStart = p
        var isInteger = true
        if p.pointee == UInt8(ascii: "-") {
            p += 1
            guard p < end else { throw error(.unexpectedEnd, at: p) }
        }
        if p.pointee == UInt8(ascii: "0") {
            p += 1
            if p < end && isDigit(p.pointee) { throw error(.invalidNumber, at: numberStart) }
        } else if isDigit(p.pointee) {
            p += 1
            skipDigits()
        } else {
            throw error(.invalidNumber, at: numberStart)
        }
        if p < end && p.pointee == UInt8(ascii: ".") {
            isInteger = false
            p += 1
            guard p < end && isDigit(p.pointee) else { throw error(.invalidNumber, at: numberStart) }
            skipDigits()
        }
        if p < end && (p.pointee | 0x20) == UInt8(ascii: "e") {
            isInteger = false
            p += 1
            if p < end && (p.pointee == UInt8(ascii: "+") || p.pointee == UInt8(ascii: "-")) { p += 1 }
            guard p < end && isDigit(p.pointee) else { throw error(.invalidNumber, at: numberStart) }
            skipDigits()
        }
        let length = p - numberStart
        guard length <= TapeEntry.maxField else { throw error(.valueTooLarge, at: numberStart) }
        tape.append(TapeEntry(isInteger ? .integer : .decimal, high: length, low: numberStart - start))
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    private mutating func skipDigits() {
        while p < end && isDigit(p.pointee) { p += 1 }
    }

    /// Scans a string starting at its opening quote and appends its tape entry.
    @inline(__always)
    private mutating func scanString(isKey: Bool) throws(JSONParseError) {
        let opening = p
        p += 1
        // Most strings are plain: their closing quote is the first byte flagged. Anything else
        // (escapes, non-ASCII, the last 15 bytes of the input) goes out of line.
        var q = p
        while end - q >= ByteBlock.width {
            let lane = ByteBlock.firstLane(block(at: q).plainStringEnds)
            q += lane
            if lane < ByteBlock.width {
                guard q.pointee == UInt8(ascii: "\""), q - p <= TapeEntry.maxField else { break }
                tape.append(TapeEntry(.string, high: q - p, low: p - start))
                p = q + 1
                return
            }
        }
        p = q
        try scanStringContent(from: opening)
    }

    /// The general case of ``scanString(isKey:)``: `p` is in the string, where a character
    /// starts, with everything from the opening quote to `p` plain ASCII.
    private mutating func scanStringContent(from opening: UnsafePointer<UInt8>) throws(JSONParseError) {
        let contentStart = opening + 1
        var hasEscapes = false
        while true {
            while end - p >= ByteBlock.width {
                let lane = ByteBlock.firstLane(block(at: p).plainStringEnds)
                p += lane
                if lane < ByteBlock.width { break }
            }
            guard p < end else { throw error(.unexpectedEnd, at: opening) }
            let byte = p.pointee
            if byte == UInt8(ascii: "\"") {
                break
            } else if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                try scanEscape()
            } else if byte < 0x20 {
                throw error(.controlCharacterInString, at: p)
            } else if byte < 0x80 {
                p += 1  // only among the last 15 bytes of the input
            } else {
                let sequenceStart = p
                skipValidUTF8(after: contentStart)
                // Blocks stop short of an error and of the end of the input: one sequence at a
                // time reports the first error, or gets past the last bytes.
                if p == sequenceStart { try scanUTF8Sequence() }
            }
        }
        let length = p - contentStart
        p += 1  // the closing quote
        guard length <= TapeEntry.maxField else { throw error(.valueTooLarge, at: opening) }
        tape.append(TapeEntry(hasEscapes ? .escapedString : .string, high: length, low: contentStart - start))
    }

    /// Steps `p` over well-formed UTF-8 and ASCII a block at a time, up to the next `"`, `\` or
    /// control character.
    ///
    /// `p` starts where a character starts, with valid text from `contentStart` to `p`. It stops
    /// short, where a character starts, before a block with an error (the error may lie on
    /// either side of the block's start: a lead byte just before it may want continuation
    /// bytes that are not there) and where fewer than 16 bytes are left. Each block looks back
    /// at the three bytes before it, so those must be in the string: nothing happens when `p`
    /// is fewer than three bytes past `contentStart`.
    private mutating func skipValidUTF8(after contentStart: UnsafePointer<UInt8>) {
        guard p - contentStart >= 3 else { return }
        var q = p
        while end - q >= ByteBlock.width {
            let bytes = block(at: q)
            let errors = bytes.utf8Errors(
                before1: block(at: q - 1).bytes, before2: block(at: q - 2).bytes, before3: block(at: q - 3).bytes)
            let stop = ByteBlock.firstLane(bytes.stringStops)
            let failure = ByteBlock.firstLane(errors)
            if stop < failure {
                p = q + stop
                return
            }
            if failure < ByteBlock.width { break }
            q += ByteBlock.width
        }
        p = characterStart(atOrBefore: q, after: contentStart)
    }

    /// Where the character that `q` falls in starts, given valid UTF-8 from `contentStart` to
    /// `q` except perhaps for a sequence that `q` cuts short.
    private func characterStart(atOrBefore q: UnsafePointer<UInt8>, after contentStart: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        assert(q - contentStart >= 3)
        var continuations = 0
        while continuations < 3 && q[-continuations - 1] & 0xC0 == 0x80 { continuations += 1 }
        guard continuations < 3 else { return q }  // the end of a four-byte sequence
        let lead = q - continuations - 1
        let length = lead.pointee >= 0xF0 ? 4 : lead.pointee >= 0xE0 ? 3 : lead.pointee >= 0xC0 ? 2 : 1
        return length > continuations + 1 ? lead : q
    }

    /// Validates one escape sequence at `p` (the backslash) and steps past it.
    private mutating func scanEscape() throws(JSONParseError) {
        let escape = p
        guard end - p >= 2 else { throw error(.unexpectedEnd, at: p) }
        switch p[1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            p += 2
        case UInt8(ascii: "u"):
            let unit = try hexQuad(at: p + 2)
            p += 6
            if unit & 0xFC00 == 0xD800 {
                // A high surrogate must be followed by an escaped low surrogate.
                guard end - p >= 6, p[0] == UInt8(ascii: "\\"), p[1] == UInt8(ascii: "u") else {
                    throw error(.loneSurrogate, at: escape)
                }
                let low = try hexQuad(at: p + 2)
                guard low & 0xFC00 == 0xDC00 else { throw error(.loneSurrogate, at: escape) }
                p += 6
            } else if unit & 0xFC00 == 0xDC00 {
                throw error(.loneSurrogate, at: escape)
            }
        default:
            throw error(.invalidEscape, at: p)
        }
    }

    private func hexQuad(at position: UnsafePointer<UInt8>) throws(JSONParseError) -> UInt16 {
        guard end - position >= 4,
            let value = hexQuadValue(UInt32(littleEndian: UnsafeRawPointer(position).loadUnaligned(as: UInt32.self)))
        else { throw error(.invalidUnicodeEscape, at: position - 2) }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence at `p` and steps past it.
    ///
    /// Follows the table of well-formed sequences in the Unicode Standard (§3.9, table 3-7):
    /// no overlong forms, no encoded surrogates, nothing above U+10FFFF.
    @inline(__always)
    private mutating func scanUTF8Sequence() throws(JSONParseError) {
        let lead = p.pointee
        let length: Int
        var secondLow: UInt8 = 0x80
        var secondHigh: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondLow = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondHigh = 0x9F
        case 0xF0: length = 4; secondLow = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondHigh = 0x8F
        default: throw error(.invalidUTF8, at: p)
        }
        guard end - p >= length else { throw error(.invalidUTF8, at: p) }
        guard p[1] >= secondLow && p[1] <= secondHigh else { throw error(.invalidUTF8, at: p) }
        for index in 2..<length where p[index] & 0xC0 != 0x80 {
            throw error(.invalidUTF8, at: p)
        }
        p += length
    }
}

/// The value of the four ASCII hexadecimal digits in `word`, the first in its lowest byte, or
/// nil if a byte is not one.
///
/// All four bytes are tested at once, each on its own: with the high bit of every byte set
/// first, subtracting at most 0x67 from each borrows from no neighbour, and the high bit of each
/// difference tells whether that byte was at least the number subtracted.
@inline(__always)
func hexQuadValue(_ word: UInt32) -> UInt16? {
    let ones: UInt32 = 0x0101_0101
    let highs: UInt32 = 0x8080_8080
    let raised = word | highs
    let isDigit = (raised &- (ones &* 0x30)) & ~(raised &- (ones &* 0x3A))  // "0"..."9"
    let folded = raised | (ones &* 0x20)  // "A"..."F" become "a"..."f"
    let isLetter = (folded &- (ones &* 0x61)) & ~(folded &- (ones &* 0x67))  // "a"..."f"
    guard word & highs == 0, (isDigit | isLetter) & highs == highs else { return nil }
    // Digits keep their low four bits; letters have bit 6 set and 1...6 in their low bits: add 9.
    let nibbles = (word & (ones &* 0x0F)) &+ ((word &>> 6) & ones) &* 9
    let value = (nibbles & 0xFF) << 12 | (nibbles >> 8 & 0xFF) << 8 | (nibbles >> 16 & 0xFF) << 4 | nibbles >> 24
    return UInt16(truncatingIfNeeded: value)
}

/// The value of an ASCII hexadecimal digit, or nil.
@inline(__always)
func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
