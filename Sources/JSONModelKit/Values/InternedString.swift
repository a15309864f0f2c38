#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("InternedString needs the C library's memcmp: no Glibc, Musl or Darwin module here")
#endif
import JSONModelKitCore

/// A string kept once per process, so equal values share one storage.
///
/// Equality of two interned values is an identity check and hashing uses a hash computed
/// once, so both are O(1). A value read from JSON that was never interned (an unknown
/// enum value) is kept as it is, not added to the table, so unexpected input cannot grow it;
/// it still compares equal, by text, to the same text.
///
/// ```swift
/// let a = InternedString("active"), b = InternedString("active")
/// a == b     // identity check: same storage
/// ```
public struct InternedString: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline
    final class Storage: Sendable {
        let text: String
        let hash: UInt64
        let isInterned: Bool

        init(text: String, hash: UInt64, isInterned: Bool) {
            self.text = text
            self.hash = hash
            self.isInterned = isInterned
        }
    }

    @usableFromInline
    let storage: Storage

    init(storage: Storage) {
        self.storage = storage
    }

    /// The interned value of `text`, added to the table if new.
    public init(_ text: String) {
        self.storage = InternTable.shared.intern(text)
    }

    /// The interned value of `text` if it was interned before; else a value of its own
    /// that is not added to the table.
    static func existing(_ text: String) -> InternedString {
        if let found = InternTable.shared.lookUp(text) { return InternedString(storage: found) }
        return InternedString(storage: Storage(text: text, hash: InternTable.hash(text), isInterned: false))
    }

    /// The text.
    var string: String { storage.text }

    /// Whether the value is in the intern table.
    var isInterned: Bool { storage.isInterned }

    public var description: String { storage.text }

    /// O(1) when both are interned; compares text otherwise.
    ///
    /// Inlinable, so that comparing a string enum with a known case is one compare in the
    /// caller. PERF: see jsonmodel-bench --section converters, row "==: JSONStringEnum".
    @inlinable
    public static func == (lhs: InternedString, rhs: InternedString) -> Bool {
        lhs.storage === rhs.storage || haveEqualText(lhs, rhs)
    }

    /// Whether two values with different storage spell the same text: never when both are interned.
    @usableFromInline
    static func haveEqualText(_ lhs: InternedString, _ rhs: InternedString) -> Bool {
        if lhs.storage.isInterned && rhs.storage.isInterned { return false }
        return lhs.storage.hash == rhs.storage.hash && lhs.storage.text.isSameJSONKey(as: rhs.storage.text)
    }

    /// O(1): the hash of the text is computed once, when the value is made.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.hash)
    }
}

/// The process-wide table of interned strings.
///
/// Keyed by the text's bytes, as the known values are matched: `String` keys would take two
/// spellings of one text for one (the Kelvin sign for `K`, a precomposed `é` for `e` and an
/// accent), and an unknown value would come back as a known one, changed when written.
final class InternTable: Sendable {
    static let shared = InternTable()

    private let table = Locked<[ExactKey: InternedString.Storage]>([:])

    func intern(_ text: String) -> InternedString.Storage {
        table.withLock { table in
            if let found = table[ExactKey(text)] { return found }
            let storage = InternedString.Storage(text: text, hash: InternTable.hash(text), isInterned: true)
            table[ExactKey(text)] = storage
            return storage
        }
    }

    func lookUp(_ text: String) -> InternedString.Storage? {
        table.withLock { $0[ExactKey(text)] }
    }

    /// FNV-1a over UTF-8 bytes; the same for a `String` and for raw bytes from a document.
    static func hash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { hash(bytes: $0) }
    }

    static func hash(bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}

/// A fixed set of interned strings looked up straight from UTF-8 bytes, without allocating.
///
/// An open-addressing table of at least twice as many places as values, each keeping the
/// value's hash and where its bytes are: a lookup hashes the bytes once and compares lengths and
/// bytes only where the hashes agree. The first of two values with the same text is the one found.
///
/// A place holds no reference, only where its bytes are in one shared array: copying a place
/// that held its own bytes retained and released them, two atomic operations on every read of a
/// string enum. PERF: the enum row of jsonmodel-bench --section converters.
struct KnownStrings: Sendable {
    private struct Place: Sendable {
        let hash: UInt64
        /// The value's bytes in ``KnownStrings/bytes``; a count of -1 for an empty place.
        let start: Int
        let count: Int

        static var empty: Place { Place(hash: 0, start: 0, count: -1) }
    }

    private let places: [Place]
    /// The values' bytes, one after another.
    private let bytes: [UInt8]
    /// Each place's value; nil for an empty place.
    private let storages: [InternedString.Storage?]
    /// The number of places minus one; places are a power of two.
    private let mask: Int
    /// 64 minus the number of bits of an index: a place is the high bits of the hash, mixed.
    private let shift: UInt64

    /// The first place to look for a value of hash `hash`.
    ///
    /// FNV-1a's low bits depend only on the low bits of what came before, so strings made to
    /// agree in them are easy to find, and a schema's `enumValues` of 65,536 of them would all
    /// start at one place: building the table would take billions of probes, and each unknown
    /// string read a long run. Multiplied by an odd constant, every bit of the hash reaches the
    /// high bits, which pick the place.
    @inline(__always)
    private static func start(_ hash: UInt64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    init(_ values: [InternedString]) {
        var capacity = 4
        while capacity < 2 * values.count { capacity *= 2 }
        let shift = UInt64(64 - capacity.trailingZeroBitCount)
        var places = [Place](repeating: .empty, count: capacity)
        var bytes: [UInt8] = []
        var storages = [InternedString.Storage?](repeating: nil, count: capacity)
        for value in values {
            let text = Array(value.storage.text.utf8)
            var index = Self.start(value.storage.hash, shift: shift)
            while case let place = places[index], place.count >= 0,
                !bytes[place.start..<place.start + place.count].elementsEqual(text)
            {
                index = (index + 1) & (capacity - 1)
            }
            guard places[index].count < 0 else { continue }
            places[index] = Place(hash: value.storage.hash, start: bytes.count, count: text.count)
            storages[index] = value.storage
            bytes += text
        }
        self.places = values.isEmpty ? [] : places
        self.bytes = bytes
        self.storages = storages
        self.mask = capacity - 1
        self.shift = shift
    }

    var isEmpty: Bool { places.isEmpty }

    /// The longest run of filled places, which bounds a lookup's probes; for tests.
    var longestRun: Int {
        var longest = 0
        var run = 0
        for place in places + places {
            run = place.count >= 0 ? run + 1 : 0
            longest = max(longest, min(run, places.count))
        }
        return longest
    }

    func lookUp(_ key: UnsafeBufferPointer<UInt8>) -> InternedString.Storage? {
        guard !places.isEmpty else { return nil }
        let hash = InternTable.hash(bytes: key)
        var index = Self.start(hash, shift: shift)
        while case let place = places[index], place.count >= 0 {
            if place.hash == hash, place.count == key.count,
                key.isEmpty || bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + place.start, key.baseAddress!, key.count) == 0 })
            {
                return storages[index]
            }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The interned value a JSON string spells, or nil when it is not one of the set.
    func lookUp(_ input: JSONInput) -> InternedString.Storage? {
        input.withStringUTF8 { lookUp($0) } ?? nil
    }
}

/// A string enumeration whose values are interned: O(1) equality and hashing, one
/// storage per value however many models hold it, unknown values kept and written back
/// unchanged.
///
/// ```swift
/// struct Status: JSONStringEnum {
///     let value: InternedString
///     init(_ value: InternedString) { self.value = value }
///     static let active: Status = "active"
///     static let suspended: Status = "suspended"
///     static let knownValues: [Status] = [.active, .suspended]
/// }
/// p.status(Status.self, default: .active)
/// if user.status == Status.active { … }     // identity check
/// ```
///
/// A value not in ``knownValues`` reads as it is, with a diagnostic (none when the list is empty).
///
/// Declare a struct whose one stored property is `value`: the `==` and `hash(into:)` Swift
/// derives from it are the interned value's, an identity check and a hash computed once.
public protocol JSONStringEnum: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible where RawValue == String, StringLiteralType == String
{
    /// Wraps an interned value.
    init(_ value: InternedString)
    /// The interned value.
    var value: InternedString { get }
    /// The values the type declares; reading checks against them. Empty by default.
    static var knownValues: [Self] { get }
}

extension JSONStringEnum {
    public init(stringLiteral value: String) {
        self.init(InternedString(value))
    }

    /// The known value spelled `rawValue`, or an unknown value kept as it is.
    public init(rawValue: String) {
        self.init(InternedString.existing(rawValue))
    }

    public var rawValue: String { value.string }
    public var description: String { value.string }
    public static var knownValues: [Self] { [] }

    // Declared here so that equality is the interned identity check: without them, the standard
    // library's `==` for raw-representable types would compare `rawValue`, a new String per side.
    // PERF: equality of string enums; see jsonmodel-bench --section converters, row "==: JSONStringEnum".
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
