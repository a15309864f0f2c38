import JSONModelKitCore

// Codable: a model encodes and decodes as its JSON object, through any coder.
//
// `init(from:)` is declared in the class itself (a required initializer of a
// non-final class must be); it decodes a `JSONValue` and wraps it.

extension JSONModel: Codable {
    /// Encodes the model's current JSON object.
    ///
    /// Its JSON goes through ``JSONValue``'s `Codable` conformance, so at most
    /// 64 arrays and objects deep; deeper JSON is an `EncodingError`
    /// (decoding likewise throws a `DecodingError`). ``JSONModelView/jsonData(options:format:)`` has no limit.
    ///
    /// ```swift
    /// struct Envelope: Codable { var user: User }
    /// let data = try JSONEncoder().encode(Envelope(user: user))
    /// ```
    public func encode(to encoder: any Encoder) throws {
        try jsonModel.json().encode(to: encoder)
    }
}
