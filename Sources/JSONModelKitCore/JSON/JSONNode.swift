#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("JSONNode needs the C library: no Glibc, Musl or Darwin module here")
#endif

// A view of one value in a document: its kind and scalar values, lookup by key, index and path,
// and iteration; the decoding of strings is in JSONNode+Strings.swift.

/// The kind of a JSON value.
public enum JSONKind: Sendable, Hashable {
    case null, bool, number, string, array, object

    /// The kind as a message names it: `null`, `a boolean`, `a number`, `a string`,
    /// `an array`, `an object`.
    package var nameWithArticle: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A view of one value inside a ``JSONDocument``.
///
/// A node is a document reference and a tape position: creating one costs nothing, and it reads
/// its value from the document's bytes only when asked.
///
/// ```swift
/// let document = try JSONDocument(string: #"{"users": [{"name": "Ann", "age": 31}]}"#)
/// let user = document.root["users"]?[0]
/// user?["name"]?.stringValue     // "Ann"
/// user?["age"]?.numberValue?.intValue   // 31
/// ```
public struct JSONNode: Sendable {
    /// The document this node reads from.
    @usableFromInline package let document: JSONDocument
    /// The node's position on the document's tape, which has fewer than 2³² entries (a document
    /// is at most 4 GiB, and an entry takes at least a byte): 32 bits keep a node in 12 bytes,
    /// and a model, which holds one, in a smaller block of the heap.
    @usableFromInline let position: UInt32

    /// The node's position on the document's tape.
    @inlinable @inline(__always) package var index: Int { Int(position) }

    @inlinable
    package init(document: JSONDocument, index: Int) {
        self.document = document
        self.position = UInt32(truncatingIfNeeded: index)
    }

    @inlinable @inline(__always) package var entry: TapeEntry { document.entry(index) }

    /// The node at tape position `index` of the same document, taking this node's reference to
    /// it rather than a new one.
    @inlinable @inline(__always)
    package consuming func moved(to index: Int) -> JSONNode {
        JSONNode(document: document, index: index)
    }

    /// The kind of value.
    public var kind: JSONKind {
        switch entry.tag {
        case .null: .null
        case .false, .true: .bool
        case .integer, .decimal: .number
        case .string, .escapedString: .string
        case .array: .array
        case .object: .object
        }
    }

    /// Whether the value is `null`.
    package var isNull: Bool { entry.tag == .null }

    /// The value of `true` or `false`; nil for other kinds.
    @inlinable public var boolValue: Bool? {
        switch entry.tag {
        case .true: true
        case .false: false
        default: nil
        }
    }

    /// The decoded string (escapes resolved); nil for other kinds.
    ///
    /// - Complexity: O(*n*) in the string's length; strings without escapes are decoded in one
    ///   validated copy.
    public var stringValue: String? { document.string(of: entry) }

    /// The exact text of a number as it stands in the document; nil for other kinds.
    ///
    /// Made as the document's strings are (``JSONDocument/plainText(_:)``): most numbers are at
    /// most 15 bytes, which the standard library holds in the string's own two words, and
    /// writing those directly costs a fraction of checking the bytes again.
    /// PERF: numbers.json in `jsonmodel-bench --section documents`.
    package var numberText: String? {
        let entry = entry
        guard entry.tag == .integer || entry.tag == .decimal else { return nil }
        return document.plainText(entry.byteRange)
    }

    /// The number, keeping its exact text; nil for other kinds.
    public var numberValue: JSONNumber? {
        numberText.map { JSONNumber(validatedText: $0) }
    }

    /// The number as `Int` when it is integral and in range (`1.0` and `1e2` count), else nil.
    package var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }

    /// The number as `Int64` when it is integral and in range, else nil.
    package var int64Value: Int64? { withNumberText { NumberParsing.int64($0) } ?? nil }

    /// The number as `UInt64` when it is integral, not negative and in range, else nil.
    package var uint64Value: UInt64? { withNumberText { NumberParsing.uint64($0) } ?? nil }

    /// The nearest `Double` to the number (infinite when out of range); nil for other kinds.
    @inlinable @inline(__always) package var doubleValue: Double? { withNumberText { NumberParsing.double($0) } }

    /// The sign and magnitude of an integral number that fits in 64 bits, else nil.
    @inlinable @inline(__always) package var exactInteger: (negative: Bool, magnitude: UInt64)? {
        document.exactInteger(of: entry)
    }

    @inlinable @inline(__always)
    package func withNumberText<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        let entry = entry
        guard entry.tag == .integer || entry.tag == .decimal else { return nil }
        return document.withBytes(entry.byteRange, body)
    }

    /// The elements of an array, decoded, when every one is a string; nil when one is not, or
    /// when the node is not an array.
    ///
    /// What `[String]` properties read in one pass over the tape, without a node per element.
    package func stringElements() -> [String]? {
        let entry = entry
        guard entry.tag == .array else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(entry.containerCount)
        var position = index + 1
        let end = entry.containerEnd
        while position < end {
            guard let string = JSONNode(document: document, index: position).stringValue else { return nil }
            strings.append(string)
            position = document.next(after: position)
        }
        return strings
    }

    /// The number of elements of an array or members of an object; 0 for scalars.
    ///
    /// - Complexity: O(1).
    public var count: Int {
        let entry = entry
        return entry.isContainer ? entry.containerCount : 0
    }
}

// MARK: - Lookup

extension JSONNode {
    /// The value of the member named `key`, or nil when this is not an object or has no such
    /// member. With duplicate keys the last member wins.
    ///
    /// - Complexity: O(*m*) for objects of up to 64 members; larger objects build a hash index
    ///   on their first lookup, after which a lookup is O(1) on average.
    public subscript(key: String) -> JSONNode? {
        let entry = entry
        guard entry.tag == .object else { return nil }
        if entry.containerCount > ContainerIndexes.threshold {
            return indexedMember(key, end: entry.containerEnd)
        }
        var key = key
        return key.withUTF8 { member(utf8: $0, end: entry.containerEnd) }
    }

    /// The member whose key has the UTF-8 bytes `key`, searched in place.
    func member(utf8 key: UnsafeBufferPointer<UInt8>, end: Int) -> JSONNode? {
        let document = document
        return document.storage.withUnsafeBufferPointer { bytes -> JSONNode? in
            var found: Int?
            var position = index + 1
            while position < end {
                let keyEntry = document.memberKey(at: position)
                let value = document.memberValue(at: position)
                let range = keyEntry.byteRange
                if keyEntry.tag == .string {
                    if range.count == key.count
                        && (key.count == 0 || memcmp(bytes.baseAddress! + range.offset, key.baseAddress!, key.count) == 0) {
                        found = value
                    }
                } else if JSONNode.unescapedEquals(UnsafeBufferPointer(rebasing: bytes[range.offset..<range.upperBound]), key) {
                    found = value
                }
                position = document.next(after: value)
            }
            return found.map { JSONNode(document: document, index: $0) }
        }
    }

    private func indexedMember(_ key: String, end: Int) -> JSONNode? {
        let cached = document.withIndexes { $0.objects[index] }
        let table: [ExactKey: Int]
        if let cached {
            table = cached
        } else {
            var built: [ExactKey: Int] = [:]
            built.reserveCapacity(count)
            var position = index + 1
            while position < end {
                let value = document.memberValue(at: position)
                built[ExactKey(document.string(of: document.memberKey(at: position))!)] = value
                position = document.next(after: value)
            }
            table = built
            document.withIndexes { $0.objects[index] = built }
        }
        return table[ExactKey(key)].map { JSONNode(document: document, index: $0) }
    }

    /// The element at `index` of an array, or nil when this is not an array or the index is out
    /// of bounds.
    ///
    /// - Complexity: O(*index*) for arrays of up to 64 elements; larger arrays build a table of
    ///   element positions on their first access, after which access is O(1).
    public subscript(index: Int) -> JSONNode? {
        let entry = entry
        guard entry.tag == .array, index >= 0, index < entry.containerCount else { return nil }
        if entry.containerCount <= ContainerIndexes.threshold {
            var position = self.index + 1
            for _ in 0..<index { position = document.next(after: position) }
            return JSONNode(document: document, index: position)
        }
        return JSONNode(document: document, index: Int(elementPositions()[index]))
    }

    /// The tape positions of this array's elements, built once and shared.
    func elementPositions() -> [UInt32] {
        if let cached = document.withIndexes({ $0.arrays[index] }) { return cached }
        var positions: [UInt32] = []
        positions.reserveCapacity(count)
        var position = index + 1
        let end = entry.containerEnd
        while position < end {
            positions.append(UInt32(position))
            position = document.next(after: position)
        }
        document.withIndexes { $0.arrays[index] = positions }
        return positions
    }

    /// The value at `path` below this node, or nil when any step is missing.
    ///
    /// - Complexity: The sum of the steps' lookups.
    public subscript(path: JSONPath) -> JSONNode? {
        var node = self
        for segment in path.segments {
            switch segment {
            case .key(let key):
                guard let next = node[key] else { return nil }
                node = next
            case .index(let index):
                guard let next = node[index] else { return nil }
                node = next
            }
        }
        return node
    }
}

// MARK: - Iteration

extension JSONNode {
    /// The elements of an array in order; empty for other kinds.
    ///
    /// ```swift
    /// for tag in document.root["tags"]?.elements ?? [] { print(tag.stringValue ?? "") }
    /// ```
    ///
    /// - Complexity: Each step is O(1): elements are read in document order without an index.
    @inlinable public var elements: some Sequence<JSONNode> { Elements(node: self) }

    /// The members of an object in document order, duplicates included; empty for other kinds.
    ///
    /// ```swift
    /// for (key, value) in document.root.members { print(key, value.kind) }
    /// ```
    ///
    /// - Complexity: Each step is O(1) plus decoding the key.
    @inlinable public var members: some Sequence<(key: String, value: JSONNode)> { Members(node: self) }

    /// The elements of an array, read in document order without building an index. Package
    /// code names it to keep an iterator in a stored property.
    ///
    /// `@usableFromInline`, as is ``Members``, so that ``elements`` can be inlinable: a caller
    /// in another module then iterates this type, specialized, rather than an opaque one.
    @usableFromInline
    package struct Elements: Sequence, Sendable {
        let node: JSONNode

        @usableFromInline
        package init(node: JSONNode) {
            self.node = node
        }

        public var underestimatedCount: Int { node.entry.tag == .array ? node.count : 0 }

        public func makeIterator() -> Iterator {
            let entry = node.entry
            let isArray = entry.tag == .array
            return Iterator(document: node.document, position: node.index + 1, end: isArray ? entry.containerEnd : 0)
        }

        public struct Iterator: IteratorProtocol {
            let document: JSONDocument
            var position: Int
            let end: Int

            public mutating func next() -> JSONNode? {
                guard position < end else { return nil }
                defer { position = document.next(after: position) }
                return JSONNode(document: document, index: position)
            }
        }
    }

    /// The members of an object as key–value pairs, in document order.
    @usableFromInline
    package struct Members: Sequence, Sendable {
        let node: JSONNode

        @usableFromInline
        init(node: JSONNode) {
            self.node = node
        }

        public var underestimatedCount: Int { node.entry.tag == .object ? node.count : 0 }

        public func makeIterator() -> Iterator {
            let entry = node.entry
            let isObject = entry.tag == .object
            return Iterator(document: node.document, position: node.index + 1, end: isObject ? entry.containerEnd : 0)
        }

        public struct Iterator: IteratorProtocol {
            let document: JSONDocument
            var position: Int
            let end: Int

            public mutating func next() -> (key: String, value: JSONNode)? {
                guard position < end else { return nil }
                let key = document.string(of: document.memberKey(at: position)) ?? ""
                let value = document.memberValue(at: position)
                position = document.next(after: value)
                return (key, JSONNode(document: document, index: value))
            }
        }
    }
}
