/// Property ordinals by the raw bits of their names' `String` values: the first step of a read.
///
/// A name of up to 15 UTF-8 bytes is stored inside its `String` (a "small" string), so the two
/// words of the `String` are the same for every copy of that name, the literal at a call site
/// included. Comparing those two words tells that two names are equal without reading their
/// bytes, hashing them or touching a reference count. Equal words always mean equal names;
/// unequal words do not mean unequal names (two copies of a longer name point to different
/// storage), so a miss here falls back to ``ModelMetadata/ordinal(of:)``.
///
/// The table is built once with the metadata and freed with it: `capacity` entries of three
/// 64-bit words, the name's two words and its ordinal, `UInt64.max` marking an empty entry.
/// The capacity travels in the low bits of the table's address, so a lookup's loads do not
/// wait for one another, and a model keeps the table in one word.
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

    /// The table's address and capacity in one word, for lookups.
    ///
    /// Copyable, so a model keeps one next to its other fields and a read finds the table
    /// without going through the metadata. One word, not an address and a mask: a second word
    /// made every model 16 bytes larger, through the size classes of the heap. It does not own
    /// the table: it is valid only while the ``RawNameTable`` it came from lives, which for a
    /// model's is as long as the model (the model holds its metadata).
    @usableFromInline
    struct View: @unchecked Sendable {
        // @unchecked Sendable: the table is read-only once built.
        /// The table's address, aligned to ``RawNameTable/alignment``, with the base-2
        /// logarithm of its capacity in the bits the alignment leaves clear.
        @usableFromInline
        let bits: UInt

        @usableFromInline
        init(words: UnsafeMutablePointer<UInt64>, shift: Int) {
            bits = UInt(bitPattern: words) | UInt(shift)
        }

        /// The ordinal of the name whose `String` has exactly these bits, or nil.
        @inlinable @inline(__always)
        func ordinal(of name: String) -> Int? {
            #if _pointerBitWidth(_64)
            let words = UnsafePointer<UInt64>(bitPattern: bits & ~UInt(RawNameTable.alignment - 1)).unsafelyUnwrapped
            let mask = (1 &<< Int(truncatingIfNeeded: bits & UInt(RawNameTable.alignment - 1))) &- 1
            let (first, second) = RawNameTable.rawBits(of: name)
            var slot = RawNameTable.slot(first, second, mask: mask)
            while true {
                let entry = words + slot &* 3
                // No `String` has both words all ones (that is not UTF-8, nor a valid count), so
                // an empty entry never matches and the hit path checks the ordinal last.
                if entry[0] == first && entry[1] == second { return Int(truncatingIfNeeded: entry[2]) }
                if entry[2] == .max { return nil }
                slot = (slot &+ 1) & mask
            }
            #else
            return nil
            #endif
        }
    }

    /// The alignment of the table's address, whose clear low bits hold the capacity's
    /// logarithm in a ``View`` (at most 63 for a 64-bit capacity).
    @inlinable @inline(__always)
    static var alignment: Int { 64 }

    /// The table's address and capacity for lookups; valid only while `self` lives.
    var view: View { View(words: words, shift: shift) }

    /// Builds the table for `names`, in ordinal order.
    init(names: [String]) {
        var shift = 2
        while 1 << shift < names.count * 2 { shift += 1 }
        let capacity = 1 << shift
        words = UnsafeMutableRawPointer.allocate(
            byteCount: capacity * 3 * MemoryLayout<UInt64>.stride, alignment: Self.alignment
        ).bindMemory(to: UInt64.self, capacity: capacity * 3)
        words.initialize(repeating: .max, count: capacity * 3)
        self.shift = shift
        #if _pointerBitWidth(_64)
        for (ordinal, name) in names.enumerated() {
            let (first, second) = Self.rawBits(of: name)
            var slot = Self.slot(first, second, mask: capacity - 1)
            while words[slot * 3 + 2] != .max { slot = (slot + 1) & (capacity - 1) }
            words[slot * 3] = first
            words[slot * 3 + 1] = second
            words[slot * 3 + 2] = UInt64(ordinal)
        }
        #endif
    }

    /// Frees the table, once: the metadata is going away, and its models with it.
    deinit {
        UnsafeMutableRawPointer(words).deallocate()
    }

    #if _pointerBitWidth(_64)
    /// The two words of a `String` value.
    @inlinable @inline(__always)
    static func rawBits(of name: String) -> (UInt64, UInt64) {
        unsafeBitCast(name, to: (UInt64, UInt64).self)
    }
    #endif

    @inlinable @inline(__always)
    static func slot(_ first: UInt64, _ second: UInt64, mask: Int) -> Int {
        let mixed = (first ^ (second &* 0x9E37_79B9_7F4A_7C15)) &* 0xFF51_AFD7_ED55_8CCD
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }

    /// The ordinal of the name whose `String` has exactly these bits, or nil.
    @inline(__always)
    func ordinal(of name: String) -> Int? {
        view.ordinal(of: name)
    }
}
