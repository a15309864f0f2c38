#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
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
/// A class, so a read takes one reference to it, not one to each of its arrays.
final class MemberKeyIndex: Sendable {
    /// Open addressing: an ordinal, or -1 for an empty place, with ``sharedKey`` set when
    /// another property reads the same key (a read-only one reading another's value); only then
    /// does a lookup go on past a match, to the empty place.
    private let table: [Int32]
    private let mask: Int
    /// Every key's bytes, one after another, and where each ordinal's lie (count 0: not indexed).
    /// Eight zero bytes end them, so that a compare may read a word at any key's start.
    private let bytes: [UInt8]
    private let ranges: [(start: Int32, count: Int32)]
    /// The ordinals indexed, so a walk can mark the missing ones.
    let ordinals: [Int]
    /// The first of them, whose slot says whether the walk is done (``CacheSlots/claimWalk(leader:)``).
    let leader: Int

    private static let sharedKey: Int32 = 1 << 30

    /// The index of `keys`, one per property ordinal, nil for properties not read from one key;
    /// nil when no property is.
    init?(keys: [String?]) {
        let ordinals = keys.indices.filter { keys[$0] != nil }
        guard !ordinals.isEmpty else { return nil }
        var capacity = 8
        while capacity < ordinals.count * 2 { capacity *= 2 }
        var table = [Int32](repeating: -1, count: capacity)
        var bytes: [UInt8] = []
        var ranges: [(start: Int32, count: Int32)] = Array(repeating: (0, 0), count: keys.count)
        var seen: Set<String> = []
        var shared: Set<String> = []
        for ordinal in ordinals where !seen.insert(keys[ordinal]!).inserted { shared.insert(keys[ordinal]!) }
        for ordinal in ordinals {
            let key = Array(keys[ordinal]!.utf8)
            ranges[ordinal] = (Int32(bytes.count), Int32(key.count))
            bytes += key
            var place = key.withUnsafeBufferPointer { Self.hash($0) } & (capacity - 1)
            while table[place] >= 0 { place = (place + 1) & (capacity - 1) }
            table[place] = Int32(ordinal) | (shared.contains(keys[ordinal]!) ? Self.sharedKey : 0)
        }
        bytes += repeatElement(0, count: 8)
        self.table = table
        self.mask = capacity - 1
        self.bytes = bytes
        self.ranges = ranges
        self.ordinals = ordinals
        self.leader = ordinals[0]
    }

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
        let mask = self.mask
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { keys in
                ranges.withUnsafeBufferPointer { ranges in
                    /// Records `position` for every ordinal whose key is `key`; `wide` when a word
                    /// may be read at the key's start.
                    func record(_ key: UnsafeBufferPointer<UInt8>, wide: Bool, _ position: Int) {
                        var place = Self.hash(key) & mask
                        while true {
                            let found = table[place]
                            if found < 0 { return }
                            let ordinal = Int(found & ~Self.sharedKey)
                            let range = ranges[ordinal]
                            if Int(range.count) == key.count {
                                let stored = keys.baseAddress! + Int(range.start)
                                let equal =
                                    key.isEmpty
                                    || (wide
                                        ? Self.equalWords(stored, key.baseAddress!, count: key.count)
                                        : memcmp(stored, key.baseAddress!, key.count) == 0)
                                if equal {
                                    positions[ordinal] = position
                                    if found & Self.sharedKey == 0 { return }
                                }
                            }
                            place = (place &+ 1) & mask
                        }
                    }
                    document.tape.withUnsafeBufferPointer { tape in
                        document.storage.withUnsafeBufferPointer { text in
                            // Keys that end this close to the end of the text are compared bytewise.
                            let wideLimit = text.count &- 8
                            var position = object.index &+ 1
                            while position < end {
                                let keyEntry = TapeEntry(bits: tape[position])
                                if keyEntry.tag == .string {
                                    let range = keyEntry.byteRange
                                    let key = UnsafeBufferPointer(start: text.baseAddress! + range.offset, count: range.count)
                                    record(key, wide: range.offset <= wideLimit &- range.count, position &+ 1)
                                } else {
                                    var key = JSONNode(document: document, index: position).stringValue!
                                    key.withUTF8 { record($0, wide: false, position &+ 1) }
                                }
                                let value = TapeEntry(bits: tape[position &+ 1])
                                position = value.isContainer ? value.containerEnd : position &+ 2
                            }
                        }
                    }
                }
            }
        }
    }
}
