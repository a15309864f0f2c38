#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// How one property of one model converts: the converter lookup's cached choice.
///
/// Created with the property's metadata; the choice is made on first use and kept until a
/// registration that could change it (see ``ConverterTable/apply(_:converter:)``).
final class PropertyConversion: Sendable {
    /// The outcome of the lookup.
    enum Choice: Sendable {
        /// The engine's own conversion of the type.
        case builtin
        /// A converter, applied to the property's base type inside optionals and collections.
        case converter(AnyConverter)
        /// A converter the declaration asks for is missing or of the wrong type.
        case problem(String)
    }

    let propertyName: String
    let modelName: String
    let type: PropertyType
    /// The registration keys of the model and its superclasses, most derived first.
    let models: [ModelKey]
    /// The type converters are registered for: the property's type without optionals and collections.
    let baseType: Any.Type
    let options: PropertyOptions
    /// Where the lookup happens: the converters of the schema's registry, then the shared ones.
    /// The tables, not the registries: a registry holds its schema models' metadata, so a
    /// reference back to it from here would keep it alive for ever.
    private let tables: [ConverterTable]
    /// A converter implied by the declaration alone (`dateFormat`, `enumValues`).
    private let declared: AnyConverter?

    private struct State {
        var choice: Choice?
        var version = 0
        var watching = false
        /// How many times the lookup ran; for tests of caching.
        var lookups = 0
        /// The boxes published so far, kept alive so that a reader never holds a freed one: at
        /// most ``PropertyConversion/publishedLimit``, whatever the number of registrations.
        var published: [ChoiceBox] = []
    }

    /// How many boxes of choices other than the builtin one a conversion publishes.
    ///
    /// A new choice is made only after a registration that affects this property, so programs
    /// that register their converters once never come near it. Past it (a converter registered
    /// again and again), choices are no longer published: ``choice`` reads them under the lock,
    /// and memory stays flat however many registrations follow.
    static let publishedLimit = 8

    /// An immutable holder of one choice, published through `current`.
    private final class ChoiceBox: Sendable {
        let choice: Choice
        /// Whether `choice` is `.builtin`, readable without copying the enum.
        let isBuiltin: Bool
        /// The converter's first read (ConvertedFirstRead.swift), when it has one and does not
        /// check cached values: a first read makes no entry to check.
        let firstReader: FirstReader?
        init(_ choice: Choice) {
            self.choice = choice
            if case .builtin = choice { isBuiltin = true } else { isBuiltin = false }
            if case .converter(let converter) = choice, converter.validate == nil {
                firstReader = converter.firstReader
            } else {
                firstReader = nil
            }
        }
    }

    /// The box of `.builtin`, shared by every conversion and never freed.
    private static let builtinBox = ChoiceBox(.builtin)

    private let state = Locked(State())
    /// The cached choice's box (unretained; `State.published` or ``builtinBox`` owns it), or 0
    /// when nothing is cached or the choice is read under the lock. Reads of a published choice
    /// take no lock: they run on every first read of every property.
    ///
    /// Memory safety: a published box is freed only with the conversion, so a reader that loaded
    /// `current` may use the box for as long as it uses the conversion, even after an
    /// invalidation replaced it.
    private let current = OwnedAtomicWord(0)

    init(name: String, modelName: String, type: PropertyType, options: PropertyOptions, models: [ModelKey],
         registry: ModelRegistry?) {
        self.propertyName = name
        self.modelName = modelName
        self.type = type
        self.options = options
        self.models = models
        self.baseType = PropertyConversion.baseType(of: type)
        var tables: [ConverterTable] = []
        if let registry, registry !== ModelRegistry.shared { tables.append(registry.converters) }
        tables.append(ModelRegistry.shared.converters)
        self.tables = tables
        if let format = options.dateFormat, baseType == Date.self {
            self.declared = AnyConverter(dateFormat: format)
        } else if let values = options.enumValues, baseType == String.self {
            self.declared = AnyConverter(enumValues: values)
        } else {
            self.declared = nil
        }
    }

    static func baseType(of type: PropertyType) -> Any.Type {
        switch type {
        case .optional(let inner), .array(let inner), .dictionary(let inner): return baseType(of: inner)
        case .custom(let custom): return custom.baseType
        default: return type.swiftType
        }
    }

    // MARK: The choice

    /// The cached choice, looked up on first use.
    var choice: Choice {
        let bits = current.pointer.load(ordering: .acquiring)
        if bits != 0 {
            return Unmanaged<ChoiceBox>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
                .takeUnretainedValue().choice
        }
        return lockedChoice()
    }

    /// Whether the published choice is the engine's own conversion; false when it is not or
    /// nothing is published yet (then ``choice`` decides). Copies nothing: most properties take
    /// this path on every first read.
    @inline(__always)
    var isPublishedBuiltin: Bool {
        let bits = current.pointer.load(ordering: .acquiring)
        guard bits != 0 else { return false }
        return Unmanaged<ChoiceBox>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef { $0.isBuiltin }
    }

    /// The first read of the published choice's converter, unretained (the box keeps it as long
    /// as the conversion lives); nil when nothing is published or the converter has none.
    @inline(__always)
    var publishedFirstReader: Unmanaged<FirstReader>? {
        let bits = current.pointer.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        return Unmanaged<ChoiceBox>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef { box in box.firstReader.map { Unmanaged.passUnretained($0) } }
    }

    /// The first read of the choice's converter, looked up and published first when nothing
    /// is (see ``isBuiltinChoice()``).
    func firstReaderChoice() -> Unmanaged<FirstReader>? {
        _ = choice
        return publishedFirstReader
    }

    /// Whether the choice is the engine's own conversion, looked up and published first when
    /// nothing is: a property whose values are all missing or null never converts one, so
    /// nothing else would publish its choice.
    func isBuiltinChoice() -> Bool {
        if case .builtin = choice { return true }
        return false
    }

    /// ``choice`` the slow way: under the lock, looking up and publishing when nothing is cached.
    private func lockedChoice() -> Choice {
        let (cached, watching) = state.withLock { ($0.choice, $0.watching) }
        if let cached { return cached }
        if !watching {
            // The tables know of this conversion before any reader takes `watching` as done, and
            // the version is read after: a registration that the lookup below misses then always
            // changes the version, and the stale answer is not kept. Two first readers may both
            // watch; a conversion told twice looks up once more.
            for table in tables { table.watch(self) }
            state.withLock { $0.watching = true }
        }
        let version = state.withLock { $0.version }
        let made = lookUp()
        return state.withLock { state in
            state.lookups += 1
            if state.version == version, state.choice == nil {
                state.choice = made
                let box: ChoiceBox?
                if case .builtin = made {
                    box = Self.builtinBox
                } else if state.published.count < Self.publishedLimit {
                    box = ChoiceBox(made)
                    state.published.append(box!)
                } else {
                    box = nil  // read under the lock from now on
                }
                if let box {
                    current.pointer.store(UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque()), ordering: .releasing)
                }
            }
            return made
        }
    }

    /// How many times the lookup ran; for tests.
    var lookupCount: Int { state.withLock { $0.lookups } }

    /// How many boxes this conversion keeps; for tests.
    var publishedBoxCount: Int { state.withLock { $0.published.count } }

    func invalidate() {
        state.withLock { state in
            state.choice = nil
            state.version += 1
            current.pointer.store(0, ordering: .releasing)
        }
    }

    /// Whether a registration could change this property's choice.
    func isAffected(by change: ConverterTable.Change) -> Bool {
        switch change {
        case .property(let model, let name): return name == propertyName && models.contains(model)
        case .type(let model, let type):
            let types = self.type.customType?.registrationTypes ?? [ObjectIdentifier(baseType)]
            return types.contains(type) && (model.map(models.contains) ?? true)
        case .named(let name): return options.converter?.name == name
        case .store(let type):
            return options.cachedObject && type == ObjectIdentifier(self.type.customType?.elementBaseType ?? baseType)
        }
    }

    /// The lookup: property name, then the declaration, then the type on the model, then
    /// globally, then the type's conformance, then the built-in conversion.
    private func lookUp() -> Choice {
        // 1. Registered for the property name on the model or a superclass.
        for table in tables {
            for model in models {
                if let found = table.converter(forProperty: propertyName, in: model) {
                    return checked(found)
                }
            }
        }
        // 1b. What the declaration names.
        if let reference = options.converter {
            switch reference.storage {
            case .instance(let converter, _): return checked(converter)
            case .named(let name):
                for table in tables {
                    if let found = table.converter(named: name) { return checked(found) }
                }
                if let found = JSONConverters.builtinNamed[name] { return checked(found) }
                return .problem("no converter is registered under the name \"\(name)\"")
            }
        }
        if options.cachedObject {
            let stored = type.customType?.elementBaseType ?? baseType
            for table in tables {
                if let found = table.store(for: ObjectIdentifier(stored)) { return checked(found) }
            }
            return .problem("cachedObject: no object store is registered for \(stored)")
        }
        if let declared { return .converter(declared) }
        // 2. Registered for the value type on the model or a superclass, then globally; for a
        // collection of a user's type, then for the element's type, element by element.
        if let found = registeredConverter(forType: ObjectIdentifier(baseType)) { return .converter(found) }
        if let found = type.customType?.elementConverter(registered: registeredConverter(forType:)) {
            return .converter(found)
        }
        // 3. The type's own conversion (JSONConvertible; for the user's types, also enums).
        if let custom = type.customType {
            return custom.builtin.map(Choice.converter) ?? .builtin
        }
        if let convertible = baseType as? any JSONConvertible.Type {
            return .converter(AnyConverter(convertible: convertible))
        }
        // 4. Built in.
        return .builtin
    }

    /// A converter registered for `type` on the model or a superclass, else globally.
    private func registeredConverter(forType type: ObjectIdentifier) -> AnyConverter? {
        for table in tables {
            for model in models {
                if let found = table.converter(forType: type, in: model) { return found }
            }
        }
        for table in tables {
            if let found = table.converter(forType: type, in: nil) { return found }
        }
        return nil
    }

    private func checked(_ converter: AnyConverter) -> Choice {
        if converter.valueType == baseType { return .converter(converter) }
        // For a collection of the user's type, a converter of an element type converts each element.
        let valueType = ObjectIdentifier(converter.valueType)
        if let elementwise = type.customType?.elementConverter(registered: { $0 == valueType ? converter : nil }) {
            return .converter(elementwise)
        }
        return .problem("the converter \(converter.name) makes \(converter.valueType), but \(propertyName) holds \(baseType)")
    }

    // MARK: Converting

    /// Reads non-null JSON (or null, for optionals) with the chosen conversion.
    func convert(_ input: JSONInput, valueType: any PropertyValue.Type, context: inout ConversionContext) -> (any Sendable)? {
        if isPublishedBuiltin { return valueType.convertAny(input, context: &context) }
        switch choice {
        case .builtin:
            return valueType.convertAny(input, context: &context)
        case .problem(let message):
            context.record(.invalidValue, message)
            return nil
        case .converter(let converter):
            return read(input, type: type, converter: converter, context: &context)
        }
    }

    private func read(
        _ input: JSONInput, type: PropertyType, converter: AnyConverter, context: inout ConversionContext
    ) -> (any Sendable)? {
        switch type {
        case .custom(let custom):
            return custom.convert(input, with: converter, context: &context)
        case .optional(let inner):
            if input.isNull { return inner.swiftType.noneAny }
            guard let value = read(input, type: inner, converter: converter, context: &context) else { return nil }
            return inner.swiftType.someAny(value)
        case .array(let inner):
            guard input.kind == .array else {
                context.typeMismatch(input, expected: "an array of \(inner)")
                return nil
            }
            var values: [any Sendable] = []
            input.forEachElement { index, element in
                context.segments.append(.index(index))
                defer { context.segments.removeLast() }
                if let value = read(element, type: inner, converter: converter, context: &context) {
                    values.append(value)
                } else if let fallback = inner.swiftType.failedElementAny {
                    values.append(fallback)
                }
            }
            return inner.swiftType.arrayAny(values)
        case .dictionary(let inner):
            guard input.kind == .object else {
                context.typeMismatch(input, expected: "an object of \(inner)")
                return nil
            }
            var values: [String: any Sendable] = [:]
            input.forEachMember { key, member in
                context.segments.append(.key(key))
                defer { context.segments.removeLast() }
                values[key] = read(member, type: inner, converter: converter, context: &context)
                    ?? inner.swiftType.failedElementAny
            }
            return inner.swiftType.dictionaryAny(values)
        default:
            if input.isNull {
                context.typeMismatch(input, expected: "\(type)")
                return nil
            }
            return converter.read(input, &context)
        }
    }

    /// The JSON of a value with the chosen conversion: `.some(nil)` writes nothing, nil means
    /// the value has another type.
    func json(of value: Any, valueType: any PropertyValue.Type, replacing existing: JSONInput?) -> JSONValue?? {
        switch choice {
        case .builtin, .problem:
            return valueType.jsonValue(ofAny: value, replacing: existing)
        case .converter(let converter):
            if valueType.cast(value) == nil { return .none }
            return write(value, type: type, converter: converter, replacing: existing)
        }
    }

    private func write(_ value: Any, type: PropertyType, converter: AnyConverter, replacing existing: JSONInput?)
        -> JSONValue??
    {
        switch type {
        case .custom(let custom):
            return custom.json(of: value, with: converter, replacing: existing)
        case .optional(let inner):
            if let optional = value as? any OptionalPropertyValue {
                guard let wrapped = optional.wrappedValue else { return .some(nil) }
                return write(wrapped, type: inner, converter: converter, replacing: existing)
            }
            return write(value, type: inner, converter: converter, replacing: existing)
        case .array(let inner):
            guard let elements = value as? [Any] else { return .none }
            var result = JSONArray()
            for (index, element) in elements.enumerated() {
                guard let json = write(element, type: inner, converter: converter, replacing: existing?[index]) else {
                    return .none
                }
                result.append(json ?? .null)
            }
            return .some(.array(result))
        case .dictionary(let inner):
            guard let members = value as? [String: Any] else { return .none }
            var object = JSONObject(minimumCapacity: members.count)
            for key in members.keys.sorted() {
                guard let json = write(members[key]!, type: inner, converter: converter, replacing: existing?[key])
                else { return .none }
                object[key] = json ?? .null
            }
            return .some(.object(object))
        default:
            return converter.write(value, existing)
        }
    }

    /// The check a cached value gets on each read, when the chosen converter validates.
    var validator: (@Sendable (Any) -> Bool)? {
        guard !isPublishedBuiltin, case .converter(let converter) = choice, let validate = converter.validate else {
            return nil
        }
        // A type of the user's, collections of it included, is checked whole: a collection's
        // converter checks each element itself, and would be handed single elements here.
        if case .custom = type { return validate }
        return { value in PropertyConversion.isValid(value, validate) }
    }

    private static func isValid(_ value: Any, _ validate: (Any) -> Bool) -> Bool {
        if let optional = value as? any OptionalPropertyValue {
            guard let wrapped = optional.wrappedValue else { return true }
            return isValid(wrapped, validate)
        }
        if let elements = value as? [Any] {
            return elements.allSatisfy { isValid($0, validate) }
        }
        if let members = value as? [String: Any] {
            return members.values.allSatisfy { isValid($0, validate) }
        }
        return validate(value)
    }
}

extension PropertyValue {
    static var noneAny: any Sendable { Self?.none }
    static func someAny(_ value: any Sendable) -> any Sendable { Self?.some(value as! Self) }
    static func arrayAny(_ values: [any Sendable]) -> any Sendable { values.map { $0 as! Self } }
    static func dictionaryAny(_ values: [String: any Sendable]) -> any Sendable { values.mapValues { $0 as! Self } }
    static var failedElementAny: (any Sendable)? { failedElementValue }
}

extension PropertyType {
    /// The user's type this is, or is an optional of.
    var customType: CustomValueType? {
        if case .custom(let custom) = self { return custom }
        return nil
    }
}

// MARK: - The engine's entry points

extension PropertyMetadata {
    /// Converts a property's non-null JSON through the converter lookup.
    func convertValue(_ input: JSONInput, context: inout ConversionContext) -> (any Sendable)? {
        conversion.convert(input, valueType: valueType, context: &context)
    }

    /// The JSON of a value of the property through the converter lookup; see ``PropertyConversion/json(of:valueType:replacing:)``.
    func jsonValue(ofAny value: Any, replacing existing: JSONInput?) -> JSONValue?? {
        conversion.json(of: value, valueType: valueType, replacing: existing)
    }

    /// A cache entry for a value, carrying the converter's validity check if it has one.
    func makeCacheEntry(_ value: any Sendable) -> CacheEntry {
        let entry = entryType.boxing(value)
        entry.validator = conversion.validator
        return entry
    }
}

extension ModelKey {
    /// The keys of a compiled class and its superclasses, most derived first; a schema model's
    /// name and those of the models it extends (`lineage`, or the model declaring the property
    /// when that is not given).
    static func chain(
        modelName: String, modelType: JSONModel.Type, declaringModel: String, lineage: [String] = []
    ) -> [ModelKey] {
        if modelType == DynamicModel.self {
            if !lineage.isEmpty { return lineage.map(ModelKey.schema) }
            return modelName == declaringModel ? [.schema(modelName)] : [.schema(modelName), .schema(declaringModel)]
        }
        var keys: [ModelKey] = []
        var current: AnyClass? = modelType
        while let someClass = current, someClass != JSONModel.self {
            keys.append(.type(ObjectIdentifier(someClass)))
            current = _getSuperclass(someClass)
        }
        return keys
    }
}

extension PropertyDeclaration {
    /// Why an option does not fit the property's type (`dateFormat` on a `String`), which would
    /// otherwise be ignored; nil when every option fits.
    var optionProblem: String? {
        let base = PropertyConversion.baseType(of: type)
        if options.dateFormat != nil && base != Date.self { return "dateFormat needs a Date property, not \(type)" }
        if options.enumValues != nil && base != String.self { return "enumValues needs a String property, not \(type)" }
        if options.inverse != nil && !type.containsModel { return "inverse needs a model property, not \(type)" }
        return nil
    }
}
