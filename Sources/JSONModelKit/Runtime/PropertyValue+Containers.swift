#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// The property types that hold other values: models, optionals, arrays and dictionaries.

// MARK: - Models

extension JSONModel: PropertyValue {
    static var propertyType: PropertyType { .model(self) }
    static var implicitDefault: Self? { nil }

    /// The entry class of the model class itself. Left to the protocol's default, optimized
    /// builds make `CacheBox<JSONModel>` for every model class, so a read of a nested model
    /// never matches its own type and takes a dynamic cast each time.
    static var cacheEntryType: CacheEntry.Type { CacheBox<Self>.self }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Self? {
        guard input.kind == .object else {
            context.typeMismatch(input, expected: "a \(self) object")
            return nil
        }
        let path = context.path
        let link = context.owner.map { $0.linkChild(at: path, ordinal: context.ordinal) }
        // Polymorphism: the class (or schema model) is chosen from the object itself.
        let model = makeResolved(
            input, metadata: context.schemaModel, mutable: context.mutable, parent: link, inverse: context.inverse)
        if context.validating {
            context.nestedModels.append((model, path))
        }
        return model
    }

    /// The model's current object: its `json()` without output options.
    func jsonValue(replacing existing: JSONInput?) -> JSONValue? { currentSource.jsonValue }
}

// MARK: - Collections

extension Optional: PropertyValue where Wrapped: PropertyValue {
    static var propertyType: PropertyType { .optional(Wrapped.propertyType) }
    static var implicitDefault: Wrapped?? { .some(nil) }
    static var failedElementValue: Wrapped?? { .some(nil) }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Wrapped?? {
        if input.isNull { return .some(nil) }
        guard let value = Wrapped.convert(input, context: &context) else { return nil }
        return .some(value)
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        guard let self else { return nil }
        return self.jsonValue(replacing: existing)
    }
}

extension Optional where Wrapped: PropertyValue {
    /// Accepts what `Wrapped` accepts, wrapped (so `[Item]` is taken for `ModelArray<Item>?`).
    static func cast(_ value: Any) -> (any Sendable)? {
        if let same = value as? Self { return same }
        guard let wrapped = Wrapped.cast(value) as? Wrapped else { return nil }
        return Optional(wrapped)
    }
}

extension Array: PropertyValue where Element: PropertyValue {
    static var propertyType: PropertyType { .array(Element.propertyType) }
    static var implicitDefault: [Element]? { [] }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> [Element]? {
        guard input.kind == .array else {
            context.typeMismatch(input, expected: "an array of \(Element.propertyType)")
            return nil
        }
        return Element.convertElements(of: input, as: Element.self, context: &context)
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        var elements = JSONArray()
        elements.reserveCapacity(count)
        for (index, element) in enumerated() {
            elements.append(element.jsonValue(replacing: existing?[index]) ?? .null)
        }
        return .array(elements)
    }
}

extension Dictionary: PropertyValue where Key == String, Value: PropertyValue {
    static var propertyType: PropertyType { .dictionary(Value.propertyType) }
    static var implicitDefault: [String: Value]? { [:] }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> [String: Value]? {
        guard input.kind == .object else {
            context.typeMismatch(input, expected: "an object of \(Value.propertyType)")
            return nil
        }
        // Strings, the commonest values (names, labels, lookup tables), in a loop compiled for
        // them: unspecialized, as this runs, each member's insertion found the dictionary's type
        // and `Value?` at run time and hashed through the key's type, some 4,500 instructions a
        // member (PERF: citm_catalog.json's name tables in `jsonmodel-bench --section documents`).
        if Value.self == String.self {
            return unsafeBitCast(convertMembers(of: input, as: String.self, context: &context), to: [String: Value].self)
        }
        return convertMembers(of: input, as: Value.self, context: &context)
    }

    /// Each member of the object `input` through `Member`'s conversion, with its key on the
    /// path: a member that does not convert is left out (or takes ``PropertyValue/failedElementValue``),
    /// and of duplicate keys the last decides, even when it leaves its member out.
    @inline(__always)
    private static func convertMembers<Member: PropertyValue>(
        of input: JSONInput, as memberType: Member.Type, context: inout ConversionContext
    ) -> [String: Member] {
        var result: [String: Member] = [:]
        input.forEachMember { key, member in
            context.segments.append(.key(key))
            defer { context.segments.removeLast() }
            if let value = Member.convert(member, context: &context) {
                result[key] = value
            } else if let fallback = Member.failedElementValue {
                result[key] = fallback
            } else {
                result[key] = nil  // a later duplicate that fails hides an earlier one
            }
        }
        return result
    }

    /// Keys that were already in the JSON keep their order; new keys follow, sorted.
    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        var object = JSONObject(minimumCapacity: count)
        var written = Set<String>()
        existing?.forEachMember { key, old in
            guard let value = self[key], written.insert(key).inserted else { return }
            object[key] = value.jsonValue(replacing: old) ?? .null
        }
        for key in keys.sorted() where !written.contains(key) {
            object[key] = self[key]!.jsonValue(replacing: nil) ?? .null
        }
        return .object(object)
    }
}
