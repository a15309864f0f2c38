#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("JSONNode+Strings needs the C library: no Glibc, Musl or Darwin module here")
#endif

// The decoding of a document's strings, values' and keys' alike: made from the validated bytes
// without checking them again where that is safe, and with escapes resolved.

extension JSONDocument {
    /// The decoded string of a string entry, a value's or a member's key (escapes resolved); nil
    /// for other kinds.
    package func string(of entry: TapeEntry) -> String? {
        switch entry.tag {
        case .string:
            return plainText(entry.byteRange)
        case .escapedString:
            let fixed = textIsFixed
            let small = smallStrings
            return withBytes(entry.byteRange) { JSONNode.unescape($0, validated: fixed, small: small) }
        default: return nil
        }
    }

    /// The text of `range`, which needs no unescaping (a string without escapes, a number), as a
    /// string made by ``JSONNode/string(_:validated:small:)``.
    @inline(__always)
    package func plainText(_ range: ByteRange) -> String {
        let fixed = textIsFixed
        let small = smallStrings
        return withBytes(range) { JSONNode.string($0, validated: fixed, small: small) }
    }
}

extension JSONNode {
    /// A string from UTF-8 the scanner validated.
    ///
    /// With `validated`, the bytes cannot have changed since (``JSONDocument/textIsFixed``), so
    /// the string is made without the standard library checking them again. Otherwise, and on
    /// systems whose standard library lacks the unchecked initializer, they are checked.
    ///
    /// Up to 15 bytes, the string is made in the standard library's two words directly, when it
    /// is of the kinds `small` names (``SmallStrings``).
    ///
    /// PERF: reading long non-ASCII strings; see jsonmodel-bench --section model, row (b).
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, validated: Bool, small: SmallStrings.Kinds) -> String {
        if bytes.count <= SmallStrings.capacity {
            if let string = SmallStrings.string(bytes, kinds: small) { return string }
        } else if validated, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return uncheckedString(bytes)
        }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            _ = buffer.initialize(from: bytes)
            return bytes.count
        }
    }

    /// A string of `bytes`, which must be valid UTF-8, made without checking them.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    private static func uncheckedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        // Marked ASCII when it is, as the checking initializers do: the standard library's
        // fast paths (counts, indexes, bridging) depend on the mark.
        String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII(bytes)))
    }

    /// Whether every byte of at least sixteen is below 0x80, a block of sixteen at a time: the
    /// last block overlaps the one before it rather than leaving bytes to a loop of their own.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        precondition(bytes.count >= ByteBlock.width)
        var p = bytes.baseAddress!
        let last = p + bytes.count - ByteBlock.width
        var high = UnsafeRawPointer(last).loadUnaligned(as: SIMD16<UInt8>.self)
        while p < last {
            high |= UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)
            p += ByteBlock.width
        }
        return ByteBlock.isEmpty(ByteBlock(high).nonASCII)
    }

    /// Decodes the content of a validated string that contains escapes, and makes the string as
    /// ``string(_:validated:small:)`` does.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, validated: Bool, small: SmallStrings.Kinds) -> String {
        // Unescaped text is never longer than its source.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { output in
            string(UnsafeBufferPointer(rebasing: output[..<unescape(raw, into: output)]), validated: validated, small: small)
        }
    }

    /// Whether the decoded content of a validated string with escapes is `bytes`, compared
    /// without making a string of it.
    static func unescapedEquals(_ raw: UnsafeBufferPointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Unescaped text is never longer than its source.
        guard bytes.count <= raw.count else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { output in
            let count = unescape(raw, into: output)
            return count == bytes.count && (count == 0 || memcmp(output.baseAddress!, bytes.baseAddress!, count) == 0)
        }
    }

    /// Writes the decoded content of a validated string with escapes into `output`, which has
    /// room for `raw.count` bytes, and returns the number written.
    ///
    /// The bytes of a mapped file may change after the scan validated them, so nothing here
    /// trusts that validation: an escape cut short by the string's end, or a surrogate without
    /// its partner, is written as U+FFFD (three bytes, never more than the escape it replaces; a
    /// lone backslash at the end, with no room for it, is dropped), and nothing is read past `raw`.
    private static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard let source = raw.baseAddress, let target = output.baseAddress else { return 0 }
        var read = 0
        var written = 0
        while read < raw.count {
            if source[read] != UInt8(ascii: "\\") {
                // The text up to the next escape, at once. Text escaped to ASCII has escapes
                // one after another, so this is looked for only between them.
                let rest = raw.count - read
                let run = memchr(source + read, Int32(UInt8(ascii: "\\")), rest)
                    .map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - (source + read) } ?? rest
                (target + written).initialize(from: source + read, count: run)
                written += run
                read += run
                guard read < raw.count else { break }
            }
            guard read + 1 < raw.count else {
                written += writeUTF8(0xFFFD, to: target + written, room: raw.count - written)
                break
            }
            let code = source[read + 1]
            guard code == UInt8(ascii: "u") else {
                target[written] =
                    switch code {
                    case UInt8(ascii: "b"): 0x08
                    case UInt8(ascii: "f"): 0x0C
                    case UInt8(ascii: "n"): 0x0A
                    case UInt8(ascii: "r"): 0x0D
                    case UInt8(ascii: "t"): 0x09
                    default: code  // \" \\ \/
                    }
                written += 1
                read += 2
                continue
            }
            guard read + 6 <= raw.count else {
                written += writeUTF8(0xFFFD, to: target + written, room: raw.count - written)
                break
            }
            var scalar = UInt32(hexQuad(source + read + 2))
            read += 6
            if scalar & 0xFC00 == 0xD800 {
                // The scanner saw the low surrogate follow as \uXXXX; checked again all the same.
                let low = read + 6 <= raw.count && source[read] == UInt8(ascii: "\\") && source[read + 1] == UInt8(ascii: "u")
                    ? UInt32(hexQuad(source + read + 2)) : 0
                if low & 0xFC00 == 0xDC00 {
                    read += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    scalar = 0xFFFD
                }
            } else if scalar & 0xFC00 == 0xDC00 {
                scalar = 0xFFFD
            }
            written += writeUTF8(scalar, to: target + written, room: raw.count - written)
        }
        return written
    }

    /// Writes `scalar`, a Unicode scalar value, as UTF-8 at `target`, and returns the number of
    /// bytes written (1 to 4); nothing when that is more than `room`.
    @inline(__always)
    private static func writeUTF8(_ scalar: UInt32, to target: UnsafeMutablePointer<UInt8>, room: Int) -> Int {
        let length = scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x1_0000 ? 3 : 4
        guard length <= room else { return 0 }
        if scalar < 0x80 {
            target[0] = UInt8(truncatingIfNeeded: scalar)
            return 1
        }
        if scalar < 0x800 {
            target[0] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
            target[1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 2
        }
        if scalar < 0x1_0000 {
            target[0] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
            target[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            target[2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 3
        }
        target[0] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
        target[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
        target[2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
        target[3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
        return 4
    }

    /// The value of the four hexadecimal digits at `digits`, which the scanner validated.
    private static func hexQuad(_ digits: UnsafePointer<UInt8>) -> UInt16 {
        hexQuadValue(UInt32(littleEndian: UnsafeRawPointer(digits).loadUnaligned(as: UInt32.self))) ?? 0
    }
}
