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

/// The URLs made most recently from text, kept by their text, for every model in the process.
///
/// Payloads repeat URLs: an account's avatar and page in each of its posts, a few hosts' images
/// across every profile (twitter.json has 997 URL values and 465 distinct texts). `URL(string:)`
/// parses and checks the whole text every time, and that parse is the larger part of reading a
/// URL; a text seen recently is found here instead, and its URL shared.
///
/// A table of ``placeCount`` places, each keeping the last URL made from a text that hashes to
/// it, so what it holds is bounded: texts of at most ``longestText`` bytes, one URL a place.
/// A lookup hashes the text and compares it with the place's under the place's lock; a text
/// not found is parsed outside the lock and then kept, replacing the place's. The URL returned
/// is always the one `URL(string:)` makes from the text: equal texts make equal URLs.
///
/// PERF: URL properties; see jsonmodel-bench --section converters.
enum RecentURLs {
    /// The number of places: a power of two.
    static let placeCount = 512
    /// The longest text kept, in bytes; longer texts are parsed every time.
    static let longestText = 256

    private struct Place {
        var hash: UInt64
        /// Empty in a place that keeps nothing yet, which no text looked up matches.
        var text: String
        var url: URL
    }

    /// The places, made once and never freed; each read and written only under its lock
    /// (``StripedLocks/withLock(stripe:_:)`` with the place's index).
    nonisolated(unsafe) private static let places: UnsafeMutablePointer<Place> = {
        let places = UnsafeMutablePointer<Place>.allocate(capacity: placeCount)
        // Not an optional URL: copying one costs an outlined copy of the optional on every store.
        places.initialize(repeating: Place(hash: 0, text: "", url: URL(fileURLWithPath: "/")), count: placeCount)
        return places
    }()

    /// `URL(string:)` of the UTF-8 text `bytes`, from the table when the text is there.
    static func url(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> URL? {
        guard !bytes.isEmpty, bytes.count <= longestText else { return URL(string: String(decoding: bytes, as: UTF8.self)) }
        let hash = hash(bytes)
        if let url = lookUp(bytes, hash: hash) { return url }
        let text = String(decoding: bytes, as: UTF8.self)
        return keep(URL(string: text), for: text, hash: hash)
    }

    /// `URL(string: text)`, from the table when the text is there.
    static func url(from text: String) -> URL? {
        guard !text.isEmpty, text.utf8.count <= longestText,
            let found = text.utf8.withContiguousStorageIfAvailable({ bytes in
                let hash = hash(bytes)
                return (url: lookUp(bytes, hash: hash), hash: hash)
            })
        else { return URL(string: text) }
        if let url = found.url { return url }
        return keep(URL(string: text), for: text, hash: found.hash)
    }

    /// The URL kept for the text `bytes`, whose hash is `hash`, if it is there.
    private static func lookUp(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> URL? {
        let index = Self.index(of: hash)
        return StripedLocks.withLock(stripe: index) { () -> URL? in
            let place = places + index
            guard place.pointee.hash == hash else { return nil }
            let same = place.pointee.text.utf8.withContiguousStorageIfAvailable { kept in
                kept.count == bytes.count && memcmp(kept.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
            return same == true ? place.pointee.url : nil
        }
    }

    /// Keeps `url`, made from `text`, in the place of `hash`, and returns it.
    private static func keep(_ url: URL?, for text: String, hash: UInt64) -> URL? {
        guard let url else { return nil }
        let index = Self.index(of: hash)
        StripedLocks.withLock(stripe: index) {
            let place = places + index
            place.pointee.hash = hash
            place.pointee.text = text
            place.pointee.url = url
        }
        return url
    }

    private static func index(of hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash >> 32) & (placeCount - 1)
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
