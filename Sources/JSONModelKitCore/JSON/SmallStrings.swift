// Strings of up to 15 UTF-8 bytes, made in the two words the standard library keeps them in.

/// Makes short strings from their bytes without the standard library's general initializer.
///
/// A `String` of at most 15 UTF-8 bytes holds them in its own two words, the first eight in the
/// first word and the rest in the second, whose top byte says that the string is small, whether
/// it is ASCII, and its length. The initializers that take bytes get there through a closure and
/// a check of every byte, about a hundred instructions for a name or a city; made here, the same
/// two words cost a few loads and shifts. Short strings are most of what small objects hold,
/// and every property read of one makes one (PERF: jsonmodel-bench --section bulk, row (b)).
///
/// That layout is the standard library's, not a promise: it is checked once, when the first
/// document is made, against the strings the standard library makes from a set of samples,
/// ASCII and not, of every length. Where a kind of string does not match, or on a platform whose
/// words are not 64-bit little-endian, those strings are made by the standard library as before.
/// Each document keeps the result (``JSONDocument/smallStrings``), so a read does not look it up.
package enum SmallStrings {
    /// The most bytes a string keeps in its own two words.
    package static var capacity: Int { 15 }

    /// The short strings made here.
    package struct Kinds: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Strings of ASCII bytes, which are well-formed UTF-8 whatever the text around them.
        package static let ascii = Kinds(rawValue: 1)
        /// Strings with other bytes, which must be known to be well-formed UTF-8.
        package static let nonASCII = Kinds(rawValue: 2)
    }

    /// The strings a document makes here: ASCII ones where their layout is as checked, others
    /// too where the document's text is also known to stay well-formed (`textIsFixed`).
    package static func kinds(textIsFixed: Bool) -> Kinds {
        #if _endian(little) && _pointerBitWidth(_64)
        textIsFixed ? layout : layout.subtracting(.nonASCII)
        #else
        []
        #endif
    }

    /// The string of `bytes`, at most ``capacity`` of them, when it is of one of `kinds`; nil
    /// where the standard library must make it.
    @inline(__always)
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>, kinds: Kinds) -> String? {
        #if _endian(little) && _pointerBitWidth(_64)
        guard let (first, second) = words(of: bytes) else { return nil }
        let isASCII = (first | second) & 0x8080_8080_8080_8080 == 0
        guard kinds.contains(isASCII ? .ascii : .nonASCII) else { return nil }
        return string(first, second | discriminator(count: bytes.count, isASCII: isASCII))
        #else
        return nil
        #endif
    }

    /// Calls `body` with the bytes of `string` when it is an ASCII string kept in its own two
    /// words, as a number's text is; nil for other strings, and where the layout is not as
    /// checked.
    ///
    /// The two words are copied to the stack and read there. The standard library's access
    /// (`utf8.withContiguousStorageIfAvailable`) does the same after a retain and a release of
    /// the string and a look at every kind of storage a string can have.
    /// PERF: a number's `doubleValue`; see `Tools/simdjson-compare/run`, numbers.json.
    @inline(__always)
    package static func withASCIIBytes<R>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        #if _endian(little) && _pointerBitWidth(_64)
        let words = withUnsafeBytes(of: string) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
        // The second word's top byte: 0xE0 plus the count for an ASCII string kept here.
        guard words.1 >> 60 == 0xE, layout.contains(.ascii) else { return nil }
        let count = Int(truncatingIfNeeded: (words.1 >> 56) & 0xF)
        return withUnsafeBytes(of: words) { raw in
            body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
        }
        #else
        return nil
        #endif
    }

    #if _endian(little) && _pointerBitWidth(_64)
    /// The string whose two words these are. Written over an empty string's words, which hold
    /// nothing to release, so that the result is handed over as it is, not retained (a cast of
    /// the words was: a call per string).
    @inline(__always)
    private static func string(_ first: UInt64, _ second: UInt64) -> String {
        var string = ""
        withUnsafeMutableBytes(of: &string) { words in
            words.storeBytes(of: first, as: UInt64.self)
            words.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
        }
        return string
    }

    /// The kinds of short strings the standard library lays out as this file does.
    private static let layout: Kinds = {
        let ascii = ["", "a", "ab", "abc", "abcd", "abcde", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmn", "0123456789abcde"]
        let nonASCII = ["é", "aé", "日本", "ñandú", "Ελλάδα", "añoé€", "€€€€€", "abcdefghijklmé"]
        func matches(_ samples: [String], isASCII: Bool) -> Bool {
            samples.allSatisfy { sample in
                let bytes = Array(sample.utf8)
                let made = String(decoding: bytes, as: UTF8.self)
                guard bytes.count <= capacity, let (first, second) = bytes.withUnsafeBufferPointer(words(of:)) else {
                    return false
                }
                let expected = unsafeBitCast(made, to: (UInt64, UInt64).self)
                return expected == (first, second | discriminator(count: bytes.count, isASCII: isASCII))
            }
        }
        var kinds: Kinds = []
        if matches(ascii, isASCII: true) { kinds.insert(.ascii) }
        if matches(nonASCII, isASCII: false) { kinds.insert(.nonASCII) }
        return kinds
    }()

    /// The top byte of a small string's second word: small and immortal, ASCII or not, and its
    /// length.
    @inline(__always)
    private static func discriminator(count: Int, isASCII: Bool) -> UInt64 {
        ((isASCII ? 0xE0 : 0xA0) | UInt64(truncatingIfNeeded: count)) &<< 56
    }

    /// Up to 15 bytes as two little-endian words, the first eight bytes in the first and the
    /// bytes after them zero-padded in the second; nil for more. Reads only the bytes given: two
    /// overlapping loads of eight or four bytes, or the bytes one at a time below four.
    @inline(__always)
    private static func words(of bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        let count = bytes.count
        guard count <= capacity else { return nil }
        guard count > 0, let base = bytes.baseAddress else { return (0, 0) }
        let p = UnsafeRawPointer(base)
        if count >= 8 {
            let first = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))
            // The last eight bytes, shifted down so that byte 8 comes first; nothing for eight.
            let last = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
            return (first, count == 8 ? 0 : last &>> UInt64(truncatingIfNeeded: 8 &* (16 &- count)))
        }
        if count >= 4 {
            let low = UInt64(UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            return (low | high &<< UInt64(truncatingIfNeeded: 8 &* (count &- 4)), 0)
        }
        var word = UInt64(base[0])
        if count > 1 { word |= UInt64(base[1]) &<< 8 }
        if count > 2 { word |= UInt64(base[2]) &<< 16 }
        return (word, 0)
    }
    #endif
}
