/// Property ordinals by the raw bits of their names' `String` values: the first step of a read.
///
/// A name of up to 15 UTF-8 bytes is stored inside its `String` (a "small" string), so the two
/// words of the `String` are the same for every copy of that name, the literal at a call site
/// included. Comparing those two words tells that two names are equal without reading their
/// bytes, hashing them or touching a reference count. Equal words always mean equal names;
/// unequal words do not mean unequal names (two copies of a longer name point to different
/// storage), so a miss here falls back to ``ModelMetadata/ordinal(of:)``.
///
/// The table is built once with the metadata and freed with it: entries of four 64-bit words
/// (32 bytes), the name's two words, its ordinal and one unused, `UInt64.max` marking an empty
/// entry; `capacity` of them are places a hash points to, and enough follow them for a run of
/// entries never to wrap around. An entry's place is the top bits of a hash of the name; the
/// shift that turns the hash into the entry's byte offset travels in the low bits of the
/// table's address, so a lookup's loads do not wait for one another, and a model keeps the
/// table in one word. For a name known where it is read, the hash is a constant, and finding
/// its entry takes a load, a shift and a mask.
///
/// Before the table, the names' words stand by ordinal, for reads that bring their ordinal
/// (the typed members generated from a registration block, which know where each property
/// comes in the declarations): the name of ordinal `i` in the 16 bytes at `-32 - 16 * i` from
/// the table, the number of names in the word at `-8`. Checking that the name at a given
/// ordinal is the one read takes a compare of the count and one of the name, where finding the
/// name's entry takes the hash's shift and mask first.
///
/// The type is not copyable, so the table has exactly one owner (the metadata) and is freed
/// exactly once, by `deinit`. Lookups go through a ``View``, which the owner hands out and which
/// is valid only while the owner lives.
@usableFromInline
struct RawNameTable: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: written only while the metadata is built, read-only afterwards.
    let words: UnsafeMutablePointer<UInt64>
    /// The base-2 logarithm of the capacity.
    let shift: Int
    /// The start of the allocation: the names by ordinal, then the table at `words`.
    private let allocation: UnsafeMutableRawPointer

    /// The table's address and capacity in one word, for lookups.
    ///
    /// Copyable, so a model keeps one next to its other fields and a read finds the table
    /// without going through the metadata. One word, not an address and a mask: a second word
    /// made every model 16 bytes larger, through the size classes of the heap. It does not own
    /// the table: it is valid only while the ``RawNameTable`` it came from lives, which for a
    /// model's is as long as the model (the metadata outlives it).
    @usableFromInline
    struct View: @unchecked Sendable {
        // @unchecked Sendable: the table is read-only once built.
        /// The table's address, aligned to ``RawNameTable/alignment``, with
        /// ``RawNameTable/offsetShift(_:)`` of the capacity's base-2 logarithm in the bits the
        /// alignment leaves clear.
        @usableFromInline
        let bits: UInt

        @usableFromInline
        init(words: UnsafeMutablePointer<UInt64>, shift: Int) {
            bits = UInt(bitPattern: words) | UInt(RawNameTable.offsetShift(shift))
        }

        /// The table's address, without the shift in its low bits.
        @inlinable @inline(__always)
        var table: UnsafeRawPointer {
            UnsafeRawPointer(bitPattern: bits & ~UInt(RawNameTable.alignment - 1)).unsafelyUnwrapped
        }

        /// The ordinal of the name whose `String` has exactly these bits, or nil.
        @inlinable @inline(__always)
        func ordinal(of name: String) -> Int? {
            #if _pointerBitWidth(_64)
            let offsetShift = UInt64(bits & UInt(RawNameTable.alignment - 1))
            let (first, second) = RawNameTable.rawBits(of: name)
            let key = RawNameTable.key(of: name)
            var entry = table + Int(truncatingIfNeeded: RawNameTable.hash(first, second) &>> offsetShift) & ~31
            while true {
                // No `String` has both words all ones (that is not UTF-8, nor a valid count), so
                // an empty entry never matches and the hit path checks the ordinal last.
                let ordinal = entry.load(fromByteOffset: 16, as: UInt64.self)
                if ByteBlock.allEqual(entry.load(as: SIMD16<UInt8>.self), key) { return Int(truncatingIfNeeded: ordinal) }
                if ordinal == .max { return nil }
                // The next entry, with no wrapping around (see the type's comment): a mask here
                // would be worked out before every read.
                entry += 32
            }
            #else
            return nil
            #endif
        }

        /// Whether `ordinal` is the ordinal of the name whose `String` has exactly these bits.
        @inlinable @inline(__always)
        func has(_ name: String, at ordinal: Int) -> Bool {
            #if _pointerBitWidth(_64)
            let table = self.table
            guard UInt(bitPattern: ordinal) < table.load(fromByteOffset: -8, as: UInt.self) else { return false }
            return ByteBlock.allEqual(
                table.load(fromByteOffset: -32 &- 16 &* ordinal, as: SIMD16<UInt8>.self), RawNameTable.key(of: name))
            #else
            return false
            #endif
        }
    }

    /// The alignment of the table's address, whose clear low bits hold the offset shift in a
    /// ``View`` (at most 57, for the smallest table).
    @inlinable @inline(__always)
    static var alignment: Int { 64 }

    /// The table's address and capacity for lookups; valid only while `self` lives.
    var view: View { View(words: words, shift: shift) }

    /// Builds the table for `names`, in ordinal order.
    init(names: [String]) {
        var shift = 2
        while 1 << shift < names.count * 2 { shift += 1 }
        let capacity = 1 << shift
        // A run of entries that starts at the last hashed place goes on past it rather than wrap
        // around: it holds at most every name, so one more entry after that many stays empty.
        let entries = capacity + names.count + 1
        // The names by ordinal and their count, rounded up to keep the table's alignment.
        let prefix = (16 + 16 * names.count + Self.alignment - 1) & ~(Self.alignment - 1)
        allocation = UnsafeMutableRawPointer.allocate(
            byteCount: prefix + entries * 4 * MemoryLayout<UInt64>.stride, alignment: Self.alignment)
        allocation.initializeMemory(as: UInt64.self, repeating: .max, count: prefix / 8 + entries * 4)
        words = (allocation + prefix).assumingMemoryBound(to: UInt64.self)
        self.shift = shift
        UnsafeMutableRawPointer(words).storeBytes(of: UInt64(names.count), toByteOffset: -8, as: UInt64.self)
        #if _pointerBitWidth(_64)
        for (ordinal, name) in names.enumerated() {
            let (first, second) = Self.rawBits(of: name)
            UnsafeMutableRawPointer(words).storeBytes(of: first, toByteOffset: -32 - 16 * ordinal, as: UInt64.self)
            UnsafeMutableRawPointer(words).storeBytes(of: second, toByteOffset: -24 - 16 * ordinal, as: UInt64.self)
            var slot = Int(truncatingIfNeeded: Self.hash(first, second) >> UInt64(64 - shift))
            while words[slot * 4 + 2] != .max { slot += 1 }
            words[slot * 4] = first
            words[slot * 4 + 1] = second
            words[slot * 4 + 2] = UInt64(ordinal)
        }
        #endif
    }

    /// Frees the table, once: the metadata is going away, and its models with it.
    deinit {
        allocation.deallocate()
    }

    #if _pointerBitWidth(_64)
    /// The two words of a `String` value.
    @inlinable @inline(__always)
    static func rawBits(of name: String) -> (UInt64, UInt64) {
        unsafeBitCast(name, to: (UInt64, UInt64).self)
    }

    /// A name's two words as one vector, to compare with an entry's. As one vector the name is a
    /// constant in memory: x86-64 compares a 64-bit constant only from a register, and compared
    /// word by word, a reading loop kept the name's first word in one for good, and its running
    /// total on the stack.
    @inlinable @inline(__always)
    static func key(of name: String) -> SIMD16<UInt8> {
        let (first, second) = rawBits(of: name)
        return unsafeBitCast(SIMD2<UInt64>(first, second), to: SIMD16<UInt8>.self)
    }
    #endif

    /// A hash of a name's two words, whose top bits place it in the table.
    @inlinable @inline(__always)
    static func hash(_ first: UInt64, _ second: UInt64) -> UInt64 {
        (first ^ (second &* 0x9E37_79B9_7F4A_7C15)) &* 0xFF51_AFD7_ED55_8CCD
    }

    /// The right shift that takes a hash to its entry's byte offset, bar the low five bits, in
    /// a table of 2^`shift` places: the top `shift` bits of the hash number the place, and the
    /// five below them make room for its 32 bytes. At a read this is a shift and a mask (PERF:
    /// the cached read, row (c) of `jsonmodel-bench --section model`).
    @inlinable @inline(__always)
    static func offsetShift(_ shift: Int) -> Int { 59 - shift }

    /// The ordinal of the name whose `String` has exactly these bits, or nil.
    @inline(__always)
    func ordinal(of name: String) -> Int? {
        view.ordinal(of: name)
    }
}
