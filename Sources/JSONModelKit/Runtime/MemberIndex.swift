#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("MemberIndex needs the C library: no Glibc, Musl or Darwin module here")
#endif
import JSONModelKitCore

// Finding the members of a model's object once, for every property read from one key.
//
// Looking a key up in an object visits every member, since the last of duplicate keys wins. A
// model whose properties are all read would visit every member once per property. Instead, the
// first read of such a property walks the object once and records in each of those properties'
// slots where its value is, or that its key is missing (`CacheSlots`); reads then go straight to
// the value.

/// The keys of a model's properties that are read from one key of the object, by a hash of
/// their UTF-8 bytes; built once with the model's metadata.
///
/// A walk first compares each key with the one it expects next: the indexed key after the last
/// one it found, in the order of the properties. Objects from one source have their keys in one
/// order, most often the order the model declares them in, so the guess is usually right and
/// costs one compare; when it is wrong, the hash finds the key and the guess goes on from there.
///
/// A class, so a read takes one reference to it, not one to each of its arrays.
final class MemberKeyIndex: Sendable {
    /// An indexed key: where its bytes lie in ``bytes``, and its property.
    private struct Key {
        var start: Int32
        var count: Int32
        var ordinal: Int32
        /// Whether another property reads the same key (a read-only one reading another's
        /// value): then a lookup goes on past a match, to the empty place.
        var isShared: Bool
    }

    /// Open addressing: an index into ``keys``, or -1 for an empty place.
    private let table: [Int32]
    private let mask: Int
    /// Every key's bytes, one after another. Eight zero bytes end them, so that a compare may
    /// read a word at any key's start.
    private let bytes: [UInt8]
    /// The indexed keys, in the order of their properties.
    private let keys: [Key]
    /// The ordinals indexed, so a walk can mark the missing ones.
    let ordinals: [Int]
    /// The first of them, whose slot says whether the walk is done (``CacheSlots/claimWalk(leader:)``).
    let leader: Int
    /// Bit *n* set when an indexed key is *n* bytes long (bit 63: 63 bytes or more).
    ///
    /// Most members of an object are not read by the model (a user object of a social API has
    /// about 40 keys, of which a client may read 4), and a key of a length no indexed key has
    /// cannot match: it is passed over without reading its bytes.
    private let lengths: UInt64

    /// The index of `keys`, one per property ordinal, nil for properties not read from one key;
    /// nil when no property is.
    init?(keys names: [String?]) {
        let ordinals = names.indices.filter { names[$0] != nil }
        guard !ordinals.isEmpty else { return nil }
        // At most a quarter full, so a key that is not there (most keys of an object, in a model
        // that reads a few) meets an empty place at once or one place later.
        var capacity = 16
        while capacity < ordinals.count * 4 { capacity *= 2 }
        var table = [Int32](repeating: -1, count: capacity)
        var bytes: [UInt8] = []
        var keys: [Key] = []
        var lengths: UInt64 = 0
        // Keys compare by their bytes, as the tape does (ExactKey.swift).
        var seen: Set<ExactKey> = []
        var shared: Set<ExactKey> = []
        for ordinal in ordinals where !seen.insert(ExactKey(names[ordinal]!)).inserted { shared.insert(ExactKey(names[ordinal]!)) }
        for ordinal in ordinals {
            let key = Array(names[ordinal]!.utf8)
            var place = key.withUnsafeBufferPointer { Self.hash($0) } & (capacity - 1)
            while table[place] >= 0 { place = (place + 1) & (capacity - 1) }
            table[place] = Int32(keys.count)
            keys.append(Key(start: Int32(bytes.count), count: Int32(key.count), ordinal: Int32(ordinal),
                            isShared: shared.contains(ExactKey(names[ordinal]!))))
            lengths |= Self.lengthBit(key.count)
            bytes += key
        }
        bytes += repeatElement(0, count: 8)
        self.table = table
        self.mask = capacity - 1
        self.bytes = bytes
        self.keys = keys
        self.ordinals = ordinals
        self.leader = ordinals[0]
        self.lengths = lengths
    }

    /// The bit of ``lengths`` for a key of `count` bytes.
    @inline(__always)
    private static func lengthBit(_ count: Int) -> UInt64 { 1 &<< UInt64(truncatingIfNeeded: min(count, 63)) }

    /// A hash of a key's length and three of its bytes: keys of one model rarely agree on all
    /// four, and a full compare settles the rest.
    @inline(__always)
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        let count = key.count
        guard count > 0 else { return 0 }
        let mixed = UInt64(truncatingIfNeeded: count) | UInt64(key[0]) << 8 | UInt64(key[count >> 1]) << 16
            | UInt64(key[count - 1]) << 24
        return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> 40)
    }

    /// Whether the `count` bytes at `lhs` and `rhs` are equal, eight at a time. Reads whole words,
    /// so both sides must have at least `(count + 7) / 8 * 8` bytes readable.
    @inline(__always)
    private static func equalWords(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        var left = count
        while left >= 8 {
            if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset &+= 8
            left &-= 8
        }
        guard left > 0 else { return true }
        let difference = UInt64(littleEndian: lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            ^ UInt64(littleEndian: rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        return difference & (1 &<< UInt64(left &* 8) &- 1) == 0
    }

    /// The tape index of each indexed property's value in `object`, the last of duplicate keys
    /// winning, or 0 when its key is missing; `positions` has a place per ordinal.
    func locateMembers(of object: JSONNode, into positions: UnsafeMutableBufferPointer<Int>) {
        let document = object.document
        let end = object.entry.containerEnd
        let lengths = self.lengths
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { bytes in
                keys.withUnsafeBufferPointer { keys in
                    document.tape.withUnsafeBufferPointer { tape in
                        document.storage.withUnsafeBufferPointer { text in
                            let walk = Walk(table: table, mask: mask, bytes: bytes, keys: keys, positions: positions)
                            // Keys that end this close to the end of the text are compared bytewise.
                            let wideLimit = text.count &- 8
                            var expected = 0
                            var position = object.index &+ 1
                            while position < end {
                                // A member is one packed entry, or its key's entry and its value's.
                                // The key's length comes first, its offset only for keys of the
                                // lengths indexed (most are not).
                                let first = TapeEntry(bits: tape[position])
                                let keyCount: Int
                                let valueIndex: Int
                                let next: Int
                                if first.isPackedMember {
                                    keyCount = first.packedKeyCount
                                    valueIndex = position
                                    next = position &+ 1
                                } else {
                                    valueIndex = position &+ 1
                                    let value = TapeEntry(bits: tape[valueIndex])
                                    next = value.isContainer ? value.containerEnd : position &+ 2
                                    guard first.tag == .string else {
                                        // Escaped keys are compared unescaped, through the hash.
                                        var key = document.string(of: first)!
                                        _ = key.withUTF8 { walk.lookUp($0, wide: false, valueIndex) }
                                        position = next
                                        continue
                                    }
                                    keyCount = first.byteRange.count
                                }
                                if lengths & Self.lengthBit(keyCount) != 0 {
                                    let offset = first.isPackedMember ? first.packedKey.byteRange.offset : first.byteRange.offset
                                    let key = UnsafeBufferPointer(start: text.baseAddress! + offset, count: keyCount)
                                    let wide = offset <= wideLimit &- keyCount
                                    if walk.isKey(expected, key, wide: wide) {
                                        walk.record(expected, valueIndex)
                                        expected = walk.after(expected)
                                    } else if let found = walk.lookUp(key, wide: wide, valueIndex) {
                                        expected = walk.after(found)
                                    }
                                }
                                position = next
                            }
                        }
                    }
                }
            }
        }
    }

    /// The index's storage during one walk.
    private struct Walk {
        let table: UnsafeBufferPointer<Int32>
        let mask: Int
        let bytes: UnsafeBufferPointer<UInt8>
        let keys: UnsafeBufferPointer<Key>
        let positions: UnsafeMutableBufferPointer<Int>

        /// The index of the key expected after key `index`.
        @inline(__always)
        func after(_ index: Int) -> Int { index &+ 1 == keys.count ? 0 : index &+ 1 }

        /// Whether `key` is indexed key `index`, and no other property reads it; `wide` when a
        /// word may be read at the key's start.
        @inline(__always)
        func isKey(_ index: Int, _ key: UnsafeBufferPointer<UInt8>, wide: Bool) -> Bool {
            let indexed = keys[index]
            return Int(indexed.count) == key.count && !indexed.isShared && equal(indexed, key, wide: wide)
        }

        /// Whether `key`, of the same length as `indexed`, has the same bytes.
        @inline(__always)
        func equal(_ indexed: Key, _ key: UnsafeBufferPointer<UInt8>, wide: Bool) -> Bool {
            let stored = bytes.baseAddress! + Int(indexed.start)
            return key.isEmpty
                || (wide
                    ? MemberKeyIndex.equalWords(stored, key.baseAddress!, count: key.count)
                    : memcmp(stored, key.baseAddress!, key.count) == 0)
        }

        /// Records `position` as the value of indexed key `index`.
        @inline(__always)
        func record(_ index: Int, _ position: Int) {
            positions[Int(keys[index].ordinal)] = position
        }

        /// Records `position` for every property whose key is `key`, and returns the index of
        /// the first, or nil when no property reads `key`.
        @inline(__always)
        func lookUp(_ key: UnsafeBufferPointer<UInt8>, wide: Bool, _ position: Int) -> Int? {
            var found: Int?
            var place = MemberKeyIndex.hash(key) & mask
            while true {
                let index = Int(table[place])
                if index < 0 { return found }
                let indexed = keys[index]
                if Int(indexed.count) == key.count && equal(indexed, key, wide: wide) {
                    record(index, position)
                    if found == nil { found = index }
                    if !indexed.isShared { return found }
                }
                place = (place &+ 1) & mask
            }
        }
    }
}
