import JSONModelKitCore

// Codable property types: the last tier of the converter lookup. A declared type that is
// `Decodable` and is neither `JSONConvertible` nor an enum with raw values reads through
// `JSONInputDecoder`, straight from the property's JSON; when it is also `Encodable`, writes
// and output go through `JSONValueEncoder`. Registered converters come first, as for every
// type of the user's.

extension AnyConverter {
    /// The conversion a `Decodable` (and, for writing, `Encodable`) type gets from its conformances.
    ///
    /// A decoding error becomes a diagnostic at the failing field inside the value
    /// (`meta.tags[2]: expected String, found a number 7`), and the property reads its default.
    init<T: Decodable>(decodable _: T.Type) {
        self.init(valueType: T.self, name: "\(T.self) (Codable)", conversion: DecodableConversion<T>())
        self.unwritableReason = { value in
            guard let encodable = value as? any Encodable else { return nil }
            do {
                _ = try JSONValueEncoder.encode(encodable)
                return nil
            } catch EncodingError.invalidValue(_, let detail) {
                let path = JSONPath(detail.codingPath.map { $0.intValue.map(JSONPath.Segment.index) ?? .key($0.stringValue) })
                return path.segments.isEmpty ? detail.debugDescription : "\(path): \(detail.debugDescription)"
            } catch {
                return "\(error)"
            }
        }
    }
}

/// Reads a `Decodable` type from the property's JSON and writes it (when it is also `Encodable`).
private struct DecodableConversion<T: Decodable>: TypedConversion {
    func read(_ input: JSONInput, context: inout ConversionContext) -> (any Sendable)? {
        if let collection = T.self as? any CodableCollection.Type {
            return collection.decodeElements(input, context: &context)
        }
        do {
            return sendable(try JSONInputDecoder.decode(T.self, from: input))
        } catch {
            context.recordDecoding(error)
            return nil
        }
    }

    func write(_ value: Any, replacing _: JSONInput?) -> JSONValue?? {
        guard let typed = value as? T else { return .none }
        guard let encodable = typed as? any Encodable else { return .none }
        guard let json = try? JSONValueEncoder.encode(encodable) else { return .none }
        return .some(json)
    }
}

extension ConversionContext {
    /// Records a decoding error at the coding path it names, below the property's path.
    mutating func recordDecoding(_ error: any Error) {
        let base = segments
        defer { segments = base }
        guard let decoding = error as? DecodingError else {
            record(.invalidValue, "\(error)")
            return
        }
        let kind: ModelDiagnostic.Kind
        let codingPath: [any CodingKey]
        let message: String
        switch decoding {
        case .typeMismatch(_, let detail), .valueNotFound(_, let detail):
            kind = .typeMismatch
            codingPath = detail.codingPath
            message = detail.debugDescription
        case .keyNotFound(let key, let detail):
            kind = .typeMismatch
            codingPath = detail.codingPath + [key]
            message = "missing key \"\(key.stringValue)\""
        case .dataCorrupted(let detail):
            kind = .invalidValue
            codingPath = detail.codingPath
            message = detail.debugDescription
        @unknown default:
            record(.invalidValue, "\(error)")
            return
        }
        for key in codingPath {
            segments.append(key.intValue.map(JSONPath.Segment.index) ?? .key(key.stringValue))
        }
        record(kind, message)
    }
}

// MARK: - Collections

/// `[Meta]` and `[String: Meta]` of a Codable `Meta`: read element by element like the engine's
/// own collections, so one element that does not decode is left out (with its diagnostic)
/// rather than failing the whole property.
protocol CodableCollection {
    /// The empty collection, the property's value when nothing else was declared.
    static var emptyValue: any Sendable { get }
    static func decodeElements(_ input: JSONInput, context: inout ConversionContext) -> (any Sendable)?
}

extension Array: CodableCollection where Element: Decodable {
    static var emptyValue: any Sendable { sendable([Element]()) }

    static func decodeElements(_ input: JSONInput, context: inout ConversionContext) -> (any Sendable)? {
        guard input.kind == .array else {
            context.typeMismatch(input, expected: "an array of \(Element.self)")
            return nil
        }
        var elements: [Element] = []
        input.forEachElement { index, element in
            context.segments.append(.index(index))
            defer { context.segments.removeLast() }
            do {
                elements.append(try JSONInputDecoder.decode(Element.self, from: element))
            } catch {
                context.recordDecoding(error)
            }
        }
        return sendable(elements)
    }
}

extension Dictionary: CodableCollection where Key == String, Value: Decodable {
    static var emptyValue: any Sendable { sendable([String: Value]()) }

    static func decodeElements(_ input: JSONInput, context: inout ConversionContext) -> (any Sendable)? {
        guard input.kind == .object else {
            context.typeMismatch(input, expected: "an object of \(Value.self)")
            return nil
        }
        var values: [String: Value] = [:]
        input.forEachMember { key, member in
            context.segments.append(.key(key))
            defer { context.segments.removeLast() }
            do {
                values[key] = try JSONInputDecoder.decode(Value.self, from: member)
            } catch {
                context.recordDecoding(error)
            }
        }
        return sendable(values)
    }
}
