/// A coding key made from any string, for objects with arbitrary keys.
struct JSONValueCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension JSONValue: Codable {
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
    /// Nesting is decoded the way the decoder drives it, one call per level,
    /// so the depth limit is the decoder's own.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.typeMismatch` if the value is none of the above.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                self = .null
                return
            }
            if let value = try? single.decode(Bool.self) {
                self = .bool(value)
                return
            }
            if let value = try? single.decode(Int64.self) {
                self = .number(JSONNumber(value))
                return
            }
            if let value = try? single.decode(UInt64.self) {
                self = .number(JSONNumber(value))
                return
            }
            if let value = try? single.decode(Double.self), let number = JSONNumber(value) {
                self = .number(number)
                return
            }
            if let value = try? single.decode(String.self) {
                self = .string(value)
                return
            }
        }
        if let keyed = try? decoder.container(keyedBy: JSONValueCodingKey.self) {
            var object = JSONObject(minimumCapacity: keyed.allKeys.count)
            for key in keyed.allKeys {
                object.append(key: key.stringValue, value: try keyed.decode(JSONValue.self, forKey: key))
            }
            self = .object(object)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            if let count = unkeyed.count { elements.reserveCapacity(count) }
            while !unkeyed.isAtEnd {
                elements.append(try unkeyed.decode(JSONValue.self))
            }
            self = .array(elements)
            return
        }
        throw DecodingError.typeMismatch(
            JSONValue.self,
            DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "The value is not null, a Bool, a number, a String, an array or an object."))
    }

    /// Encodes the value into an encoder.
    ///
    /// Numbers are encoded as `Int64` when their value is an exact 64-bit
    /// integer, else as `UInt64`, else as `Double` (so very long decimals are
    /// rounded; write with ``jsonBytes(options:)`` to keep exact text). Object
    /// members are encoded in order, each key once with its last value.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let number):
            var single = encoder.singleValueContainer()
            if let value = number.int64Value {
                try single.encode(value)
            } else if let value = number.uint64Value {
                try single.encode(value)
            } else {
                try single.encode(number.doubleValue)
            }
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
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
        }
    }
}
