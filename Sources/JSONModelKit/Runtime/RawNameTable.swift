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
/// The mask travels with the pointer, so a lookup's loads do not wait for one another.
///
/// The type is not copyable, so the table has exactly one owner (the metadata) and is freed
/// exactly once, by `deinit`. Lookups go through a ``View``, which the owner hands out and which
/// is valid only while the owner lives.
@usableFromInline
struct RawNameTable: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: written only while the metadata is built, read-only afterwards.
    let words: UnsafeMutablePointer<UInt64>
    /// The capacity minus one.
    let mask: Int

    /// The table's address and mask, for lookups.
    ///
    /// Copyable, so a model keeps one next to its other fields and a read finds the table
    /// without going through the metadata. It does not own the table: it is valid only while
    /// the ``RawNameTable`` it came from lives, which for a model's is as long as the model (the
    /// model holds its metadata).
    @usableFromInline
    struct View: @unchecked Sendable {
        // @unchecked Sendable: the table is read-only once built.
        @usableFromInline
        let words: UnsafeMutablePointer<UInt64>
        /// The capacity minus one.
        @usableFromInline
        let mask: Int

        @usableFromInline
        init(words: UnsafeMutablePointer<UInt64>, mask: Int) {
            self.words = words
            self.mask = mask
        }

        /// The ordinal of the name whose `String` has exactly these bits, or nil.
        @inlinable @inline(__always)
        func ordinal(of name: String) -> Int? {
            #if _pointerBitWidth(_64)
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

    /// The table's address and mask for lookups; valid only while `self` lives.
    var view: View { View(words: words, mask: mask) }

    /// Builds the table for `names`, in ordinal order.
    init(names: [String]) {
        var capacity = 4
        while capacity < names.count * 2 { capacity *= 2 }
        words = .allocate(capacity: capacity * 3)
        words.initialize(repeating: .max, count: capacity * 3)
        mask = capacity - 1
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
        words.deallocate()
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
