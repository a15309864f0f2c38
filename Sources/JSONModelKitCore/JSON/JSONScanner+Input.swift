extension JSONScanner {
    /// The input as the scanner reads it, and the reading of each token: white space,
    /// comments, numbers and literals here, strings in JSONScanner+Strings.swift (a member's
    /// key and colon are read in the value loop).
    ///
    /// Each scan of a token returns its tape entry and where it ends; the scanner records. The
    /// type is three words, passed in registers: methods of the scanner itself would take the
    /// whole scanner, which a call from a mutating method copies.
    struct Input {
        let start: UnsafePointer<UInt8>
        let end: UnsafePointer<UInt8>
        let allowsComments: Bool

        init(_ bytes: UnsafeBufferPointer<UInt8>, allowsComments: Bool) {
            // An empty buffer may have no base address; any valid pointer serves, as nothing is read.
            start = bytes.baseAddress ?? UnsafePointer(bitPattern: 1).unsafelyUnwrapped
            end = start + bytes.count
            self.allowsComments = allowsComments
        }

        /// The same bytes as `input`, with `allowsComments` as given: the scanner passes a
        /// constant, so that the checks for a slash in the inlined white-space code fold away
        /// where comments are not allowed.
        @inline(__always)
        init(_ input: Input, allowsComments: Bool) {
            start = input.start
            end = input.end
            self.allowsComments = allowsComments
        }

        func error(_ kind: JSONParseError.Kind, at pointer: UnsafePointer<UInt8>) -> JSONParseError {
            JSONParseError(kind, at: pointer - start, in: UnsafeBufferPointer(start: start, count: end - start))
        }

        /// The 16 bytes at `pointer`, which must lie inside the input with 16 bytes to go.
        @inline(__always)
        func block(at pointer: UnsafePointer<UInt8>) -> ByteBlock {
            assert(pointer >= start && end - pointer >= ByteBlock.width)
            return ByteBlock(UnsafeRawPointer(pointer).loadUnaligned(as: SIMD16<UInt8>.self))
        }

        // MARK: - White space and comments

        /// The first position from `p` on that is not white space (nor a comment, where allowed).
        @inline(__always)
        func skipWhitespace(from p: UnsafePointer<UInt8>) throws(JSONParseError) -> UnsafePointer<UInt8> {
            // Most calls meet no white space: a value, a separator or a closer follows at once.
            guard p < end, startsWhitespace(p.pointee) else { return p }
            // Next most often a single space, as after a colon.
            if p.pointee == UInt8(ascii: " ") && end - p >= 2 && !startsWhitespace(p[1]) { return p + 1 }
            let q = skipWhitespaceRun(from: p)
            guard allowsComments, q < end, q.pointee == UInt8(ascii: "/") else { return q }
            return try skipComments(from: q)
        }

        /// The first position from `p` on that is not white space (nor a comment, where
        /// allowed), where the white space is expected to be `indent` bytes long: what it was
        /// before the last value of the same container; and how long it was, the guess for the
        /// next value.
        ///
        /// Pretty-printed JSON indents every value of a container alike. The guess is checked
        /// against the block at `p`, but the position it gives does not wait for that check:
        /// finding the first byte that is not white space in the block, as
        /// ``skipWhitespace(from:)`` does, puts a load and a few vector instructions on the
        /// chain from one value to the next. The guess goes in and out by value: passed
        /// `inout`, a field of the scanner's innermost container keeps the whole container in
        /// memory (PERF: numbers.json in `jsonmodel-bench --section parse`).
        @inline(__always)
        func skipWhitespace(
            from p: UnsafePointer<UInt8>, expecting indent: Int
        ) throws(JSONParseError) -> (end: UnsafePointer<UInt8>, indent: Int) {
            // Compact JSON has nothing to skip, and keeps its guess: this check first, as in the
            // plain skip, spares it the guess's work (PERF: the bulk array's scan in callgrind).
            guard p < end, startsWhitespace(p.pointee) else { return (p, indent) }
            if isWhitespace(at: p, exactly: indent) { return (p + indent, indent) }
            let q = try skipWhitespace(from: p)
            // Where comments are allowed nothing is guessed: a run may end in one.
            return (q, allowsComments ? 0 : q - p)
        }

        /// Whether white space, or a comment where comments are allowed, starts with `byte`.
        @inline(__always)
        private func startsWhitespace(_ byte: UInt8) -> Bool {
            byte <= UInt8(ascii: " ") || (allowsComments && byte == UInt8(ascii: "/"))
        }

        /// ``skipWhitespace(from:)`` where the white space is likely `length` bytes long, as
        /// before a closer in pretty-printed JSON: as long as the line of its opener.
        @inline(__always)
        func skipWhitespace(from p: UnsafePointer<UInt8>, likely length: Int) throws(JSONParseError) -> UnsafePointer<UInt8> {
            if isWhitespace(at: p, exactly: length) { return p + length }
            return try skipWhitespace(from: p)
        }

        /// Whether the `length` bytes at `p` are white space and the byte after them is not,
        /// judged a block at a time; false where the blocks do not fit, and where comments are
        /// allowed (the byte after may start one).
        ///
        /// Runs of a block or more are checked too: a value four levels deep, indented four
        /// spaces a level, follows 17 bytes of white space, and citm_catalog.json's deepest
        /// values follow 25 and 29. Checked only up to one block, those runs, most of that
        /// file's, each went through ``skipWhitespaceRun(from:)`` (PERF: citm_catalog.json in
        /// `jsonmodel-bench --section parse`).
        ///
        /// The lanes are compared as bits, so that the compiler cannot swap the guess for the
        /// lane it is compared with.
        @inline(__always)
        private func isWhitespace(at p: UnsafePointer<UInt8>, exactly length: Int) -> Bool {
            guard !allowsComments && length > 0 else { return false }
            var p = p
            var rest = length
            while rest >= ByteBlock.width {
                guard end - p >= ByteBlock.width, ByteBlock.bits(of: block(at: p).nonWhitespace) == 0 else { return false }
                p += ByteBlock.width
                rest -= ByteBlock.width
            }
            guard end - p >= ByteBlock.width else { return false }
            let stops = UInt32(ByteBlock.bits(of: block(at: p).nonWhitespace))
            let wanted = UInt32(1) &<< UInt32(truncatingIfNeeded: rest)
            return stops & (wanted &<< 1 &- 1) == wanted
        }

        /// The first position from `p` on that is not white space, a block at a time.
        ///
        /// It throws nothing and calls nothing, so it needs no stack frame: comments, which can
        /// throw, are left to ``skipComments(from:)``.
        private func skipWhitespaceRun(from p: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
            var p = p
            if ByteBlock.advance(&p, before: end, toFirst: { $0.nonWhitespace }) { return p }
            while p < end && Self.isWhitespace(p.pointee) { p += 1 }
            return p
        }

        /// Skips comments and the white space between and after them, from the slash at `p`.
        private func skipComments(from p: UnsafePointer<UInt8>) throws(JSONParseError) -> UnsafePointer<UInt8> {
            var p = p
            while p < end && p.pointee == UInt8(ascii: "/") {
                p = skipWhitespaceRun(from: try skipComment(at: p))
            }
            return p
        }

        @inline(__always)
        private static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
        }

        /// Skips the comment that starts at `opening` (a slash).
        private func skipComment(at opening: UnsafePointer<UInt8>) throws(JSONParseError) -> UnsafePointer<UInt8> {
            var p = opening
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
            return p
        }

        // MARK: - Keys and scalars

        /// Scans the string, number or literal at `p`: returns its tape entry and the position
        /// after it.
        @inline(__always)
        func scanScalar(at p: UnsafePointer<UInt8>) throws(JSONParseError) -> (entry: TapeEntry, end: UnsafePointer<UInt8>) {
            switch p.pointee {
            case UInt8(ascii: "\""): try scanString(at: p)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber(at: p)
            case UInt8(ascii: "t"): try scanLiteral("true", .true, at: p)
            case UInt8(ascii: "f"): try scanLiteral("false", .false, at: p)
            case UInt8(ascii: "n"): try scanLiteral("null", .null, at: p)
            default: throw error(.unexpectedByte(p.pointee), at: p)
            }
        }

        /// Scans `word` at `literalStart`.
        @inline(__always)
        private func scanLiteral(
            _ word: StaticString, _ tag: TapeEntry.Tag, at literalStart: UnsafePointer<UInt8>
        ) throws(JSONParseError) -> (entry: TapeEntry, end: UnsafePointer<UInt8>) {
            let length = word.utf8CodeUnitCount
            assert(length == 4 || length == 5)
            // The first four letters at once where the input has them all; else one at a time,
            // which also tells where the input breaks off.
            guard end - literalStart >= length
                && UnsafeRawPointer(literalStart).loadUnaligned(as: UInt32.self)
                    == UnsafeRawPointer(word.utf8Start).loadUnaligned(as: UInt32.self)
                && (length == 4 || literalStart[4] == word.utf8Start[4])
            else { throw literalError(word, at: literalStart) }
            return (TapeEntry(tag, high: length, low: literalStart - start), literalStart + length)
        }

        /// The error in a literal that does not match `word`: where the input ends inside it,
        /// or at its start.
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

        /// Scans the number at `numberStart`.
        private func scanNumber(at numberStart: UnsafePointer<UInt8>) throws(JSONParseError) -> (entry: TapeEntry, end: UnsafePointer<UInt8>) {
            var p = numberStart
            var isInteger = true
            if p.pointee == UInt8(ascii: "-") {
                p += 1
                guard p < end else { throw error(.unexpectedEnd, at: p) }
            }
            if p.pointee == UInt8(ascii: "0") {
                p += 1
                if p < end && Self.isDigit(p.pointee) { throw error(.invalidNumber, at: numberStart) }
            } else if Self.isDigit(p.pointee) {
                p = skipDigits(from: p + 1)
            } else {
                throw error(.invalidNumber, at: numberStart)
            }
            if p < end && p.pointee == UInt8(ascii: ".") {
                isInteger = false
                p += 1
                guard p < end && Self.isDigit(p.pointee) else { throw error(.invalidNumber, at: numberStart) }
                p = skipDigits(from: p)
            }
            if p < end && (p.pointee | 0x20) == UInt8(ascii: "e") {
                isInteger = false
                p += 1
                if p < end && (p.pointee == UInt8(ascii: "+") || p.pointee == UInt8(ascii: "-")) { p += 1 }
                guard p < end && Self.isDigit(p.pointee) else { throw error(.invalidNumber, at: numberStart) }
                p = skipDigits(from: p)
            }
            let length = p - numberStart
            guard length <= TapeEntry.maxField else { throw error(.valueTooLarge, at: numberStart) }
            return (TapeEntry(isInteger ? .integer : .decimal, high: length, low: numberStart - start), p)
        }

        // MARK: - Digits

        @inline(__always)
        static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

        /// The first position from `p` on that is not a digit.
        @inline(__always)
        func skipDigits(from p: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
            var p = p
            // One block covers all but the longest runs; the rest, and the last bytes, one at a time.
            if end - p >= ByteBlock.width {
                let lane = ByteBlock.firstLane(block(at: p).nonDigits)
                p += lane
                if lane < ByteBlock.width { return p }
            }
            while p < end && Self.isDigit(p.pointee) { p += 1 }
            return p
        }
    }
}
