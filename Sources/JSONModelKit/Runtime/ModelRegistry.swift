#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// The registry of model types and their metadata.
///
/// Metadata of a class is built when the first model of it is created, from its registration
/// block and those of its superclasses, and kept for the life of the process. Any thread may
/// use the registry at any time.
///
/// ```swift
/// try ModelRegistry.shared.register(User.self, name: "Member")   // schemas may name the class "Member"
/// ```
public final class ModelRegistry: Sendable {
    /// The registry every model uses.
    public static let shared = ModelRegistry()

    private struct State {
        var metadata: [ObjectIdentifier: ModelMetadata] = [:]
        var types: [String: JSONModel.Type] = [:]
        /// Models declared by registered schemas, by name.
        var schemaModels: [String: ModelMetadata] = [:]
        /// The key style of models that do not choose one.
        var defaultKeyStyle = KeyStyle.camelCase
        /// Whether models that do not choose read and write non-finite numbers as strings.
        var allowsNonFiniteNumbers = false
    }

    private let state = Locked(State())
    /// Metadata found before, read without the lock: every model creation asks for its class's.
    private let recentMetadata = RecentMetadata()
    /// What other parts keep per registry, by type (``RegistryAttachment``).
    private let attachments = Locked<[ObjectIdentifier: any RegistryAttachment]>([:])

    /// Creates an empty registry.
    ///
    /// Models use ``shared``; a registry of your own holds schema models apart from it (the
    /// Specs runner gives each case one). Compiled classes are always described by ``shared``.
    /// A registry of your own, with its schemas and converters, is freed once neither the
    /// program nor any model made from its schemas refers to it.
    public init() {}

    /// The metadata of the schema model named `name`, or nil.
    func schemaMetadata(named name: String) -> ModelMetadata? {
        state.withLock { $0.schemaModels[name] }
    }

    /// Stores model classes and schema models under their names, all or none: nil when every
    /// name was free (or held by the same class), else why nothing was stored.
    ///
    /// - Parameter beforePublishing: Called once every name is known to be free, before any is
    ///   taken, under the registry's lock, with the class registered under a name so far: puts
    ///   in place what must be there before a model of these names can be made (a plugin's
    ///   converters), or answers why it cannot, and then nothing is stored. It must not call
    ///   back into the registry's names.
    func store(
        classes: [(name: String, type: JSONModel.Type)], schemaMetadata models: [ModelMetadata],
        beforePublishing: ((String) -> JSONModel.Type?) -> [String]? = { _ in nil }
    ) -> StoreRefusal? {
        state.withLock { state in
            for (name, type) in classes {
                if let existing = state.types[name], existing != type { return .nameTaken(name) }
                if state.schemaModels[name] != nil { return .nameTaken(name) }
            }
            for model in models where state.schemaModels[model.modelName] != nil || state.types[model.modelName] != nil {
                return .nameTaken(model.modelName)
            }
            let types = state.types
            if let problems = beforePublishing({ types[$0] }) { return .refused(problems) }
            for (name, type) in classes { state.types[name] = type }
            for model in models { state.schemaModels[model.modelName] = model }
            return nil
        }
    }

    /// The attachment of type `T` to this registry, made on first use.
    ///
    /// - Complexity: O(1) on average; takes a lock, so not for reads of models.
    func attachment<T: RegistryAttachment>(_ type: T.Type) -> T {
        attachments.withLock { attachments in
            if let found = attachments[ObjectIdentifier(T.self)] { return found as! T }
            let made = T()
            attachments[ObjectIdentifier(T.self)] = made
            return made
        }
    }

    /// The metadata of a model class, built on first use.
    ///
    /// Building calls the registration block of each class from `JSONModel`
    /// down to `type`, outside the registry's lock (a block may use other
    /// models); if two threads build at once, the first stored wins.
    ///
    /// - Complexity: O(1) on average once built.
    func metadata(for type: JSONModel.Type) -> ModelMetadata {
        lastingMetadata(for: type).takeUnretainedValue()
    }

    /// The metadata of a model class, as ``metadata(for:)`` gives it, without a reference of
    /// the caller's own: a registry keeps each class's metadata as long as it lives, and models
    /// of compiled classes use ``shared``, which lives as long as the process.
    @inline(__always)
    func lastingMetadata(for type: JSONModel.Type) -> Unmanaged<ModelMetadata> {
        recentMetadata.unretainedMetadata(for: ObjectIdentifier(type)) ?? storedMetadata(for: type)
    }

    /// The metadata of a class that ``RecentMetadata`` did not find: from under the lock, built
    /// first if no thread has, then remembered there.
    private func storedMetadata(for type: JSONModel.Type) -> Unmanaged<ModelMetadata> {
        let key = ObjectIdentifier(type)
        let known = state.withLock { $0.metadata[key] } ?? {
            let built = ModelRegistry.buildMetadata(for: type)
            return state.withLock { state in
                if let raced = state.metadata[key] { return raced }
                state.metadata[key] = built
                // Not a name a schema model holds: both would answer to it.
                if state.types[built.modelName] == nil && state.schemaModels[built.modelName] == nil {
                    state.types[built.modelName] = type
                }
                return built
            }
        }()
        recentMetadata.remember(known, for: key)
        // The registry keeps it: see `lastingMetadata(for:)`.
        return Unmanaged.passUnretained(known)
    }

    /// Registers a model class under a name, replacing an earlier registration of the name
    /// by a class.
    ///
    /// Classes are also registered under their own name on first use unless the name is taken,
    /// by a class or a schema model.
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - name: The name; the class name when nil.
    /// - Throws: ``ModelSchemaError`` when a schema model has the name: a name is one model's,
    ///   or ``modelType(named:)`` and ``makeModel(named:json:options:)`` would answer with two.
    public func register(_ type: JSONModel.Type, name: String? = nil) throws(ModelSchemaError) {
        let name = name ?? String(describing: type)
        let taken: Bool = state.withLock { state in
            if state.schemaModels[name] != nil { return true }
            state.types[name] = type
            return false
        }
        if taken { throw ModelSchemaError("the name is taken by a schema model", model: name) }
    }

    /// The model class registered under `name`, or nil.
    public func modelType(named name: String) -> JSONModel.Type? {
        state.withLock { $0.types[name] }
    }

    /// Checks the declarations of every registered and every used model class.
    ///
    /// - Throws: ``ModelDeclarationError`` listing every problem found.
    func validateDeclarations() throws(ModelDeclarationError) {
        let types: [JSONModel.Type] = state.withLock { state in
            var byIdentity: [ObjectIdentifier: JSONModel.Type] = [:]
            for type in state.types.values { byIdentity[ObjectIdentifier(type)] = type }
            for known in state.metadata.values { byIdentity[ObjectIdentifier(known.modelType)] = known.modelType }
            return Array(byIdentity.values)
        }
        let problems = types.flatMap { metadata(for: $0).problems }
        if !problems.isEmpty { throw ModelDeclarationError(problems: problems) }
    }

    /// The key style of models that do not choose one; ``KeyStyle/camelCase`` (the property
    /// name as it is) unless set.
    ///
    /// Set it once, before the registry builds any metadata: each model's keys are fixed when
    /// its metadata is built (on first use), so setting another style afterwards stops the
    /// program (setting the same style again does not). ``shared`` describes every compiled
    /// class, so its default applies to them (through ``JSONModel/keyStyle``) and to the schema
    /// models registered in it; the default of a registry of your own applies to its schema
    /// models.
    ///
    /// ```swift
    /// ModelRegistry.shared.defaultKeyStyle = .snakeCase   // at launch, before any model is used
    /// ```
    public var defaultKeyStyle: KeyStyle {
        get { state.withLock { $0.defaultKeyStyle } }
        set { setBeforeFirstUse(\.defaultKeyStyle, to: newValue, named: "defaultKeyStyle") }
    }

    /// Whether `Double` and `Float` properties of models that do not choose read the strings
    /// `"NaN"`, `"Infinity"` and `"-Infinity"` as those values, and write them back as those
    /// strings; false unless set.
    ///
    /// JSON has no numbers for them, and many servers spell them so (as `JSONDecoder`'s
    /// `nonConformingFloatDecodingStrategy` reads them). Without it such a string reads the
    /// default with a diagnostic, and writing NaN or an infinity throws. Set it at launch,
    /// before the registry builds any model's metadata (a class or schema model that says
    /// otherwise keeps its own choice):
    ///
    /// ```swift
    /// ModelRegistry.shared.allowsNonFiniteNumbers = true
    /// ```
    public var allowsNonFiniteNumbers: Bool {
        get { state.withLock { $0.allowsNonFiniteNumbers } }
        set { setBeforeFirstUse(\.allowsNonFiniteNumbers, to: newValue, named: "allowsNonFiniteNumbers") }
    }

    /// Sets a registry-wide default that metadata is built with; stops the program when the
    /// value changes after the registry has built any model's metadata, whose models would keep
    /// the old one.
    private func setBeforeFirstUse<Value: Equatable>(
        _ setting: WritableKeyPath<State, Value>, to newValue: Value, named name: String
    ) {
        state.withLock { state in
            guard newValue != state[keyPath: setting] else { return }
            precondition(
                state.metadata.isEmpty && state.schemaModels.isEmpty,
                "set \(name) before the registry builds any model's metadata: models already used would not change")
            state[keyPath: setting] = newValue
        }
    }

    /// Forgets everything, attachments included; for tests.
    func reset() {
        state.withLock { $0 = State() }
        attachments.withLock { $0 = [:] }
    }

    // MARK: Building

    /// Collects the declarations of `type` and its superclasses.
    ///
    /// Each class's registration block runs on its own. A class that does not
    /// override the block returns exactly what its superclass returned; that
    /// list is recognized and adds nothing. A declaration repeated identically
    /// (the block called `super`) is skipped; a name declared again differently
    /// is a problem.
    static func buildMetadata(for type: JSONModel.Type) -> ModelMetadata {
        var chain: [JSONModel.Type] = []
        var current: AnyClass? = type
        while let someClass = current, someClass != JSONModel.self, let modelClass = someClass as? JSONModel.Type {
            chain.append(modelClass)
            current = _getSuperclass(someClass)
        }
        chain.reverse()

        let modelName = String(describing: type)
        var collected: [(declaration: PropertyDeclaration, declaringModel: String)] = []
        // As declared, before the key style: a block that calls `super` repeats them exactly.
        var declared: [String: PropertyDeclaration] = [:]
        var problems: [ModelDeclarationError.Problem] = []
        var previous: [PropertyDeclaration] = []
        for modelClass in chain {
            let registrar = PropertyRegistrar()
            modelClass.properties(registrar)
            let list = registrar.declarations
            if list == previous { continue }
            previous = list
            let className = String(describing: modelClass)
            var seenHere = Set<String>()
            for declaration in list {
                if !seenHere.insert(declaration.name).inserted {
                    problems.append(
                        .init(model: modelName, property: declaration.name,
                              message: "'\(declaration.name)' is declared more than once in \(className)"))
                    continue
                }
                if let earlier = collected.first(where: { $0.declaration.name == declaration.name }) {
                    if declared[declaration.name] != declaration {
                        problems.append(
                            .init(model: modelName, property: declaration.name,
                                  message: "'\(declaration.name)' is declared in \(earlier.declaringModel) and again, differently, in \(className)"))
                    }
                    continue
                }
                declared[declaration.name] = declaration
                collected.append((declaration.keyed(in: modelClass.keyStyle), className))
            }
        }
        return ModelMetadata(
            modelName: modelName, modelType: type, declarations: collected, problems: problems,
            requiresNonOptionals: type.requiresNonOptionals,
            comparesDeclaredPropertiesOnly: type.comparesDeclaredPropertiesOnly,
            allowsNonFiniteNumbers: type.allowsNonFiniteNumbers)
    }
}

/// State that a part of the library keeps per registry: the converters registered in it, the
/// definitions of its schema models, the plugins loaded into it.
///
/// The registry holds each attachment, made on first use, for as long as it lives, and knows
/// nothing else of it: so the parts that build on the registry keep their state with it
/// (``ModelRegistry/attachment(_:)``) without the registry naming their types.
protocol RegistryAttachment: AnyObject, Sendable {
    /// An empty attachment, made when the registry is first asked for it.
    init()
}

/// The metadata of the classes used so far, found without a lock.
///
/// A table of places, each set once, by compare-and-swap, to a +1 reference to a pair of a class
/// and its metadata, and never changed or emptied while the registry lives: a class's metadata
/// is never replaced, so a reader may use the pair it loads without a reference of its own.
///
/// A class starts at the place its address hashes to and, when another class holds that one,
/// goes on to the next (linear probing). Since a place is never emptied, a lookup that meets an
/// empty place knows the class is not in the table. Only once every place is taken is a class
/// found under the registry's lock, on every lookup and after a search of the whole table: a
/// program with more than ``count`` model classes. Every model creation looks up its class, and a class sent to the lock because of a
/// hash collision made each of its models cost about 300 instructions more (PERF: citm_catalog.json's
/// ten classes in `jsonmodel-bench --section documents`).
final class RecentMetadata: @unchecked Sendable {
    // @unchecked Sendable: the places are only touched through atomic operations, and the
    // pairs they point to are immutable.
    private final class Pair: Sendable {
        let type: ObjectIdentifier
        let metadata: ModelMetadata

        init(type: ObjectIdentifier, metadata: ModelMetadata) {
            self.type = type
            self.metadata = metadata
        }
    }

    /// How many classes the table holds; a power of two.
    static let count = 128
    private let places: UnsafeMutablePointer<AtomicWord>

    init() {
        places = .allocate(capacity: Self.count)
        for index in 0..<Self.count { (places + index).initialize(to: AtomicWord(0)) }
    }

    deinit {
        for index in 0..<Self.count {
            let bits = (places + index).load(ordering: .acquiring)
            if bits != 0 { Unmanaged<Pair>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
        }
        places.deallocate()
    }

    /// Where the search for `type` starts: middle bits of its address times an odd constant
    /// (Fibonacci hashing), which spread addresses that differ only in a few low bits.
    private func start(of type: ObjectIdentifier) -> Int {
        let product = UInt64(UInt(bitPattern: type)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: product >> 32) & (Self.count - 1)
    }

    /// The pair at `index`, or nil while the place is empty.
    @inline(__always)
    private func pair(at index: Int) -> Unmanaged<Pair>? {
        let bits = (places + index).load(ordering: .acquiring)
        return bits == 0 ? nil : Unmanaged<Pair>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
    }

    /// The metadata remembered for `type`, without a reference: the table holds it as long as
    /// it lives.
    @inline(__always)
    func unretainedMetadata(for type: ObjectIdentifier) -> Unmanaged<ModelMetadata>? {
        var index = start(of: type)
        for _ in 0..<Self.count {
            guard let pair = pair(at: index) else { return nil }
            if let found = pair._withUnsafeGuaranteedRef({ $0.type == type ? Unmanaged.passUnretained($0.metadata) : nil }) {
                return found
            }
            index = (index + 1) & (Self.count - 1)
        }
        return nil
    }

    /// Remembers `metadata` for `type` in the first free place from where its search starts,
    /// unless it is there already or every place is taken.
    func remember(_ metadata: ModelMetadata, for type: ObjectIdentifier) {
        var index = start(of: type)
        var made: Unmanaged<Pair>?
        defer { made?.release() }
        for _ in 0..<Self.count {
            if let pair = pair(at: index) {
                if pair._withUnsafeGuaranteedRef({ $0.type == type }) { return }
                index = (index + 1) & (Self.count - 1)
                continue
            }
            let candidate = made ?? Unmanaged.passRetained(Pair(type: type, metadata: metadata))
            made = candidate
            let bits = UInt(bitPattern: candidate.toOpaque())
            // Lost to another thread: look again at what it stored here.
            let stored = (places + index).compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing)
            guard stored.exchanged else { continue }
            made = nil
            return
        }
    }
}

/// Why a registry stored none of the names it was given.
enum StoreRefusal: Equatable {
    /// The first name found taken by another class or schema model.
    case nameTaken(String)
    /// What must be in place before the names could not be put there.
    case refused([String])
}
