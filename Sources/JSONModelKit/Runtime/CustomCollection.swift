import JSONModelKitCore

// Arrays and `[String: …]` dictionaries of a user's type: `[Shape]`, `[Money?]`,
// `[String: Kind]`, `[[Meta]]`. Each element converts as a property of the element's type
// would: through a converter registered for that type, else its `JSONConvertible` conformance,
// its raw values (an unknown one reading as a `JSONUnknownCase` enum's unknown case), its
// `JSONStringEnum` nature, or its `Codable` conformance. So a type reads alike on its own and
// in a collection, and one element that does not convert costs only itself.

/// A collection whose elements are a user's type, converted one by one.
///
/// An element that does not convert records its diagnostic at its index or key and is left out;
/// in `[T?]` and `[String: T?]` it reads as nil instead, so the elements after it keep their
/// places. Of a key given twice, the last member decides, even when it does not convert.
protocol CustomCollection {
    /// The descriptor of the element type (`Shape`, `Money?`, `[Meta]`), or nil when the element
    /// type is one the engine stores itself, or a collection it does not store.
    static var elementDescriptor: CustomValueType? { get }
    /// The empty collection: the value when the JSON has none and nothing was declared.
    static var emptyValue: any Sendable { get }
    /// Reads `input` (an array, or an object for a dictionary) element by element.
    static func convertElements(
        _ input: JSONInput, element: CustomValueType, converter: AnyConverter, context: inout ConversionContext
    ) -> (any Sendable)?
    /// The JSON of a stored collection, element by element, each keeping the JSON type of the
    /// element it replaces in `existing`; nil when it is not one, or an element has no JSON.
    static func json(of value: Any, element: CustomValueType, converter: AnyConverter, replacing existing: JSONInput?) -> JSONValue??
    /// The elements of a stored collection, with their places for messages (`[2]`, `.name`),
    /// a dictionary's in key order.
    static func elements(of value: Any) -> [(place: JSONPath.Segment, value: Any)]?
    /// Whether `check` holds for every element of a stored collection (true for another
    /// value); without gathering them, for the check of cached values on every read.
    static func allElements(of value: Any, satisfy check: (Any) -> Bool) -> Bool
}

extension CustomCollection {
    /// The descriptor of `Element` when a collection of it is the user's type: neither a type
    /// the engine stores nor a collection it refuses (`Set`, `[Int: T]`).
    static func descriptor<Element>(ofElement _: Element.Type) -> CustomValueType? {
        if Element.self is any PropertyValue.Type { return nil }
        if let descriptor = CustomValueType.descriptor(for: Element.self) { return descriptor }
        // A collection refused as a property (`Set<String>`, `[Int: String]`) is still an
        // element where it is `Codable`: it converts as one.
        if Element.self is any Decodable.Type { return CustomValueType.make(base: Element.self, optional: false) }
        return nil
    }

    /// An element's JSON: `.null` for an optional's nil; `.some(nil)` for a value with no JSON
    /// of its own (an enum's unknown case); `.none` when it cannot be written.
    static func elementJSON(
        _ value: Any, element: CustomValueType, converter: AnyConverter, replacing existing: JSONInput?
    ) -> JSONValue?? {
        guard let base = element.unwrap(value) else { return .none }
        guard let base else { return .some(.null) }
        if element.isNeverWritten(base) { return .some(nil) }
        return converter.write(base, existing)
    }

    /// An element read through `converter`: its value, the element type's nil when it does not
    /// convert and the type is optional, else nil (left out).
    static func convertElement<Element>(
        _ input: JSONInput, as _: Element.Type, element: CustomValueType, converter: AnyConverter,
        context: inout ConversionContext
    ) -> Element? {
        if let value = element.convert(input, with: converter, context: &context) { return (value as! Element) }
        return element.isOptional ? (element.implicitDefault as! Element) : nil
    }
}

extension Array: CustomCollection {
    static var elementDescriptor: CustomValueType? { descriptor(ofElement: Element.self) }
    static var emptyValue: any Sendable { sendable([Element]()) }

    static func convertElements(
        _ input: JSONInput, element: CustomValueType, converter: AnyConverter, context: inout ConversionContext
    ) -> (any Sendable)? {
        guard input.kind == .array else {
            context.typeMismatch(input, expected: "an array of \(element)")
            return nil
        }
        var elements: [Element] = []
        input.forEachElement { index, member in
            context.segments.append(.index(index))
            defer { context.segments.removeLast() }
            if let value = convertElement(member, as: Element.self, element: element, converter: converter, context: &context) {
                elements.append(value)
            }
        }
        return sendable(elements)
    }

    static func json(of value: Any, element: CustomValueType, converter: AnyConverter, replacing existing: JSONInput?) -> JSONValue?? {
        guard let elements = value as? [Element] else { return .none }
        var json: [JSONValue] = []
        json.reserveCapacity(elements.count)
        for (index, value) in elements.enumerated() {
            let replaced = existing?[JSONPath([.index(index)])]
            // An element with no JSON of its own (an enum's unknown case) cannot be left out
            // without moving the ones after it: the array has no JSON (`unwritableReason` says why).
            guard case .some(let written?) = elementJSON(value, element: element, converter: converter, replacing: replaced)
            else { return .none }
            json.append(written)
        }
        return .some(.array(json))
    }

    static func elements(of value: Any) -> [(place: JSONPath.Segment, value: Any)]? {
        (value as? [Element]).map { $0.enumerated().map { (.index($0.offset), $0.element as Any) } }
    }

    static func allElements(of value: Any, satisfy check: (Any) -> Bool) -> Bool {
        (value as? [Element])?.allSatisfy { check($0) } ?? true
    }
}

extension Dictionary: CustomCollection where Key == String {
    static var elementDescriptor: CustomValueType? { descriptor(ofElement: Value.self) }
    static var emptyValue: any Sendable { sendable([String: Value]()) }

    static func convertElements(
        _ input: JSONInput, element: CustomValueType, converter: AnyConverter, context: inout ConversionContext
    ) -> (any Sendable)? {
        guard input.kind == .object else {
            context.typeMismatch(input, expected: "an object of \(element)")
            return nil
        }
        var values: [String: Value] = [:]
        input.forEachMember { key, member in
            context.segments.append(.key(key))
            defer { context.segments.removeLast() }
            values[key] = convertElement(member, as: Value.self, element: element, converter: converter, context: &context)
        }
        return sendable(values)
    }

    static func json(of value: Any, element: CustomValueType, converter: AnyConverter, replacing existing: JSONInput?) -> JSONValue?? {
        guard let values = value as? [String: Value] else { return .none }
        var object = JSONObject(minimumCapacity: values.count)
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            switch elementJSON(value, element: element, converter: converter, replacing: existing?[JSONPath([.key(key)])]) {
            case .none: return .none
            // A value with no JSON of its own (an enum's unknown case) leaves its key out, as
            // the same value of a property leaves the property's key out.
            case .some(nil): continue
            case .some(let written?): object.append(key: key, value: written)
            }
        }
        return .some(.object(object))
    }

    static func elements(of value: Any) -> [(place: JSONPath.Segment, value: Any)]? {
        (value as? [String: Value]).map { $0.sorted { $0.key < $1.key }.map { (.key($0.key), $0.value as Any) } }
    }

    static func allElements(of value: Any, satisfy check: (Any) -> Bool) -> Bool {
        (value as? [String: Value])?.values.allSatisfy { check($0) } ?? true
    }
}

extension AnyConverter {
    /// Converts a collection of a user's type element by element with `converter`, the
    /// element type's conversion.
    init(elementsOf collection: any CustomCollection.Type, element: CustomValueType, converter: AnyConverter) {
        let kind = CollectionKind(type: collection)
        // A cached collection is converted again when the converter refuses any element.
        var validate: (@Sendable (Any) -> Bool)?
        if let validateElement = converter.validate {
            validate = { value in
                kind.type.allElements(of: value) { value in
                    guard case .some(let base?) = element.unwrap(value) else { return true }
                    return validateElement(base)
                }
            }
        }
        self.init(
            valueType: collection, name: converter.name,
            read: { input, context in
                kind.type.convertElements(input, element: element, converter: converter, context: &context)
            },
            write: { value, existing in kind.type.json(of: value, element: element, converter: converter, replacing: existing) },
            validate: validate)
        self.unwritableReason = { value in
            for (place, value) in kind.type.elements(of: value) ?? [] {
                guard let reason = Self.unwritableReason(of: value, at: place, element: element, converter: converter) else {
                    continue
                }
                // An inner array's reason starts with its own index: `[0][1]: …`, not `[0]: [1]: …`.
                return "\(JSONPath([place]))" + (reason.first == "[" ? "" : ": ") + reason
            }
            return nil
        }
    }

    /// Why an element at `place` cannot be written, or nil when it can.
    private static func unwritableReason(
        of value: Any, at place: JSONPath.Segment, element: CustomValueType, converter: AnyConverter
    ) -> String? {
        guard case .some(let base?) = element.unwrap(value) else { return nil }
        if let reason = converter.unwritableReason?(base) { return reason }
        let isIndex = if case .index = place { true } else { false }
        if element.isNeverWritten(base) {
            return isIndex ? "\(base) has no JSON, and leaving it out would move the elements after it" : nil
        }
        switch converter.write(base, nil) {
        case .none: return "\(converter.name) cannot write \(base)"
        case .some(nil): return isIndex ? "\(converter.name) writes no JSON for \(base), and leaving it out would move the elements after it" : nil
        case .some(_?): return nil
        }
    }
}

/// A collection type, held by the converter's closures.
///
/// `@unchecked Sendable`: a metatype is immutable, but one of a protocol that does not refine
/// `Sendable` is not `Sendable` to the compiler.
private struct CollectionKind: @unchecked Sendable {
    let type: any CustomCollection.Type
}
