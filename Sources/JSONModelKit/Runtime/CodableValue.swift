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
                let path = JSONPath(detail.codingPath.map(JSONPath.Segment.init(codingKey:)))
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
        segments += codingPath.map(JSONPath.Segment.init(codingKey:))
        record(kind, message)
    }
}

extension JSONPath.Segment {
    /// The segment a coding key names: an index only for an array's position, as the coders'
    /// unkeyed containers count it (and the standard library names it, `Index 3`, in the errors
    /// it makes for one); any other key by its text, even one with an `intValue` (a
    /// dictionary's key `"7"` has one, and is still a key).
    init(codingKey key: any CodingKey) {
        if let index = key.intValue, key is JSONValueCodingKey || key.stringValue == "Index \(index)" {
            self = .index(index)
        } else {
            self = .key(key.stringValue)
        }
    }
}
