import JSONModelKitCore

/// A model object over a JSON object: declared properties, read lazily.
///
/// Subclass it and declare properties in the registration block; the
/// `JSONModelAccessors` build plugin generates a typed member for each:
///
/// ```swift
/// final class User: JSONModel, @unchecked Sendable {
///     override class func properties(_ p: PropertyRegistrar) {
///         p.firstName(String.self, jsonPath: "first_name")
///         p.age(Int.self, default: 18)
///         p.address(Address?.self)
///     }
/// }
///
/// let user = try User(json: #"{"first_name": "Ann", "age": 30}"#)
/// let name = user.firstName           // a String, converted now, then cached
/// let next = user.age + 1             // 31
/// let older = user.jsonModel.mutate { $0.age = 31 }
/// ```
///
/// A model keeps the JSON it was created from (a view into a parsed
/// ``JSONDocument`` or an owned ``JSONValue``) and converts nothing until a
/// property is read; each converted value is cached by the property's
/// ordinal. Models are immutable unless created mutable, and immutable
/// models may be read from any number of threads at once. Names known only
/// at run time read through ``subscript(property:)`` or, for a class that adopts it,
/// ``DynamicMembers``. Everything else a model offers, its JSON, copies, validation,
/// diagnostics, is under one member, ``JSONModelProtocol/jsonModel``, so that every other name is
/// free for a property.
open class JSONModel: @unchecked Sendable {
    // @unchecked Sendable: every stored property is an immutable `let` of a
    // Sendable type; the slots and a state's word change only atomically, and the state that
    // word points to only while its lock is held. Subclasses keep their properties in
    // the JSON, not in stored properties of their own.

    /// The metadata of this model's class (or schema), which the model holds a reference to
    /// only when it could go before the model (``holdsMetadata``).
    ///
    /// Unmanaged, so that the reads that run for every model use it without a retain and a
    /// release (`_withUnsafeGuaranteedRef`); everything else uses ``metadata``.
    let metadataReference: Unmanaged<ModelMetadata>
    /// The metadata of this model's class (or schema).
    var metadata: ModelMetadata { metadataReference.takeUnretainedValue() }
    /// The JSON object the model was created from; never changed.
    let original: JSONInput
    /// Whether the model accepts writes.
    let isMutable: Bool
    /// Whether the slots are in the arena of the document the model reads (``DocumentArena``),
    /// which frees them with itself, rather than on the heap.
    let slotsInArena: Bool
    /// Whether the model holds a reference to its metadata, released in `deinit`: a schema
    /// model's, which lives as long as its registry. A compiled class's metadata lives as long
    /// as the process, in the shared registry, and is read without one.
    let holdsMetadata: Bool
    /// Where the fast read looks: the slots of an immutable model, owned here and freed when the
    /// model is (``slots``), or in its document's arena (``slotsInArena``); for a mutable model,
    /// empty slots of its own followed by the word of its state (``stateWord(making:)``). All live
    /// as long as the model (the metadata outlives it, and the model holds its document).
    @usableFromInline
    let readSlots: CacheSlots.View
    /// A view of the metadata's ``RawNameTable``, here so a read finds it with one load; the
    /// metadata outlives the model, and so does the table.
    @usableFromInline
    let rawNames: RawNameTable.View

    /// Declares this class's properties; override it in each subclass.
    ///
    /// Declare one property per line through the registrar's member syntax.
    /// Properties of superclasses are inherited whether or not the override
    /// calls `super`.
    ///
    /// ```swift
    /// override class func properties(_ p: PropertyRegistrar) {
    ///     p.city(String.self)
    ///     p.zip(String?.self, jsonPath: "postal_code")
    /// }
    /// ```
    ///
    /// - Parameter p: The registrar collecting the declarations.
    open class func properties(_ p: PropertyRegistrar) {}

    /// Whether every non-optional property without a declared default is required; false
    /// unless overridden.
    ///
    /// A required property that is missing or `null` in the JSON reads its default and records
    /// a ``ModelDiagnostic/Kind/missingRequired`` diagnostic, so ``JSONModelView/validate(strict:)`` and
    /// a creation with ``ModelOptions/validating-property`` throw. The switch covers the class's inherited properties too, and
    /// subclasses inherit it unless they override it. A single property is made required with
    /// `required: true` in the registration block.
    ///
    /// ```swift
    /// final class Account: JSONModel, @unchecked Sendable {
    ///     override class var requiresNonOptionals: Bool { true }
    ///     override class func properties(_ p: PropertyRegistrar) {
    ///         p.id(Int.self)                  // required
    ///         p.nickname(String?.self)        // optional: may be missing
    ///         p.plan(String.self, default: "free")   // has a default: may be missing
    ///     }
    /// }
    /// ```
    ///
    /// Read once, when the class's metadata is built.
    open class var requiresNonOptionals: Bool { false }

    /// Whether models of this class compare (and hash) by the JSON of their declared properties
    /// only; false unless overridden.
    ///
    /// By default two models are equal when they have the same class and equal current JSON,
    /// keys that no property reads included: a server that adds a field makes yesterday's copy
    /// unequal. Overridden to true, keys no property reads are ignored (the comparison uses
    /// `json(options: .onlyDeclared)`, nested models likewise), as for a model that stands for
    /// its declared fields alone.
    ///
    /// ```swift
    /// final class Tag: JSONModel {
    ///     override class var comparesDeclaredPropertiesOnly: Bool { true }
    ///     override class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
    /// }
    /// try Tag(json: #"{"name": "a", "seen": 1}"#) == Tag(json: #"{"name": "a"}"#)   // true
    /// ```
    ///
    /// Subclasses inherit it unless they override it. Read once, when the class's metadata is
    /// built; a schema model says `"compareDeclaredPropertiesOnly": true`.
    open class var comparesDeclaredPropertiesOnly: Bool { false }

    /// Whether this class's `Double` and `Float` properties read the strings `"NaN"`,
    /// `"Infinity"` and `"-Infinity"` as those values and write them back as those strings; the
    /// registry's ``ModelRegistry/allowsNonFiniteNumbers`` (false unless set) unless overridden.
    ///
    /// ```swift
    /// final class Reading: JSONModel {
    ///     override class var allowsNonFiniteNumbers: Bool { true }
    ///     override class func properties(_ p: PropertyRegistrar) { p.level(Double.self) }
    /// }
    /// try Reading(json: #"{"level": "NaN"}"#).level.isNaN     // true
    /// ```
    ///
    /// Only those three spellings count, in optionals, arrays and dictionaries too; without the
    /// option they read the default with a diagnostic, and writing NaN or an infinity throws
    /// (JSON has no number for them). Subclasses inherit it unless they override it. Read once,
    /// when the class's metadata is built.
    open class var allowsNonFiniteNumbers: Bool { ModelRegistry.shared.allowsNonFiniteNumbers }

    /// How the names of this class's properties turn into JSON keys, for properties declared
    /// without `jsonPath` or `anyOf`; the registry's ``ModelRegistry/defaultKeyStyle``
    /// (``KeyStyle/camelCase``, the name as it is, unless set) unless overridden.
    ///
    /// ```swift
    /// final class User: JSONModel, @unchecked Sendable {
    ///     override class var keyStyle: KeyStyle { .snakeCase }
    ///     override class func properties(_ p: PropertyRegistrar) {
    ///         p.avatarURL(URL?.self)                        // "avatar_url"
    ///         p.login(String.self, jsonPath: "user_login")  // a declared path stays
    ///     }
    /// }
    /// ```
    ///
    /// Subclasses inherit the style unless they override it. Each property follows the style of
    /// the class that declares it, so a subclass with another style leaves its superclass's keys
    /// as they are. Read once, when the class's metadata is built; see ``KeyStyle`` for how
    /// names split into words.
    open class var keyStyle: KeyStyle { ModelRegistry.shared.defaultKeyStyle }

    /// The class to create for `json`; override it for polymorphism (see `JSONModel+Polymorphism.swift`).
    ///
    /// ```swift
    /// override class func modelClass(for json: JSONView) -> JSONModel.Type {
    ///     json["type"]?.stringValue == "circle" ? Circle.self : self
    /// }
    /// ```
    ///
    /// Every creation asks: `make`, nested properties, arrays (lazily, per element),
    /// dictionaries and copies. The answer must be this class or a subclass; a subclass
    /// may refine further. Anything else is ignored (the model keeps this class).
    ///
    /// - Parameter json: The object the model is about to be created over.
    /// - Returns: The class to instantiate; `self` by default.
    open class func modelClass(for json: JSONView) -> JSONModel.Type { self }

    /// Checks this class's declarations (inherited ones included).
    ///
    /// A class with declaration problems stops the program when a model of it
    /// is created; call this in a test to see the problems as an error instead.
    ///
    /// ```swift
    /// @Test func declarations() throws { try User.validateDeclarations() }
    /// ```
    ///
    /// - Throws: ``ModelDeclarationError`` naming the class and property of each problem.
    public class func validateDeclarations() throws(ModelDeclarationError) {
        let problems = ModelRegistry.shared.metadata(for: self).problems
        if !problems.isEmpty { throw ModelDeclarationError(problems: problems) }
    }

    /// The metadata of this class: its properties, inherited ones included.
    class var modelMetadata: ModelMetadata {
        ModelRegistry.shared.metadata(for: self)
    }

    /// Creates a model from storage prepared by the engine.
    ///
    /// Use `init(json:options:)`; this one
    /// exists so the engine can create any subclass from its type.
    ///
    /// - Complexity: O(1).
    @_spi(Engine)
    public required init(_ storage: consuming ModelStorage) {
        // The metadata of a compiled class, unretained: it lives as long as the process. Retained
        // and released, it cost two atomic operations per model.
        // PERF: models of small objects; see jsonmodel-bench --section documents, citm_catalog.json.
        let metadataReference: Unmanaged<ModelMetadata>
        if let metadata = storage.metadata {
            metadataReference = Unmanaged.passRetained(metadata)
            holdsMetadata = true
        } else {
            metadataReference = ModelRegistry.shared.lastingMetadata(for: Self.self)
            holdsMetadata = false
        }
        self.metadataReference = metadataReference
        let (count, inlineBytes, rawNames) = metadataReference._withUnsafeGuaranteedRef { metadata in
            if !metadata.problems.isEmpty {
                preconditionFailure(ModelDeclarationError(problems: metadata.problems).description)
            }
            return (metadata.properties.count, metadata.inlineBytes, metadata.rawNames.view)
        }
        self.rawNames = rawNames
        self.isMutable = storage.mutable
        let mutable = storage.mutable
        let parent = storage.parent
        // Moved, not copied: a copy retained the document and the storage's end released it,
        // two atomic operations per model.
        self.original = storage.takeSource()
        if mutable {
            // Slots that stay empty, so the fast read always takes the general path, then the
            // state's word.
            self.readSlots = CacheSlots(count: count, stateWord: true).view
            slotsInArena = false
        } else if let (document, _) = original.unretainedNode,
            let slots = document._withUnsafeGuaranteedRef({ CacheSlots(count: count, inlineBytes: inlineBytes, in: $0.arena) })
        {
            // The model holds the document, so the arena outlives the slots (and the document is
            // used here without a reference count of its own).
            self.readSlots = slots.view
            slotsInArena = true
        } else {
            self.readSlots = CacheSlots(count: count, inlineBytes: inlineBytes).view
            slotsInArena = false
        }
        // Only mutable models have a parent to write through (the engine links no other).
        if mutable, let parent, let word = stateWord(making: false) {
            LazyLocked<ModelState>(word: word).make(ModelState(parentLink: parent))
        }
    }

    /// The cache of a mutable model, the mutation overlay, the diagnostics and the link to a
    /// mutable parent; made on first use, or with the model when it has a parent.
    var state: ModelStateAccess { ModelStateAccess(model: self) }

    /// The word of the model's state (``LazyLocked``), 0 until the state is made: after a
    /// mutable model's slots; for an immutable model, in ``ImmutableModelStates``, made there
    /// with `making`, else nil until it was.
    @inline(__always)
    func stateWord(making: Bool) -> UnsafeMutablePointer<AtomicWord>? {
        if isMutable { return readSlots.base + propertyCount }
        return ImmutableModelStates.word(of: self, making: making)
    }

    /// For a mutable model read from a mutable parent: where to write changes through.
    ///
    /// Kept in `state`, which such a model makes when it is created, and not in a field of its
    /// own: every model would be 8 bytes larger for what only mutable children use, and with the
    /// heap's size classes, 16.
    var parentLink: ParentLink? {
        state.withLockIfMade { $0.parentLink } ?? nil
    }

    /// An immutable model's cache, read without the lock; nil for mutable models, which keep
    /// their cache in `state`. Owned by the model, which frees the slots in its `deinit` unless
    /// they are in its document's arena.
    var slots: CacheSlots? {
        isMutable ? nil : CacheSlots(base: readSlots.base, count: propertyCount)
    }

    /// The number of properties, read without a reference count on the metadata.
    @inline(__always)
    var propertyCount: Int { metadataReference._withUnsafeGuaranteedRef { $0.properties.count } }

    deinit {
        // Last of all: the reference to the metadata, which everything below reads.
        defer { if holdsMetadata { metadataReference.release() } }
        let slots = self.slots
        // Last: the model's own slots, which hold its state's word, unless its document frees them.
        defer { if !slotsInArena { CacheSlots(base: readSlots.base, count: propertyCount).deallocate() } }
        // Then the state, once nothing below uses it.
        defer {
            if isMutable {
                LazyLocked<ModelState>(word: stateWord(making: false).unsafelyUnwrapped).release()
            } else {
                ImmutableModelStates.remove(self)
            }
        }
        let (hasModelProperties, inlineModels) = metadataReference._withUnsafeGuaranteedRef {
            ($0.hasModelProperties, $0.inlineModels)
        }
        // Without models among the cached values, releasing them cannot go deep.
        guard hasModelProperties else {
            slots?.releaseEntries()
            return
        }
        // The cached values may hold models that cache models in turn, as deep as the JSON
        // goes. Freeing them here takes a few frames per level: fine for the first
        // `IterativeRelease.inlineDepth` levels, and cheaper than anything else; below that,
        // they go to a loop run by the outermost release (IterativeRelease.swift).
        let thread = ThreadState.current
        if thread.releaseDepth >= IterativeRelease.inlineDepth {
            slots?.handEntries(to: &thread.releasing, models: inlineModels)
            state.withLockIfMade { state in
                for case let entry? in state.cache { thread.releasing.append(entry) }
                state.cache = []
            }
            return
        }
        thread.releaseDepth += 1
        slots?.releaseEntries(models: inlineModels)
        do {
            let cache = state.withLockIfMade { state in
                defer { state.cache = [] }
                return state.cache
            }
            withExtendedLifetime(cache) {}
        }
        thread.releaseDepth -= 1
        if thread.releaseDepth == 0 { IterativeRelease.drain(thread) }
    }

    /// Decodes a model from any `Decoder` as a JSON object; see `JSONModel+Codable.swift`.
    public required convenience init(from decoder: any Decoder) throws {
        // What `init(json:)` does with the default options, spelled out: a required initializer
        // must be declared here, and the creation API builds on this folder (Model/).
        let source = try JSONInput.decoded(from: decoder, as: .object, for: Self.self, expected: "an object for \(Self.self)")
        self.init(ModelStorage(source: source, mutable: false))
    }

    /// The JSON object as it is now: the overlay after writes, the original before; for a
    /// property group of a mutable parent, the parent's object (``refreshFromGroupParent()``).
    var currentSource: JSONInput {
        refreshFromGroupParent()
        return (state.withLockIfMade { $0.current } ?? nil).map(JSONInput.value) ?? original
    }
}

/// What the engine hands to ``JSONModel/init(_:)``.
@_spi(Engine)
public struct ModelStorage: Sendable {
    let metadata: ModelMetadata?
    let source: JSONInput
    let mutable: Bool
    let parent: ParentLink?

    init(metadata: ModelMetadata? = nil, source: consuming JSONInput, mutable: Bool, parent: ParentLink? = nil) {
        self.metadata = metadata
        self.source = source
        self.mutable = mutable
        self.parent = parent
    }

    /// The source, moved out of the storage.
    consuming func takeSource() -> JSONInput { source }
}

/// The changing part of a model, kept behind its lock.
struct ModelState: LazilyMade {
    static func makeValue() -> sending ModelState { ModelState() }

    /// Converted values by property ordinal; empty until the first read.
    var cache: [CacheEntry?] = []
    /// Diagnostics recorded by reads so far.
    var diagnostics: [ModelDiagnostic] = []
    /// The current JSON object once a write happened (the mutation overlay); nil before.
    var current: JSONValue?
    /// Counts writes, so a conversion started before a write is not cached after it.
    var generation = 0
    /// The models this one is a child of, by inverse name (weak; see `JSONModel+Relationships.swift`).
    var inverses: [String: WeakModel] = [:]
    /// The links of this mutable model's nested models, so writes can detach the ones they
    /// replace (ChildLinks.swift); nil until the first is linked.
    var children: ChildLinks?
    /// For a mutable model read from a mutable parent: where to write changes through. Set when
    /// the model is created, never changed.
    var parentLink: ParentLink?
}

/// A converted value in a model's cache.
///
/// Each value is boxed in a `CacheBox` of the property's own Swift type, so a
/// typed read is a compare of `valueType` and a load rather than an existential cast.
@usableFromInline
class CacheEntry: @unchecked Sendable {
    // @unchecked Sendable: immutable after init; subclasses hold only Sendable values.
    /// The Swift type of the value (`Value` of the `CacheBox`), for the inlined fast read: a
    /// compare against a type's static metadata needs no call, a class cast does.
    @usableFromInline
    let valueType: ObjectIdentifier
    /// Asked on each read when the property's converter validates cached values (false
    /// converts again); set once, before the entry is stored (PropertyConversion.swift).
    var validator: (@Sendable (Any) -> Bool)?

    init(valueType: ObjectIdentifier) {
        self.valueType = valueType
    }

    /// The value as an existential, for untyped reads.
    var anyValue: any Sendable {
        preconditionFailure("CacheEntry is abstract; entries are CacheBoxes")
    }

    /// A new entry of this class holding `value`, which must have its value type.
    class func boxing(_ value: any Sendable) -> CacheEntry {
        preconditionFailure("CacheEntry is abstract; entries are CacheBoxes")
    }

    /// A new entry of this class holding `model`, for a class whose value type is the model's
    /// class, a superclass of it, or an optional of one.
    class func boxing(model: JSONModel) -> CacheEntry {
        preconditionFailure("CacheEntry is abstract; entries are CacheBoxes")
    }

    /// A new entry of this class holding `value`, whose type must be the class's value type:
    /// for generic code that has the entry class at hand, where `CacheBox<V>` would be looked up.
    class func boxing<V>(exactly value: V) -> CacheEntry {
        preconditionFailure("CacheEntry is abstract; entries are CacheBoxes")
    }

    /// The value type's identity and layout, for a value kept in a model's slots instead.
    class var storedLayout: (type: ObjectIdentifier, size: Int, alignment: Int, isTrivial: Bool) {
        preconditionFailure("CacheEntry is abstract; entries are CacheBoxes")
    }

    /// A new entry of this class holding a copy of the value at `place`, which has its value type.
    class func loading(from place: UnsafeRawPointer) -> CacheEntry {
        preconditionFailure("CacheEntry is abstract; entries are CacheBoxes")
    }
}

/// A cached value of type `Value`.
///
/// The value is stored once, typed; `anyValue` boxes it on demand, so an entry stays small and a
/// cached read finds the value on the cache line of `valueType`.
@usableFromInline
final class CacheBox<Value>: CacheEntry, @unchecked Sendable {
    // @unchecked Sendable: created only with values of property types, which are all Sendable.
    @usableFromInline
    let value: Value

    init(_ value: Value) {
        self.value = value
        super.init(valueType: ObjectIdentifier(Value.self))
    }

    /// Made from the class's own metadata (`self`), so no run-time lookup of `CacheBox<Value>`.
    override class func boxing(_ value: any Sendable) -> CacheEntry {
        self.init(value as! Value)
    }

    /// Without the dynamic cast from an existential that ``boxing(_:)`` pays: a class reference
    /// and an optional of one have the reference's layout, and the caller vouches for the type.
    override class func boxing(model: JSONModel) -> CacheEntry {
        precondition(MemoryLayout<Value>.size == MemoryLayout<JSONModel>.size, "\(Value.self) holds no model")
        return self.init(unsafeBitCast(model, to: Value.self))
    }

    override class func boxing<V>(exactly value: V) -> CacheEntry {
        precondition(V.self == Value.self, "\(V.self) is not \(Value.self)")
        return self.init(unsafeBitCast(value, to: Value.self))
    }

    override class var storedLayout: (type: ObjectIdentifier, size: Int, alignment: Int, isTrivial: Bool) {
        (ObjectIdentifier(Value.self), MemoryLayout<Value>.size, MemoryLayout<Value>.alignment, _isPOD(Value.self))
    }

    override class func loading(from place: UnsafeRawPointer) -> CacheEntry {
        self.init(place.load(as: Value.self))
    }

    override var anyValue: any Sendable {
        // `Value` is always Sendable (see above) but is not constrained so, so that an inlined
        // read can name `CacheBox<T>` for any `T`. `any Sendable` and `Any` have one layout
        // (a marker protocol has no witness table), and the cast copies with ownership.
        unsafeBitCast(value as Any, to: (any Sendable).self)
    }
}

/// Where a nested model of a mutable model writes its changes: its parent and
/// its path there. Weak, so a parent's cache holding the child makes no cycle.
///
/// A link is detached once the parent's JSON at its path changes other than through it (the
/// property is assigned, removed, merged over, cleared, or written inside by another property
/// or nested model): the nested model then keeps its own JSON, and its writes stay its own
/// (ChildLinks.swift).
final class ParentLink: Sendable {
    weak let parent: JSONModel?
    /// The parent's own link, when it is nested too. Held strongly (links hold no models, so
    /// there is no cycle): when the parent is gone, which only a cache of the model above it
    /// held, the child's writes still reach the nearest model above that is alive
    /// (``JSONModel/liveAncestor()``), and that model's writes can still detach the parent's
    /// place, whose link it keeps weakly.
    let upstream: ParentLink?
    /// The child's path in the parent's object.
    let path: JSONPath
    /// The parent's property the child was read through.
    let ordinal: Int
    /// Set to 1 once, under the parent's lock, when the parent no longer holds the child's JSON.
    private let detached = OwnedAtomicWord(0)
    /// For a property group: the parent's write count (`ModelState.generation`) when the group
    /// last took the parent's object, or was made; a group reads the parent's object again
    /// only after the parent changed (``JSONModel/refreshFromGroupParent()``).
    let seenGeneration = OwnedAtomicWord(0)

    init(parent: JSONModel, path: JSONPath, ordinal: Int) {
        self.parent = parent
        self.upstream = parent.parentLink
        self.path = path
        self.ordinal = ordinal
    }

    /// Whether the child's writes no longer reach the parent.
    var isDetached: Bool { detached.pointer.load(ordering: .acquiring) != 0 }

    func detach() { detached.pointer.store(1, ordering: .releasing) }
}
