/// An ordered JSON object that keeps its members as written, duplicate keys
/// included.
///
/// JSON text may repeat a key (`{"a": 1, "a": 2}`); RFC 8259 leaves the
/// meaning open. `JSONObject` keeps every member so that a document round-trips
/// unchanged, and resolves keys with one fixed policy:
///
/// - **Lookup** finds the *last* member with the key (`2` above).
/// - **Replacing** (`object["a"] = 3`) writes into the last member with the key
///   and removes the earlier ones, so the object ends with one `"a"`, at the
///   position of the last one.
/// - **Removing** (`object["a"] = nil`) removes every
///   member with the key.
/// - **Adding** a key that is not present appends it at the end.
/// - **Keys are compared by their UTF-8 bytes**, as JSON text spells them: `"\u{E1}"` (á)
///   and `"a\u{301}"` (a with a combining accent) are two keys, although Swift's `String ==`
///   calls them equal.
/// - ``append(key:value:)`` always appends, keeping duplicates; a parser uses
///   it to build an object exactly as written.
///
/// Equality and hashing look only at the effective members (each key's last
/// value) and ignore order: `{"a": 1, "b": 2}` equals `{"b": 2, "a": 1}` and
/// `{"a": 0, "a": 1, "b": 2}`.
///
/// ```swift
/// var object: JSONObject = ["name": "Ann", "age": 31]
/// object["age"] = 32
/// object["email"] = "ann@example.com"   // appended at the end
/// object.map(\.key)                    // ["name", "age", "email"]
/// ```
///
/// Objects with more than 16 members keep a key index, so lookups stay O(1)
/// on average however large the object grows; small objects are searched
/// linearly, which is faster than hashing at that size and keeps building
/// them cheap.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {

    /// The members in order, duplicates included.
    package private(set) var members: Members

    /// Key to position of its last member; built once the object has more
    /// than ``indexThreshold`` members.
    private var index: [ExactKey: Int]?

    /// Whether some key appears in more than one member.
    private(set) var hasDuplicateKeys: Bool

    /// The member count above which a key index is kept.
    static let indexThreshold = 16

    /// Creates an empty object; `[:]` is the public spelling.
    package init() {
        members = Members()
        index = nil
        hasDuplicateKeys = false
    }

    /// Creates an object from members in order, keeping duplicate keys.
    ///
    /// ```swift
    /// let object = JSONObject([(key: "a", value: 1), (key: "a", value: 2)])
    /// object["a"]      // 2: the last one wins
    /// object.count     // 2
    /// ```
    ///
    /// - Parameter elements: The members, in order.
    /// - Complexity: O(*n*) on average, where *n* is the number of members.
    package init<S: Sequence>(_ elements: S) where S.Element == (key: String, value: JSONValue) {
        self.init()
        members.buffer.reserveCapacity(elements.underestimatedCount)
        for member in elements {
            append(key: member.key, value: member.value)
        }
    }

    /// Creates an object from a dictionary literal, keeping members in the
    /// order written (and repeated keys, as ``append(key:value:)`` does).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init()
        members.buffer.reserveCapacity(elements.count)
        for (key, value) in elements {
            append(key: key, value: value)
        }
    }

    /// Creates an empty object with room for `minimumCapacity` members.
    ///
    /// - Parameter minimumCapacity: The number of members to reserve room for.
    package init(minimumCapacity: Int) {
        self.init()
        members.buffer.reserveCapacity(minimumCapacity)
    }

    // The members in order, duplicates included, are the object's elements: its collection
    // conformance declares only the bounds and the positional subscript, and takes counting
    // and iterating from the protocols' defaults.

    /// The position of the first member.
    public var startIndex: Int { 0 }

    /// The position past the last member: the number of members, duplicates included.
    public var endIndex: Int { members.buffer.count }

    /// The member at `position`, in order, duplicates included.
    ///
    /// ```swift
    /// let object = JSONObject([(key: "a", value: 1), (key: "a", value: 2)])
    /// object[0]           // (key: "a", value: 1)
    /// object.count        // 2
    /// ```
    public subscript(position: Int) -> (key: String, value: JSONValue) { members.buffer[position] }

    /// The keys of the members in order, duplicates included.
    ///
    /// - Complexity: O(*n*), where *n* is the number of members.
    package var keys: [String] { members.buffer.map(\.key) }

    /// The values of the members in order, duplicates included.
    ///
    /// - Complexity: O(*n*), where *n* is the number of members.
    package var values: [JSONValue] { members.buffer.map(\.value) }

    /// Reserves room for `minimumCapacity` members.
    ///
    /// - Parameter minimumCapacity: The number of members to reserve room for.
    package mutating func reserveCapacity(_ minimumCapacity: Int) {
        members.buffer.reserveCapacity(minimumCapacity)
    }

    /// Whether a member with `key` exists.
    ///
    /// - Complexity: O(1) on average for objects with more than 16 members,
    ///   O(*n*) for smaller ones.
    package func contains(key: String) -> Bool {
        lastIndex(forKey: key) != nil
    }

    /// The position in ``members`` of the last member with `key`.
    ///
    /// - Complexity: O(1) on average for objects with more than 16 members,
    ///   O(*n*) for smaller ones.
    package func lastIndex(forKey key: String) -> Int? {
        if let index { return index[ExactKey(key)] }
        return members.buffer.withElements { elements in
            var i = elements.count - 1
            while i >= 0 {
                if elements[i].key.isSameJSONKey(as: key) { return i }
                i -= 1
            }
            return nil
        }
    }

    /// The value of the last member with `key`; setting replaces or removes.
    ///
    /// Setting a value replaces the value of the last member with the key and
    /// removes earlier members with the same key; if there is none, the member
    /// is appended at the end. Setting `nil` removes every member with the key.
    ///
    /// ```swift
    /// var object: JSONObject = ["a": 1, "b": 2]
    /// object["a"] = 10      // {"a":10,"b":2}
    /// object["c"] = true    // {"a":10,"b":2,"c":true}
    /// object["b"] = nil     // {"a":10,"c":true}
    /// ```
    ///
    /// - Complexity: Reading and replacing the value of a key that appears once
    ///   are O(1) on average for large objects; removing is O(*n*).
    public subscript(key: String) -> JSONValue? {
        get {
            lastIndex(forKey: key).map { members.buffer[$0].value }
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Sets the value for `key` and returns the value it replaces.
    ///
    /// Replaces the value of the last member with the key and removes earlier
    /// members with the same key; appends the member if the key is new.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - key: The key.
    /// - Returns: The previous value of the key's last member, or `nil`.
    /// - Complexity: O(1) on average for large objects when the key appears at
    ///   most once, O(*n*) when earlier duplicates are removed.
    @discardableResult
    package mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        guard let position = lastIndex(forKey: key) else {
            members.buffer.append((key: key, value: value))
            noteAppended(key: key)
            return nil
        }
        let old = members.buffer[position].value
        members.buffer[position].value = value
        if hasDuplicateKeys {
            removeEarlierDuplicates(of: key, before: position)
        }
        return old
    }

    /// Removes every member with `key` and returns the value the key had.
    ///
    /// - Parameter key: The key to remove.
    /// - Returns: The value of the last member with the key, or `nil` if there
    ///   was none.
    /// - Complexity: O(*n*), where *n* is the number of members; O(1) when the
    ///   key's only member is the last one.
    @discardableResult
    package mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = lastIndex(forKey: key) else { return nil }
        let old = members.buffer[position].value
        if !hasDuplicateKeys && position == members.buffer.count - 1 {
            members.buffer.removeLast()
            index?[ExactKey(key)] = nil
            if members.buffer.count <= JSONObject.indexThreshold { index = nil }
            return old
        }
        members.buffer.removeAll { $0.key.isSameJSONKey(as: key) }
        rebuildIndex()
        return old
    }

    /// Appends a member at the end, even if the key already exists.
    ///
    /// This keeps duplicate keys, as a parser building an object from text
    /// does; lookups then find this newest member.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The value.
    /// - Complexity: Amortized O(1) on average.
    public mutating func append(key: String, value: JSONValue) {
        members.buffer.append((key: key, value: value))
        noteAppended(key: key)
    }

    /// Removes every member.
    ///
    /// - Parameter keepCapacity: Whether to keep the storage for reuse.
    package mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        members.buffer.removeAll(keepingCapacity: keepCapacity)
        index = nil
        hasDuplicateKeys = false
    }

    /// Whether the member at `position` is the last one with its key, that is,
    /// the member a lookup of its key finds.
    func isEffectiveMember(at position: Int) -> Bool {
        !hasDuplicateKeys || lastIndex(forKey: members.buffer[position].key) == position
    }

    /// The number of distinct keys.
    var effectiveCount: Int {
        if !hasDuplicateKeys { return members.buffer.count }
        if let index { return index.count }
        var count = 0
        for position in members.buffer.indices where isEffectiveMember(at: position) { count += 1 }
        return count
    }

    // MARK: Index maintenance

    /// Updates the index and duplicate flag after a member was appended.
    private mutating func noteAppended(key: String) {
        let position = members.buffer.count - 1
        if index != nil {
            if index![ExactKey(key)] != nil { hasDuplicateKeys = true }
            index![ExactKey(key)] = position
        } else if members.buffer.count > JSONObject.indexThreshold {
            rebuildIndex()
        } else if !hasDuplicateKeys {
            var i = 0
            while i < position {
                if members.buffer[i].key.isSameJSONKey(as: key) {
                    hasDuplicateKeys = true
                    break
                }
                i += 1
            }
        }
    }

    /// Recomputes the index (or drops it for small objects) and the duplicate flag.
    private mutating func rebuildIndex() {
        if members.buffer.count > JSONObject.indexThreshold {
            var newIndex = [ExactKey: Int](minimumCapacity: members.buffer.count)
            for (position, member) in members.buffer.enumerated() {
                newIndex[ExactKey(member.key)] = position
            }
            hasDuplicateKeys = newIndex.count != members.buffer.count
            index = newIndex
        } else {
            index = nil
            hasDuplicateKeys = false
            outer: for i in members.buffer.indices {
                for j in members.buffer.indices.suffix(from: i + 1) where members.buffer[j].key.isSameJSONKey(as: members.buffer[i].key) {
                    hasDuplicateKeys = true
                    break outer
                }
            }
        }
    }

    /// Removes members with `key` before `position`, keeping the one at `position`.
    private mutating func removeEarlierDuplicates(of key: String, before position: Int) {
        var write = 0
        var removed = false
        for read in members.buffer.indices {
            if read < position && members.buffer[read].key.isSameJSONKey(as: key) {
                removed = true
                continue
            }
            if write != read { members.buffer[write] = members.buffer[read] }
            write += 1
        }
        guard removed else { return }
        members.buffer.removeLast(members.buffer.count - write)
        rebuildIndex()
    }

    // MARK: Equality and hashing

    /// Returns whether two objects have the same keys with equal values,
    /// ignoring order and earlier duplicates.
    ///
    /// - Complexity: O(*n*) on average over all nested values; does not
    ///   recurse per nesting level.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        JSONValue.object(lhs) == JSONValue.object(rhs)
    }

    /// Hashes the effective members, independent of their order.
    ///
    /// - Complexity: O(*n*) over all nested values; does not recurse per
    ///   nesting level.
    public func hash(into hasher: inout Hasher) {
        JSONValue.object(self).hash(into: &hasher)
    }
}

extension JSONObject {
    /// The members of an object in order, duplicate keys included: a random-access collection
    /// of `(key: String, value: JSONValue)` that shares the object's storage.
    ///
    /// Its storage frees nested values from a loop, not recursively (`ContainerBuffer.swift`).
    package struct Members: RandomAccessCollection, Sendable {
        public typealias Element = JSONObject.Element
        public typealias Index = Int
        public typealias Indices = Range<Int>

        @usableFromInline
        package var buffer: ContainerBuffer<JSONObject.Element>

        @inlinable
        init() {
            buffer = ContainerBuffer()
        }

        @inlinable public var startIndex: Int { 0 }
        @inlinable public var endIndex: Int { buffer.endIndex }

        /// The member at `position`, which must be in range.
        @inlinable
        public subscript(position: Int) -> JSONObject.Element { buffer[position] }

        @inlinable
        public func withContiguousStorageIfAvailable<R>(
            _ body: (UnsafeBufferPointer<JSONObject.Element>) throws -> R
        ) rethrows -> R? {
            try buffer.withContiguousStorageIfAvailable(body)
        }

        /// Iterates over the members in order.
        public struct Iterator: IteratorProtocol {
            @usableFromInline
            var base: ContainerIterator<JSONObject.Element>

            @inlinable
            init(_ base: ContainerIterator<JSONObject.Element>) {
                self.base = base
            }

            @inlinable
            public mutating func next() -> JSONObject.Element? { base.next() }
        }

        @inlinable
        public func makeIterator() -> Iterator {
            Iterator(buffer.makeIterator())
        }
    }
}
