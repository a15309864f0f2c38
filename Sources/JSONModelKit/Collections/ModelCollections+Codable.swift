import JSONModelKitCore

// Codable for the lazy model collections: they decode through any `Decoder` and keep
// polymorphism, which a plain `[Event]` cannot.
//
// `JSONDecoder().decode([Event].self, …)` calls `Event.init(from:)` once per element, and an
// initializer cannot return a subclass, so every element is a plain `Event`.
// `ModelArray<Event>` and `ModelDictionary<Event>` decode the whole JSON value first and then
// create each element through `modelClass(for:)`, exactly as `Event.array(from:)` does.

extension ModelArray: Codable {
    /// Decodes a JSON array; each element is created through ``JSONModel/modelClass(for:)``
    /// when first read, as for ``JSONModelProtocol/array(from:options:)``.
    ///
    /// ```swift
    /// struct Feed: Decodable { var events: ModelArray<Event> }
    /// let feed = try JSONDecoder().decode(Feed.self, from: data)
    /// feed.events[0] is PushEvent      // true when its JSON says so
    /// ```
    ///
    /// Elements that are not objects are left out with a diagnostic in ``diagnostics``, the
    /// rule of every ``ModelArray``; a value that is not an array throws.
    ///
    /// - Throws: `DecodingError.typeMismatch` when the value is not an array, or the decoder's
    ///   own error when the value is not JSON it can give (nested deeper than
    ///   64 levels, for one).
    public init(from decoder: any Decoder) throws {
        let input = try JSONInput.decoded(from: decoder, as: .array, for: ModelArray.self, expected: "an array of \(Element.self)")
        self.init(base: ModelArrayBase(array: input, configuration: .topLevel(mutable: false)))
    }

    /// Encodes the array as its JSON (see ``json()``); elements never read are not built.
    public func encode(to encoder: any Encoder) throws {
        try json().encode(to: encoder)
    }
}

extension ModelDictionary: Codable {
    /// Decodes a JSON object; each value is created through ``JSONModel/modelClass(for:)``
    /// when first read, as for ``init(json:options:)``.
    ///
    /// Members whose values are not objects are left out with a diagnostic in ``diagnostics``.
    /// The keys come in the order the decoder gives them, which `JSONDecoder` does not promise
    /// to be the document's.
    ///
    /// - Throws: `DecodingError.typeMismatch` when the value is not an object.
    public init(from decoder: any Decoder) throws {
        let input = try JSONInput.decoded(from: decoder, as: .object, for: ModelDictionary.self, expected: "an object of \(Value.self)")
        self.init(base: ModelDictionaryBase(object: input, configuration: .topLevel(mutable: false)))
    }

    /// Encodes the dictionary as its JSON object (see ``json()``).
    public func encode(to encoder: any Encoder) throws {
        try json().encode(to: encoder)
    }
}
