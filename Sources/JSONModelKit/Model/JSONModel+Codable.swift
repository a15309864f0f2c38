import JSONModelKitCore

// Codable: a model encodes and decodes as its JSON object, through any coder.
//
// `init(from:)` is declared in the class itself (a required initializer of a
// non-final class must be): it wraps the JSON where it is when the decoder is this library's
// own (a Codable property's value), and decodes a `JSONValue` from any other.

extension JSONModel: Codable {
    /// Encodes the model's current JSON object.
    ///
    /// Through another library's encoder (`JSONEncoder`), its JSON goes through ``JSONValue``'s
    /// `Codable` conformance, so at most 64 arrays and objects deep; deeper JSON is an
    /// `EncodingError` (decoding likewise throws a `DecodingError`), and a number is written as
    /// an integer or a `Double`. As the value of a Codable property, it is written as it is.
    /// ``JSONModelView/jsonData(options:format:)`` has no limit.
    ///
    /// ```swift
    /// struct Envelope: Codable { var user: User }
    /// let data = try JSONEncoder().encode(Envelope(user: user))
    /// ```
    public func encode(to encoder: any Encoder) throws {
        try jsonModel.json().encode(to: encoder)
    }
}
