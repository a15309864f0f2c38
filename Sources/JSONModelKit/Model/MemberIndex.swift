#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// FNV-1a over the bytes.
    @inline(__always)
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    /// Calls `body` with each ordinal whose key has the bytes `key`.
    @inline(__always)
    func forEachOrdinal(of key: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Void) {
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { bytes in
                ranges.withUnsafeBufferPointer { ranges in
                    var place = Self.hash(key) & mask
                    while true {
                        let ordinal = Int(table[place])
                        if ordinal < 0 { return }
                        let range = ranges[ordinal]
                        if Int(range.count) == key.count
                            && (key.isEmpty
                                || memcmp(bytes.baseAddress! + Int(range.start), key.baseAddress!, key.count) == 0)
                        {
                            body(ordinal)
                        }
                        place = (place + 1) & mask
                    }
                }
            }
        }
    }

    /// The tape index of each indexed property's value in `object`, the last of duplicate keys
    /// winning, or 0 when its key is missing; `positions` has a place per ordinal.
    func locateMembers(of object: JSONNode, into positions: UnsafeMutableBufferPointer<Int>) {
        let document = object.document
        let end = object.entry.containerEnd
        document.storage.withUnsafeBufferPointer { text in
            var position = object.index + 1
            while position < end {
                let keyEntry = document.entry(position)
                if keyEntry.tag == .string {
                    let range = keyEntry.byteRange
                    forEachOrdinal(of: UnsafeBufferPointer(rebasing: text[range.offset..<range.upperBound])) {
                        positions[$0] = position + 1
                    }
                } else {
                    var key = JSONNode(document: document, index: position).stringValue!
                    key.withUTF8 { key in forEachOrdinal(of: key) { positions[$0] = position + 1 } }
                }
                position = document.next(after: position + 1)
            }
        }
    }
}
