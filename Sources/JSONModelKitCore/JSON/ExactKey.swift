#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("ExactKey needs the C library's memcmp: no Glibc, Musl or Darwin module here")
#endif

// JSON object keys are compared by their text, byte for byte.
//
// `"\u{E1}"` (á) and `"a\u{301}"` (a, then a combining acute accent) are two JSON keys, and the
// tape tells them apart (it compares bytes). Swift's `String ==` and `String` hashing follow
// canonical equivalence and take them for one, so a `[String: X]` or an `==` on keys would read
// one and write the other. Every comparison, lookup table and hash of object keys in JSONModelKit
// goes through `isSameJSONKey(as:)` or `ExactKey`. (String *values* keep `String ==`.)

extension String {
    /// Whether two object keys are the same key: the same UTF-8 bytes.
    ///
    /// - Complexity: O(*n*) in the key's length; O(1) when the lengths differ.
    @inline(__always)
    package func isSameJSONKey(as other: String) -> Bool {
        let lhs = utf8
        let rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        let compared = lhs.withContiguousStorageIfAvailable { a in
            rhs.withContiguousStorageIfAvailable { b in
                a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
            }
        }
        if let compared = compared ?? nil { return compared }
        return lhs.elementsEqual(rhs)
    }
}

/// An object key that compares and hashes by its UTF-8 bytes: the key type of lookup tables
/// over object members.
package struct ExactKey: Hashable, Sendable {
    package let string: String

    @inline(__always)
    package init(_ string: String) {
        self.string = string
    }

    @inline(__always)
    package static func == (lhs: ExactKey, rhs: ExactKey) -> Bool {
        lhs.string.isSameJSONKey(as: rhs.string)
    }

    package func hash(into hasher: inout Hasher) {
        let hashed: Void? = string.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil {
            for byte in string.utf8 { hasher.combine(byte) }
        }
        hasher.combine(string.utf8.count)
    }
}
