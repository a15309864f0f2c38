import JSONModelKitUTF8

extension JSONScanner.Input {
    // MARK: - Strings

    /// Scans the string whose opening quote is at `opening`: returns its tape entry and the
    /// position after its closing quote.
    @inline(__always)
    func scanString(at opening: UnsafePointer<UInt8>) throws(JSONParseError) -> (entry: TapeEntry, end: UnsafePointer<UInt8>) {
        let contentStart = opening + 1
        // Most strings are plain: their closing quote is the first byte flagged. Anything else
        // (escapes, non-ASCII, the last 15 bytes of the input) goes out of line.
        var q = contentStart
        while end - q >= ByteBlock.width {
            let bytes = block(at: q)
            let quotes = ByteBlock.bits(of: bytes.quotes)
            let others = ByteBlock.bits(of: bytes.plainStringEndsButQuotes)
            if quotes == 0 {
                guard others == 0 else { break }
                q += ByteBlock.width
                continue
            }
            // The closing quote's position comes from the quotes alone, and the other stops are
            // checked off the chain from one token to the next.
            let below = (quotes & (0 &- quotes)) &- 1
            guard others & below == 0 else { break }
            q += quotes.trailingZeroBitCount
            guard q - contentStart <= TapeEntry.maxField else { break }
            return (TapeEntry(.string, high: q - contentStart, low: contentStart - start), q + 1)
        }
        return try scanStringContent(from: opening, at: q)
    }

    /// The general case of ``scanString(at:)``: `p` is in the string, where a character starts,
    /// with everything from the opening quote to `p` plain ASCII.
    private func scanStringContent(
        from opening: UnsafePointer<UInt8>, at p: UnsafePointer<UInt8>
    ) throws(JSONParseError) -> (entry: TapeEntry, end: UnsafePointer<UInt8>) {
        let contentStart = opening + 1
        let content = try skipStringContent(from: p, after: contentStart)
        let length = content.end - contentStart
        guard length <= TapeEntry.maxField else { throw error(.valueTooLarge, at: opening) }
        let tag: TapeEntry.Tag = content.hasEscapes ? .escapedString : .string
        return (TapeEntry(tag, high: length, low: contentStart - start), content.end + 1)
    }

    /// Validates string content from `p`, where a character starts, with everything from
    /// `contentStart` to `p` plain ASCII; returns where the closing quote is and whether
    /// there were escapes.
    private func skipStringContent(
        from p: UnsafePointer<UInt8>, after contentStart: UnsafePointer<UInt8>
    ) throws(JSONParseError) -> (end: UnsafePointer<UInt8>, hasEscapes: Bool) {
        var p = p
        var hasEscapes = false
        while true {
            ByteBlock.advance(&p, before: end) { $0.plainStringEnds }
            guard p < end else { throw error(.unexpectedEnd, at: contentStart - 1) }
            let byte = p.pointee
            if byte == UInt8(ascii: "\"") {
                return (p, hasEscapes)
            } else if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                p = try skipEscapes(at: p)
            } else if byte < 0x20 {
                throw error(.controlCharacterInString, at: p)
            } else if byte < 0x80 {
                p += 1  // only among the last 15 bytes of the input
            } else {
                let sequenceStart = p
                p = skipValidUTF8(from: p, after: contentStart)
                // Blocks stop short of an error and of the end of the input: one sequence at
                // a time reports the first error, or gets past the last bytes.
                if p == sequenceStart { p = try skipUTF8Sequence(at: p) }
            }
        }
    }

    /// Steps over well-formed UTF-8 and ASCII from `p` a block at a time, up to the next
    /// `"`, `\` or control character, and returns where it stopped.
    ///
    /// `p` is where a character starts, with valid text from `contentStart` to `p`. The scan
    /// stops short, where a character starts, before a block with an error (the error may
    /// lie on either side of the block's start: a lead byte just before it may want
    /// continuation bytes that are not there) and where fewer than 16 bytes are left.
    ///
    /// Each block looks back at the three bytes before it. Where those lie before the
    /// string (the opening quote and the one or two bytes before it), they are harmless
    /// unless one is a lead byte, 0xC0 or more, which only a comment could hold: then, and
    /// where the input starts fewer than three bytes before `p`, nothing happens.
    private func skipValidUTF8(from p: UnsafePointer<UInt8>, after contentStart: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        guard p - start >= 3 else { return p }
        var before = p - 3
        while before < contentStart {
            if before.pointee >= 0xC0 { return p }
            before += 1
        }
        var q = p
        #if arch(x86_64) && !JSONMODELKIT_PORTABLE_SIMD
        // 32 bytes at a time with AVX2, where the processor has it; the rest, and a block with an
        // error, in 16-byte blocks here. Its blocks end where they end: a byte that is never valid
        // (C0, C1, F5 to FF) ending one is flagged only with the byte after it, which the blocks
        // here take for a lead's continuation. They start again at the character the last block
        // ends in, where they flag such a byte itself.
        // PERF: non-ASCII text; see Tools/simdjson-compare (the parse of twitter.json).
        var stopped = false
        q = jmk_skip_valid_utf8(q, end, &stopped)
        if stopped { return q }
        if q > p { q = characterStart(atOrBefore: q, after: contentStart) }
        #endif
        while end - q >= ByteBlock.width {
            let bytes = block(at: q)
            let errors = bytes.utf8Errors(
                before1: block(at: q - 1).bytes, before2: block(at: q - 2).bytes, before3: block(at: q - 3).bytes)
            let stops = bytes.stringStops
            if ByteBlock.isEmpty(errors .| stops) {
                q += ByteBlock.width
                continue
            }
            let stop = ByteBlock.firstLane(stops)
            if stop < ByteBlock.firstLane(errors) { return q + stop }
            break
        }
        return characterStart(atOrBefore: q, after: contentStart)
    }

    /// Where the character that `q` falls in starts, given valid UTF-8 from `contentStart`
    /// to `q` except perhaps for a sequence that `q` cuts short. (Looking back, the opening
    /// quote stops the walk at the latest.)
    private func characterStart(atOrBefore q: UnsafePointer<UInt8>, after contentStart: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        assert(q - start >= 3 && contentStart[-1] == UInt8(ascii: "\""))
        var continuations = 0
        while continuations < 3 && q[-continuations - 1] & 0xC0 == 0x80 { continuations += 1 }
        guard continuations < 3 else { return q }  // the end of a four-byte sequence
        let lead = q - continuations - 1
        let length = lead.pointee >= 0xF0 ? 4 : lead.pointee >= 0xE0 ? 3 : lead.pointee >= 0xC0 ? 2 : 1
        return length > continuations + 1 ? lead : q
    }

    /// Validates the escape sequences from `p` (a backslash) on, as many as follow one
    /// another, and returns the position after the last.
    @inline(__always)
    private func skipEscapes(at p: UnsafePointer<UInt8>) throws(JSONParseError) -> UnsafePointer<UInt8> {
        var p = p
        repeat {
            // Text escaped to ASCII is runs of `\u` and four digits outside the surrogates: those
            // inline, everything else (and every error) in the general case.
            if end - p >= 6 && p[1] == UInt8(ascii: "u"),
                let unit = hexQuadValue(UInt32(littleEndian: UnsafeRawPointer(p + 2).loadUnaligned(as: UInt32.self))),
                unit & 0xF800 != 0xD800
            {
                p += 6
            } else {
                p = try skipEscape(at: p)
            }
        } while p < end && p.pointee == UInt8(ascii: "\\")
        return p
    }

    /// Validates the escape sequence at `escape` (the backslash) and returns the position
    /// after it.
    private func skipEscape(at escape: UnsafePointer<UInt8>) throws(JSONParseError) -> UnsafePointer<UInt8> {
        var p = escape
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
        return p
    }

    private func hexQuad(at position: UnsafePointer<UInt8>) throws(JSONParseError) -> UInt16 {
        guard end - position >= 4,
            let value = hexQuadValue(UInt32(littleEndian: UnsafeRawPointer(position).loadUnaligned(as: UInt32.self)))
        else { throw error(.invalidUnicodeEscape, at: position - 2) }
        return value
    }

    /// Validates the multi-byte UTF-8 sequence at `p` and returns the position after it.
    ///
    /// Follows the table of well-formed sequences in the Unicode Standard (§3.9, table 3-7):
    /// no overlong forms, no encoded surrogates, nothing above U+10FFFF.
    private func skipUTF8Sequence(at p: UnsafePointer<UInt8>) throws(JSONParseError) -> UnsafePointer<UInt8> {
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
        return p + length
    }
}

/// The value of the four ASCII hexadecimal digits in `word`, the first in its lowest byte, or
/// nil if a byte is not one.
///
/// All four bytes are tested at once, each on its own: with the high bit of every byte set
/// first, subtracting at most 0x67 from each borrows from no neighbour, and the high bit of each
/// difference tells whether that byte was at least the number subtracted.
///
/// Inlinable: the models' module reads the digits of a UUID with it.
@inlinable @inline(__always)
package func hexQuadValue(_ word: UInt32) -> UInt16? {
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
