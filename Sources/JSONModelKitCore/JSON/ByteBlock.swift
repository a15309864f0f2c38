// JSONMODELKIT_PORTABLE_SIMD (`-Xswiftc -DJSONMODELKIT_PORTABLE_SIMD`) makes x86-64 read masks
// as every other architecture does, so that the portable readers can be tested and timed there.
#if arch(x86_64) && !JSONMODELKIT_PORTABLE_SIMD
// Clang's own intrinsic headers (emmintrin.h), as the module every Swift toolchain ships with its
// Clang: for SSE2's movemask, which Swift's SIMD types do not offer.
import _Builtin_intrinsics.intel
#endif

/// Sixteen bytes of input, classified all at once for the scanner's inner loops.
///
/// Each test compares all sixteen lanes in a few vector instructions (`SIMD16<UInt8>` compiles
/// to SSE2 on x86-64) and answers with a mask: every lane all ones or all
/// zeros. ``firstLane(_:)`` turns a mask into the index of its first set lane, so the scanner can
/// jump straight to the first byte that needs a look, the way it would stop at that byte one at a
/// time.
///
/// Swift's SIMD types have no operation that gathers a mask into an integer. On x86-64 the
/// readers of a mask use SSE2's `pmovmskb` (`_mm_movemask_epi8`, from Clang's intrinsic headers),
/// which gathers the sixteen lanes into sixteen bits in one instruction; read through its two
/// 64-bit halves instead, a block would take two moves out of the vector unit and a branch on
/// which half holds the first lane, and a mask's bits two multiplies. Elsewhere (Apple silicon
/// among others) ``isEmpty(_:)`` and ``firstLane(_:)`` narrow a mask to four bits a lane in one 64-bit
/// integer, as NEON's `shrn` does in one instruction (``nibbles(of:)``): an empty mask is a zero
/// and the first lane a count of trailing zeros, with no branch on which half holds it; and
/// ``bits(of:)`` gathers each 64-bit half with a multiply. Building with
/// `-Xswiftc -DJSONMODELKIT_PORTABLE_SIMD` gives x86-64 these portable readers too, to test and
/// time them.
///
/// ```swift
/// let block = ByteBlock(SIMD16(repeating: UInt8(ascii: " ")))
/// ByteBlock.firstLane(block.nonWhitespace)   // 16 (ByteBlock.width): all are white space
/// ```
///
/// The type only classifies: loading the bytes, and making sure sixteen of them are there to
/// load, is the scanner's job. Its members are inlinable: the stream framer, in the models'
/// module, classifies blocks with them in its inner loops, where a call per block would cost
/// more than the classifying.
@usableFromInline
package struct ByteBlock {
    @usableFromInline package typealias Mask = SIMDMask<SIMD16<Int8>>

    /// The number of bytes in a block.
    @inlinable package static var width: Int { 16 }

    @usableFromInline let bytes: SIMD16<UInt8>

    @inlinable @inline(__always)
    package init(_ bytes: SIMD16<UInt8>) { self.bytes = bytes }

    /// The same bytes read as signed, where the bytes 0x80...0xFF are the negative ones.
    @inlinable @inline(__always)
    var signed: SIMD16<Int8> { unsafeBitCast(bytes, to: SIMD16<Int8>.self) }

    // Comparisons take a vector on both sides, its type spelled out: a scalar operand, or a
    // vector type left to inference (which picked the generic implementation), compiles to a
    // loop over the lanes.
    @inlinable @inline(__always)
    static func splat(_ byte: UInt8) -> SIMD16<UInt8> { SIMD16(repeating: byte) }

    /// Lanes that are not JSON white space (space, tab, line feed, carriage return).
    @inlinable @inline(__always)
    package var nonWhitespace: Mask {
        .!((bytes .== Self.splat(0x20)) .| (bytes .== Self.splat(0x0A))
            .| (bytes .== Self.splat(0x0D)) .| (bytes .== Self.splat(0x09)))
    }

    /// Lanes that are not ASCII digits.
    @inlinable @inline(__always)
    package var nonDigits: Mask {
        // Bytes below "0" wrap around to 0xD0 and up, so one unsigned comparison tests both ends.
        .!((bytes &- Self.splat(UInt8(ascii: "0"))) .< Self.splat(10))
    }

    /// Lanes that end a run of plain string bytes: `"`, `\`, control characters (below 0x20)
    /// and non-ASCII bytes (0x80 and up).
    ///
    /// One signed comparison catches the last two groups: read as `Int8`, bytes of 0x80 and up
    /// are negative, so below 0x20 as well.
    @inlinable @inline(__always)
    package var plainStringEnds: Mask {
        (bytes .== Self.splat(UInt8(ascii: "\""))) .| (bytes .== Self.splat(UInt8(ascii: "\\")))
            .| (signed .< SIMD16<Int8>(repeating: 0x20))
    }

    /// Lanes holding `"`.
    @inlinable @inline(__always)
    package var quotes: Mask { bytes .== Self.splat(UInt8(ascii: "\"")) }

    /// ``plainStringEnds`` but the quotes: `\`, control characters and non-ASCII bytes.
    @inlinable @inline(__always)
    package var plainStringEndsButQuotes: Mask {
        (bytes .== Self.splat(UInt8(ascii: "\\"))) .| (signed .< SIMD16<Int8>(repeating: 0x20))
    }

    /// Lanes holding a byte of 0x80 and up, which only non-ASCII text has.
    @inlinable @inline(__always)
    package var nonASCII: Mask { signed .< SIMD16<Int8>(repeating: 0) }

    /// Lanes that end a string or stop a scan through it: `"`, `\` and control characters.
    @inlinable @inline(__always)
    package var stringStops: Mask {
        (bytes .== Self.splat(UInt8(ascii: "\""))) .| (bytes .== Self.splat(UInt8(ascii: "\\")))
            .| (bytes .< Self.splat(0x20))
    }

    /// Lanes a stream's framer stops at inside a string: `"` and `\`.
    @inlinable @inline(__always)
    package var quotesAndBackslashes: Mask {
        (bytes .== Self.splat(UInt8(ascii: "\""))) .| (bytes .== Self.splat(UInt8(ascii: "\\")))
    }

    /// Lanes a stream's framer stops at inside an array or object, outside strings: `"`,
    /// brackets, braces and line feeds.
    @inlinable @inline(__always)
    package var framingStops: Mask {
        // `[` and `]` are 0x5B and 0x5D, `{` and `}` 0x7B and 0x7D: clearing the bits 0x20, 0x04
        // and 0x02 maps all four to 0x59 (and `Y`, `_`, `y` and 0x7F too, which the framer passes over).
        ((bytes & Self.splat(0xD9)) .== Self.splat(0x59)) .| (bytes .== Self.splat(UInt8(ascii: "\"")))
            .| (bytes .== Self.splat(0x0A))
    }

    /// ``framingStops`` and `/`, which may start a comment where comments are allowed.
    @inlinable @inline(__always)
    package var framingStopsAndSlashes: Mask {
        framingStops .| (bytes .== Self.splat(UInt8(ascii: "/")))
    }

    /// The lanes holding a line feed, as the bits of a 16-bit mask (lane 0 the lowest bit).
    @inlinable @inline(__always)
    package var lineFeeds: UInt16 { Self.bits(of: lineFeedLanes) }

    /// Lanes holding a line feed.
    @inlinable @inline(__always)
    var lineFeedLanes: Mask { bytes .== Self.splat(0x0A) }

    /// The lanes holding a UTF-8 continuation byte (0x80...0xBF), as the bits of a 16-bit mask.
    @inlinable @inline(__always)
    package var continuations: UInt16 { Self.bits(of: continuationLanes) }

    /// Lanes holding a UTF-8 continuation byte (0x80...0xBF): below -0x40 read as signed.
    @inlinable @inline(__always)
    var continuationLanes: Mask { signed .< SIMD16<Int8>(repeating: -0x40) }

    /// A mask's lanes as the bits of a 16-bit integer, lane 0 the lowest bit.
    @inlinable @inline(__always)
    static func bits<Lanes: SIMD>(of mask: SIMDMask<Lanes>) -> UInt16 where Lanes.Scalar: FixedWidthInteger {
        #if arch(x86_64) && !JSONMODELKIT_PORTABLE_SIMD
        return UInt16(truncatingIfNeeded: _mm_movemask_epi8(unsafeBitCast(mask, to: SIMD2<Int64>.self)))
        #else
        return portableBits(of: mask)
        #endif
    }

    /// The Unicode scalars in `blocks` whole blocks from `p` (every byte but the UTF-8
    /// continuation bytes), and whether a line feed is among them.
    ///
    /// For the stream's position count (over an element, and up to a column asked for),
    /// which would otherwise count each block's scalars and look for line feeds in it with two
    /// moves out of the vector unit, two population counts and a branch. Here each lane keeps its own count, a byte that cannot overflow
    /// within 255 blocks, and the lanes are added up once per 255 blocks: a block costs a
    /// compare, a subtract and an or.
    @inlinable
    package static func scalarCount(from p: UnsafePointer<UInt8>, blocks: Int) -> (scalars: Int, hasLineFeed: Bool) {
        var continuations = 0
        var feeds = Mask(repeating: false)
        var done = 0
        while done < blocks {
            let run = min(blocks &- done, 255)
            var lanes = SIMD16<UInt8>()
            for index in done..<(done &+ run) {
                let block = ByteBlock(UnsafeRawPointer(p + index &* width).loadUnaligned(as: SIMD16<UInt8>.self))
                // A set lane is 0xFF: subtracting it adds one.
                lanes &-= unsafeBitCast(block.continuationLanes, to: SIMD16<UInt8>.self)
                feeds = feeds .| block.lineFeedLanes
            }
            continuations &+= laneSum(lanes)
            done &+= run
        }
        return (blocks &* width &- continuations, anySet(feeds))
    }

    /// The sum of the sixteen lanes.
    @inlinable @inline(__always)
    static func laneSum(_ lanes: SIMD16<UInt8>) -> Int {
        // Neighbouring bytes added into 16-bit lanes (at most 510 each), the two halves added
        // (at most 1,020 a lane), and the four lanes gathered into the top 16 bits by one
        // multiply (at most 4,080: nothing carries out).
        let halves = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        let evens: UInt64 = 0x00FF_00FF_00FF_00FF
        let low = (halves[0] & evens) &+ ((halves[0] &>> 8) & evens)
        let high = (halves[1] & evens) &+ ((halves[1] &>> 8) & evens)
        return Int(truncatingIfNeeded: ((low &+ high) &* 0x0001_0001_0001_0001) &>> 48)
    }

    /// Lanes that break the rules of well-formed UTF-8, given the three bytes before the block.
    ///
    /// `before1`, `before2` and `before3` are the sixteen bytes starting one, two and three
    /// bytes earlier, so lane *i* of each holds the byte one, two or three places before lane
    /// *i* of this block. A lane is flagged when
    /// - it is a continuation byte (0x80...0xBF) where none is due, or is not one where one is
    ///   due: after a lead byte of 0xC0 and up, two after one of 0xE0 and up, three after one
    ///   of 0xF0 and up;
    /// - it can never occur: 0xC0, 0xC1 (overlong two-byte forms) or 0xF5...0xFF;
    /// - it follows a lead whose second byte is restricted (the Unicode Standard, §3.9, table
    ///   3-7): after 0xE0 it must be 0xA0 or more (no overlong forms), after 0xED 0x9F or less
    ///   (no surrogates), after 0xF0 0x90 or more (no overlong forms), after 0xF4 0x8F or less
    ///   (nothing above U+10FFFF).
    ///
    /// Together these accept exactly the well-formed sequences. A sequence cut off by the end
    /// of the block is not flagged here; the next block, looking back, flags its missing bytes.
    ///
    /// Most rules are tested with a saturating subtraction, which leaves a nonzero byte where a
    /// byte is above a bound and compiles to one instruction (SSE2's `psubusb`), where a
    /// comparison of unsigned bytes takes two on x86-64.
    ///
    /// PERF: checking non-ASCII text, most of what a scan spends on it; see jsonmodel-bench
    /// --section parse (twitter.json).
    @inlinable @inline(__always)
    package func utf8Errors(before1: SIMD16<UInt8>, before2: SIMD16<UInt8>, before3: SIMD16<UInt8>) -> Mask {
        let zero = SIMD16<UInt8>(repeating: 0)
        // Nonzero where a continuation byte is due.
        let due = Self.excess(before1, over: 0xBF) | Self.excess(before2, over: 0xDF) | Self.excess(before3, over: 0xEF)
        // Set where a continuation byte is due and present, or neither.
        let placed = (due .== zero) .^ (signed .< SIMD16<Int8>(repeating: -0x40))
        let neverValid = unsafeBitCast((bytes & Self.splat(0xFE)) .== Self.splat(0xC0), to: SIMD16<UInt8>.self)
            | Self.excess(bytes, over: 0xF4)
        // After 0xE0 at least 0xA0, after 0xF0 at least 0x90 (0xF0 is 0xE0 with 0x10 set); 0 elsewhere.
        let afterE0orF0 = unsafeBitCast((before1 & Self.splat(0xEF)) .== Self.splat(0xE0), to: SIMD16<UInt8>.self)
        let least = afterE0orF0 & (Self.splat(0xA0) &- (before1 & Self.splat(0x10)))
        // After 0xED at most 0x9F, after 0xF4 at most 0x8F; 0xFF elsewhere.
        let afterED = unsafeBitCast(before1 .== Self.splat(0xED), to: SIMD16<UInt8>.self)
        let afterF4 = unsafeBitCast(before1 .== Self.splat(0xF4), to: SIMD16<UInt8>.self)
        let most = Self.splat(0xFF) ^ ((afterED & Self.splat(0x60)) | (afterF4 & Self.splat(0x70)))
        let outOfRange = neverValid | Self.excess(least, over: bytes) | Self.excess(bytes, over: most)
        return .!(placed .& (outOfRange .== zero))
    }

    /// `value - bound` where `value` is above `bound`, else 0, lane by lane: one instruction
    /// (SSE2's `psubusb`, NEON's `uqsub`), where a comparison of unsigned bytes takes two on SSE2.
    @inlinable @inline(__always)
    static func excess(_ value: SIMD16<UInt8>, over bound: SIMD16<UInt8>) -> SIMD16<UInt8> {
        (value &- bound).replacing(with: 0, where: value .< bound)
    }

    @inlinable @inline(__always)
    static func excess(_ value: SIMD16<UInt8>, over bound: UInt8) -> SIMD16<UInt8> { excess(value, over: splat(bound)) }

    /// Whether `a` and `b` hold the same sixteen bytes, for code that works on objects with
    /// reference counts (a model's reads).
    ///
    /// Written out because `all(a .== b)` reduces the mask with the generic `SIMD.max()`, which
    /// the optimizer leaves as a call in some callers (a tree of shuffles and compares, the most
    /// of a name check in the model's reads). Not with the movemask of ``isEmpty(_:)`` either: the
    /// optimizer takes a call of a C function, intrinsic or not, to release anything, and retains
    /// and releases the model around it.
    ///
    /// PERF: the name check of a cached read; see jsonmodel-bench --section model, row (c).
    @inlinable @inline(__always)
    package static func allEqual(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> Bool {
        let halves = unsafeBitCast(a .== b, to: SIMD2<UInt64>.self)
        return halves[0] & halves[1] == .max
    }

    /// Whether some lane of `mask` is set, in Swift alone: not `any(_:)`, whose generic
    /// `SIMD.min()` the optimizer leaves as a call in some callers, nor a movemask (see
    /// ``allEqual(_:_:)``).
    @inlinable @inline(__always)
    static func anySet(_ mask: Mask) -> Bool {
        let halves = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        return halves[0] | halves[1] != 0
    }

    /// Whether no lane of `mask` is set.
    @inlinable @inline(__always)
    package static func isEmpty(_ mask: Mask) -> Bool {
        #if arch(x86_64) && !JSONMODELKIT_PORTABLE_SIMD
        return bits(of: mask) == 0
        #else
        return portableIsEmpty(mask)
        #endif
    }

    /// The index of the first lane set in `mask`, or ``width`` when none is.
    ///
    /// A loop that steps over blocks should go through ``advance(_:before:toFirst:)``, which
    /// asks ``isEmpty(_:)`` before taking this index.
    @inlinable @inline(__always)
    package static func firstLane(_ mask: Mask) -> Int {
        #if arch(x86_64) && !JSONMODELKIT_PORTABLE_SIMD
        // A bit past the sixteen lanes makes an empty mask give `width`.
        return (UInt32(bits(of: mask)) | 0x1_0000).trailingZeroBitCount
        #else
        return portableFirstLane(mask)
        #endif
    }

    /// Moves `p` to the first byte from there on that `flags` flags, a block at a time, and
    /// answers true; or, when none is, to the position from which fewer than ``width`` bytes are
    /// left before `end` (for the byte-at-a-time code that follows), and answers false.
    ///
    /// A block with nothing flagged moves on by ``width`` before its first lane is counted: then
    /// a run of such blocks (white space, the middle of a long string) gives the next position
    /// as soon as the branch is predicted, while adding the count whatever it is puts the
    /// block's load, compare and count on the chain from one block to the next (PERF:
    /// citm_catalog.json, mostly white space, in `jsonmodel-bench --section parse`).
    @inlinable @inline(__always) @discardableResult
    package static func advance(
        _ p: inout UnsafePointer<UInt8>, before end: UnsafePointer<UInt8>, toFirst flags: (ByteBlock) -> Mask
    ) -> Bool {
        while end - p >= width {
            let flagged = flags(ByteBlock(UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)))
            if isEmpty(flagged) {
                p += width
                continue
            }
            p += firstLane(flagged)
            return true
        }
        return false
    }

    // MARK: Portable readers

    // What every architecture but x86-64 reads masks with, and x86-64 too under
    // JSONMODELKIT_PORTABLE_SIMD. They are compiled on every architecture, so that a test on
    // x86-64 can hold them against the SSE2 readers, lane for lane.

    /// `mask` narrowed to four bits a lane, lane 0 the lowest: each pair of lanes read as a
    /// 16-bit lane, shifted right by 4 and cut to its low byte, which is one NEON instruction
    /// (`shrn`), then one move out of the vector unit.
    ///
    /// A lane's four bits are all set or all clear, so an empty mask is a zero and the first
    /// lane a count of trailing zeros divided by 4, with no branch on which half holds it.
    @inlinable @inline(__always)
    static func nibbles(of mask: Mask) -> UInt64 {
        let pairs = unsafeBitCast(mask, to: SIMD8<UInt16>.self) &>> SIMD8(repeating: 4)
        // Lane by lane: the standard library's `SIMD8(truncatingIfNeeded:)` is a generic loop,
        // which the optimizer left as a call in the scanner (a call per mask).
        let narrowed = UInt64(littleEndian: unsafeBitCast(SIMD8<UInt8>(
            UInt8(truncatingIfNeeded: pairs[0]), UInt8(truncatingIfNeeded: pairs[1]), UInt8(truncatingIfNeeded: pairs[2]),
            UInt8(truncatingIfNeeded: pairs[3]), UInt8(truncatingIfNeeded: pairs[4]), UInt8(truncatingIfNeeded: pairs[5]),
            UInt8(truncatingIfNeeded: pairs[6]), UInt8(truncatingIfNeeded: pairs[7])), to: UInt64.self))
        #if _endian(little)
        return narrowed
        #else
        // A pair read big-endian has its second lane in the low byte: swap each byte's halves.
        return (narrowed & 0x0F0F_0F0F_0F0F_0F0F) &<< 4 | (narrowed &>> 4) & 0x0F0F_0F0F_0F0F_0F0F
        #endif
    }

    /// ``bits(of:)`` in Swift alone, for any architecture.
    ///
    /// Through the two 64-bit halves, whose multiplies run side by side: a string's closing
    /// quote is found from these bits, on the chain from one token to the next, where gathering
    /// them from ``nibbles(of:)`` would take two multiplies one after the other.
    @inlinable @inline(__always)
    static func portableBits<Lanes: SIMD>(of mask: SIMDMask<Lanes>) -> UInt16 where Lanes.Scalar: FixedWidthInteger {
        let halves = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        // Each lane is 0x00 or 0xFF: gather the top bit of each byte into one byte.
        let low = ((UInt64(littleEndian: halves[0]) & 0x8080_8080_8080_8080) &* 0x0002_0408_1020_4081) &>> 56
        let high = ((UInt64(littleEndian: halves[1]) & 0x8080_8080_8080_8080) &* 0x0002_0408_1020_4081) &>> 56
        return UInt16(truncatingIfNeeded: low) | UInt16(truncatingIfNeeded: high) &<< 8
    }

    /// ``isEmpty(_:)`` in Swift alone, for any architecture.
    @inlinable @inline(__always)
    static func portableIsEmpty(_ mask: Mask) -> Bool { nibbles(of: mask) == 0 }

    /// ``firstLane(_:)`` in Swift alone, for any architecture: an empty mask has 64 trailing
    /// zeros, a quarter of which is ``width``.
    @inlinable @inline(__always)
    static func portableFirstLane(_ mask: Mask) -> Int { nibbles(of: mask).trailingZeroBitCount &>> 2 }
}
