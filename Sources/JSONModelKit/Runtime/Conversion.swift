#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Conversion between JSON and property values, in both directions.
//
// Each supported Swift type conforms to `PropertyValue`, which reads a value
// from JSON (recording a diagnostic when it cannot) and writes one back,
// keeping the JSON kind already stored. Collections and optionals conform
// conditionally, so `[String: [Int?]]` converts element by element into a
// properly typed Swift value, without `[Any]` in between.

// MARK: - Input

/// A JSON value to read from: a view into a parsed document, or an owned value.
enum JSONInput: Sendable {
    case node(JSONNode)
    case value(JSONValue)

    var kind: JSONKind {
        switch self {
        case .node(let node): return node.kind
        case .value(let value):
            switch value {
            case .null: return .null
            case .bool: return .bool
            case .number: return .number
            case .string: return .string
            case .array: return .array
            case .object: return .object
            }
        }
    }

    /// Whether this is an object without members.
    var isEmptyObject: Bool {
        switch self {
        case .node(let node): return node.kind == .object && node.count == 0
        case .value(let value): return value.objectValue?.isEmpty == true
        }
    }

    var isNull: Bool {
        switch self {
        case .node(let node): return node.isNull
        case .value(let value): return value.isNull
        }
    }

    var boolValue: Bool? {
        switch self {
        case .node(let node): return node.boolValue
        case .value(let value): return value.boolValue
        }
    }

    var stringValue: String? {
        switch self {
        case .node(let node): return node.stringValue
        case .value(let value): return value.stringValue
        }
    }

    /// The exact source text of a number.
    var numberText: String? {
        switch self {
        case .node(let node): return node.numberText
        case .value(let value): return value.numberValue?.text
        }
    }

    subscript(key: String) -> JSONInput? {
        switch self {
        case .node(let node): return node[key].map(JSONInput.node)
        case .value(let value): return value[key].map(JSONInput.value)
        }
    }

    subscript(index: Int) -> JSONInput? {
        switch self {
        case .node(let node): return node[index].map(JSONInput.node)
        case .value(let value): return value[index].map(JSONInput.value)
        }
    }

    subscript(path: JSONPath) -> JSONInput? {
        switch self {
        case .node(let node): return node[path].map(JSONInput.node)
        case .value(let value): return value[path].map(JSONInput.value)
        }
    }

    /// Where `path` runs into a value that cannot hold its next segment (a string where a key
    /// is needed, an object where an index is), with that value's kind; nil when the path
    /// resolves or stops at a missing key or null.
    func blockingValue(on path: JSONPath) -> (prefix: JSONPath, kind: JSONKind)? {
        var current = self
        var prefix = JSONPath([])
        for segment in path.segments {
            if current.isNull { return nil }
            let next: JSONInput?
            switch segment {
            case .key(let key):
                guard current.kind == .object else { return (prefix, current.kind) }
                next = current[JSONPath([.key(key)])]
            case .index(let index):
                guard current.kind == .array else { return (prefix, current.kind) }
                next = current[JSONPath([.index(index)])]
            }
            guard let next else { return nil }
            prefix.append(segment)
            current = next
        }
        return nil
    }

    /// Calls `body` with each array element and its index; nothing for other kinds.
    func forEachElement(_ body: (Int, JSONInput) -> Void) {
        switch self {
        case .node(let node):
            for (index, element) in node.elements.enumerated() { body(index, .node(element)) }
        case .value(let value):
            guard case .array(let elements) = value else { return }
            for (index, element) in elements.enumerated() { body(index, .value(element)) }
        }
    }

    /// Calls `body` with each object member in order, duplicates included.
    func forEachMember(_ body: (String, JSONInput) -> Void) {
        switch self {
        case .node(let node):
            for member in node.members { body(member.key, .node(member.value)) }
        case .value(let value):
            guard case .object(let object) = value else { return }
            for member in object { body(member.key, .value(member.value)) }
        }
    }

    /// The value as an owned `JSONValue`; O(size) for a node.
    var jsonValue: JSONValue {
        switch self {
        case .node(let node): return node.value
        case .value(let value): return value
        }
    }

    /// A short name of the value's kind for messages: `a string "abc"`, `a number 2.5`.
    var summary: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a bool \(boolValue!)"
        case .number: return "a number \(numberText!)"
        case .string:
            let text = stringValue!
            return text.count > 40 ? "a string \"\(text.prefix(40))…\"" : "a string \"\(text)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

// MARK: - Context

/// What a conversion needs to know besides the value: where it is, and where
/// its diagnostics and any child models go.
struct ConversionContext {
    /// The model class being read, for diagnostics.
    let modelName: String
    /// The declared property being read.
    let property: String
    /// The path of the value being converted, relative to the model's object.
    var segments: [JSONPath.Segment]
    /// Diagnostics recorded so far.
    var diagnostics: [ModelDiagnostic] = []
    /// Whether nested models are created mutable.
    let mutable: Bool
    /// For a mutable model, the model itself, so nested models write through to it.
    let owner: JSONModel?
    /// The ordinal of the property being read in `owner`.
    let ordinal: Int
    /// Whether nested models are collected for validation as they are created (``JSONModel/validate()``).
    var validating = false
    /// While validating: the nested models created, with their paths relative to the model's
    /// object, for ``JSONModel/validationDiagnostics()`` to visit after this conversion.
    var nestedModels: [(model: JSONModel, path: JSONPath)] = []
    /// The metadata of the schema model the property's type refers to, if it refers to one.
    var schemaModel: ModelMetadata?
    /// For a relationship property (`inverse:`): the parent its child models refer back to.
    var inverse: InverseLink?
    /// For a property with `embedPath`: where each array element holds the model's object.
    var embedPath: JSONPath?
    /// Whether `Double` and `Float` read `"NaN"`, `"Infinity"` and `"-Infinity"`
    /// (``ModelMetadata/allowsNonFiniteNumbers``).
    var allowsNonFiniteNumbers = false

    init(
        modelName: String, property: String, segments: [JSONPath.Segment], mutable: Bool, owner: JSONModel?,
        ordinal: Int, validating: Bool = false
    ) {
        self.modelName = modelName
        self.property = property
        self.segments = segments
        self.mutable = mutable
        self.owner = owner
        self.ordinal = ordinal
        self.validating = validating
    }

    var path: JSONPath { JSONPath(segments) }

    mutating func record(_ kind: ModelDiagnostic.Kind, _ message: String) {
        diagnostics.append(
            ModelDiagnostic(kind: kind, path: path, property: property, model: modelName, message: message))
    }

    mutating func typeMismatch(_ input: JSONInput, expected: String) {
        record(.typeMismatch, "expected \(expected), found \(input.summary)")
    }
}

// MARK: - The conversion protocol

/// A Swift type a model property can have.
///
/// Internal: the set of property types is closed; user types convert through
/// ``JSONConverter`` and ``JSONConvertible`` instead.
protocol PropertyValue: Sendable {
    /// The descriptor of this type.
    static var propertyType: PropertyType { get }
    /// The value a property of this type has when its JSON is missing or null and
    /// nothing was declared; nil when the type has no natural default.
    static var implicitDefault: Self? { get }
    /// The value an array or dictionary element that does not convert takes;
    /// nil leaves the element out. Only optionals have one (nil).
    static var failedElementValue: Self? { get }
    /// Reads a value from non-null JSON, or records a diagnostic and returns nil.
    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Self?
    /// The JSON for this value, keeping the kind of `existing` where it makes
    /// sense ("42" stays a string); nil means no value (an optional's nil).
    func jsonValue(replacing existing: JSONInput?) -> JSONValue?

    // Requirements with default implementations below, so that the converted types of
    // Converters/CustomValue.swift can store values of a type other than themselves.
    static func convertAny(_ input: JSONInput, context: inout ConversionContext) -> (any Sendable)?
    static func jsonValue(ofAny value: Any, replacing existing: JSONInput?) -> JSONValue??
    static func makeCacheEntry(_ value: any Sendable) -> CacheEntry
    static func cast(_ value: Any) -> (any Sendable)?
    static var implicitDefaultAny: (any Sendable)? { get }
}

extension PropertyValue {
    static var failedElementValue: Self? { nil }

    /// `convert` with the result boxed, for callers that hold only a metatype.
    static func convertAny(_ input: JSONInput, context: inout ConversionContext) -> (any Sendable)? {
        convert(input, context: &context)
    }

    /// The JSON for `value` if it has this type; `.failure` when it does not.
    static func jsonValue(ofAny value: Any, replacing existing: JSONInput?) -> JSONValue?? {
        guard let typed = value as? Self else { return .none }
        return .some(typed.jsonValue(replacing: existing))
    }

    /// A cache entry for a value of this type.
    static func makeCacheEntry(_ value: any Sendable) -> CacheEntry {
        CacheBox(value as! Self)
    }

    /// The value given, if it already has this type (boxed for storage).
    static func cast(_ value: Any) -> (any Sendable)? {
        value as? Self
    }
}

/// Implemented by `Optional` so boxed values can be unwrapped without knowing their type.
protocol OptionalPropertyValue {
    /// The wrapped value, or nil.
    var wrappedValue: (any Sendable)? { get }
}

extension Optional: OptionalPropertyValue where Wrapped: PropertyValue {
    var wrappedValue: (any Sendable)? {
        switch self {
        case .some(let value):
            if let nested = value as? any OptionalPropertyValue { return nested.wrappedValue }
            return value
        case .none: return nil
        }
    }
}

/// Unwraps any levels of `Optional` in a boxed value; nil when one of them is nil.
func unwrappedValue(_ value: (any Sendable)?) -> (any Sendable)? {
    guard let value else { return nil }
    if let optional = value as? any OptionalPropertyValue { return optional.wrappedValue }
    return value
}

// MARK: - Numbers

enum NumberText {
    /// Whether `text` follows the JSON number grammar exactly (no spaces, no `+`, no hex).
    static func isValid(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        var next = bytes.next()
        if next == UInt8(ascii: "-") { next = bytes.next() }
        guard let first = next, isDigit(first) else { return false }
        next = bytes.next()
        if first != UInt8(ascii: "0") {
            while let byte = next, isDigit(byte) { next = bytes.next() }
        }
        if next == UInt8(ascii: ".") {
            next = bytes.next()
            guard let byte = next, isDigit(byte) else { return false }
            while let byte = next, isDigit(byte) { next = bytes.next() }
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            next = bytes.next()
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { next = bytes.next() }
            guard let byte = next, isDigit(byte) else { return false }
            while let byte = next, isDigit(byte) { next = bytes.next() }
        }
        return next == nil
    }

    /// Whether valid number text has neither fraction nor exponent.
    static func isPlainInteger(_ text: String) -> Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The number text of a JSON number, or of a string holding one; records a
    /// type mismatch otherwise.
    static func text(of input: JSONInput, expected: String, context: inout ConversionContext) -> String? {
        switch input.kind {
        case .number:
            return input.numberText!
        case .string:
            let text = input.stringValue!
            if isValid(text) { return text }
            context.typeMismatch(input, expected: expected)
            return nil
        default:
            context.typeMismatch(input, expected: expected)
            return nil
        }
    }
}

extension FixedWidthInteger where Self: PropertyValue {
    static var implicitDefault: Self? { 0 }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Self? {
        // Fast path: a JSON integer read straight from the document's bytes.
        if case .node(let node) = input, let (negative, magnitude) = node.exactInteger {
            if negative {
                if magnitude <= UInt64(Int64.max), let value = Self(exactly: -Int64(magnitude)) { return value }
            } else if let value = Self(exactly: magnitude) {
                return value
            }
        }
        let typeName = String(describing: Self.self)
        guard let text = NumberText.text(of: input, expected: typeName, context: &context) else { return nil }
        if let exact = Self(text) { return exact }
        if NumberText.isPlainInteger(text) {
            context.record(.outOfRange, "\(text) does not fit in \(typeName)")
            return nil
        }
        guard let double = Double(text), double.isFinite else {
            context.record(.outOfRange, "\(text) does not fit in \(typeName)")
            return nil
        }
        let rounded = double.rounded(.toNearestOrAwayFromZero)
        guard let value = Self(exactly: rounded) else {
            context.record(.outOfRange, "\(text) does not fit in \(typeName)")
            return nil
        }
        if rounded != double {
            context.record(.lossy, "\(text) rounded to \(value) to fit \(typeName)")
        }
        return value
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        if existing?.kind == .string { return .string(String(self)) }
        return .number(JSONNumber(self))
    }
}

extension Int: PropertyValue { static var propertyType: PropertyType { .int } }
extension Int8: PropertyValue { static var propertyType: PropertyType { .int8 } }
extension Int16: PropertyValue { static var propertyType: PropertyType { .int16 } }
extension Int32: PropertyValue { static var propertyType: PropertyType { .int32 } }
extension Int64: PropertyValue { static var propertyType: PropertyType { .int64 } }
extension UInt: PropertyValue { static var propertyType: PropertyType { .uint } }
extension UInt8: PropertyValue { static var propertyType: PropertyType { .uint8 } }
extension UInt16: PropertyValue { static var propertyType: PropertyType { .uint16 } }
extension UInt32: PropertyValue { static var propertyType: PropertyType { .uint32 } }
extension UInt64: PropertyValue { static var propertyType: PropertyType { .uint64 } }

extension Double: PropertyValue {
    static var propertyType: PropertyType { .double }
    static var implicitDefault: Double? { 0 }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Double? {
        if context.allowsNonFiniteNumbers, let value = NonFiniteNumber.value(of: input) { return value }
        guard let text = NumberText.text(of: input, expected: "Double", context: &context) else { return nil }
        guard let value = Double(text), value.isFinite else {
            context.record(.outOfRange, "\(text) does not fit in Double")
            return nil
        }
        return value
    }

    /// NaN and the infinities as their strings (`"NaN"`, `"Infinity"`, `"-Infinity"`): a write
    /// of one gets here only for a model that allows them (Converters/WritableValues.swift).
    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        guard let number = JSONNumber(self) else { return .string(NonFiniteNumber.text(of: self)) }
        return existing?.kind == .string ? .string(number.text) : .number(number)
    }
}

extension Float: PropertyValue {
    static var propertyType: PropertyType { .float }
    static var implicitDefault: Float? { 0 }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Float? {
        if context.allowsNonFiniteNumbers, let value = NonFiniteNumber.value(of: input) { return Float(value) }
        guard let text = NumberText.text(of: input, expected: "Float", context: &context) else { return nil }
        guard let value = Float(text), value.isFinite else {
            context.record(.outOfRange, "\(text) does not fit in Float")
            return nil
        }
        return value
    }

    /// NaN and the infinities as their strings, as for `Double`.
    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        guard let number = JSONNumber(self) else { return .string(NonFiniteNumber.text(of: Double(self))) }
        return existing?.kind == .string ? .string(number.text) : .number(number)
    }
}

/// The strings that stand for the numbers JSON has none for, as `JSONDecoder`'s
/// `nonConformingFloatDecodingStrategy` is commonly set up and as JavaScript prints them.
enum NonFiniteNumber {
    /// `"NaN"`, `"Infinity"` or `"-Infinity"` as a `Double`; nil for anything else (other
    /// spellings included, so that a typo stays a diagnostic).
    static func value(of input: JSONInput) -> Double? {
        guard input.kind == .string else { return nil }
        switch input.stringValue {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: return nil
        }
    }

    /// The string of a value that is not finite.
    static func text(of value: Double) -> String {
        value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity"
    }
}

extension Decimal: PropertyValue {
    static var propertyType: PropertyType { .decimal }
    static var implicitDefault: Decimal? { 0 }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Decimal? {
        guard let text = NumberText.text(of: input, expected: "Decimal", context: &context) else { return nil }
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN else {
            context.record(.outOfRange, "\(text) does not fit in Decimal")
            return nil
        }
        return value
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        guard !isNaN, let number = JSONNumber(text: description) else { return .null }
        return existing?.kind == .string ? .string(number.text) : .number(number)
    }
}

// MARK: - Bool and String

extension Bool: PropertyValue {
    static var propertyType: PropertyType { .bool }
    static var implicitDefault: Bool? { false }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Bool? {
        switch input.kind {
        case .bool:
            return input.boolValue!
        case .number:
            // Exactly 0 or 1 (`1.0` and `1e0` count); through Double, `1e-400` read as false.
            switch JSONNumber(validatedText: input.numberText!).int64Value {
            case 0: return false
            case 1: return true
            default: break
            }
        case .string:
            switch input.stringValue!.lowercased() {
            case "true", "yes", "y", "t", "1": return true
            case "false", "no", "n", "f", "0": return false
            default: break
            }
        default:
            break
        }
        context.typeMismatch(input, expected: "Bool")
        return nil
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        switch existing?.kind {
        case .string: return .string(self ? "true" : "false")
        case .number: return .number(JSONNumber(self ? 1 : 0))
        default: return .bool(self)
        }
    }
}

extension String: PropertyValue {
    static var propertyType: PropertyType { .string }
    static var implicitDefault: String? { "" }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> String? {
        switch input.kind {
        case .string: return input.stringValue!
        case .number: return input.numberText!
        case .bool: return input.boolValue! ? "true" : "false"
        default:
            context.typeMismatch(input, expected: "String")
            return nil
        }
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        switch existing?.kind {
        case .number:
            if let number = JSONNumber(text: self) { return .number(number) }
        case .bool:
            if self == "true" || self == "false" { return .bool(self == "true") }
        default:
            break
        }
        return .string(self)
    }
}

// MARK: - Text-backed Foundation types

/// Reads a string and parses it; records a mismatch for other kinds and an
/// invalid value for text that does not parse.
private func parseString<T>(
    _ input: JSONInput, expected: String, context: inout ConversionContext, _ parse: (String) -> T?
) -> T? {
    guard let text = input.stringValue else {
        context.typeMismatch(input, expected: expected)
        return nil
    }
    if let value = parse(text) { return value }
    context.record(.invalidValue, "\"\(text.prefix(60))\" is not a valid \(expected)")
    return nil
}

extension URL: PropertyValue {
    static var propertyType: PropertyType { .url }
    static var implicitDefault: URL? { nil }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> URL? {
        parseString(input, expected: "URL", context: &context) { $0.isEmpty ? nil : URL(string: $0) }
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? { .string(absoluteString) }
}

extension UUID: PropertyValue {
    static var propertyType: PropertyType { .uuid }
    static var implicitDefault: UUID? { nil }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> UUID? {
        parseString(input, expected: "UUID", context: &context) { UUID(uuidString: $0) }
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? { .string(uuidString) }
}

extension Data: PropertyValue {
    static var propertyType: PropertyType { .data }
    static var implicitDefault: Data? { Data() }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Data? {
        parseString(input, expected: "base64 Data", context: &context) { Data(base64Encoded: $0) }
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? { .string(base64EncodedString()) }
}

extension Date: PropertyValue {
    static var propertyType: PropertyType { .date }
    static var implicitDefault: Date? { nil }

    /// ISO 8601 first, then the other formats in ``DateFormat/fallbackOrder`` (see Converters/DateFormat.swift);
    /// a declared `dateFormat` goes through the converter lookup instead.
    static func convert(_ input: JSONInput, context: inout ConversionContext) -> Date? {
        DateReading.date(from: input, format: .iso8601, keepsNumbers: true, context: &context)
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? {
        if existing?.kind == .number, let number = JSONNumber(timeIntervalSince1970) { return .number(number) }
        return .string(ISO8601Text.string(from: self))
    }
}

extension JSONValue: PropertyValue {
    static var propertyType: PropertyType { .json }
    static var implicitDefault: JSONValue? { .null }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> JSONValue? {
        input.jsonValue
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? { self }
}

// MARK: - Models

extension JSONModel: PropertyValue {
    static var propertyType: PropertyType { .model(self) }
    static var implicitDefault: Self? { nil }

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

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? { json() }
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

extension Array: PropertyValue where Element: PropertyValue {
    static var propertyType: PropertyType { .array(Element.propertyType) }
    static var implicitDefault: [Element]? { [] }

    static func convert(_ input: JSONInput, context: inout ConversionContext) -> [Element]? {
        guard input.kind == .array else {
            context.typeMismatch(input, expected: "an array of \(Element.propertyType)")
            return nil
        }
        // Strings from the document in one pass: what the loop below gives when every element is
        // a string, without its per-element node, path segment and generic call.
        if Element.self == String.self, case .node(let node) = input, let strings = node.stringElements() {
            return unsafeBitCast(strings, to: [Element].self)
        }
        var result: [Element] = []
        // Sized once: growing by doubling held the old and new storage at once (100 MB of
        // numbers read as [Double]: peak 3.4x the input, 2.5x with this).
        switch input {
        case .node(let node): result.reserveCapacity(node.count)
        case .value(.array(let elements)): result.reserveCapacity(elements.count)
        case .value: break
        }
        input.forEachElement { index, element in
            context.segments.append(.index(index))
            defer { context.segments.removeLast() }
            if let value = Element.convert(element, context: &context) {
                result.append(value)
            } else if let fallback = Element.failedElementValue {
                result.append(fallback)
            }
        }
        return result
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
        var result: [String: Value] = [:]
        input.forEachMember { key, member in
            context.segments.append(.key(key))
            defer { context.segments.removeLast() }
            if let value = Value.convert(member, context: &context) {
                result[key] = value
            } else if let fallback = Value.failedElementValue {
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

// MARK: - ISO 8601

/// The ISO 8601 writer, and the calendar arithmetic the date formats share.
///
/// Date properties read through ``ISO8601Parser``, which reads bytes; they write through
/// ``string(from:)`` here: `yyyy-MM-ddTHH:mm:ssZ` in UTC, with milliseconds only when not zero.
enum ISO8601Text {
    /// The text of `date`; for a date ``isWritable(_:)`` refuses, a best effort that does not
    /// read back (a signed year of more digits, or the number of seconds), never a trap.
    static func string(from date: Date) -> String {
        guard let (days, milliseconds) = utcFields(of: date) else { return String(date.timeIntervalSince1970) }
        let (year, month, day) = civil(fromDays: days)
        let secondsOfDay = milliseconds / 1000
        let millis = milliseconds % 1000
        let yearText = (0...9999).contains(year) ? pad(year, 4) : (year < 0 ? "" : "+") + pad(year, 4)
        var text = "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T"
        text += "\(pad(secondsOfDay / 3600, 2)):\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2))"
        if millis != 0 { text += ".\(pad(millis, 3))" }
        return text + "Z"
    }

    /// `value` in decimal with at least `width` digits (a minus sign comes before the zeros).
    static func pad(_ value: Int, _ width: Int) -> String {
        if value < 0 { return "-" + pad(-value, width) }
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z in milliseconds since 1970: the dates the
    /// text formats write (four-digit years) are those from the first up to the second.
    static let writableMilliseconds: Range<Int64> = -62_167_219_200_000..<253_402_300_800_000

    /// The date rounded to the millisecond, as the writers round it; nil when it is not finite
    /// or beyond ±9e15 seconds (some 285 million years), where the arithmetic would overflow.
    static func milliseconds(of date: Date) -> Int64? {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 9e15 else { return nil }
        return Int64((interval * 1000).rounded(.toNearestOrAwayFromZero))
    }

    /// Days since 1970 and the millisecond of that day, in UTC; nil as for ``milliseconds(of:)``.
    static func utcFields(of date: Date) -> (days: Int, millisecondOfDay: Int)? {
        guard var milliseconds = self.milliseconds(of: date) else { return nil }
        var days = milliseconds / 86_400_000
        milliseconds -= days * 86_400_000
        if milliseconds < 0 {
            days -= 1
            milliseconds += 86_400_000
        }
        return (Int(days), Int(milliseconds))
    }

    /// Whether the text formats write `date` so that it reads back: years 0000 to 9999 in UTC.
    static func isWritable(_ date: Date) -> Bool {
        milliseconds(of: date).map(writableMilliseconds.contains) ?? false
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
