#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("RecentURLs needs the C library: no Glibc, Musl or Darwin module here")
#endif
import JSONModelKitCore

/// The URLs made most recently from text, kept by their text: ``shared`` for every model in the
/// process.
///
/// Payloads repeat URLs: an account's avatar and page in each of its posts, a few hosts' images
/// across every profile (twitter.json has 997 URL values and 465 distinct texts). `URL(string:)`
/// parses and checks the whole text every time, and that parse is the larger part of reading a
/// URL; a text seen recently is found here instead, and its URL shared.
///
/// A table of places in sets of ``wayCount``, so what it holds is bounded: texts of at most
/// ``longestText`` bytes, one URL a place. A text's hash picks its set, and the set keeps the
/// texts it saw last, the most recent first: a text found moves to the front, a text kept goes
/// there and pushes the set's oldest out. A lookup hashes the text and compares it with each
/// place of its set under the set's lock; a text not found is parsed outside the lock and then
/// kept. The URL returned is always the one `URL(string:)` makes from the text: equal texts make
/// equal URLs.
///
/// Sets rather than one place a hash: with one place a hash, texts whose hashes meet take the
/// place from each other on every read. With 512 places, twitter.json's 465 distinct URLs parsed
/// 289 of its 997 values again on every read; in 128 sets of eight, 9 (callgrind, jsonmodel-bench
/// --section converters, the twitter.json row). A set holds each of its texts unless more than
/// eight texts read since share it.
///
/// PERF: URL properties; see jsonmodel-bench --section converters.
final class RecentURLs: @unchecked Sendable {
    // @unchecked Sendable: a set's places are only touched under its lock.

    /// The table models read URLs through: 1,024 places.
    static let shared = RecentURLs(setCount: 128)

    /// The places of a set.
    static let wayCount = 8
    /// The longest text kept, in bytes; longer texts are parsed every time.
    static let longestText = 256

    private struct Place {
        var hash: UInt64
        /// Empty in a place that keeps nothing yet, which no text looked up matches.
        var text: String
        var url: URL
    }

    /// The places, set after set; a set's are read and written only under its lock
    /// (``StripedLocks/withLock(stripe:_:)`` with the set's number).
    private let places: UnsafeMutablePointer<Place>
    /// The number of sets: a power of two.
    let setCount: Int

    /// A table of `setCount` sets, a power of two: ``shared``, or a table of a test's own.
    init(setCount: Int) {
        precondition(setCount > 0 && setCount & (setCount - 1) == 0, "a power of two")
        self.setCount = setCount
        places = UnsafeMutablePointer<Place>.allocate(capacity: setCount * Self.wayCount)
        // Not an optional URL: copying one costs an outlined copy of the optional on every store.
        places.initialize(repeating: Place(hash: 0, text: "", url: URL(fileURLWithPath: "/")), count: setCount * Self.wayCount)
    }

    deinit {
        places.deinitialize(count: setCount * Self.wayCount)
        places.deallocate()
    }

    /// The number of places.
    var placeCount: Int { setCount * Self.wayCount }

    /// `URL(string:)` of the UTF-8 text `bytes`, from the table when the text is there.
    func url(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> URL? {
        guard !bytes.isEmpty, bytes.count <= Self.longestText else { return URL(string: String(decoding: bytes, as: UTF8.self)) }
        let hash = Self.hash(bytes)
        if let url = lookUp(bytes, hash: hash) { return url }
        let text = String(decoding: bytes, as: UTF8.self)
        return keep(URL(string: text), for: text, hash: hash)
    }

    /// `URL(string: text)`, from the table when the text is there.
    func url(from text: String) -> URL? {
        guard !text.isEmpty, text.utf8.count <= Self.longestText,
            let found = text.utf8.withContiguousStorageIfAvailable({ bytes in
                let hash = Self.hash(bytes)
                return (url: lookUp(bytes, hash: hash), hash: hash)
            })
        else { return URL(string: text) }
        if let url = found.url { return url }
        return keep(URL(string: text), for: text, hash: found.hash)
    }

    /// The URL kept for the text `bytes`, whose hash is `hash`, if it is there; it moves to the
    /// front of its set.
    private func lookUp(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> URL? {
        let set = self.set(of: hash)
        return StripedLocks.withLock(stripe: set) { () -> URL? in
            let first = places + set * Self.wayCount
            for way in 0..<Self.wayCount {
                let place = first + way
                guard place.pointee.hash == hash else { continue }
                let same = place.pointee.text.utf8.withContiguousStorageIfAvailable { kept in
                    kept.count == bytes.count && memcmp(kept.baseAddress!, bytes.baseAddress!, bytes.count) == 0
                }
                guard same == true else { continue }
                if way > 0 {
                    // Moved, not copied: no reference counting under the lock.
                    let found = place.move()
                    (first + 1).moveInitialize(from: first, count: way)
                    first.initialize(to: found)
                }
                return first.pointee.url
            }
            return nil
        }
    }

    /// Keeps `url`, made from `text`, at the front of the set of `hash`, unless another thread
    /// kept the same text meanwhile; returns it.
    private func keep(_ url: URL?, for text: String, hash: UInt64) -> URL? {
        guard let url else { return nil }
        let set = self.set(of: hash)
        StripedLocks.withLock(stripe: set) {
            let first = places + set * Self.wayCount
            for way in 0..<Self.wayCount where first[way].hash == hash && first[way].text.utf8.elementsEqual(text.utf8) {
                return
            }
            (first + Self.wayCount - 1).deinitialize(count: 1)
            (first + 1).moveInitialize(from: first, count: Self.wayCount - 1)
            first.initialize(to: Place(hash: hash, text: text, url: url))
        }
        return url
    }

    /// Whether the text `text` is kept (for tests): looked up, so it moves to the front of its set.
    func keeps(_ text: String) -> Bool {
        guard !text.isEmpty else { return false }
        var text = text
        return text.withUTF8 { lookUp($0, hash: Self.hash($0)) } != nil
    }

    /// The set of the text whose hash is `hash`.
    func set(of hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash >> 32) & (setCount - 1)
    }

    /// A hash of `bytes` (not empty), eight bytes at a time: URLs run to tens of bytes, where the
    /// byte-at-a-time FNV-1a of interned strings (`InternTable.hash(bytes:)`) costs several times
    /// as much, on every read.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = UInt64(bytes.count) &* multiplier
        let start = UnsafeRawPointer(bytes.baseAddress!)
        var offset = 0
        while offset &+ 8 <= bytes.count {
            hash = (hash ^ start.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
            hash ^= hash &>> 29
            offset &+= 8
        }
        var last: UInt64 = 0
        while offset < bytes.count {
            last = last &<< 8 | UInt64(bytes[offset])
            offset &+= 1
        }
        hash = (hash ^ last) &* multiplier
        return hash ^ (hash &>> 32)
    }
}
