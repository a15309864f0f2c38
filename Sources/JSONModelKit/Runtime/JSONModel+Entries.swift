import JSONModelKitCore

// The engine under every read: a property's cache entry, found in the slots or the model's
// state, or converted from the JSON and cached; conversion contexts and defaults.

extension JSONModel {
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
        case .none: refreshFromGroupParent()
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
    ///
    /// - Parameter readAs: The type the caller reads, when it states one: a read as the Swift
    ///   array a lazy array stands for builds every element in its first read
    ///   (``BuiltArrayFirstReadable``).
    func frozenEntry(at ordinal: Int, in slots: CacheSlots, revalidate: Bool, readAs: ObjectIdentifier? = nil)
        -> CacheEntry?
    {
        // The metadata and the JSON outlive the model, so the metadata, the property and the
        // document are used here without reference counts: each count is an atomic operation,
        // and they took about a quarter of the time of reading every property of a model. (The
        // metadata through a closure: an `unowned(unsafe)` local of it was retained at each use.)
        metadataReference._withUnsafeGuaranteedRef { metadata in
            unowned(unsafe) let property = metadata.properties[ordinal]
            var content = slots.content(at: ordinal, lock: state)
            switch content {
            case .inline: return nil
            case .entry(let entry):
                guard revalidate, let validator = entry.validator, !validator(entry.anyValue) else { return entry }
                slots.retire(entry, at: ordinal, lock: state, leaving: slotAfterRetiring(ordinal, metadata: metadata))
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
            if property.hasFirstRead, let (document, object) = original.unretainedNode {
                if case .empty = content, metadata.memberKeys != nil {
                    // The first such read: find every such property's member, unless another thread
                    // did meanwhile.
                    if let leaderPosition = locateMembers(in: slots, document: document, object: object) {
                        // This read holds the claim of the walk in the leader's slot: when it reads
                        // the leader, that claim serves for its value too (one compare-and-swap per
                        // model fewer); otherwise the walk ends here. (Passing the claim on to the
                        // fill below instead cost 1% more instructions reading every property.)
                        // Whether the leader's own read applies: the engine's conversion for a reader of
                        // its own, a converter's first read otherwise. (The conversion is asked here, not
                        // handed to a helper: an argument is retained, and a conversion's count is kept in
                        // a side table, the slow kind.)
                        var converter: Unmanaged<FirstReader>?
                        var applies = false
                        if ordinal == leaderPosition.leader, leaderPosition.position != 0, let inline = property.inlineFirstRead {
                            if inline.reader != nil {
                                applies = property.conversion.isPublishedBuiltin
                            } else {
                                converter = property.conversion.publishedFirstReader
                                applies = converter != nil
                            }
                        }
                        if applies, let layout = metadata.inlineLayouts[ordinal], let inline = property.inlineFirstRead {
                            let position = leaderPosition.position
                            let unfilled = CacheSlots.member(position)
                            let filled = slots.fill(at: ordinal, unfilled: unfilled, claimed: true, layout: layout) { place in
                                document._withUnsafeGuaranteedRef { inline.read($0, position, into: place, converter: converter) }
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
                if case .unread(let position) = content, property.scalarFirstRead == nil,
                    let layout = metadata.inlineLayouts[ordinal], let inline = property.inlineFirstRead,
                    let converter = property.conversion.firstReaderChoice()
                {
                    // A converted value: its converter's first read, as below.
                    let unfilled = CacheSlots.member(position)
                    let filled = slots.fill(at: ordinal, unfilled: unfilled, layout: layout) { place in
                        document._withUnsafeGuaranteedRef { inline.read($0, position, into: place, converter: converter) }
                    }
                    if filled { return nil }
                } else if case .unread(let position) = content, property.scalarFirstRead != nil,
                    property.conversion.isPublishedBuiltin || property.conversion.isBuiltinChoice()
                {
                    if let layout = metadata.inlineLayouts[ordinal], let inline = property.inlineFirstRead {
                        // When another thread filled the slot first, or the value is not plain, the
                        // general path below decides (and finds the slot taken if it was).
                        let unfilled = CacheSlots.member(position)
                        let filled = slots.fill(at: ordinal, unfilled: unfilled, layout: layout) { place in
                            document._withUnsafeGuaranteedRef { inline.read($0, position, into: place, converter: nil) }
                        }
                        if filled { return nil }
                    } else if let read = property.scalarFirstRead {
                        // A lazy array with a first read: ``PropertyMetadata/builtArrayFirstRead``.
                        if let built = property.lazyArrayType, readAs == property.declaredCollectionType, position != 0,
                            let storageClass = property.lazyArrayStorageClass,
                            let entry = document._withUnsafeGuaranteedRef({
                                built.readBuilt($0, position, entryType: property.entryType, storageClass: storageClass)
                            })
                        {
                            return slots.store(entry, at: ordinal).entry
                        }
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
    }

    /// Walks the model's object once to record in the slots where the member of each property
    /// read from one key is, when no thread has (``CacheSlots/claimWalk(leader:)``).
    ///
    /// - Returns: The leader's ordinal and its member's tape index (0: its key is missing) when
    ///   this thread walked: it must then publish the leader's slot. Nil when the walk was done.
    @inline(__always)
    /// What slot `ordinal` holds once its rejected validated entry is retired: nothing, but in
    /// the slot of the walk's leader (``CacheSlots/claimWalk(leader:)``), which says the walk
    /// over the object is done and so must never be empty again, where its member is, as the
    /// walk found it. Emptied, the next read would walk again and record members over the values
    /// the other slots hold by then.
    func slotAfterRetiring(_ ordinal: Int, metadata: ModelMetadata) -> UInt {
        guard let keys = metadata.memberKeys, keys.leader == ordinal, let (document, object) = original.unretainedNode
        else { return CacheSlots.empty }
        let position = withUnsafeTemporaryAllocation(of: Int.self, capacity: metadata.properties.count) { positions in
            positions.initialize(repeating: 0)
            document._withUnsafeGuaranteedRef { document in
                keys.locateMembers(of: JSONNode(document: document, index: object), into: positions)
            }
            return positions[ordinal]
        }
        return CacheSlots.member(position)
    }

    func locateMembers(in slots: CacheSlots, document: Unmanaged<JSONDocument>, object: Int)
        -> (leader: Int, position: Int)?
    {
        // The index too is held by the metadata: used unretained, like the property.
        let (keys, count) = metadataReference._withUnsafeGuaranteedRef {
            (Unmanaged.passUnretained($0.memberKeys.unsafelyUnwrapped), $0.properties.count)
        }
        return keys._withUnsafeGuaranteedRef { keys in
            guard slots.claimWalk(leader: keys.leader) else { return nil }
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { positions in
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
                return defaultValue(
                    of: property, stored: invalid.stored, json: invalid.json, followsConverter: true, context: &context)
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
        // A natural default (no `default` declared) is the engine's own: never through a converter.
        defaultValue(
            of: property, stored: property.storedDefault, json: property.defaultJSON,
            followsConverter: property.declaredDefault != nil, context: &context)
    }

    /// A default given as its stored value, or as JSON converted for this model (one holding
    /// models, or a schema's default of a property that has a converter, which reads the JSON
    /// through the converter chosen now: `stored` is the engine's own reading).
    func defaultValue(
        of property: PropertyMetadata, stored: (any Sendable)?, json: JSONValue?, followsConverter: Bool,
        context: inout ConversionContext
    ) -> any Sendable {
        if followsConverter, property.defaultsFollowConverter, let json, !property.conversion.isBuiltinChoice() {
            // As when the metadata was built: through the converter without a diagnostic, else
            // the engine's own reading. The default's diagnostics are not the model's.
            var scratch = context
            scratch.validating = false
            scratch.diagnostics = []
            if let value = property.convertValue(.value(json), context: &scratch), scratch.diagnostics.isEmpty { return value }
        }
        if let stored { return stored }
        context.segments = property.paths[0].segments
        var defaultContext = context
        defaultContext.validating = false
        defaultContext.readingDefault = true
        // Unreachable for metadata without problems: only defaults holding models come here, and
        // building the metadata refuses any whose models are not all objects
        // (`PropertyType.acceptsAsModelDefault`), the one way their conversion fails.
        guard let json, let value = property.valueType.convertAny(.value(json), context: &defaultContext)
        else {
            preconditionFailure("\(metadata.modelName).\(property.name) has no usable default")
        }
        return value
    }

    /// How many properties have a cached value; for tests of laziness.
    var cachedPropertyCount: Int {
        switch slots {
        case .some(let slots): slots.filledCount
        case .none: state.withLock { $0.cache.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }
        }
    }
}

extension JSONInput {
    /// The document and tape index of a node, without a reference to the document: for reads
    /// that hold the input for longer than they use these.
    @inline(__always)
    var unretainedNode: (document: Unmanaged<JSONDocument>, index: Int)? {
        guard case .node(let node) = self else { return nil }
        return (Unmanaged.passUnretained(node.document), node.index)
    }
}
