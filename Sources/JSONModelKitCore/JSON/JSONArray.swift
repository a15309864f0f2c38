/// The elements of a JSON array: what ``JSONValue/array(_:)-enum.case`` holds.
///
/// A random-access, mutable, range-replaceable collection of ``JSONValue``s with the value
/// semantics of `Array` (copy on write), so most code reads it as it would `[JSONValue]`:
///
/// ```swift
/// if case .array(let tags) = value {
///     for tag in tags { print(tag) }
///     tags.count; tags.first; tags[0]
/// }
/// let value: JSONValue = .array(["a", "b"])   // from a literal or a [JSONValue]
/// let elements = Array(tags)                  // a [JSONValue] when one is needed
/// ```
///
/// It is deliberately not `ExpressibleByArrayLiteral`: with its own `==`, a comparison like
/// `model.tags == ["a"]` against a generic read would pick it over `[String]`. Write
/// `JSONArray(["a"])`, or a `JSONValue` literal.
///
/// It has its own storage rather than `Array`'s so that releasing a value never recurses per
/// level of nesting: the storage frees nested arrays and objects from a loop
/// (`ContainerBuffer.swift`), and a value nested a million levels deep is freed on a small stack.
///
/// Equality and hashing are those of ``JSONValue``: element by element, by meaning.
public struct JSONArray: Sendable {
    @usableFromInline
    package var buffer: ContainerBuffer<JSONValue>

    @inlinable
    package init(buffer: ContainerBuffer<JSONValue>) {
        self.buffer = buffer
    }

    /// Creates an empty array.
    @inlinable
    public init() {
        buffer = ContainerBuffer()
    }

    /// Creates an empty array with room for `minimumCapacity` elements.
    @inlinable
    package init(minimumCapacity: Int) {
        buffer = ContainerBuffer(minimumCapacity: minimumCapacity)
    }

    /// Creates an array of the elements of a sequence in one copy, where the generic
    /// `init(_:)` of `RangeReplaceableCollection` appends them one by one.
    @inlinable
    package init(copying elements: some Sequence<JSONValue>) {
        buffer = ContainerBuffer(elements)
    }

    /// The elements as a Swift array.
    ///
    /// - Complexity: O(*n*): the elements are copied (not deeply: nested arrays and objects
    ///   are shared until written).
    @inlinable
    package var elements: [JSONValue] { buffer.array }
}

// The conformances declare only what they require: counting, iterating, appending and the
// other edits come from the protocols' defaults, all through `replaceSubrange`. The core's own
// loops that build arrays append to `buffer` directly.
extension JSONArray: RandomAccessCollection, MutableCollection {
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { buffer.endIndex }

    /// The element at `position`, which must be in range.
    @inlinable
    public subscript(position: Int) -> JSONValue {
        get { buffer[position] }
        _modify { yield &buffer[position] }
    }
}

extension JSONArray: RangeReplaceableCollection {
    @inlinable
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: __owned C)
    where C.Element == JSONValue {
        buffer.replaceSubrange(subrange, with: newElements)
    }
}

extension JSONArray: Hashable {
    /// Whether two arrays have equal elements in the same order, compared as ``JSONValue``s.
    public static func == (lhs: JSONArray, rhs: JSONArray) -> Bool {
        JSONValue.array(lhs) == JSONValue.array(rhs)
    }

    /// Hashes the elements as ``JSONValue`` does.
    public func hash(into hasher: inout Hasher) {
        JSONValue.array(self).hash(into: &hasher)
    }
}

extension JSONArray: CustomStringConvertible {
    /// The array as compact JSON text.
    public var description: String { JSONValue.array(self).description }
}
