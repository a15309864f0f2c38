/// One 64-bit word of a document's tape.
///
/// The tape is the flat result of scanning: one entry per value and per object key, in document
/// order, except that most members whose value is a scalar take one entry for both. Nothing is
/// decoded while scanning; scalars point back into the bytes.
///
/// | bits  | scalars (strings, numbers, literals) | containers (arrays, objects)            |
/// |-------|--------------------------------------|-----------------------------------------|
/// | 60–63 | tag                                  | tag                                     |
/// | 32–59 | byte length                          | element count (members for objects)     |
/// | 0–31  | byte offset                          | tape index just past the container      |
///
/// A string's byte range excludes the quotes. An object's entries are, for each member, either
/// its key's entry (a string) followed by its value's, or one *packed member*: a scalar value
/// whose entry also places the key, which the scanner writes when the key has no escapes and
/// the three lengths below fit their fields.
///
/// | bits  | packed member                                                               |
/// |-------|-----------------------------------------------------------------------------|
/// | 60–63 | 8 plus the value's tag (8–14)                                               |
/// | 56–59 | the bytes from the key's end to the value, minus 2 (`":` is 2; up to 17)     |
/// | 48–55 | the key's byte length (below 256)                                           |
/// | 32–47 | the value's byte length (below 65,536)                                      |
/// | 0–31  | the value's byte offset                                                     |
///
/// Read as a value, a packed member is its scalar: ``tag`` and ``byteRange`` give the value's,
/// so everything that reads values reads it unchanged; only what walks an object's members
/// asks ``JSONDocument/memberKey(at:)`` for the key and ``JSONDocument/memberValue(at:)`` for
/// the value. An object's count is the number of members, not the number of entries. In the
/// tape's nibble, an object's tag is 15, so that the tags of packed members fit below it.
///
/// Packing halves the tape of objects of scalars: a member costs 8 bytes, not 16.
///
/// PERF: the tape of records of scalars; see jsonmodel-bench --section bulk, row (c).
@usableFromInline
package struct TapeEntry: Equatable {
    @usableFromInline
    package enum Tag: UInt8 {
        case null = 0, `false`, `true`, integer, decimal, string, escapedString, array, object
    }

    /// The largest value of a 28-bit field: a byte length, an element count.
    @inlinable package static var maxField: Int { (1 << 28) - 1 }

    /// The tape's nibble for an object.
    @inlinable static var objectNibble: UInt64 { 15 }

    @usableFromInline var bits: UInt64

    @inlinable package init(bits: UInt64) { self.bits = bits }

    /// A scalar's entry. (Objects' tag is not their nibble: ``init(container:count:end:)``.)
    @inline(__always)
    init(_ tag: Tag, high: Int, low: Int) {
        // The tag as it is: mapping an object's here too made this large enough that the
        // scanner's scalar read, which makes these entries, stopped being inlined into its loop.
        assert(tag != .object)
        bits = UInt64(tag.rawValue) << 60 | UInt64(truncatingIfNeeded: high) << 32
            | UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: low))
    }

    /// A container's entry: an object's or an array's, its count and the tape index past it.
    @inline(__always)
    init(container isObject: Bool, count: Int, end: Int) {
        let nibble = isObject ? Self.objectNibble : UInt64(Tag.array.rawValue)
        bits = nibble << 60 | UInt64(truncatingIfNeeded: count) << 32 | UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: end))
    }

    /// A packed member for the key `key` (a string entry) and the scalar `value` after it, or
    /// nil when the key has escapes or a length does not fit its field.
    @inline(__always)
    static func packedMember(key: TapeEntry, value: TapeEntry) -> TapeEntry? {
        // Written for few instructions, as the scanner makes one of these per member: the
        // checks of the key's tag and length are one compare, and a scalar's tag becomes a
        // packed member's by setting the top bit (8 plus the tag).
        let keyCount = (key.bits >> 32) & 0xFF
        let gap = UInt64(
            UInt32(truncatingIfNeeded: value.bits) &- UInt32(truncatingIfNeeded: key.bits) &- UInt32(truncatingIfNeeded: keyCount) &- 2)
        guard key.bits >> 40 == UInt64(Tag.string.rawValue) << 20, value.bits & 0x0FFF_0000_0000_0000 == 0, gap < 1 << 4
        else { return nil }
        return TapeEntry(bits: value.bits | 1 << 63 | gap << 56 | keyCount << 48)
    }

    /// The kind of value; for a packed member, its value's.
    ///
    /// The raw value is made a `Tag` by reinterpreting it: a `Tag` is stored as the index of its
    /// case, which is its raw value, and the value here is one of them (0 through 8).
    /// `Tag(rawValue:)` was not inlined into another module and cost a call per read of a tag
    /// there (167,000 a read of canada.json). PERF: jsonmodel-bench --section documents.
    @inlinable @inline(__always) package var tag: Tag {
        let nibble = UInt8(truncatingIfNeeded: bits >> 60)
        let raw = nibble == 15 ? Tag.object.rawValue : nibble & 7
        return unsafeBitCast(raw, to: Tag.self)
    }

    @inlinable @inline(__always) package var isContainer: Bool { (bits >> 60) & 7 == 7 }

    /// Whether this is a packed member: a key and its scalar value in one entry.
    @inlinable @inline(__always) package var isPackedMember: Bool { (bits >> 60) &- 8 < 7 }

    /// Scalars: where the value's text lies in the document's bytes.
    @inlinable @inline(__always) package var byteRange: ByteRange {
        let mask: UInt64 = isPackedMember ? 0xFFFF : UInt64(Self.maxField)
        return ByteRange(offset: Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: bits)),
                         count: Int(truncatingIfNeeded: (bits >> 32) & mask))
    }

    /// Packed members: the byte length of the key.
    @inlinable @inline(__always) package var packedKeyCount: Int { Int(truncatingIfNeeded: (bits >> 48) & 0xFF) }

    /// Packed members: the entry of the key, as a string.
    @inlinable @inline(__always) package var packedKey: TapeEntry {
        let keyCount = UInt64(truncatingIfNeeded: packedKeyCount)
        let keyOffset = (bits & 0xFFFF_FFFF) &- ((bits >> 56) & 0xF) &- 2 &- keyCount
        return TapeEntry(bits: UInt64(Tag.string.rawValue) << 60 | keyCount << 32 | keyOffset)
    }

    /// Containers: the tape index one past the container's last entry.
    @inlinable @inline(__always) package var containerEnd: Int { Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: bits)) }

    /// Containers: elements of an array, members (pairs) of an object.
    @inlinable @inline(__always) package var containerCount: Int { Int(truncatingIfNeeded: (bits >> 32) & UInt64(Self.maxField)) }
}

/// A range of bytes in a document's input; distinct from a range of tape entries.
@usableFromInline
package struct ByteRange: Equatable {
    @usableFromInline package var offset: Int
    @usableFromInline package var count: Int
    @inlinable package var upperBound: Int { offset + count }

    @inlinable
    package init(offset: Int, count: Int) {
        self.offset = offset
        self.count = count
    }
}

/// A document's tape: its words, in memory of their own from `malloc`, or for a large document
/// in pages of their own (``DocumentPages``), which the document frees with ``free()`` when it goes.
///
/// Not an array, so that the scan can write straight into the tape's memory, grow it in place
/// or with `realloc` and give back what it did not use: for a large tape, neither copies its
/// words, and the tape is never copied at its end. Reads check their index, as an array's do.
@usableFromInline
package struct TapeWords: @unchecked Sendable {
    // @unchecked Sendable: the words are written before the document that holds them is made,
    // and never after.
    @usableFromInline let base: UnsafeMutablePointer<UInt64>
    /// The number of words.
    @usableFromInline package let count: Int
    /// The pages the words are in, when they are in pages of their own (``DocumentPages``); nil
    /// for memory from `malloc`.
    let pages: DocumentPages.Reservation?

    init(base: UnsafeMutablePointer<UInt64>, count: Int, pages: DocumentPages.Reservation? = nil) {
        self.base = base
        self.count = count
        self.pages = pages
    }

    /// A copy of `words` in memory of its own.
    init(copying words: UnsafeBufferPointer<UInt64>) {
        base = allocatePlain(UInt64.self, capacity: words.count)
        if let source = words.baseAddress { base.initialize(from: source, count: words.count) }
        count = words.count
        pages = nil
    }

    @inlinable @inline(__always)
    package subscript(index: Int) -> UInt64 {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "tape index out of range")
        return base[index]
    }

    @inlinable @inline(__always)
    package func withUnsafeBufferPointer<Result, E: Error>(
        _ body: (UnsafeBufferPointer<UInt64>) throws(E) -> Result
    ) throws(E) -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Gives the memory back; for the document that holds these words, once.
    func free() {
        if let pages {
            DocumentPages.release(pages)
        } else {
            freePlain(base)
        }
    }
}

/// A growable buffer of tape words, used only while scanning.
///
/// Scanning appends millions of entries and patches container starts; a raw buffer keeps that
/// free of uniqueness and bounds checks. Its words become the document's with ``takeWords()``.
struct TapeBuilder: ~Copyable {
    private var base: UnsafeMutablePointer<UInt64>
    private var capacity: Int
    /// The capacity the builder's own storage started with (0 for a lent buffer).
    private let initialCapacity: Int
    private(set) var count = 0
    /// Whether `base` is the builder's own (false while it writes into a lent buffer, and
    /// after ``takeWords()``).
    private var ownsBase: Bool
    /// The pages at `base` when the storage is in pages of its own (``DocumentPages``), at least
    /// the first `capacity` words of them usable; nil for memory from `malloc`.
    private var pages: DocumentPages.Reservation?

    /// Storage of its own for `capacity` words, which grows as needed: with `reserving`, in pages
    /// of its own with room reserved for that many words, where the system gives them
    /// (``DocumentPages``); from `malloc` otherwise.
    init(capacity: Int, reserving maximum: Int? = nil) {
        self.capacity = max(capacity, 16)
        initialCapacity = self.capacity
        ownsBase = true
        let usable = self.capacity * MemoryLayout<UInt64>.stride
        if let maximum, maximum > self.capacity,
            let pages = DocumentPages.reserve(maximum * MemoryLayout<UInt64>.stride, usable: usable)
        {
            base = pages.base.assumingMemoryBound(to: UInt64.self)
            self.pages = pages
        } else {
            base = allocatePlain(UInt64.self, capacity: self.capacity)
        }
    }

    /// Writes into `buffer` (not freed by the builder) while it has room, then moves to
    /// storage of its own; ``isUsingLentBuffer`` tells which happened.
    init(lending buffer: UnsafeMutableBufferPointer<UInt64>) {
        precondition(buffer.count > 0)
        base = buffer.baseAddress!
        capacity = buffer.count
        initialCapacity = 0
        ownsBase = false
    }

    deinit {
        guard ownsBase else { return }
        if let pages {
            DocumentPages.release(pages)
        } else {
            freePlain(base)
        }
    }

    /// Whether every entry so far is in the lent buffer (asked before ``takeWords()``).
    var isUsingLentBuffer: Bool { !ownsBase }

    /// Where to write next. Hand it back with ``finish(_:)``, or to ``grown(from:)`` when full.
    var cursor: TapeCursor { TapeCursor(base: base, count: count, capacity: capacity) }

    /// Takes back the entries written through `cursor` and returns a cursor with room for more.
    mutating func grown(from cursor: TapeCursor) -> TapeCursor {
        finish(cursor)
        grow()
        return self.cursor
    }

    /// Takes back the entries written through `cursor`, a cursor of this builder's storage.
    mutating func finish(_ cursor: TapeCursor) {
        precondition(cursor.base == base && cursor.count <= capacity)
        count = cursor.count
    }

    /// Doubles the storage: reserved pages are made usable in place, storage from `malloc`
    /// grows with `realloc`, which moves a large block's pages rather than copying them, and a
    /// lent buffer is copied into storage of its own. Reserved pages that run out (the
    /// reservation holds the densest input, so only when the system refuses more) are copied
    /// into storage from `malloc`.
    private mutating func grow() {
        let newCapacity = capacity * 2
        let stride = MemoryLayout<UInt64>.stride
        if var reserved = pages {
            // Up to the end of the reservation, which page rounding may leave short of a doubling.
            let reservedCapacity = min(newCapacity, reserved.bytes / stride)
            let needed = reservedCapacity * stride
            if reservedCapacity > capacity,
                needed <= reserved.usable || DocumentPages.extend(reserved.base, from: reserved.usable, to: needed)
            {
                reserved.usable = max(reserved.usable, DocumentPages.pageRounded(needed))
                pages = reserved
                capacity = reservedCapacity
                return
            }
            let newBase = allocatePlain(UInt64.self, capacity: newCapacity)
            newBase.initialize(from: base, count: count)
            DocumentPages.release(reserved)
            pages = nil
            base = newBase
        } else if ownsBase {
            base = reallocatePlain(base, capacity: newCapacity)
        } else {
            let newBase = allocatePlain(UInt64.self, capacity: newCapacity)
            newBase.initialize(from: base, count: count)
            base = newBase
            ownsBase = true
        }
        capacity = newCapacity
    }

    /// The entries written so far, as a document's tape: a copy of the lent buffer's entries,
    /// or the builder's own storage, which, if it grew, gives back (with `realloc`) what the
    /// entries do not need beyond the storage it started with. Call it once; the builder
    /// writes nothing after it.
    ///
    /// Not cut to the entries: the storage a tape starts with is what the next document of its
    /// size asks for, and `malloc` can hand the same block out again only if the block freed
    /// was at least that large. glibc's serves a large request from memory it keeps once a
    /// block that large has been freed, and maps it fresh before; cut to its entries, a tape
    /// was mapped fresh for every parse: citm_catalog.json took 97 page faults a parse instead
    /// of 2, and its parse about 8% longer (`JSONMODEL_BENCH_PARSE_CHILD=profile`, `perf stat`).
    /// What is left is storage the scan never wrote, which costs no memory where it was
    /// freshly mapped.
    ///
    /// Reserved pages are kept whole, for the next large tape once the document goes
    /// (``DocumentPages``): what was never written costs no memory.
    mutating func takeWords() -> TapeWords {
        guard ownsBase else { return TapeWords(copying: UnsafeBufferPointer(start: base, count: count)) }
        if let pages {
            ownsBase = false
            return TapeWords(base: base, count: count, pages: pages)
        }
        if capacity > initialCapacity { base = reallocatePlain(base, capacity: max(count, initialCapacity)) }
        ownsBase = false
        return TapeWords(base: base, count: count)
    }
}

/// Where the scanner writes tape entries: a ``TapeBuilder``'s storage and how much of it is
/// written.
///
/// Three words and copyable, so the scanner's loop keeps it in registers; appending through the
/// builder itself loaded and stored its count in memory for every entry.
struct TapeCursor {
    fileprivate let base: UnsafeMutablePointer<UInt64>
    private(set) var count: Int
    fileprivate let capacity: Int

    fileprivate init(base: UnsafeMutablePointer<UInt64>, count: Int, capacity: Int) {
        self.base = base
        self.count = count
        self.capacity = capacity
    }

    /// Whether the storage has no room for another entry.
    @inline(__always) var isFull: Bool { count == capacity }

    @inline(__always)
    mutating func append(_ entry: TapeEntry) {
        precondition(count < capacity)
        (base + count).initialize(to: entry.bits)
        count += 1
    }

    @inline(__always)
    func patch(_ index: Int, _ entry: TapeEntry) {
        precondition(index < count)
        base[index] = entry.bits
    }
}
