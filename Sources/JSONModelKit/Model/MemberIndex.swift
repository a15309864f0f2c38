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
    /// Open addressing: an ordinal, or -1 for an empty place. Two properties may share a key
    /// (a read-only one reading another's value), so a lookup follows the probe to an empty place.
    private let table: [Int32]
    private let mask: Int
    /// Every key's bytes, one after another, and where each ordinal's lie (count 0: not indexed).
    private let bytes: [UInt8]
    private let ranges: [(start: Int32, count: Int32)]
    /// The ordinals indexed, so a walk can mark the missing ones.
    let ordinals: [Int]

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
        for ordinal in ordinals {
            let key = Array(keys[ordinal]!.utf8)
            ranges[ordinal] = (Int32(bytes.count), Int32(key.count))
            bytes += key
            var place = key.withUnsafeBufferPointer { Self.hash($0) } & (capacity - 1)
            while table[place] >= 0 { place = (place + 1) & (capacity - 1) }
            table[place] = Int32(ordinal)
        }
        self.table = table
        self.mask = capacity - 1
        self.bytes = bytes
        self.ranges = ranges
        self.ordinals = ordinals
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

    /// Whether the `count` bytes at `lhs` and `rhs` are equal; short keys compared in line.
    @inline(__always)
    private static func equal(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, count: Int) -> Bool {
        if count > 16 { return memcmp(lhs, rhs, count) == 0 }
        var index = 0
        while index < count {
            if lhs[index] != rhs[index] { return false }
            index += 1
        }
        return true
    }

    /// The tape index of each indexed property's value in `object`, the last of duplicate keys
    /// winning, or 0 when its key is missing; `positions` has a place per ordinal.
    func locateMembers(of object: JSONNode, into positions: UnsafeMutableBufferPointer<Int>) {
        let document = object.document
        let end = object.entry.containerEnd
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { keys in
                ranges.withUnsafeBufferPointer { ranges in
                    /// Records `position` for every ordinal whose key is `key`.
                    func record(_ key: UnsafeBufferPointer<UInt8>, _ position: Int) {
                        var place = Self.hash(key) & mask
                        while true {
                            let ordinal = Int(table[place])
                            if ordinal < 0 { return }
                            let range = ranges[ordinal]
                            if Int(range.count) == key.count
                                && (key.isEmpty
                                    || Self.equal(keys.baseAddress! + Int(range.start), key.baseAddress!, count: key.count))
                            {
                                positions[ordinal] = position
                            }
                            place = (place + 1) & mask
                        }
                    }
                    document.storage.withUnsafeBufferPointer { text in
                        var position = object.index + 1
                        while position < end {
                            let keyEntry = document.entry(position)
                            if keyEntry.tag == .string {
                                let range = keyEntry.byteRange
                                record(UnsafeBufferPointer(rebasing: text[range.offset..<range.upperBound]), position + 1)
                            } else {
                                var key = JSONNode(document: document, index: position).stringValue!
                                key.withUTF8 { record($0, position + 1) }
                            }
                            position = document.next(after: position + 1)
                        }
                    }
                }
            }
        }
    }
}
