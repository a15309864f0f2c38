// The converters behind string enumerations: a ``JSONStringEnum`` type's own, and `enumValues` on a
// `String` property. The interned values they read into are Values/InternedString.swift.

extension AnyConverter {
    /// Reads a `JSONStringEnum` from a JSON string, interned when known.
    init<E: JSONStringEnum>(stringEnum _: E.Type) {
        let known = KnownStrings(E.knownValues.map(\.value))
        self.init(
            valueType: E.self, name: "\(E.self) values",
            read: { input, context in
                if let storage = known.lookUp(input) { return E(InternedString(storage: storage)) }
                guard let text = input.stringValue else {
                    context.typeMismatch(input, expected: "a \(E.self) string")
                    return nil
                }
                // A known value written with escapes ("op\u0065n") is known by its text.
                var bytes = text
                if let storage = bytes.withUTF8({ known.lookUp($0) }) { return E(InternedString(storage: storage)) }
                // Unknown to this type, whether or not the process interned the text for another
                // (which `InternedString.existing` answers, so it cannot say which values are known).
                if !known.isEmpty {
                    context.record(.invalidValue, "unknown value \"\(text.prefix(60))\" for \(E.self), kept as it is")
                }
                return E(InternedString.existing(text))
            },
            write: { value, _ in (value as? E).map { .some(.string($0.rawValue)) } })
        // A known value only: an unknown one is kept with a diagnostic, on the general path.
        firstReader = FirstReader(E.self, writing: { node, place in
            guard let storage = node.withPlainStringUTF8({ known.lookUp($0) }) else { return false }
            place.initializeMemory(as: E.self, to: E(InternedString(storage: storage)))
            return true
        })
    }

    /// `enumValues` on a `String` property: known values come back as one shared string, the
    /// converter's own; others as they are, with a diagnostic.
    ///
    /// The values stay out of the process-wide table, which never shrinks: a schema's values
    /// (a third party's, any number of them) go when the schema's registry does.
    init(enumValues values: [String]) {
        let known = KnownStrings(values.map { value in
            InternedString(storage: InternedString.Storage(text: value, hash: InternTable.hash(value), isInterned: false))
        })
        self.init(
            valueType: String.self, name: "enumValues",
            read: { input, context in
                if let storage = known.lookUp(input) { return storage.text }
                guard let text = String.convert(input, context: &context) else { return nil }
                var bytes = text
                if let storage = bytes.withUTF8({ known.lookUp($0) }) { return storage.text }  // a number's text
                context.record(.invalidValue, "\"\(text.prefix(60))\" is not one of the enumValues")
                return text
            },
            write: { value, existing in (value as? String).map { $0.jsonValue(replacing: existing) } })
        firstReader = FirstReader { node -> String? in node.withPlainStringUTF8 { known.lookUp($0) }?.text }
    }
}
