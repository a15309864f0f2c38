import JSONModelKitCore

// Reading properties: the member syntax, the dynamic API, the cache and diagnostics.

extension JSONModel {
    /// Reads (or, on a mutable model, writes) a declared property by name, with its Swift type.
    ///
    /// This is what the typed members generated from a registration block call, and what
    /// ``DynamicMembers`` forwards to; use it for a name that is not a Swift identifier:
    ///
    /// ```swift
    /// let name: String = user[property: "first-name"]
    /// mutableUser[property: "age"] = 31
    /// ```
    ///
    /// The first read converts the JSON and caches the value; a value that does
    /// not convert gives the property's default and records a diagnostic.
    /// Reading an undeclared name, or with a Swift type the property does not
    /// have, is a programmer error and stops the program with a message that
    /// names the class and property. Writing to an immutable model stops the
    /// program too; use ``JSONModelView/set(_:forProperty:)`` to get an error instead. A
    /// written value of another type is accepted when it converts exactly
    /// (`user.id = 6` for an `Int64` property).
    ///
    /// - Complexity: O(1) once cached: a few loads and compares, no lock.
    // Inlinable so a client's read knows `T` (the unspecialized generic spent most of its time
    // instantiating metadata), and the getter always inlined: left to the optimizer, a read in
    // a closure became a call with a retain and release of the model around it, three times
    // the cost of the cached read itself (measured in jsonmodel-bench, model (c)).
    @inlinable
    public subscript<T>(property name: String) -> T {
        @inline(__always) get {
            let ordinal = rawNames.ordinal(of: name)
            if let ordinal, let value: T = _cachedValue(at: ordinal) { return value }
            return _uncachedValue(forMember: name, ordinal: ordinal ?? -1)
        }
        set {
            _assign(newValue, forMember: name)
        }
    }

    /// Reads a declared property by name, with its Swift type, given where the property comes
    /// among the class's declarations: what the typed members generated from a registration
    /// block call.
    ///
    /// `ordinal` counts the declared properties from 0, superclasses' first, in declaration
    /// order. It is checked against the name on every read: a right one saves the lookup of the
    /// name's entry, about a tenth of a cached read; a wrong one, or a name of more than 15
    /// UTF-8 bytes (whose `String` the check cannot compare by its bits), sends the read down
    /// the general path, which finds the property by name. Otherwise this reads as
    /// ``subscript(property:)`` does.
    ///
    /// - Complexity: O(1) once cached: a compare of the name at `ordinal`, and the cached read.
    @inlinable
    public subscript<T>(property name: String, ordinal ordinal: Int) -> T {
        @inline(__always) get {
            let known = rawNames.has(name, at: ordinal)
            if known, let value: T = _cachedValue(at: ordinal) { return value }
            return _uncachedValue(forMember: name, ordinal: known ? ordinal : -1)
        }
    }

    /// The cached value of an immutable model's property `ordinal` (found by the bits of the
    /// name's `String`, which a literal of up to 15 bytes has), when the value is cached, needs no
    /// validation, and has exactly type `T`; nil sends the read down the general path.
    ///
    /// Inlined into the caller with `T` known, this is a few loads and compares and one call,
    /// the slot's atomic load (``CacheSlots/bits(at:in:)``, which hands back the slots' address
    /// for the inline value's load): no hashing of the name's bytes, no lock and no reference
    /// counting (measured in `jsonmodel-bench --section model`, row (c)).
    @inlinable @inline(__always)
    func _cachedValue<T>(at ordinal: Int) -> T? {
        let (bits, base) = readSlots.bitsAndBase(at: ordinal)
        // An inline value of type `T`, in one compare of all bits but the offset's: the
        // fast-read bit clear, the inline tag set, the type's bits equal. Whether the value
        // has anything to destroy depends on its type alone, so the whole tag is known here
        // and a shift drops the offset, where a mask took a 64-bit constant and a register.
        if bits &<< 16 == CacheSlots.inlineBits(of: T.self) &<< 16 {
            return CacheSlots.View(base: base).loadInline(bits, as: T.self)
        }
        guard bits & (CacheSlots.slowTag | CacheSlots.inlineTag) == 0 else { return nil }
        let pointer = UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped
        // The slot holds a reference until the model is freed, and `self` is alive here.
        return Unmanaged<CacheEntry>.fromOpaque(pointer)._withUnsafeGuaranteedRef { entry in
            guard entry.valueType == ObjectIdentifier(T.self) else { return nil }
            return unsafeDowncast(entry, to: CacheBox<T>.self).value
        }
    }

    /// A read that is not a fast cached one: the first read, a mutable model, a long name.
    ///
    /// Out of line, so the caller's loop around a read stays free of calls on the fast path.
    ///
    /// - Parameter known: The ordinal the name table found for `name`, or -1 (a long name).
    @inlinable @inline(never)
    func _uncachedValue<T>(forMember name: String, ordinal known: Int) -> T {
        let (entry, ordinal) = _cacheEntry(forMember: name, ordinal: known)
        guard let entry else {
            // Cached inline, in the slots.
            if let value = readSlots.inlineValue(readSlots.bits(at: ordinal), as: T.self) { return value }
            return _typedValue(self.entry(at: ordinal), forMember: name)
        }
        // A compare against `T`'s static metadata, where a class cast would look up the metadata
        // of `CacheBox<T>` at run time on every first read.
        if entry.valueType == ObjectIdentifier(T.self) { return unsafeDowncast(entry, to: CacheBox<T>.self).value }
        return _typedValue(entry, forMember: name)
    }

    /// The cache entry of a declared property and its ordinal, converting and caching on first
    /// use; a nil entry when the value is cached inline in the slots. Stops the program for an
    /// undeclared name.
    ///
    /// - Parameter known: The property's ordinal when the caller has it, or -1.
    @usableFromInline
    func _cacheEntry(forMember name: String, ordinal known: Int) -> (entry: CacheEntry?, ordinal: Int) {
        guard let ordinal = known >= 0 ? known : metadata.ordinal(of: name) else { unrecognizedProperty(name) }
        switch slots {
        case .some(let slots): return (frozenEntry(at: ordinal, in: slots, revalidate: true), ordinal)
        case .none: return (entry(at: ordinal), ordinal)
        }
    }

    /// A cached value read as a type other than the declared one (`Int?` for an `Int`),
    /// or a stop with a message for a type it does not have.
    @usableFromInline
    func _typedValue<T>(_ entry: CacheEntry, forMember name: String) -> T {
        let value = entry.anyValue
        if let typed = value as? T { return typed }
        // A lazy collection read as the Swift collection it stands for (`[Item]`).
        if let bridged: T = bridgedLazyCollection(value) { return bridged }
        let property = metadata.property(named: name)!
        if unwrappedValue(value) == nil && !(T.self is any OptionalPropertyValue.Type) {
            preconditionFailure(
                "\(metadata.modelName).\(name) is nil; read the \(property.type) property as an optional")
        }
        preconditionFailure("\(metadata.modelName).\(name) is declared \(property.type) but was read as \(T.self)")
    }

    /// Writes through the member syntax; stops the program on failure.
    @usableFromInline
    func _assign(_ newValue: Any, forMember name: String) {
        guard let ordinal = metadata.ordinal(of: name) else { unrecognizedProperty(name) }
        do {
            try assign(newValue, at: ordinal)
        } catch {
            preconditionFailure(error.description)
        }
    }

    /// A declared property read without a stated type; stops the program for an undeclared name.
    func modelValue(forProperty name: String) -> ModelValue {
        guard let ordinal = metadata.ordinal(of: name) else { unrecognizedProperty(name) }
        return ModelValue(model: metadata.modelName, property: name, value: unwrappedValue(value(at: ordinal)))
    }

    /// Converts every property, nested models included; throws the problems found (see
    /// ``JSONModelView/validate(strict:)``).
    func validateAll(strict: Bool = false) throws(ModelValidationError) {
        let diagnostics = validationDiagnostics(strict: strict)
        if !diagnostics.isEmpty {
            throw ModelValidationError(model: metadata.modelName, diagnostics: diagnostics)
        }
    }

    // MARK: Internals

    /// Stops the program for a name that is not a declared property.
    func unrecognizedProperty(_ name: String) -> Never {
        preconditionFailure(
            "\(metadata.modelName) has no declared property '\(name)' (unrecognized selector); "
                + "declared: \(metadata.properties.map(\.name).joined(separator: ", "))")
    }

    /// The value of a property: from the cache, or converted and cached.
    ///
    /// Conversion runs outside the lock (it may create nested models); if two
    /// threads convert at once, the first to store wins and both return it.
    func value(at ordinal: Int) -> any Sendable {
        entry(at: ordinal).anyValue
    }

    /// The cache entry of a property, converting and caching on first use.
    ///
    /// A cached value whose converter validates cached values (Runtime/PropertyConversion.swift) is
    /// checked first; when no longer valid it is converted again, once.
    @usableFromInline
    func entry(at ordinal: Int, revalidate: Bool = true) -> CacheEntry {
        switch slots {
        case .some(let slots):
            if let entry = frozenEntry(at: ordinal, in: slots, revalidate: revalidate) { return entry }
            // Cached inline: copied into an entry for this caller (inline values never leave).
            return slots.cachedEntry(at: ordinal, lock: state, type: metadata.properties[ordinal].valueType)!
        case .none: break
        }
        enum Lookup {
            case cached(CacheEntry)
            case missing(current: JSONValue?, generation: Int)
        }
        let lookup: Lookup = state.withLock { state in
            if ordinal < state.cache.count, let entry = state.cache[ordinal] { return .cached(entry) }
            return .missing(current: state.current, generation: state.generation)
        }
        switch lookup {
        case .cached(let entry):
            if revalidate, let validator = entry.validator, !validator(entry.anyValue) {
                state.withLock { state in
                    if ordinal < state.cache.count, state.cache[ordinal] === entry { state.cache[ordinal] = nil }
                }
                return self.entry(at: ordinal, revalidate: false)
            }
            return entry
        case .missing(let current, let generation):
            let property = metadata.properties[ordinal]
            var context = makeContext(for: property, validating: false)
            let value = convert(property, from: current.map(JSONInput.value) ?? original, context: &context)
            let entry = property.makeCacheEntry(value)
            let diagnostics = context.diagnostics
            return state.withLock { state in
                guard state.generation == generation else { return entry }
                if state.cache.isEmpty {
                    state.cache = Array(repeating: nil, count: metadata.properties.count)
                }
                if let stored = state.cache[ordinal] { return stored }
                state.cache[ordinal] = entry
                if !diagnostics.isEmpty { state.diagnostics += diagnostics }
                return entry
            }
        }
    }

    /// ``entry(at:revalidate:)`` for an immutable model, where a cached read takes no lock; nil
    /// when the value is cached inline in the slots.
    ///
    /// A rejected entry is taken out of its slot and freed once its readers let go (see
    /// `CacheSlots`), so a converter that rejects every cached value costs a conversion per read
    /// but no memory.
    @inline(__always)
    private func frozenEntry(at ordinal: Int, in slots: CacheSlots, revalidate: Bool) -> CacheEntry? {
        // The model holds its metadata and its JSON for as long as it lives, so the property and
        // the document are used here without reference counts: each count is an atomic operation,
        // and they took about a quarter of the time of reading every property of a model.
        unowned(unsafe) let property = metadata.properties[ordinal]
        var content = slots.content(at: ordinal, lock: state)
        switch content {
        case .inline: return nil
        case .entry(let entry):
            guard revalidate, let validator = entry.validator, !validator(entry.anyValue) else { return entry }
            slots.retire(entry, at: ordinal, lock: state)
            return frozenEntry(at: ordinal, in: slots, revalidate: false)
        case .busy:
            // Another thread is writing this value, or walking the object from this slot (the
            // leader's): wait, so that every reader gets the one value stored.
            slots.awaitUnclaimed(at: ordinal)
            return frozenEntry(at: ordinal, in: slots, revalidate: revalidate)
        case .empty, .unread: break
        }
        // No value yet. A property with a first read over an object node takes it when the JSON
        // holds a plain value.
        if property.scalarFirstRead != nil, let (document, object) = original.unretainedNode {
            if case .empty = content, metadata.memberKeys != nil {
                // The first such read: find every such property's member, unless another thread
                // did meanwhile.
                if let leaderPosition = locateMembers(in: slots, document: document, object: object) {
                    // This read holds the claim of the walk in the leader's slot: when it reads
                    // the leader, that claim serves for its value too (one compare-and-swap per
                    // model fewer); otherwise the walk ends here. (Passing the claim on to the
                    // fill below instead cost 1% more instructions reading every property.)
                    if ordinal == leaderPosition.leader, leaderPosition.position != 0,
                        property.conversion.isPublishedBuiltin, let layout = metadata.inlineLayouts[ordinal],
                        let inline = property.inlineFirstRead
                    {
                        let position = leaderPosition.position
                        let filled = slots.fill(at: ordinal, unfilled: CacheSlots.member(position), claimed: true, layout: layout) {
                            place in document._withUnsafeGuaranteedRef { inline.read($0, position, into: place) }
                        }
                        if filled { return nil }
                    } else {
                        slots.publishMember(leaderPosition.position, at: leaderPosition.leader)
                    }
                }
                content = slots.content(at: ordinal, lock: state)
                // Filled meanwhile by another thread: read as above. (One switch over both cases
                // of this function, with the walk before it, brought back a retain and a release
                // per read.)
                switch content {
                case .inline, .entry: return frozenEntry(at: ordinal, in: slots, revalidate: revalidate)
                case .empty, .unread, .busy: break
                }
            }
            // A property whose values are all missing or null never converts one, so its choice
            // may be unpublished: looked up here then.
            // Position 0: the key is missing, which an optional may read as nil here.
            if case .unread(let position) = content,
                property.conversion.isPublishedBuiltin || property.conversion.isBuiltinChoice()
            {
                if let layout = metadata.inlineLayouts[ordinal], let inline = property.inlineFirstRead {
                    // When another thread filled the slot first, or the value is not plain, the
                    // general path below decides (and finds the slot taken if it was).
                    let unfilled = CacheSlots.member(position)
                    let filled = slots.fill(at: ordinal, unfilled: unfilled, layout: layout) { place in
                        document._withUnsafeGuaranteedRef { inline.read($0, position, into: place) }
                    }
                    if filled { return nil }
                } else if let read = property.scalarFirstRead {
                    let entry = document._withUnsafeGuaranteedRef { read.read($0, position, entryType: property.entryType) }
                    if let entry { return slots.store(entry, at: ordinal).entry }
                }
            }
        }
        var context = makeContext(for: property, validating: false)
        let value = convert(property, from: original, context: &context)
        let (stored, isNew) = slots.store(property.makeCacheEntry(value), at: ordinal)
        if isNew && !context.diagnostics.isEmpty {
            let diagnostics = context.diagnostics
            state.withLock { $0.diagnostics += diagnostics }
        }
        // Another thread's first read stored a nested model inline meanwhile: every reader gets
        // that one instance, as with an entry, so wait for it rather than return this copy.
        if !isNew, property.inlineFirstRead?.isModel == true, slots.awaitInlineValue(at: ordinal) { return nil }
        return stored
    }

    /// Walks the model's object once to record in the slots where the member of each property
    /// read from one key is, when no thread has (``CacheSlots/claimWalk(leader:)``).
    ///
    /// - Returns: The leader's ordinal and its member's tape index (0: its key is missing) when
    ///   this thread walked: it must then publish the leader's slot. Nil when the walk was done.
    @inline(__always)
    private func locateMembers(in slots: CacheSlots, document: Unmanaged<JSONDocument>, object: Int)
        -> (leader: Int, position: Int)?
    {
        // The index too is held by the metadata: used unretained, like the property.
        let keys = Unmanaged.passUnretained(metadata.memberKeys.unsafelyUnwrapped)
        return keys._withUnsafeGuaranteedRef { keys in
            guard slots.claimWalk(leader: keys.leader) else { return nil }
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: metadata.properties.count) { positions in
                positions.initialize(repeating: 0)
                document._withUnsafeGuaranteedRef { document in
                    keys.locateMembers(of: JSONNode(document: document, index: object), into: positions)
                }
                slots.recordMembers(keys.ordinals, at: positions, leader: keys.leader)
                return (keys.leader, positions[keys.leader])
            }
        }
    }

    /// The context a conversion of `property` runs in: names for diagnostics, and how the nested
    /// models it makes relate to this one.
    ///
    /// The nested models of a `readOnly` property are immutable: a write to them would change
    /// this model's JSON at a path it refuses to write.
    ///
    /// - Parameter unlinked: Whether the nested models it makes are immutable and do not write
    ///   through to this model, whatever this model is (for descriptions).
    func makeContext(for property: PropertyMetadata, validating: Bool, unlinked: Bool = false) -> ConversionContext {
        let linked = isMutable && !unlinked && !property.options.readOnly
        var context = ConversionContext(
            modelName: metadata.modelName, property: property.name, segments: [], mutable: linked,
            owner: linked ? self : nil, ordinal: property.ordinal, validating: validating)
        context.schemaModel = property.schemaModel?.metadata
        context.inverse = property.options.inverse.map { InverseLink(name: $0, parent: self) }
        context.embedPath = property.options.embedPath
        context.allowsNonFiniteNumbers = metadata.allowsNonFiniteNumbers
        return context
    }

    /// Converts a property from `source`: the first present, non-null path wins;
    /// missing and null values give the default, unconvertible ones the `defaultIfInvalid`
    /// when declared, the default otherwise.
    ///
    /// A required property that is missing or null records a `missingRequired` diagnostic at its
    /// first path, unless a path cut short by a value of the wrong kind recorded one already.
    func convert(_ property: PropertyMetadata, from source: JSONInput, context: inout ConversionContext) -> any Sendable {
        var sawNull = false
        for path in property.paths {
            guard let found = source[path] else { continue }
            if found.isNull {
                sawNull = true
                continue
            }
            context.segments = path.segments
            if let value = property.convertValue(found, context: &context) { return value }
            if let invalid = property.invalidDefault {
                return defaultValue(of: property, stored: invalid.stored, json: invalid.json, context: &context)
            }
            return defaultValue(of: property, context: &context)
        }
        // Nothing found. A path cut short by a value of the wrong kind is worth a diagnostic;
        // one that meets a missing key or null is simply missing.
        var blocked = false
        for path in property.paths where path.segments.count > 1 {
            if let (prefix, kind) = source.blockingValue(on: path) {
                context.segments = prefix.segments
                context.record(.typeMismatch, "expected an object or array on the way to \(path), found \(kind)")
                blocked = true
                break
            }
        }
        if property.isRequired && !blocked {
            context.segments = property.paths[0].segments
            context.record(.missingRequired, sawNull ? "a required value is null" : "a required value is missing")
        } else if context.strict && !blocked && property.isRequiredWhenStrict(sawNull: sawNull) {
            context.segments = property.paths[0].segments
            context.recordStrict(
                .missingRequired, sawNull ? "a non-optional value is null" : "a non-optional value is missing")
        }
        return defaultValue(of: property, context: &context)
    }

    /// The default of a property; models in it are created for this model (linked when mutable).
    func defaultValue(of property: PropertyMetadata, context: inout ConversionContext) -> any Sendable {
        defaultValue(of: property, stored: property.storedDefault, json: property.defaultJSON, context: &context)
    }

    /// A default given as its stored value, or as JSON converted for this model (one holding models).
    func defaultValue(
        of property: PropertyMetadata, stored: (any Sendable)?, json: JSONValue?, context: inout ConversionContext
    ) -> any Sendable {
        if let stored { return stored }
        context.segments = property.paths[0].segments
        var defaultContext = context
        defaultContext.validating = false
        // Unreachable for metadata without problems: only defaults holding models come here, and
        // building the metadata refuses any whose models are not all objects
        // (`PropertyType.acceptsAsModelDefault`), the one way their conversion fails.
        guard let json, let value = property.valueType.convertAny(.value(json), context: &defaultContext)
        else {
            preconditionFailure("\(metadata.modelName).\(property.name) has no usable default")
        }
        return value
    }

    /// Converts every property afresh, filling empty cache slots, and returns
    /// every diagnostic, nested models' included with their full paths.
    ///
    /// Nested models wait on a list of steps rather than being validated inside their parent's
    /// conversion, so a model that contains itself is validated at any depth its JSON has
    /// without recursion (a nested model used to cost 1.8 KiB of stack in an optimized build,
    /// 3.4 KiB in a debug one). The order is that of a depth-first walk: a property's own
    /// diagnostics, then each model it holds, entirely, before the next property.
    func validationDiagnostics(strict: Bool = false) -> [ModelDiagnostic] {
        enum Step {
            /// A model to validate, at `place`.
            case model(JSONModel, ValidationPlace?)
            /// The properties of a model from `next` on, over the source it had when its visit began.
            case properties(JSONModel, source: JSONInput, generation: Int, next: Int, place: ValidationPlace?)
        }
        var all: [ModelDiagnostic] = []
        var steps: [Step] = [.model(self, nil)]
        while let step = steps.popLast() {
            switch step {
            case .model(let model, let place):
                let (current, generation) = model.state.withLockIfMade { ($0.current, $0.generation) } ?? (nil, 0)
                let source = current.map(JSONInput.value) ?? model.original
                steps.append(.properties(model, source: source, generation: generation, next: 0, place: place))
            case .properties(let model, let source, let generation, let next, let place):
                let properties = model.metadata.properties
                guard next < properties.count else { continue }
                steps.append(.properties(model, source: source, generation: generation, next: next + 1, place: place))
                let nested = model.validateProperty(
                    properties[next], from: source, generation: generation, strict: strict)
                if let place, !nested.diagnostics.isEmpty {
                    let prefix = place.path
                    all += nested.diagnostics.map { $0.prefixed(by: prefix) }
                } else {
                    all += nested.diagnostics
                }
                for (child, path) in nested.models.reversed() {
                    steps.append(.model(child, ValidationPlace(parent: place, path: path)))
                }
            }
        }
        return all
    }

    /// Converts one property for ``validationDiagnostics()``, fills its cache slot if empty, and
    /// returns its own diagnostics and the nested models it created, still to validate.
    private func validateProperty(_ property: PropertyMetadata, from source: JSONInput, generation: Int, strict: Bool)
        -> (diagnostics: [ModelDiagnostic], models: [(model: JSONModel, path: JSONPath)])
    {
        var context = makeContext(for: property, validating: true)
        context.strict = strict
        let value = convert(property, from: source, context: &context)
        // What the model keeps: its reads are lenient whatever the validation was.
        let own = context.lenientDiagnostics
        switch slots {
        case .some(let slots):
            // A thread that walks the object writes the slots it records without a
            // compare-and-swap, so they are stored to only after the walk.
            if metadata.memberKeys != nil, let (document, object) = original.unretainedNode,
                let (leader, position) = locateMembers(in: slots, document: document, object: object)
            {
                slots.publishMember(position, at: leader)
            }
            let entry = property.makeCacheEntry(value)
            if slots.isEmpty(at: property.ordinal), slots.store(entry, at: property.ordinal).stored, !own.isEmpty {
                state.withLock { $0.diagnostics += own }
            }
        case .none:
            state.withLock { state in
                guard state.generation == generation else { return }
                if state.cache.isEmpty {
                    state.cache = Array(repeating: nil, count: metadata.properties.count)
                }
                if state.cache[property.ordinal] == nil {
                    state.cache[property.ordinal] = property.makeCacheEntry(value)
                    state.diagnostics += own
                }
            }
        }
        return (context.diagnostics, context.nestedModels)
    }

    /// How many properties have a cached value; for tests of laziness.
    var cachedPropertyCount: Int {
        switch slots {
        case .some(let slots): slots.filledCount
        case .none: state.withLock { $0.cache.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }
        }
    }
}

/// Where a nested model met by ``JSONModel/validationDiagnostics()`` is: its parent's place and
/// its path in the parent's object. Shared by every model below it, so a place costs one path
/// however deep it is; the full path is put together only for a diagnostic.
final class ValidationPlace {
    let parent: ValidationPlace?
    let relativePath: JSONPath

    init(parent: ValidationPlace?, path: JSONPath) {
        self.parent = parent
        self.relativePath = path
    }

    /// The path from the model validated.
    var path: JSONPath {
        var parts: [JSONPath] = []
        var place: ValidationPlace? = self
        while let current = place {
            parts.append(current.relativePath)
            place = current.parent
        }
        var segments: [JSONPath.Segment] = []
        for part in parts.reversed() { segments += part.segments }
        return JSONPath(segments)
    }
}

/// A property value read without a stated type: printable, and chainable
/// into nested models.
///
/// ```swift
/// print(invoice.total)                       // 12.50
/// let city: String? = invoice.customer.city  // chains through the nested model
/// let total: Decimal = invoice.total         // typed reads need no ModelValue
/// ```
///
/// Dynamic members (``DynamicMembers``, ``JSONModelView/dynamic``) return it when no type is stated.
@dynamicMemberLookup
public struct ModelValue: Sendable, CustomDebugStringConvertible {
    // Internal, like everything but the dynamic members: a public name here would hide the
    // property of that name one link further down a chain (`invoice.customer.value`).

    /// The model class the value was read from.
    let model: String
    /// The property read (a dotted path when chained); empty for ``JSONModelView/dynamic``.
    let property: String
    /// The value, nil for nil.
    let value: (any Sendable)?

    /// The value as a nested model, or nil.
    var nestedModel: JSONModel? { value as? JSONModel }

    /// Reads (or writes) a property of the nested model this value holds.
    ///
    /// Reading through a nil model gives nil when `T` is optional.
    public subscript<T>(dynamicMember name: String) -> T {
        get {
            guard let nested = nestedModel else {
                if value == nil, let none = (Optional<Any>.none as Any) as? T { return none }
                notAModel(name)
            }
            return nested[property: name]
        }
        nonmutating set {
            guard let nested = nestedModel else { notAModel(name) }
            nested[property: name] = newValue
        }
    }

    /// Reads a property of the nested model this value holds, untyped.
    public subscript(dynamicMember name: String) -> ModelValue {
        guard let nested = nestedModel else {
            if value == nil { return ModelValue(model: model, property: path(to: name), value: nil) }
            notAModel(name)
        }
        return nested.modelValue(forProperty: name)
    }

    private func path(to name: String) -> String {
        property.isEmpty ? name : "\(property).\(name)"
    }

    private func notAModel(_ name: String) -> Never {
        if value == nil {
            preconditionFailure("\(model).\(property) is nil, so it has no property '\(name)'")
        }
        preconditionFailure(
            "\(model).\(property) is \(type(of: value!)), not a model; read it with a type "
                + "(let value: \(type(of: value!)) = ….\(property)) to use its '\(name)'")
    }

    /// Whether the value is nil: `user.nickname == nil`.
    public static func == (lhs: ModelValue, rhs: _OptionalNilComparisonType) -> Bool {
        lhs.value == nil
    }

    /// Whether the value is not nil: `user.nickname != nil`.
    public static func != (lhs: ModelValue, rhs: _OptionalNilComparisonType) -> Bool {
        lhs.value != nil
    }

    /// The value as `print` would show it unwrapped; `nil` for nil.
    public var debugDescription: String {
        guard let value else { return "nil" }
        return String(describing: value)
    }
}

extension JSONInput {
    /// The document and tape index of a node, without a reference to the document: for reads
    /// that hold the input for longer than they use these.
    @inline(__always)
    fileprivate var unretainedNode: (document: Unmanaged<JSONDocument>, index: Int)? {
        guard case .node(let node) = self else { return nil }
        return (Unmanaged.passUnretained(node.document), node.index)
    }
}

extension PropertyMetadata {
    /// Whether strict validation holds a missing (or, when `sawNull`, `null`) value of this
    /// property for a problem: a non-optional without a declared default, as `Codable` would
    /// refuse it. A property group reads the parent's own object, which is never missing; a
    /// `JSONValue` may hold `null`.
    func isRequiredWhenStrict(sawNull: Bool) -> Bool {
        if type.readsNilWhenMissing || declaredDefault != nil || options.group { return false }
        if sawNull, case .json = type { return false }
        return true
    }
}
