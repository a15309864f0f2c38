/// A coding key made from any string, for objects with arbitrary keys.
package struct JSONValueCodingKey: CodingKey {
    package var stringValue: String
    package var intValue: Int?

    package init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    package init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension JSONValue: Codable {
    /// The most arrays and objects, one inside another, that `Codable` decodes or encodes.
    ///
    /// A coder calls ``init(from:)`` and ``encode(to:)`` once per level, inside each other: with
    /// Foundation's `JSONEncoder` and `JSONDecoder` that takes about 1.5 KiB of stack per level in
    /// an optimized build and 2.7 KiB in a debug one, so the parser's default limit of 512 levels
    /// would overflow a 512 KiB thread. Deeper values are refused with an `EncodingError` or
    /// `DecodingError` that says so, leaving room for the caller's own levels; write them with
    /// ``jsonString(options:)`` and read them with ``JSONDocument``, which have no such limit.
    /// The count is per thread and covers every `JSONValue` being coded on it (a model's
    /// `Codable` conformance codes its JSON as a `JSONValue`).
    package static let codingDepthLimit = 64

    /// Decodes any JSON-shaped value from a decoder.
    ///
    /// Tries, in order: `nil`, `Bool`, `Int64`, `UInt64`, `Double`, `String`,
    /// an object (keyed container with string keys) and an array. Numbers
    /// come back as the text of the Swift value the decoder produced, so a
    /// number beyond 64-bit integers arrives rounded to a `Double`. Object
    /// members follow the decoder's `allKeys` order, which for most decoders
    /// (including `JSONDecoder`) is not the original order.
    ///
    /// ```swift
    /// let value = try JSONDecoder().decode(JSONValue.self, from: data)
    /// ```
    ///
    /// Nesting is decoded the way the decoder drives it, one call per level, so at most 64
    /// arrays and objects deep: coders recurse, and deeper values would overflow a thread's
    /// stack. Read deeper JSON with ``JSONDocument``, which has no such limit.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.typeMismatch` if the value is none of the above,
    ///   `DecodingError.dataCorrupted` if it is nested more than 64 levels deep.
    public init(from decoder: any Decoder) throws {
        // Scalars and containers are read in functions of their own, so that the frame of this
        // initializer, on the stack once per level, stays small.
        if let scalar = Self.decodeScalar(decoder) {
            self = scalar
        } else {
            self = try Self.decodeContainer(decoder)
        }
    }

    /// Encodes the value into an encoder.
    ///
    /// Numbers are encoded as `Int64` when their value is an exact 64-bit
    /// integer, else as `UInt64`, else as `Double` (so very long decimals are
    /// rounded; write with ``jsonString(options:)`` to keep exact text). Object
    /// members are encoded in order, each key once with its last value.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws; `EncodingError.invalidValue` for a value nested
    ///   more than 64 arrays and objects deep (write those with ``jsonString(options:)``).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .array, .object: try encodeContainer(to: encoder)
        default: try encodeScalar(to: encoder)
        }
    }

    private static var tooDeep: String {
        "JSON nested deeper than \(codingDepthLimit) arrays and objects: Codable recurses once per level, "
            + "so deeper values are refused to keep the stack safe; use jsonBytes() and JSONDocument for them"
    }

    // MARK: Reading

    @inline(never)
    private static func decodeScalar(_ decoder: any Decoder) -> JSONValue? {
        guard let single = try? decoder.singleValueContainer() else { return nil }
        if single.decodeNil() { return .null }
        if let value = try? single.decode(Bool.self) { return .bool(value) }
        if let value = try? single.decode(Int64.self) { return .number(JSONNumber(value)) }
        if let value = try? single.decode(UInt64.self) { return .number(JSONNumber(value)) }
        if let value = try? single.decode(Double.self), let number = JSONNumber(value) { return .number(number) }
        if let value = try? single.decode(String.self) { return .string(value) }
        return nil
    }

    /// Reads an object or an array one level deeper on this thread, or throws when that is too deep.
    @inline(never)
    private static func decodeContainer(_ decoder: any Decoder) throws -> JSONValue {
        let state = ThreadState.current
        guard state.codingDepth < codingDepthLimit else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: tooDeep))
        }
        state.codingDepth += 1
        defer { state.codingDepth -= 1 }
        if let keyed = try? decoder.container(keyedBy: JSONValueCodingKey.self) {
            var object = JSONObject(minimumCapacity: keyed.allKeys.count)
            for key in keyed.allKeys {
                object.append(key: key.stringValue, value: try keyed.decode(JSONValue.self, forKey: key))
            }
            return .object(object)
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements = JSONArray()
            if let count = unkeyed.count { elements.buffer.reserveCapacity(count) }
            while !unkeyed.isAtEnd {
                elements.buffer.append(try unkeyed.decode(JSONValue.self))
            }
            return .array(elements)
        }
        throw DecodingError.typeMismatch(
            JSONValue.self,
            DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "The value is not null, a Bool, a number, a String, an array or an object."))
    }

    // MARK: Writing

    @inline(never)
    private func encodeScalar(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null:
            try single.encodeNil()
        case .bool(let value):
            try single.encode(value)
        case .number(let number):
            if let value = number.int64Value {
                try single.encode(value)
            } else if let value = number.uint64Value {
                try single.encode(value)
            } else {
                try single.encode(number.doubleValue)
            }
        case .string(let value):
            try single.encode(value)
        case .array, .object:
            preconditionFailure("containers are encoded by encode(to:)")
        }
    }

    /// Writes an object or an array one level deeper on this thread, or throws when that is too deep.
    @inline(never)
    private func encodeContainer(to encoder: any Encoder) throws {
        let state = ThreadState.current
        guard state.codingDepth < Self.codingDepthLimit else {
            throw EncodingError.invalidValue(
                self, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: Self.tooDeep))
        }
        state.codingDepth += 1
        defer { state.codingDepth -= 1 }
        switch self {
        case .array(let elements):
            var unkeyed = encoder.unkeyedContainer()
            for element in elements {
                try unkeyed.encode(element)
            }
        case .object(let object):
            var keyed = encoder.container(keyedBy: JSONValueCodingKey.self)
            for position in object.members.indices where object.isEffectiveMember(at: position) {
                let member = object.members[position]
                try keyed.encode(member.value, forKey: JSONValueCodingKey(stringValue: member.key))
            }
        default:
            try encodeScalar(to: encoder)
        }
    }
}
