#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// An `Encoder` that produces a ``JSONValue``: the writing half of Codable property types.
///
/// ```swift
/// let json = try JSONValueEncoder.encode(meta)   // .object(["title": "…", "tags": […]])
/// ```
///
/// `Date` is written as ISO 8601 text, `Data` as base64 text, `URL` as its absolute string
/// and `Decimal` as a number, so that ``JSONInputDecoder`` reads each back; a ``JSONValue`` or a
/// model is its JSON, numbers spelled as they are. Object members keep the order of their first
/// encoding; encoding a key again replaces its value, and a nested container asked for again
/// adds to the one there. A value that throws leaves nothing behind.
final class JSONValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// Where this encoder's value goes.
    let slot: Slot

    init(slot: Slot, codingPath: [any CodingKey]) {
        self.slot = slot
        self.codingPath = codingPath
    }

    /// The JSON of `value`.
    ///
    /// - Throws: `EncodingError.invalidValue` for a number JSON cannot hold (NaN, infinity), a
    ///   date ISO 8601 cannot write, or a value that encodes nothing; what `T` throws.
    static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let slot = Slot()
        try slot.store(value, codingPath: [])
        guard let json = slot.json else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(T.self) encoded no value"))
        }
        return json
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(object: slot.makeObject(), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(array: slot.makeArray(), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(slot: slot, codingPath: codingPath)
    }
}

extension JSONValueEncoder {
    /// One value under construction: filled once with a scalar, or holding an object or array
    /// whose members are slots of their own (containers keep writing into them by reference).
    final class Slot {
        enum Content {
            case empty
            case value(JSONValue)
            case object(ObjectBuilder)
            case array(ArrayBuilder)
        }

        var content = Content.empty

        /// The finished JSON; nil when nothing was encoded.
        var json: JSONValue? {
            switch content {
            case .empty: return nil
            case .value(let value): return value
            case .object(let object): return .object(object.json)
            case .array(let array): return .array(array.json)
            }
        }

        /// The object this slot holds, made on first request (a second `container(keyedBy:)`
        /// call adds to the same object).
        func makeObject() -> ObjectBuilder {
            if case .object(let object) = content { return object }
            let object = ObjectBuilder()
            content = .object(object)
            return object
        }

        func makeArray() -> ArrayBuilder {
            if case .array(let array) = content { return array }
            let array = ArrayBuilder()
            content = .array(array)
            return array
        }

        /// Encodes `value` into this slot: the types with JSON spellings of their own directly,
        /// others through their `encode(to:)`.
        func store<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
            if let json = try Slot.scalarJSON(value, codingPath: codingPath) {
                content = .value(json)
            } else {
                try value.encode(to: JSONValueEncoder(slot: self, codingPath: codingPath))
            }
        }

        static func scalarJSON<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> JSONValue? {
            switch value {
            case let text as String: return .string(text)
            case let json as JSONValue: return json
            case let model as any EncodedAsItsJSON: return model.encodedJSON
            case let flag as Bool: return .bool(flag)
            case let number as Double: return try finite(JSONNumber(number), value, codingPath)
            case let number as Float: return try finite(JSONNumber(number), value, codingPath)
            case let integer as any FixedWidthInteger: return .number(JSONNumber(integer))
            case let date as Date:
                guard ISO8601Text.isWritable(date) else {
                    throw EncodingError.invalidValue(
                        date,
                        EncodingError.Context(codingPath: codingPath, debugDescription: "the date is outside years 0000 to 9999"))
                }
                return .string(ISO8601Text.string(from: date))
            case let data as Data: return .string(data.base64EncodedString())
            case let url as URL: return .string(url.absoluteString)
            case let decimal as Decimal:
                return try finite(decimal.isNaN ? nil : JSONNumber(text: decimal.description), value, codingPath)
            default: return nil
            }
        }

        private static func finite(_ number: JSONNumber?, _ value: Any, _ codingPath: [any CodingKey]) throws -> JSONValue {
            guard let number else {
                throw EncodingError.invalidValue(
                    value, EncodingError.Context(codingPath: codingPath, debugDescription: "\(value) is not a JSON number"))
            }
            return .number(number)
        }
    }

    /// An object's members in first-encoding order.
    final class ObjectBuilder {
        private var keys: [String] = []
        private var slots: [String: Slot] = [:]

        /// The slot of `key`, emptied: encoding a key again replaces its value.
        func slot(for key: String) -> Slot {
            if let existing = slots[key] {
                existing.content = .empty
                return existing
            }
            let slot = Slot()
            set(slot, for: key)
            return slot
        }

        /// The slot of `key` as it is, for a nested container: one asked for again under the
        /// same key adds to the object or array there, as a second `container(keyedBy:)` does.
        func nestedSlot(for key: String) -> Slot {
            if let existing = slots[key] { return existing }
            return slot(for: key)
        }

        /// Puts `slot`, filled, under `key`, in the place of the key's earlier value.
        func set(_ slot: Slot, for key: String) {
            if slots.updateValue(slot, forKey: key) == nil { keys.append(key) }
        }

        /// The members; a member that encoded nothing is left out.
        var json: JSONObject {
            var object = JSONObject(minimumCapacity: keys.count)
            for key in keys {
                if let value = slots[key]!.json { object.append(key: key, value: value) }
            }
            return object
        }
    }

    final class ArrayBuilder {
        private(set) var slots: [Slot] = []

        func appendSlot() -> Slot {
            let slot = Slot()
            slots.append(slot)
            return slot
        }

        func append(_ slot: Slot) {
            slots.append(slot)
        }

        /// The elements; one that encoded nothing is written as null.
        var json: [JSONValue] { slots.map { $0.json ?? .null } }
    }
}

// MARK: - Containers

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: JSONValueEncoder.ObjectBuilder
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        object.slot(for: key.stringValue).content = .value(.null)
    }

    /// Stores `value` under `key` only once it has encoded: one that throws leaves the key's
    /// earlier value in place.
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let slot = JSONValueEncoder.Slot()
        try slot.store(value, codingPath: codingPath + [key])
        object.set(slot, for: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(
            KeyedContainer<NestedKey>(object: object.nestedSlot(for: key.stringValue).makeObject(), codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnkeyedContainer(array: object.nestedSlot(for: key.stringValue).makeArray(), codingPath: codingPath + [key])
    }

    /// An encoder for the member `"super"`.
    mutating func superEncoder() -> any Encoder {
        let key = JSONValueCodingKey(stringValue: "super")
        return JSONValueEncoder(slot: object.slot(for: key.stringValue), codingPath: codingPath + [key])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONValueEncoder(slot: object.slot(for: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let array: JSONValueEncoder.ArrayBuilder
    let codingPath: [any CodingKey]

    var count: Int { array.slots.count }

    private var nextPath: [any CodingKey] { codingPath + [JSONValueCodingKey(intValue: count)] }

    mutating func encodeNil() throws {
        array.appendSlot().content = .value(.null)
    }

    /// Appends `value` only once it has encoded: one that throws leaves no element.
    mutating func encode<T: Encodable>(_ value: T) throws {
        let slot = JSONValueEncoder.Slot()
        try slot.store(value, codingPath: nextPath)
        array.append(slot)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: array.appendSlot().makeObject(), codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        return UnkeyedContainer(array: array.appendSlot().makeArray(), codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return JSONValueEncoder(slot: array.appendSlot(), codingPath: path)
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let slot: JSONValueEncoder.Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        slot.content = .value(.null)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try slot.store(value, codingPath: codingPath)
    }
}

/// A value the encoder writes as the JSON it holds, not through `Encodable`: a model, which
/// adopts it where its output is (`Model/`), since values know nothing of models.
protocol EncodedAsItsJSON: AnyObject {
    /// The JSON to write.
    var encodedJSON: JSONValue { get }
}
