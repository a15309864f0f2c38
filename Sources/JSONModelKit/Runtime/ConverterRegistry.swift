import JSONModelKitCore

/// Identifies a model for converter registrations: a compiled class, or a schema model by name.
enum ModelKey: Hashable, Sendable {
    case type(ObjectIdentifier)
    case schema(String)

    /// The model registered as `name`: the class, when there is one, else the schema model.
    init(named name: String, class modelClass: JSONModel.Type?) {
        self = modelClass.map { .type(ObjectIdentifier($0)) } ?? .schema(name)
    }
}

/// The converters, named converters and object stores registered in one ``ModelRegistry``.
///
/// Registrations are rare and reads frequent: each property caches its choice in its own
/// ``PropertyConversion``; a registration clears only the choices it could change.
final class ConverterTable: RegistryAttachment {
    struct PropertyKey: Hashable {
        let model: ModelKey
        let property: String
    }

    struct TypeKey: Hashable {
        let model: ModelKey?
        let type: ObjectIdentifier
    }

    /// A change, described so that affected properties can be found.
    enum Change: Hashable {
        case property(ModelKey, String)
        case type(ModelKey?, ObjectIdentifier)
        case named(String)
        case store(ObjectIdentifier)
    }

    private struct WeakConversion {
        weak var conversion: PropertyConversion?
    }

    private struct State {
        var byProperty: [PropertyKey: AnyConverter] = [:]
        var byType: [TypeKey: AnyConverter] = [:]
        var named: [String: AnyConverter] = [:]
        var stores: [ObjectIdentifier: AnyConverter] = [:]
        var watchers: [WeakConversion] = []
        /// The length of `watchers` at which ``watch(_:)`` drops the freed ones first.
        var pruneAt = 64

        mutating func set(_ converter: AnyConverter?, for change: Change) {
            switch change {
            case .property(let model, let name): byProperty[PropertyKey(model: model, property: name)] = converter
            case .type(let model, let type): byType[TypeKey(model: model, type: type)] = converter
            case .named(let name): named[name] = converter
            case .store(let type): stores[type] = converter
            }
        }

        /// Whether a converter is registered under `change`'s key; a name of the library's own
        /// converters (`iso8601`, `hexColor`, …) counts as registered.
        func holds(_ change: Change) -> Bool {
            switch change {
            case .property(let model, let name): byProperty[PropertyKey(model: model, property: name)] != nil
            case .type(let model, let type): byType[TypeKey(model: model, type: type)] != nil
            case .named(let name): named[name] != nil || JSONConverters.builtinNamed[name] != nil
            case .store(let type): stores[type] != nil
            }
        }

        func conflicts(_ registrations: [Registration]) -> [String] {
            var seen: Set<Change> = []
            return registrations.filter { !seen.insert($0.change).inserted || holds($0.change) }.map(\.subject)
        }

        /// The live conversions that `isAffected` picks; drops the freed ones from the list.
        mutating func affected(_ isAffected: (PropertyConversion) -> Bool) -> [PropertyConversion] {
            watchers.removeAll { $0.conversion == nil }
            return watchers.compactMap(\.conversion).filter(isAffected)
        }
    }

    private let state = Locked(State())

    func converter(forProperty name: String, in model: ModelKey) -> AnyConverter? {
        state.withLock { $0.byProperty[PropertyKey(model: model, property: name)] }
    }

    func converter(forType type: ObjectIdentifier, in model: ModelKey?) -> AnyConverter? {
        state.withLock { $0.byType[TypeKey(model: model, type: type)] }
    }

    func converter(named name: String) -> AnyConverter? {
        state.withLock { $0.named[name] }
    }

    func store(for type: ObjectIdentifier) -> AnyConverter? {
        state.withLock { $0.stores[type] }
    }

    /// Asks to be told (through ``PropertyConversion/invalidate(for:)``) about later changes.
    ///
    /// Conversions of freed metadata (a dropped registry's schema models) leave empty entries;
    /// they are dropped whenever the list has doubled since, so it stays proportional to the
    /// conversions alive, at amortized O(1) per call.
    func watch(_ conversion: PropertyConversion) {
        state.withLock { state in
            if state.watchers.count >= state.pruneAt {
                state.watchers.removeAll { $0.conversion == nil }
                state.pruneAt = max(64, state.watchers.count * 2)
            }
            state.watchers.append(WeakConversion(conversion: conversion))
        }
    }

    /// Stores a registration and clears the choices it affects.
    func apply(_ change: Change, converter: AnyConverter?) {
        let affected: [PropertyConversion] = state.withLock { state in
            state.set(converter, for: change)
            return state.affected { $0.isAffected(by: change) }
        }
        for conversion in affected { conversion.invalidate() }
    }

    /// A registration that may not replace another (a plugin's), with what it registers for
    /// messages.
    struct Registration {
        let change: Change
        let converter: AnyConverter
        /// What the registration is for: `the converter name "cents"`.
        let subject: String

        static func named<C: JSONConverter>(_ name: String, _ converter: C) -> Registration {
            Registration(change: .named(name), converter: AnyConverter(converter, name: name), subject: "the converter name \"\(name)\"")
        }

        /// A converter for `C.Value` in `model` (named `modelName` for messages), or in every model.
        static func type<C: JSONConverter>(_ converter: C, in model: ModelKey?, name modelName: String?) -> Registration {
            let models = modelName.map { "the model \($0)" } ?? "every model"
            return Registration(
                change: .type(model, ObjectIdentifier(C.Value.self)), converter: AnyConverter(converter, name: "\(C.self)"),
                subject: "the type \(C.Value.self) in \(models)")
        }

        static func property<C: JSONConverter>(
            _ property: String, _ converter: C, in model: ModelKey, name modelName: String
        ) -> Registration {
            Registration(
                change: .property(model, property), converter: AnyConverter(converter, name: "\(C.self)"),
                subject: "the property \(modelName).\(property)")
        }
    }

    /// Stores registrations that may not replace any converter, all or none: nil when every key
    /// was free, else the subjects of those that were not (or that repeat an earlier one), and
    /// nothing stored.
    func add(_ registrations: [Registration]) -> [String]? {
        let (taken, affected) = state.withLock { state -> ([String], [PropertyConversion]) in
            let taken = state.conflicts(registrations)
            guard taken.isEmpty else { return (taken, []) }
            for registration in registrations { state.set(registration.converter, for: registration.change) }
            return ([], state.affected { conversion in registrations.contains { conversion.isAffected(by: $0.change) } })
        }
        for conversion in affected { conversion.invalidate() }
        return taken.isEmpty ? nil : taken
    }

    /// The subjects of `registrations` whose keys hold a converter, or repeat an earlier one's.
    func conflicts(_ registrations: [Registration]) -> [String] {
        state.withLock { $0.conflicts(registrations) }
    }

    /// How many conversions are on the list to notify, dead ones included; for tests.
    var watcherCount: Int { state.withLock { $0.watchers.count } }

    /// Forgets every registration and every cached choice; for tests.
    func reset() {
        let all: [PropertyConversion] = state.withLock { state in
            let watchers = state.watchers.filter { $0.conversion != nil }
            state = State()
            state.watchers = watchers
            return watchers.compactMap(\.conversion)
        }
        for conversion in all { conversion.invalidate() }
    }
}

/// Resolves a model's id into an object and back, for properties declared `cachedObject: true`.
///
/// ```swift
/// final class CustomerStore: JSONObjectStore {
///     func object(forID id: JSONValue) -> Customer? { customers[id.intValue ?? -1] }
///     func id(of object: Customer) -> JSONValue? { .number(JSONNumber(object.id as Int)) }
/// }
/// ModelRegistry.shared.register(objectStore: CustomerStore())
/// p.customer(Customer?.self, jsonPath: "customer_id", cachedObject: true)
/// ```
public protocol JSONObjectStore<Object>: Sendable {
    /// The type of the objects held.
    associatedtype Object: Sendable
    /// The object with this id, or nil when there is none (the property reads its default,
    /// with a diagnostic).
    func object(forID id: JSONValue) -> Object?
    /// The id written for an object; nil writes nothing.
    func id(of object: Object) -> JSONValue?
}

extension AnyConverter {
    init<S: JSONObjectStore>(store: S) {
        self.init(
            valueType: S.Object.self, name: "\(S.self)",
            read: { input, context in
                let id = input.jsonValue
                if let object = store.object(forID: id) { return object }
                context.record(.invalidValue, "no \(S.Object.self) with id \(id) in the object store")
                return nil
            },
            write: { value, _ in
                guard let object = value as? S.Object else { return .none }
                return .some(store.id(of: object))
            })
    }
}

extension ModelRegistry {
    /// The converters, named converters and object stores registered here.
    var converters: ConverterTable { attachment(ConverterTable.self) }

    /// Registers a converter for one property of a model class (and its subclasses).
    ///
    /// The first tier of the lookup: it wins over everything else for that property.
    ///
    /// ```swift
    /// ModelRegistry.shared.register(.millisecondsSince1970, forProperty: "createdAt", of: User.self)
    /// ```
    public func register<C: JSONConverter>(_ converter: C, forProperty name: String, of model: JSONModel.Type) {
        converters.apply(.property(.type(ObjectIdentifier(model)), name), converter: AnyConverter(converter, name: "\(C.self)"))
    }

    /// Registers a converter for one property of a schema model.
    func register<C: JSONConverter>(_ converter: C, forProperty name: String, ofModelNamed model: String) {
        converters.apply(.property(.schema(model), name), converter: AnyConverter(converter, name: "\(C.self)"))
    }

    /// Registers a converter for every property of type `type` on a model class (and its
    /// subclasses), or on every model when `model` is nil.
    ///
    /// ```swift
    /// ModelRegistry.shared.register(.dates("dd/MM/yyyy"), for: Date.self, in: EuropeanInvoice.self)
    /// ModelRegistry.shared.register(HexColorConverter(), for: Color.self)
    /// ```
    ///
    /// Properties of type `T?`, `[T]`, `[T?]` and `[String: T]` use it for each value.
    public func register<C: JSONConverter>(_ converter: C, for type: C.Value.Type, in model: JSONModel.Type? = nil) {
        let key = model.map { ModelKey.type(ObjectIdentifier($0)) }
        converters.apply(.type(key, ObjectIdentifier(type)), converter: AnyConverter(converter, name: "\(C.self)"))
    }

    /// Registers a converter under a name that declarations (`converter: "hexColor"`) and
    /// schemas (`"converter": "hexColor"`) refer to. A later registration of the name here
    /// replaces it; a plugin's never does (``PluginRegistrar/register(_:named:)``).
    public func register<C: JSONConverter>(_ converter: C, named name: String) {
        converters.apply(.named(name), converter: AnyConverter(converter, name: name))
    }

    /// Registers the store that resolves ids of `S.Object` for `cachedObject: true` properties.
    public func register<S: JSONObjectStore>(objectStore store: S) {
        converters.apply(.store(ObjectIdentifier(S.Object.self)), converter: AnyConverter(store: store))
    }

    /// Removes every converter and object store registered here; for tests.
    func resetConverters() {
        converters.reset()
    }
}
