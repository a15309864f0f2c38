/// One 64-bit word of a document's tape.
///
/// The tape is the flat result of scanning: one entry per value and per object key, in document
/// order. Nothing is decoded while scanning; scalars point back into the bytes.
///
/// | bits  | scalars (strings, numbers, literals) | containers (arrays, objects)            |
/// |-------|--------------------------------------|-----------------------------------------|
/// | 60–63 | tag                                  | tag                                     |
/// | 32–59 | byte length                          | element count (members for objects)     |
/// | 0–31  | byte offset                          | tape index just past the container      |
///
/// A string's byte range excludes the quotes. An object's entries are key, value, key, value, …;
/// its count is the number of members (key–value pairs), not the number of entries.
@usableFromInline
package struct TapeEntry: Equatable {
    @usableFromInline
    package enum Tag: UInt8 {
        case null = 0, `false`, `true`, integer, decimal, string, escapedString, array, object
    }

    /// The largest value of a 28-bit field: a byte length, an element count.
    @inlinable package static var maxField: Int { (1 << 28) - 1 }

    @usableFromInline var bits: UInt64

    @inlinable package init(bits: UInt64) { self.bits = bits }

    @inline(__always)
    init(_ tag: Tag, high: Int, low: Int) {
        bits = UInt64(tag.rawValue) << 60 | UInt64(truncatingIfNeeded: high) << 32
            | UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: low))
    }

    @inlinable @inline(__always) package var tag: Tag { Tag(rawValue: UInt8(truncatingIfNeeded: bits >> 60)).unsafelyUnwrapped }
    @inlinable @inline(__always) package var isContainer: Bool { bits >> 60 >= UInt64(Tag.array.rawValue) }

    /// Scalars: where the value's text lies in the document's bytes.
    @inlinable @inline(__always) package var byteRange: ByteRange {
        ByteRange(offset: Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: bits)),
                  count: Int(truncatingIfNeeded: (bits >> 32) & UInt64(Self.maxField)))
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

/// A growable buffer of tape words, used only while scanning.
///
/// Scanning appends millions of entries and patches container starts; a raw buffer keeps that
/// free of uniqueness and bounds checks. The result is copied once into an array.
struct TapeBuilder: ~Copyable {
    private var base: UnsafeMutablePointer<UInt64>
    private var capacity: Int
    private(set) var count = 0
    /// Whether `base` is the builder's own (false while it writes into a lent buffer).
    private var ownsBase: Bool

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = allocatePlain(UInt64.self, capacity: self.capacity)
        ownsBase = true
    }

    /// Writes into `buffer` (not freed by the builder) while it has room, then moves to
    /// storage of its own; ``isUsingLentBuffer`` tells which happened.
    init(lending buffer: UnsafeMutableBufferPointer<UInt64>) {
        precondition(buffer.count > 0)
        base = buffer.baseAddress!
        capacity = buffer.count
        ownsBase = false
    }

    deinit { if ownsBase { freePlain(base) } }

    /// Whether every entry so far is in the lent buffer.
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

    private mutating func grow() {
        let newCapacity = capacity * 2
        let newBase = allocatePlain(UInt64.self, capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        if ownsBase { freePlain(base) }
        ownsBase = true
        base = newBase
        capacity = newCapacity
    }

    /// The entries written so far, as an exactly sized array (copied from the lent buffer while
    /// they are in it).
    func makeArray() -> [UInt64] {
        Array(UnsafeBufferPointer(start: base, count: count))
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
