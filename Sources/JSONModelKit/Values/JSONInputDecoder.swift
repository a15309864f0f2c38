#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// A `Decoder` that reads a property's JSON where it is: a node of the parsed document or an
/// owned ``JSONValue``, with no serialization in between.
///
/// ```swift
/// let meta = try JSONInputDecoder.decode(Meta.self, from: .value(json))
/// ```
///
/// The rules, stricter than the engine's for plain properties (a Codable type states
/// exactly what it expects):
/// - Integers come from JSON numbers whose value is an exact integer in range (`3`, `3.0`,
///   `3e0`); `2.5` or `300` for a `UInt8` fail. Strings are never read as numbers.
/// - `Double`, `Float` and `Decimal` come from JSON numbers.
/// - `String` comes from a JSON string only; `Bool` from `true` or `false` only.
/// - `Date` comes from ISO 8601 text or a number of seconds since 1970; `Data` from base64
///   text; `URL` from text `URL(string:)` accepts.
/// - A ``JSONValue``, or a model, is the JSON as it is, numbers spelled as they are.
///
/// Each nesting level of the value costs one `init(from:)` call and one decoder object, so the
/// recursion is as deep as the JSON, which the parser bounds (512 levels by default); deeper
/// than ``maximumDepth`` (200) levels, or with less than ``stackReserve`` of the thread's stack
/// left, the decoder throws instead.
final class JSONInputDecoder: Decoder {
    let input: JSONInput
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ input: JSONInput, codingPath: [any CodingKey]) {
        self.input = input
        self.codingPath = codingPath
    }

    /// How deep a Codable value may nest (keys and indices counted), below the parser's own
    /// limit: each level runs the type's `init(from:)`, whose stack frame is the type's, so the
    /// decoder stops at a depth that an unoptimized build decodes on a 512 KiB thread.
    static let maximumDepth = 200

    /// The stack a nested value must leave when it starts decoding: below this, it throws.
    ///
    /// A level's frames are those of the type's `init(from:)`, which the decoder cannot size (a
    /// class with 30 optional fields takes about 3 KiB a level in an unoptimized build), so
    /// the depth limit alone overflowed a 512 KiB thread at 180 levels. 64 KiB holds the
    /// deepest frames of one level and the throw that unwinds it.
    static let stackReserve = 64 << 10

    /// Decodes a `T` from `input`.
    ///
    /// - Throws: `DecodingError` whose coding path names the failing field inside the value,
    ///   or what `T`'s own `init(from:)` throws.
    static func decode<T: Decodable>(_ type: T.Type, from input: JSONInput) throws -> T {
        try JSONInputDecoder.value(T.self, from: input, codingPath: [])
    }

    /// Decodes one value: the scalar types by the rules above, others through their `init(from:)`.
    ///
    /// This is the one frame of ours, besides a container's, that stays on the stack while a
    /// nested value decodes: the scalar work happens in ``JSONInput/scalar(_:codingPath:)``,
    /// which has returned by then.
    static func value<T: Decodable>(_ type: T.Type, from input: JSONInput, codingPath: [any CodingKey]) throws -> T {
        guard codingPath.count <= maximumDepth else {
            throw invalid("nested deeper than \(maximumDepth) levels inside a Codable value", codingPath)
        }
        if let remaining = ThreadStack.remainingBytes(), remaining < stackReserve {
            throw invalid(
                "nested too deep for the thread's stack inside a Codable value (\(codingPath.count) levels, "
                    + "\(remaining / 1024) KiB of stack left)", codingPath)
        }
        if let scalar = try input.scalar(T.self, codingPath: codingPath) { return scalar }
        return try T(from: JSONInputDecoder(input, codingPath: codingPath))
    }

    // MARK: Errors

    static func mismatch(_ type: Any.Type, _ expected: String, _ input: JSONInput, _ codingPath: [any CodingKey])
        -> DecodingError
    {
        let context = DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(input.summary)")
        return input.isNull ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }

    static func invalid(_ message: String, _ codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: message))
    }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard input.kind == .object else {
            throw JSONInputDecoder.mismatch([String: Any].self, "an object", input, codingPath)
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(input: input, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard input.kind == .array else {
            throw JSONInputDecoder.mismatch([Any].self, "an array", input, codingPath)
        }
        return UnkeyedContainer(input: input, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(input: input, codingPath: codingPath)
    }
}

extension JSONInput {
    /// The JSON a `Decoder` gives for a model or a collection of models: where it is for this
    /// library's own decoder (a Codable property's value, numbers spelled as they are), else
    /// decoded as a ``JSONValue``.
    ///
    /// - Throws: `DecodingError.typeMismatch` at the decoder's coding path when the JSON is not
    ///   of `kind` (`expected` says what was), or what the decoder throws.
    static func decoded(from decoder: any Decoder, as kind: JSONKind, for type: Any.Type, expected: String) throws -> JSONInput {
        let input = try (decoder as? JSONInputDecoder)?.input ?? .value(JSONValue(from: decoder))
        guard input.kind == kind else {
            throw DecodingError.typeMismatch(
                type,
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "expected \(expected), found \(input.summary)"))
        }
        return input
    }
}

// MARK: - Scalars

extension JSONInput {
    /// The value as a `T` when `T` is a type the decoder reads itself (see ``JSONInputDecoder``);
    /// nil for other types.
    func scalar<T>(_ type: T.Type, codingPath: [any CodingKey]) throws -> T? {
        switch T.self {
        case is Bool.Type:
            guard let value = boolValue else { throw JSONInputDecoder.mismatch(T.self, "Bool", self, codingPath) }
            return (value as! T)
        case is String.Type:
            guard let value = stringValue else { throw JSONInputDecoder.mismatch(T.self, "String", self, codingPath) }
            return (value as! T)
        case is JSONValue.Type:
            // As it is, numbers spelled as they are: through `JSONValue`'s own `init(from:)`,
            // a number would go through `Double` (and `1e400` would not read at all).
            return (jsonValue as! T)
        case is Double.Type:
            return (try decodeFloat(Double.self, codingPath: codingPath) as! T)
        case is Float.Type:
            return (try decodeFloat(Float.self, codingPath: codingPath) as! T)
        case let integer as any FixedWidthInteger.Type:
            return (try decodeInteger(integer, codingPath: codingPath) as! T)
        case is Date.Type:
            return (try decodeDate(codingPath: codingPath) as! T)
        case is Data.Type:
            guard let text = stringValue else { throw JSONInputDecoder.mismatch(T.self, "base64 Data", self, codingPath) }
            if let data = Data(base64Encoded: text) { return (data as! T) }
            throw JSONInputDecoder.invalid("\"\(text.prefix(60))\" is not valid base64 Data", codingPath)
        case is URL.Type:
            guard let text = stringValue else { throw JSONInputDecoder.mismatch(T.self, "URL", self, codingPath) }
            if !text.isEmpty, let url = RecentURLs.shared.url(from: text) { return (url as! T) }
            throw JSONInputDecoder.invalid("\"\(text.prefix(60))\" is not a valid URL", codingPath)
        case is Decimal.Type:
            guard let text = numberText else { throw JSONInputDecoder.mismatch(T.self, "Decimal", self, codingPath) }
            // The nearest value, as a `Double` is read: `Decimal` holds 38 digits.
            if let (decimal, _) = Decimal.nearest(toNumber: text) { return (decimal as! T) }
            throw JSONInputDecoder.invalid("\(text) does not fit in Decimal", codingPath)
        default:
            return nil
        }
    }

    private func decodeDate(codingPath: [any CodingKey]) throws -> Date {
        switch kind {
        case .string:
            if let date = DateFormat.iso8601.date(from: stringValue!) { return date }
            throw JSONInputDecoder.invalid("\"\(stringValue!.prefix(60))\" is not an ISO 8601 date", codingPath)
        case .number:
            if let date = DateFormat.secondsSince1970.date(fromNumber: numberText!) { return date }
            throw JSONInputDecoder.invalid("\(numberText!) seconds since 1970 is out of range", codingPath)
        default:
            throw JSONInputDecoder.mismatch(Date.self, "an ISO 8601 date or seconds since 1970", self, codingPath)
        }
    }

    private func decodeFloat<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ type: F.Type, codingPath: [any CodingKey]
    ) throws -> F {
        guard let text = numberText else { throw JSONInputDecoder.mismatch(F.self, "\(F.self)", self, codingPath) }
        guard let value = F(text), value.isFinite else {
            throw JSONInputDecoder.invalid("\(text) does not fit in \(F.self)", codingPath)
        }
        return value
    }

    private func decodeInteger<I: FixedWidthInteger>(_ type: I.Type, codingPath: [any CodingKey]) throws -> I {
        guard let text = numberText else { throw JSONInputDecoder.mismatch(I.self, "\(I.self)", self, codingPath) }
        if let exact = I(text) { return exact }
        // `3.0`, `3e2` and `1e18` are exact integers too, read from their digits; `2.5` and
        // anything out of range are not.
        var bytes = text
        if let (negative, magnitude) = bytes.withUTF8(NumberParsing.exactInteger),
            let value = I(negative: negative, magnitude: magnitude)
        {
            return value
        }
        throw JSONInputDecoder.invalid("\(text) is not an exact \(I.self)", codingPath)
    }
}

// MARK: - Keyed

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let input: JSONInput
    let codingPath: [any CodingKey]

    /// Each key once, where it first appears: a key given twice is one member, its last.
    var allKeys: [Key] {
        var keys: [Key] = []
        var seen: Set<String> = []
        input.forEachMember { name, _ in
            if seen.insert(name).inserted, let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { input[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONInput {
        guard let member = input[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "missing key \"\(key.stringValue)\""))
        }
        return member
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).isNull }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try JSONInputDecoder.value(T.self, from: member(key), codingPath: codingPath + [key])
    }

    /// nil for a missing key or null; written out (the default goes through three calls) to
    /// keep each nesting level's stack small.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let member = input[key.stringValue], !member.isNull else { return nil }
        return try JSONInputDecoder.value(T.self, from: member, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try JSONInputDecoder(member(key), codingPath: codingPath + [key]).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONInputDecoder(member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    /// The decoder of the member `"super"`, null when there is none.
    func superDecoder() throws -> any Decoder {
        let key = JSONValueCodingKey(stringValue: "super")
        return JSONInputDecoder(input["super"] ?? .value(.null), codingPath: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONInputDecoder(input[key.stringValue] ?? .value(.null), codingPath: codingPath + [key])
    }
}

// MARK: - Unkeyed

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let codingPath: [any CodingKey]
    let count: Int?
    private(set) var currentIndex = 0
    /// The element at `currentIndex`, nil at the end.
    private var element: JSONInput?
    private var rest: Cursor

    /// What comes after the current element.
    private enum Cursor {
        case nodes(JSONNode.Elements.Iterator)
        case values(JSONArray)
    }

    init(input: JSONInput, codingPath: [any CodingKey]) {
        self.codingPath = codingPath
        switch input {
        case .node(let node):
            count = node.count
            rest = .nodes(JSONNode.Elements(node: node).makeIterator())
        case .value(let value):
            guard case .array(let elements) = value else { preconditionFailure("an unkeyed container of \(value)") }
            count = elements.count
            rest = .values(elements)
        }
        element = next()
    }

    private mutating func next() -> JSONInput? {
        switch rest {
        case .nodes(var iterator):
            let node = iterator.next()
            rest = .nodes(iterator)
            return node.map(JSONInput.node)
        case .values(let elements):
            return currentIndex < elements.count ? .value(elements[currentIndex]) : nil
        }
    }

    private mutating func advance() {
        currentIndex += 1
        element = next()
    }

    var isAtEnd: Bool { element == nil }

    private var elementPath: [any CodingKey] { codingPath + [JSONValueCodingKey(intValue: currentIndex)] }

    /// The current element, without moving past it.
    private func current(_ type: Any.Type) throws -> JSONInput {
        guard let element else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(codingPath: elementPath, debugDescription: "expected \(type), found the end of the array"))
        }
        return element
    }

    mutating func decodeNil() throws -> Bool {
        guard try current(Never.self).isNull else { return false }
        advance()
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try JSONInputDecoder.value(T.self, from: current(T.self), codingPath: elementPath)
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let container = try JSONInputDecoder(current(NestedKey.self), codingPath: elementPath).container(keyedBy: NestedKey.self)
        advance()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try JSONInputDecoder(current([Any].self), codingPath: elementPath).unkeyedContainer()
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try JSONInputDecoder(current(Any.self), codingPath: elementPath)
        advance()
        return decoder
    }
}

// MARK: - Single value

private struct SingleValueContainer: SingleValueDecodingContainer {
    let input: JSONInput
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { input.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONInputDecoder.value(T.self, from: input, codingPath: codingPath)
    }
}
