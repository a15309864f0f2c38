// Reading and writing a value's nested values by key, index and path: the subscripts, and
// setValue(_:at:), which throws where a subscript's write would change nothing.

extension JSONValue {
    /// The value of the member with `key`, if this is an object that has it.
    ///
    /// The key is taken whole: `value["a.b"]` looks up the key `a.b`. Use a
    /// ``JSONPath`` (`value[JSONPath("a.b")]`) to walk nested levels.
    ///
    /// Reading returns `nil` for a missing key and for values that are not
    /// objects. Duplicate keys resolve to the last member (see ``JSONObject``).
    ///
    /// Setting writes the member (setting `nil` removes it). If this value is
    /// `null`, setting a non-`nil` value first makes it an empty object. If it
    /// is a string, number, bool or array, the write changes nothing (a setter
    /// cannot throw; ``setValue(_:at:)`` throws instead): a key never replaces
    /// a value that is there.
    ///
    /// ```swift
    /// var value: JSONValue = nil
    /// value["id"] = 7        // {"id":7}
    /// ```
    ///
    /// - Complexity: O(1) on average for large objects.
    public subscript(key: String) -> JSONValue? {
        get {
            if case .object(let object) = self { return object[key] }
            return nil
        }
        set {
            let segments = [JSONPath.Segment.key(key)]
            guard writeProblem(newValue, at: segments) == nil else { return }
            setValue(newValue, at: segments[...])
        }
    }

    /// The element at `index`, if this is an array and the index is in range.
    ///
    /// Setting follows the rules of ``subscript(_:)-(JSONPath)``: an index in
    /// range replaces the element (or removes it, for `nil`), the index equal
    /// to the count appends, a larger index pads with `null` first, at most
    /// 10,000 of them; a write that would pad more, or at a
    /// negative index, changes nothing.
    ///
    /// - Complexity: O(1) to read or replace.
    public subscript(index: Int) -> JSONValue? {
        get {
            if case .array(let array) = self, array.indices.contains(index) { return array[index] }
            return nil
        }
        set {
            let segments = [JSONPath.Segment.index(index)]
            guard writeProblem(newValue, at: segments) == nil else { return }
            setValue(newValue, at: segments[...])
        }
    }

    /// The value at `path`, if every step of the path exists.
    ///
    /// Reading follows each segment: a key into an object, an index into an
    /// array; any mismatch gives `nil`. The empty path is this value.
    ///
    /// Setting creates what is missing so that the write takes effect:
    ///
    /// - A missing level, or one that is `null`, becomes an empty object when
    ///   the next segment is a key and an empty array when it is an index.
    /// - A level of the wrong kind is never replaced: a string, number or bool
    ///   where the path goes on, an array where the next segment is a key, an
    ///   object where it is an index. The write is refused.
    /// - A key segment sets the member (see ``JSONObject`` for duplicates).
    /// - An index segment in range replaces the element; equal to the count it
    ///   appends; beyond the count it pads with `null` first, but never with more
    ///   than 10,000 of them.
    /// - Setting `nil` removes the member or element and never creates levels.
    /// - Setting at the empty path replaces the whole value (`nil` gives `null`).
    ///
    /// A write the rules refuse, one that meets a level of the wrong kind
    /// (`a.b` where `a` is a string), would pad more than 10,000 `null`s
    /// (`a[1000000000]` on a short array) or has a negative index, changes
    /// nothing: a setter cannot throw. ``setValue(_:at:)`` makes the same write
    /// and throws instead.
    ///
    /// ```swift
    /// var value: JSONValue = [:]
    /// value[JSONPath("a.b[1]")] = true    // {"a":{"b":[null,true]}}
    /// value[JSONPath("a.b[0]")] = nil     // {"a":{"b":[true]}}
    /// ```
    ///
    /// - Complexity: O(*k*) for a path of *k* segments, plus the cost of each
    ///   object or array update.
    public subscript(path: JSONPath) -> JSONValue? {
        get {
            var current = self
            for segment in path.segments {
                switch segment {
                case .key(let key):
                    guard case .object(let object) = current, let next = object[key] else { return nil }
                    current = next
                case .index(let index):
                    guard case .array(let array) = current, array.indices.contains(index) else { return nil }
                    current = array[index]
                }
            }
            return current
        }
        set {
            guard writeProblem(newValue, at: path.segments) == nil else { return }
            setValue(newValue, at: path.segments[...])
        }
    }

    /// Writes `newValue` at `path` as the subscript ``subscript(_:)-(JSONPath)`` does, throwing
    /// when it would not write.
    ///
    /// ```swift
    /// var value: JSONValue = ["a": [1]]
    /// try value.setValue(2, at: "a[3]")            // {"a":[1,null,null,2]}
    /// try value.setValue(2, at: "a[1000000000]")   // throws: 999,999,999 nulls of padding
    /// try value.setValue(2, at: "a[-1]")           // throws: a negative index
    /// try value.setValue(2, at: "a.b")             // throws: a is an array, not an object
    /// ```
    ///
    /// - Parameters:
    ///   - newValue: The value to write; nil removes.
    ///   - path: Where to write.
    /// - Throws: An error naming the path and the problem when the path has a negative index,
    ///   when it meets a level of the wrong kind (a string, number or bool it would have to go
    ///   through, an array where a key is next, an object where an index is), or when the write
    ///   would pad an array with more than 10,000 `null`s; the value is unchanged. Removing (`nil`)
    ///   through a level of the wrong kind has nothing to remove and does not throw.
    public mutating func setValue(_ newValue: JSONValue?, at path: JSONPath) throws {
        try writeValue(newValue, at: path)
    }

    /// ``setValue(_:at:)`` with its error typed, for the package's callers that report it.
    package mutating func writeValue(_ newValue: JSONValue?, at path: JSONPath) throws(JSONPathError) {
        if let problem = writeProblem(newValue, at: path.segments) {
            throw JSONPathError(path: path, message: problem)
        }
        setValue(newValue, at: path.segments[...])
    }

    /// Why writing `newValue` at `segments` is refused, or nil: a negative index, a level of
    /// the wrong kind (writing there would replace it, losing it), or padding beyond
    /// ``JSONPath/maximumIndex``. Reads only; O(*k*) for *k* segments.
    private func writeProblem(_ newValue: JSONValue?, at segments: [JSONPath.Segment]) -> String? {
        var current: JSONValue? = self
        for (position, segment) in segments.enumerated() {
            switch segment {
            case .key(let key):
                switch current {
                case .object(let object)?:
                    current = object[key]
                case nil, .null?:
                    current = nil
                case let other?:
                    guard newValue != nil else { return nil }  // nothing there to remove
                    return "\(JSONPath(Array(segments[..<position]))) holds \(other.kindPhrase), not an object; "
                        + "writing the key \(JSONPath([.key(key)])) there would replace it"
                }
            case .index(let index):
                if index < 0 { return "a negative index (\(index)); indices count from 0" }
                var count = 0
                switch current {
                case .array(let array)?:
                    count = array.count
                    current = index < count ? array[index] : nil
                case nil, .null?:
                    current = nil
                case let other?:
                    guard newValue != nil else { return nil }
                    return "\(JSONPath(Array(segments[..<position]))) holds \(other.kindPhrase), not an array; "
                        + "writing the index [\(index)] there would replace it"
                }
                // Removing never pads; a missing level or element is simply not there.
                if newValue != nil, index > count, index - count > JSONPath.maximumIndex {
                    return "writing at index \(index) would pad the array with \(index - count) nulls; a write pads "
                        + "at most \(JSONPath.maximumIndex) (JSONPath.maximumIndex)"
                }
            }
        }
        return nil
    }

    /// The kind of the value for messages: `a string`, `an array`.
    var kindPhrase: String {
        switch self {
        case .null: return "null"
        case .bool: return "a bool"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Writes `newValue` at the path given by `segments`, creating levels.
    ///
    /// Recurses once per path segment (paths are short), never per level of
    /// the data itself. Each level is moved out of its parent while it is
    /// changed, so the update happens in place without copying.
    private mutating func setValue(_ newValue: JSONValue?, at segments: ArraySlice<JSONPath.Segment>) {
        guard let segment = segments.first else {
            self = newValue ?? .null
            return
        }
        let rest = segments.dropFirst()
        switch segment {
        case .key(let key):
            guard case .object(var object) = self else {
                guard newValue != nil else { return }
                var object = JSONObject()
                var child = JSONValue.null
                child.setValue(newValue, at: rest)
                object[key] = child
                self = .object(object)
                return
            }
            self = .null  // release our reference so `object` is uniquely owned
            if rest.isEmpty {
                object[key] = newValue
            } else if var child = object[key] {
                object[key] = .null
                child.setValue(newValue, at: rest)
                object[key] = child
            } else if newValue != nil {
                var child = JSONValue.null
                child.setValue(newValue, at: rest)
                object[key] = child
            }
            self = .object(object)

        case .index(let index):
            guard index >= 0 else { return }
            guard case .array(var array) = self else {
                guard newValue != nil else { return }
                var array = JSONArray(repeating: .null, count: index)
                var child = JSONValue.null
                child.setValue(newValue, at: rest)
                array.buffer.append(child)
                self = .array(array)
                return
            }
            self = .null  // release our reference so `array` is uniquely owned
            if index < array.count {
                if rest.isEmpty && newValue == nil {
                    array.remove(at: index)
                } else {
                    var child = array[index]
                    array[index] = .null
                    child.setValue(newValue, at: rest)
                    array[index] = child
                }
            } else if newValue != nil {
                array.buffer.reserveCapacity(index + 1)
                while array.count < index { array.buffer.append(.null) }
                var child = JSONValue.null
                child.setValue(newValue, at: rest)
                array.buffer.append(child)
            }
            self = .array(array)
        }
    }
}
