// The owned JSON value: its cases, literals, initializers and accessors, equality and hashing,
// and its description; reading and writing by key, index and path is in JSONValue+Paths.swift.

/// An owned JSON value, for building, mutating and reading JSON dynamically.
///
/// `JSONValue` is the in-memory tree form of JSON. Numbers keep their exact
/// text (see ``JSONNumber``) and objects keep member order and duplicate keys
/// (see ``JSONObject``), so a parsed document written back out is unchanged.
///
/// ```swift
/// var user: JSONValue = ["name": "Ann", "tags": ["admin"], "age": 31]
/// user["age"]?.numberValue?.intValue       // 31
/// user[JSONPath("address.city")] = "Oslo"   // creates the "address" object
/// user[["tags", 0]]?.stringValue            // "admin"
/// print(user)                        // {"name":"Ann","tags":["admin"],"age":31,"address":{"city":"Oslo"}}
/// ```
///
/// Equality compares by meaning: numbers by exact decimal value
/// (`1 == 1.0 == 1e0`, but `9007199254740993 != 9007199254740992`), objects by
/// their effective members regardless of order. Hashing agrees.
///
/// Building from foreign values, comparing, hashing, writing and releasing use
/// explicit stacks, never recursion per nesting level, so values nested hundreds
/// of thousands of levels deep are handled on a small stack. Releasing is the
/// work of the storage of ``JSONArray`` and ``JSONObject``: when the last
/// reference to a nested value goes away, its arrays and objects are freed from
/// a loop, not one inside the other. (`Codable` is the exception: coders recurse,
/// so it stops at 64 levels.)
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, with its exact text.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array(JSONArray)
    /// An object, ordered, duplicate keys kept.
    case object(JSONObject)
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    /// Creates `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates a number with the literal's exact value.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates a number from the literal's `Double` value, written as its
    /// shortest round-trip text (`0.1` stays `0.1`).
    ///
    /// - Precondition: The literal is finite.
    public init(floatLiteral value: Double) {
        guard let number = JSONNumber(value) else {
            preconditionFailure("JSON has no representation for \(value)")
        }
        self = .number(number)
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates a string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates an array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(JSONArray(copying: elements)) }
}

extension JSONValue {
    /// An array of the elements of a Swift array: `.array(elements)` for a `[JSONValue]`.
    ///
    /// - Complexity: O(*n*): the elements are copied into the array's own storage.
    public static func array(_ elements: [JSONValue]) -> JSONValue {
        .array(JSONArray(copying: elements))
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an object with the members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject(minimumCapacity: elements.count)
        for (key, value) in elements {
            object.append(key: key, value: value)
        }
        self = .object(object)
    }
}

// MARK: - Convenience initializers

extension JSONValue {
    /// Creates a number with the exact value of an integer.
    ///
    /// - Parameter value: Any integer.
    package init<T: BinaryInteger>(_ value: T) {
        self = .number(JSONNumber(value))
    }

    /// Creates a number from a `Double`, or `null` when it is NaN or infinite
    /// (JSON has no representation for them).
    ///
    /// - Parameter value: A double.
    package init(_ value: Double) {
        self = JSONNumber(value).map(JSONValue.number) ?? .null
    }
}

// MARK: - Accessors

extension JSONValue {
    /// Whether the value is `null`.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The Boolean, if the value is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The string, if the value is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, if the value is a number.
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, if the value is a number that is exactly
    /// integral and in range (`1e2` gives 100, `2.5` gives `nil`).
    package var intValue: Int? { numberValue?.intValue }

    /// The number as an `Int64`, if the value is a number that is exactly
    /// integral and in range.
    package var int64Value: Int64? { numberValue?.int64Value }

    /// The number as a `UInt64`, if the value is a number that is exactly
    /// integral and in range.
    package var uint64Value: UInt64? { numberValue?.uint64Value }

    /// The number as the nearest `Double`, if the value is a number.
    package var doubleValue: Double? { numberValue?.doubleValue }

    /// The elements, if the value is an array, as a Swift array.
    ///
    /// - Complexity: O(*n*): the elements are copied out of the ``JSONArray`` (nested arrays and
    ///   objects are shared, not copied). Match `case .array(let elements)` to use them in place.
    package var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value.elements }
        return nil
    }

    /// The object, if the value is an object.
    package var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }
}

// MARK: - Equality and hashing

extension JSONValue {
    /// Returns whether two values are equal by meaning.
    ///
    /// Numbers compare by exact decimal value, objects by their effective
    /// members (the last value of each key) regardless of order, arrays
    /// element by element.
    ///
    /// - Complexity: O(*n*) on average, where *n* is the number of nested
    ///   values. Uses an explicit stack, not recursion.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        // Pairs of arrays or objects still to compare element by element; scalars are compared
        // as they are met, without going through the list.
        var pending: [(JSONValue, JSONValue)] = []
        guard shallowEqual(lhs, rhs, deferring: &pending) else { return false }
        while let (left, right) = pending.popLast() {
            switch (left, right) {
            case (.array(let a), .array(let b)):
                let equal = a.buffer.withElements { x in
                    b.buffer.withElements { y in
                        for index in x.indices where !shallowEqual(x[index], y[index], deferring: &pending) { return false }
                        return true
                    }
                }
                if !equal { return false }
            case (.object(let a), .object(let b)):
                let equal = a.members.buffer.withElements { members in
                    for position in members.indices where a.isEffectiveMember(at: position) {
                        let member = members[position]
                        guard let other = b[member.key], shallowEqual(member.value, other, deferring: &pending) else {
                            return false
                        }
                    }
                    return true
                }
                if !equal { return false }
            default:
                return false
            }
        }
        return true
    }

    /// Compares two values without their nested values: scalars fully; arrays and objects by
    /// kind and size, putting non-empty ones on `pending` to compare their elements.
    @inline(__always)
    private static func shallowEqual(_ lhs: JSONValue, _ rhs: JSONValue, deferring pending: inout [(JSONValue, JSONValue)]) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            return true
        case (.bool(let a), .bool(let b)):
            return a == b
        case (.number(let a), .number(let b)):
            return a == b
        case (.string(let a), .string(let b)):
            return a == b
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return false }
            if !a.isEmpty { pending.append((lhs, rhs)) }
            return true
        case (.object(let a), .object(let b)):
            guard a.effectiveCount == b.effectiveCount else { return false }
            if !a.isEmpty { pending.append((lhs, rhs)) }
            return true
        default:
            return false
        }
    }

    /// Hashes the value consistently with ``==(_:_:)``.
    ///
    /// Object members contribute independently of their order.
    ///
    /// - Complexity: O(*n*), where *n* is the number of nested values. Uses an
    ///   explicit stack, not recursion.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(structuralDigest())
    }

    /// A hash of the whole value computed bottom-up with an explicit stack.
    ///
    /// Arrays feed their elements' digests in order; objects add up one
    /// digest per effective member (key and value digest), which makes the
    /// result independent of member order.
    private func structuralDigest() -> Int {
        enum Frame {
            case array(JSONArray, next: Int, hasher: Hasher)
            case object(JSONObject, next: Int, sum: Int, pendingKey: String)
        }
        func scalarDigest(_ value: JSONValue) -> Int? {
            var hasher = Hasher()
            switch value {
            case .null: hasher.combine(0 as UInt8)
            case .bool(let b): hasher.combine(1 as UInt8); hasher.combine(b)
            case .number(let n): hasher.combine(2 as UInt8); hasher.combine(n)
            case .string(let s): hasher.combine(3 as UInt8); hasher.combine(s)
            case .array, .object: return nil
            }
            return hasher.finalize()
        }
        func memberDigest(key: String, valueDigest: Int) -> Int {
            var hasher = Hasher()
            hasher.combine(ExactKey(key))
            hasher.combine(valueDigest)
            return hasher.finalize()
        }

        var stack: [Frame] = []
        var current: JSONValue? = self
        var finished: Int? = nil  // digest of the value completed last
        while true {
            if let value = current {
                current = nil
                if let digest = scalarDigest(value) {
                    finished = digest
                } else if case .array(let elements) = value {
                    var hasher = Hasher()
                    hasher.combine(4 as UInt8)
                    hasher.combine(elements.count)
                    stack.append(.array(elements, next: 0, hasher: hasher))
                    finished = nil
                } else if case .object(let object) = value {
                    stack.append(.object(object, next: 0, sum: 0, pendingKey: ""))
                    finished = nil
                }
            }
            guard let top = stack.popLast() else { return finished ?? 0 }
            switch top {
            case .array(let elements, let next, var hasher):
                if let child = finished {
                    hasher.combine(child)
                    finished = nil
                }
                if next < elements.count {
                    current = elements[next]
                    stack.append(.array(elements, next: next + 1, hasher: hasher))
                } else {
                    finished = hasher.finalize()
                }
            case .object(let object, var next, var sum, let pendingKey):
                if let child = finished {
                    sum = sum &+ memberDigest(key: pendingKey, valueDigest: child)
                    finished = nil
                }
                while next < object.members.count && !object.isEffectiveMember(at: next) { next += 1 }
                if next < object.members.count {
                    let member = object.members[next]
                    current = member.value
                    stack.append(.object(object, next: next + 1, sum: sum, pendingKey: member.key))
                } else {
                    var hasher = Hasher()
                    hasher.combine(5 as UInt8)
                    hasher.combine(object.effectiveCount)
                    hasher.combine(sum)
                    finished = hasher.finalize()
                }
            }
        }
    }
}

// MARK: - Description

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text.
    ///
    /// ```swift
    /// let value: JSONValue = ["a": [1, true, nil]]
    /// value.description   // {"a":[1,true,null]}
    /// ```
    public var description: String { jsonString() }
}
