/// Turns JSON bytes into a tape in one pass, validating everything RFC 8259 asks.
///
/// The scanner never recurses: open containers live on an explicit stack, so nesting depth is
/// bounded only by `maxDepth`, not by the thread's stack.
///
/// White space, strings, UTF-8 and digits are scanned a ``ByteBlock`` (16 bytes) at a time: a
/// block is classified at once and the scanner jumps to its first byte that needs a look, which
/// the byte-at-a-time code then handles as it does any byte. Blocks are loaded only where 16
/// bytes remain before the end; the last bytes of the input always go through the
/// byte-at-a-time code, so nothing past the buffer is read. Errors are always reported by the byte-at-a-time code, at
/// the same position whichever path found them.
///
/// This file holds the value loop, which records; ``Input`` reads each token and returns its
/// tape entry (JSONScanner+Input.swift, JSONScanner+Strings.swift). The read position and the
/// tape's ``TapeCursor`` are locals of ``scan()`` that every step takes and returns, so they
/// stay in registers: kept in the scanner, each step would store them and the next load them
/// back, on the chain of dependent instructions that parsing is.
struct JSONScanner: ~Copyable {
    private let input: Input
    private let options: JSONParseOptions
    private(set) var tape: TapeBuilder
    private(set) var valueCount = 0
    private(set) var deepest = 0
    /// Called with the offset the scan has reached, about every ``releaseInterval`` bytes (at
    /// the next container), so that a mapped input can hand back the pages behind it; nil for
    /// input in memory.
    private let release: ((Int) -> Void)?
    private let releaseInterval: Int
    /// Whether the scan ends after the first value, whatever follows it (for streams).
    var stopsAfterValue = false
    /// Where the first value ended, as an offset in the input, when the scan stops after it.
    private(set) var valueEnd = 0
    /// How much deeper the values of a container are indented than its own line, as last seen:
    /// pretty-printed JSON indents each level alike, so the white space after an opener and
    /// before a closer is guessed from it (see ``Input/skipWhitespace(from:expecting:)``). A
    /// field, not a local of the loop: it is read and written only at containers, and the loop
    /// needs every register it has (PERF: numbers.json's scan in callgrind).
    private var indentStep = 0

    /// An open container.
    private struct Frame {
        var tapeIndex: Int
        var count: Int
        var isObject: Bool
        /// The length of the white space before its last value, which its next value is
        /// expected to have too (``Input/skipWhitespace(from:expecting:)``).
        var indent = 0
    }

    /// The open containers around the innermost one.
    ///
    /// A stack of its own: a Swift array checks that its storage is not shared, through a
    /// call into the runtime, at every push and pop, one of each per container. It starts in
    /// storage the caller lends, on the stack (``scan()``), and moves to the heap only when
    /// nesting outgrows it, so a small document, such as an element of a stream, allocates
    /// nothing for it. Its fields are its own, like ``TapeBuilder``'s, not in one storage type
    /// shared by both (PERF: twitter.json's scan, and the stream section's element, in callgrind).
    private struct FrameStack: ~Copyable {
        private var base: UnsafeMutablePointer<Frame>
        private var capacity: Int
        private var count = 0
        /// Whether `base` is the stack's own (false while it uses the lent storage).
        private var ownsBase = false

        init(lending buffer: UnsafeMutableBufferPointer<Frame>) {
            precondition(buffer.count > 0)
            base = buffer.baseAddress!
            capacity = buffer.count
        }

        deinit {
            base.deinitialize(count: count)
            if ownsBase { freePlain(base) }
        }

        @inline(__always)
        mutating func push(_ frame: Frame) {
            if count == capacity { grow() }
            (base + count).initialize(to: frame)
            count += 1
        }

        @inline(__always)
        mutating func pop() -> Frame {
            precondition(count > 0)
            count -= 1
            return (base + count).move()
        }

        private mutating func grow() {
            let newBase = allocatePlain(Frame.self, capacity: capacity * 2)
            newBase.moveInitialize(from: base, count: count)
            if ownsBase { freePlain(base) }
            ownsBase = true
            base = newBase
            capacity *= 2
        }
    }

    /// The tape written, as a document's (``TapeBuilder/takeWords()``); once, after ``scan()``.
    mutating func takeTape() -> TapeWords { tape.takeWords() }

    /// - Parameters:
    ///   - tapeBuffer: Storage to write the tape into while it fits (see ``TapeBuilder``).
    ///   - tapeCapacity: Without a buffer, the words the tape's own storage starts with.
    ///   - tapeReserve: Without a buffer, the most words the tape's own storage may need, to
    ///     keep it in pages of its own (``DocumentPages``); nil for storage from `malloc`.
    ///   - release: Called with the offset reached, about every `releaseInterval` bytes.
    init(
        bytes: UnsafeBufferPointer<UInt8>, options: JSONParseOptions, tapeBuffer: UnsafeMutableBufferPointer<UInt64>? = nil,
        tapeCapacity: Int? = nil, tapeReserve: Int? = nil, releaseInterval: Int = 0, release: ((Int) -> Void)? = nil
    ) {
        input = Input(bytes, allowsComments: options.allowsComments)
        self.options = options
        self.release = releaseInterval > 0 ? release : nil
        self.releaseInterval = releaseInterval
        // Typical documents need one tape word per 6 to 12 input bytes; the builder grows if not.
        if let tapeBuffer, tapeBuffer.count > 0 {
            tape = TapeBuilder(lending: tapeBuffer)
        } else {
            tape = TapeBuilder(capacity: tapeCapacity ?? bytes.count / 8 + 16, reserving: tapeReserve)
        }
    }

    private func error(_ kind: JSONParseError.Kind, at pointer: UnsafePointer<UInt8>) -> JSONParseError {
        input.error(kind, at: pointer)
    }

    // MARK: - The value loop

    /// The loop is compiled twice, for input with comments and without, each copy with an input
    /// that says which as a constant: the inlined checks for white space, two or three for each
    /// member of an object, then need not also look for the slash that starts a comment.
    mutating func scan() throws(JSONParseError) {
        // Sixteen frames (512 bytes) on the stack hold all but the deepest documents.
        #if compiler(>=6.3) && os(Linux)
        // The closure throws its own error type: the Linux standard library of Swift 6.3 takes
        // one, and the `Result` below adds work to every scan, which a stream pays per element.
        // PERF: a streamed element's scan; see callgrind of
        // `JSONMODEL_BENCH_STREAM_CHILD=profile jsonmodel-bench --section stream`.
        try withUnsafeTemporaryAllocation(of: Frame.self, capacity: 16) { frames throws(JSONParseError) in
            try scan(frames: frames)
        }
        #else
        // Swift 6.2's standard library, and Apple's of 6.3, type this closure as throwing
        // `any Error`: the error comes out as a `Result`.
        try withUnsafeTemporaryAllocation(of: Frame.self, capacity: 16) { frames in
            Result { () throws(JSONParseError) in try scan(frames: frames) }
        }.get()
        #endif
    }

    /// The value loop's copy for the input's comment setting.
    @inline(__always)
    private mutating func scan(frames: UnsafeMutableBufferPointer<Frame>) throws(JSONParseError) {
        if input.allowsComments {
            try scan(frames: frames, comments: WithComments.self)
        } else {
            try scan(frames: frames, comments: WithoutComments.self)
        }
    }

    /// Whether comments are allowed, as a type, so that each setting has its own copy of the loop.
    private protocol CommentSetting { static var allowed: Bool { get } }
    private enum WithComments: CommentSetting { static var allowed: Bool { true } }
    private enum WithoutComments: CommentSetting { static var allowed: Bool { false } }

    /// The value loop of ``scan()``, keeping the open containers in `frames` while they fit.
    private mutating func scan<Comments: CommentSetting>(
        frames: UnsafeMutableBufferPointer<Frame>, comments: Comments.Type
    ) throws(JSONParseError) {
        // The input and the options as locals: read through `self`, which the loop writes (its
        // tape), they would be loaded again after every call, each through the scanner's address.
        // PERF: the value loop; see jsonmodel-bench --section parse.
        let input = Input(self.input, allowsComments: Comments.allowed)
        let start = input.start
        let end = input.end
        let maxDepth = options.maxDepth
        let allowsTrailingCommas = options.allowsTrailingCommas
        guard UInt(end - start) <= UInt(UInt32.max) else { throw error(.documentTooLarge, at: start) }
        var written = tape.cursor
        // The innermost open container is `current`; the ones around it are on `outer`.
        var outer = FrameStack(lending: frames)
        var current = Frame(tapeIndex: 0, count: 0, isObject: false)
        var depth = 0
        var values = 0
        var p = try input.skipWhitespace(from: start)
        guard p < end else { throw error(.emptyInput, at: p) }
        // Whether a member's key comes first at `p`.
        var atKey = false
        // The offset past which `release` is called next; never for input in memory.
        var releaseMark = release == nil ? Int.max : releaseInterval

        value: while true {
            member: do {
                if atKey {
                    // `"key" :`, read here rather than in a method of `Input`: the optimizer
                    // leaves such a method a call, even marked to be inlined.
                    // PERF: the members of pretty-printed JSON; see jsonmodel-bench --section
                    // parse (citm_catalog.json).
                    guard p < end else { throw error(.unexpectedEnd, at: p) }
                    guard p.pointee == UInt8(ascii: "\"") else { throw error(.unexpectedByte(p.pointee), at: p) }
                    let key = try input.scanString(at: p)
                    var colon = key.end
                    // Compact JSON has the colon right after the key: then there is no white space to skip.
                    if colon >= end || colon.pointee != UInt8(ascii: ":") {
                        colon = try input.skipWhitespace(from: key.end)
                        guard colon < end else { throw error(.unexpectedEnd, at: colon) }
                        guard colon.pointee == UInt8(ascii: ":") else { throw error(.unexpectedByte(colon.pointee), at: colon) }
                    }
                    p = try input.skipWhitespace(from: colon + 1)
                    guard p < end else { throw error(.unexpectedEnd, at: p) }
                    // A scalar value is read here, so that it can take its key's entry into its
                    // own (a packed member, ``TapeEntry``), and the read of a value below stays
                    // free of that decision for the elements of arrays (PERF: numbers.json in
                    // `jsonmodel-bench --section parse`).
                    if p.pointee != UInt8(ascii: "[") && p.pointee != UInt8(ascii: "{") {
                        values &+= 1
                        let scalar = try input.scanScalar(at: p)
                        if let packed = TapeEntry.packedMember(key: key.entry, value: scalar.entry) {
                            append(packed, to: &written)
                        } else {
                            append(key.entry, to: &written)
                            append(scalar.entry, to: &written)
                        }
                        p = scalar.end
                        break member
                    }
                    append(key.entry, to: &written)
                }
                // Here a value must start at `p` (white space already skipped).
                guard p < end else { throw error(.unexpectedEnd, at: p) }
                values &+= 1
                let opener = p.pointee
                if opener == UInt8(ascii: "[") || opener == UInt8(ascii: "{") {
                    let isObject = opener == UInt8(ascii: "{")
                    guard depth < maxDepth else { throw error(.tooDeep(limit: maxDepth), at: p) }
                    // One comparison per container: nothing else in the loop pays for a mapped input.
                    if p - start >= releaseMark {
                        release?(p - start)
                        releaseMark = p - start + releaseInterval
                    }
                    if depth > 0 { outer.push(current) }
                    depth += 1
                    deepest = max(deepest, depth)
                    let outerIndent = current.indent
                    current = Frame(tapeIndex: written.count, count: 0, isObject: isObject)
                    append(TapeEntry(bits: 0), to: &written)  // patched when the container closes
                    // Pretty-printed, the values are likely as much deeper than the values around
                    // the container as those of the last container opened.
                    (p, current.indent) = try input.skipWhitespace(from: p + 1, expecting: outerIndent &+ indentStep)
                    indentStep = current.indent &- outerIndent
                    guard p < end else { throw error(.unexpectedEnd, at: p) }
                    guard p.pointee == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                        atKey = isObject
                        continue value
                    }
                    p += 1
                    try close(&current, outer: &outer, depth: &depth, at: p, written: written)
                } else {
                    let scalar = try input.scanScalar(at: p)
                    append(scalar.entry, to: &written)
                    p = scalar.end
                }
            }

            // A value just ended: a separator, a closer, or the end of the document follows.
            while true {
                guard depth > 0 else {
                    if stopsAfterValue {
                        valueEnd = p - start
                        tape.finish(written)
                        valueCount = values
                        return
                    }
                    p = try input.skipWhitespace(from: p)
                    guard p == end else { throw error(.trailingContent, at: p) }
                    tape.finish(written)
                    valueCount = values
                    return
                }
                current.count &+= 1
                let closer = current.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                // Compact JSON has the separator or closer right after the value.
                if p >= end || (p.pointee != UInt8(ascii: ",") && p.pointee != closer) {
                    // Pretty-printed, a closer is indented as its opener's line: one step less
                    // than the container's values.
                    p = try input.skipWhitespace(from: p, likely: current.indent &- indentStep)
                    guard p < end else { throw error(.unexpectedEnd, at: p) }
                }
                switch p.pointee {
                case UInt8(ascii: ","):
                    let comma = p
                    (p, current.indent) = try input.skipWhitespace(from: p + 1, expecting: current.indent)
                    if p < end && p.pointee == closer {
                        guard allowsTrailingCommas else { throw error(.trailingComma, at: comma) }
                        p += 1
                        try close(&current, outer: &outer, depth: &depth, at: p, written: written)
                        continue
                    }
                    atKey = current.isObject
                    continue value
                case closer:
                    p += 1
                    try close(&current, outer: &outer, depth: &depth, at: p, written: written)
                default:
                    throw error(.unexpectedByte(p.pointee), at: p)
                }
            }
        }
    }

    /// Appends `entry` through `cursor`, growing the tape first when it is full.
    @inline(__always)
    private mutating func append(_ entry: TapeEntry, to cursor: inout TapeCursor) {
        if cursor.isFull { cursor = tape.grown(from: cursor) }
        cursor.append(entry)
    }

    /// Writes the tape entry of the innermost container, whose closer ends just before `p`, and
    /// makes the one around it current.
    @inline(__always)
    private func close(
        _ current: inout Frame, outer: inout FrameStack, depth: inout Int, at p: UnsafePointer<UInt8>, written: TapeCursor
    ) throws(JSONParseError) {
        guard current.count <= TapeEntry.maxField else { throw error(.valueTooLarge, at: p - 1) }
        written.patch(current.tapeIndex, TapeEntry(container: current.isObject, count: current.count, end: written.count))
        depth -= 1
        if depth > 0 { current = outer.pop() }
    }
}
