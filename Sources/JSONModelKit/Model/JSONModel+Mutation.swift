import JSONModelKitCore

// Writes, copies and the mutation overlay.
//
// The first write materializes the current JSON object as an owned
// `JSONValue` (the overlay); the original stays untouched and readable as
// `originalJSON`. Each write changes the overlay and empties the cache slots
// of the properties whose paths overlap the written one.
//
// A nested model read from a mutable model is mutable and linked (weakly)
// to its parent with its path there; after each of its own writes it writes
// its whole current object into the parent at that path, and the parent does
// the same upward. So `user.address.city = "Rome"` shows in `user.json()`,
// and the child the parent caches stays the one the caller holds.
//
// A nested model writes through only while the parent's JSON at its path is the
// JSON it was read from or last wrote. A write of the parent that changes that
// JSON another way (the property assigned or removed, a merge, clearMutations,
// a write through another property or nested model inside it) detaches it: it
// keeps its own JSON and stays mutable, and its later writes stay its own.
//
//     let old: Address = user.address
//     user.address = Address(city: "Oslo")
//     old.zip = "00100"          // old's own JSON; user.address is still Oslo's
//
// An element of a lazy collection is linked when it is first built, which may be after
// such a write: it is linked only if the parent still holds its JSON at its place, and
// made detached otherwise (`linkChild(at:ordinal:source:)`).
//
// See ChildLinks.swift. Property groups are never detached.

extension JSONModel {
    /// Sets a declared property from dynamic code, throwing instead of stopping the program.
    ///
    /// The value may have the property's Swift type, or be anything that converts
    /// to it the way JSON does (`"42"` or `42` for an `Int64`, a `JSONValue`, a
    /// dictionary for a model). nil removes the property's JSON.
    ///
    /// ```swift
    /// try user.jsonModel.set(31, forProperty: "age")
    /// ```
    ///
    /// - Parameters:
    ///   - value: The new value, or nil.
    ///   - name: The property name.
    /// - Throws: ``JSONModelError`` when the model is immutable, the property is
    ///   unknown or read-only, the value does not convert, or JSON cannot hold it
    ///   (``JSONModelError/unwritable(model:property:reason:)``: NaN, an infinity, a date
    ///   its format cannot write), or the property's path meets a value of another kind on the
    ///   way (`x.y` where `x` is a string; also `unwritable`, and nothing is written).
    func assign(_ value: Any?, forProperty name: String) throws(JSONModelError) {
        guard let ordinal = metadata.ordinal(of: name) else {
            throw .unknownProperty(model: metadata.modelName, property: name)
        }
        try assign(value, at: ordinal)
    }

    /// Writes a value of the property's type, or one that converts to it exactly.
    func assign(_ value: Any?, at ordinal: Int) throws(JSONModelError) {
        let name = metadata.properties[ordinal].name
        guard let value else {
            try apply(nil, to: metadata.properties[ordinal])
            return
        }
        let property = metadata.properties[ordinal]
        if let cast = property.valueType.cast(value) {
            try write(cast, at: ordinal)
            return
        }
        var json: JSONValue?
        if let model = value as? JSONModel {
            json = model.jsonModel.json()
        } else if let given = value as? JSONValue {
            json = given
        } else {
            json = try? JSONValue(any: value)
        }
        if let json, json.isNull {
            try apply(nil, to: property)
            return
        }
        func writingContext() -> ConversionContext {
            // A group made of the value is not this model's: linked, it would read this model's
            // object (`refreshFromGroupParent()`) before the write put the value there.
            var context = makeContext(for: property, validating: false, unlinked: property.options.group)
            context.embedPath = nil  // a written array holds the models' objects, not their wrappers
            return context
        }
        var context = writingContext()
        // Through the property's converter first (a date in its declared format), then as the type alone.
        var converted = json.flatMap { property.convertValue(.value($0), context: &context) }
        var throughConverter = true
        if converted == nil || !context.diagnostics.isEmpty, let json {
            context = writingContext()
            converted = property.valueType.convertAny(.value(json), context: &context)
            throughConverter = false
        }
        // Exactly: a number must be written as the number given, in the form it was read in.
        // Reading JSON into a `Double` rounds without a diagnostic, as JSON numbers are read,
        // which as a write would store 9007199254740993 as 9007199254740992.
        let written = converted.flatMap { converted in
            throughConverter
                ? property.jsonValue(ofAny: converted, replacing: nil) ?? nil
                : property.valueType.jsonValue(ofAny: converted, replacing: nil) ?? nil
        }
        guard let converted, context.diagnostics.isEmpty, !Self.roundsNumber(json, to: written) else {
            throw .typeMismatch(
                model: metadata.modelName, property: name, expected: property.type.description,
                found: String(describing: type(of: value)))
        }
        try write(converted, at: ordinal)
    }

    /// Whether `given`, a number, would be written as another number: `written`, the JSON of
    /// the value it converted to.
    private static func roundsNumber(_ given: JSONValue?, to written: JSONValue?) -> Bool {
        guard case .number(let number)? = given, case .number(let stored)? = written else { return false }
        return number != stored
    }

    /// Writes a value of the property's Swift type.
    func write(_ newValue: Any, at ordinal: Int) throws(JSONModelError) {
        let property = metadata.properties[ordinal]
        if let optional = newValue as? any OptionalPropertyValue, optional.wrappedValue == nil {
            try apply(nil, to: property)
            return
        }
        guard isMutable else { throw .immutable(model: metadata.modelName, property: property.name) }
        // A group first takes what its parent holds now: the value replaced, whose JSON type the
        // write keeps, is the parent's.
        syncWithGroupParent()
        let source = currentSource
        let existing = source[property.writePath(in: source)]
        // NaN, infinities and far dates are refused here, never written as null (Runtime/WritableValues.swift);
        // a model that allows non-finite numbers writes them as "NaN", "Infinity", "-Infinity".
        if let reason = property.conversion.unwritableReason(
            newValue, replacing: existing, allowingNonFinite: metadata.allowsNonFiniteNumbers)
        {
            throw .unwritable(model: metadata.modelName, property: property.name, reason: reason)
        }
        let adopted = property.adoptingStructure(newValue)  // embedded arrays wrap at this property's embedPath
        guard let encoded = property.jsonValue(ofAny: adopted, replacing: existing) else {
            throw .typeMismatch(
                model: metadata.modelName, property: property.name, expected: property.type.description,
                found: String(describing: type(of: newValue)))
        }
        // For a collection of models, where each element written comes from in this model: a
        // nested model stays linked only where its own element lands.
        let placements = property.type.holdsModelElements ? (adopted as? any ElementPlacing)?.placements(in: self) : nil
        try apply(encoded, to: property, synced: true, placements: placements)
    }

    /// Writes JSON (nil removes) where the property's value is read from (``PropertyMetadata/writePath(in:)``).
    ///
    /// Writing the default where there was no value writes nothing. A path that meets a value
    /// of the wrong kind (`x.y` where `x` is a string) is refused, changing nothing.
    ///
    /// - Parameter synced: Whether the caller has just taken a group's parent's object
    ///   (``syncWithGroupParent()``), which otherwise happens here.
    ///   - placements: For a collection of models, the path in this model each element written
    ///     was read from, by its place in the collection (``ElementPlacing``).
    func apply(
        _ encoded: JSONValue?, to property: PropertyMetadata, synced: Bool = false,
        placements: [JSONPath.Segment: JSONPath]? = nil
    ) throws(JSONModelError) {
        guard isMutable else { throw .immutable(model: metadata.modelName, property: property.name) }
        guard !property.options.readOnly else { throw .readOnly(model: metadata.modelName, property: property.name) }
        if !synced { syncWithGroupParent() }
        // A write the models above would not take is refused here, before this model changes:
        // taken, it would read back here and be missing from the parent's JSON and output.
        if let refusal = parentRefusal() {
            throw .unwritable(model: metadata.modelName, property: property.name, reason: refusal)
        }
        if property.options.group { return try replaceGroup(encoded, of: property) }
        let propagates = parentLink != nil
        var refused: JSONPathError?
        // Kept only for a model whose parent is gone (``propagate(_:changed:removed:before:)``):
        // held, the object would be copied by the write in place below, whole, on every write.
        let keepsBefore = parentLink.map { $0.parent == nil } ?? false
        var before: JSONInput?
        let changed = state.withLock { (state: inout ModelState) -> (object: JSONValue, paths: [JSONPath], removed: [JSONPath])? in
            if keepsBefore { before = state.current.map(JSONInput.value) ?? original }
            let path = property.writePath(in: state.current.map(JSONInput.value) ?? original)
            if let encoded, encoded == property.defaultJSON {
                let existed = state.current.map { $0[path] != nil } ?? (original[path] != nil)
                if !existed { return nil }
            }
            let written: [JSONPath]
            if let encoded {
                written = [path]
                let touched = childrenTouched(by: written, in: state)
                // The overlay is changed in place; only the first write copies the original. A
                // refused write leaves the model as it was, without an overlay if it had none.
                let hadOverlay = state.current != nil
                var current = state.current ?? original.jsonValue
                state.current = nil
                do throws(JSONPathError) {
                    try current.writeValue(encoded, at: path)
                } catch {
                    if hadOverlay { state.current = current }  // setValue refuses before changing anything
                    refused = error
                    return nil
                }
                state.current = current
                // A nested model at a place of the collection stays linked only when the element
                // written there is the one it was read from, not another of equal JSON.
                let moved: ((ParentLink) -> Bool)? = placements.map { placements in
                    { link in
                        let segments = link.path.segments
                        guard segments.count > path.segments.count, segments.starts(with: path.segments) else { return false }
                        let place = segments.prefix(path.segments.count + 1)
                        guard let origin = placements[segments[path.segments.count]] else { return true }
                        return !origin.segments.starts(with: place) || origin.segments.count < place.count
                    }
                }
                detachChanged(touched, in: &state, moved: moved)
                invalidate(&state, overlapping: path, except: nil)
            } else {
                // nil removes the value at every alternative path, so no older one shows through.
                // Where there is none, nothing is written: the model keeps no overlay for it.
                let source = state.current.map(JSONInput.value) ?? original
                written = property.paths.filter { source[$0] != nil }
                guard !written.isEmpty else { return nil }
                if state.current == nil { state.current = original.jsonValue }
                // Removing an array's element moves the ones after it up: what every path into
                // the array reads may change, so the properties and nested models read through
                // any of them are looked at, not only those at the element's own path.
                let changed = written.map(\.arrayOfElement)
                let touched = childrenTouched(by: changed, in: state)
                for (alternative, changed) in zip(written, changed) {
                    state.current![alternative] = nil
                    invalidate(&state, overlapping: changed, except: nil)
                }
                // The elements after a removed one moved up: a model read from one of them, or
                // from the removed one, is detached, whatever equal JSON is now in its place.
                detachChanged(touched, in: &state, moved: Self.movedByRemoving(written))
                // The models above are told the arrays too, so theirs look at every element's
                // model, and the elements removed, after which theirs moved.
                return propagates ? (state.current!, changed, written) : nil
            }
            return propagates ? (state.current!, written, []) : nil
        }
        if let refused {
            throw .unwritable(model: metadata.modelName, property: property.name, reason: refused.description)
        }
        if let changed { propagate(changed.object, changed: changed.paths, removed: changed.removed, before: before) }
    }

    /// For the removal of the values at `removed`: whether a link is at an element the removal
    /// took away or moved up (an array element at or after a removed one), whatever equal JSON
    /// is now in its place; nil when no removed value is an array's element.
    static func movedByRemoving(_ removed: [JSONPath]) -> ((ParentLink) -> Bool)? {
        let removals = removed.compactMap { path -> (array: ArraySlice<JSONPath.Segment>, index: Int)? in
            guard case .index(let index)? = path.segments.last else { return nil }
            return (path.segments.dropLast(), index)
        }
        guard !removals.isEmpty else { return nil }
        return { link in
            removals.contains { removal in
                let segments = link.path.segments
                guard segments.count > removal.array.count, segments.starts(with: removal.array),
                    case .index(let index) = segments[removal.array.count]
                else { return false }
                return index >= removal.index
            }
        }
    }

    /// Why a write of this model's would not reach the models it is nested in: a level of a
    /// parent's JSON on the way to this model's object is of another kind (a model read with
    /// its default where its path runs through a string); nil when every linked parent can
    /// take it.
    func parentRefusal() -> String? {
        var child: JSONModel = self
        while let link = child.parentLink, !link.isDetached {
            // A parent that is gone is looked through, to the model above that is alive.
            var path = link.path
            let parent: JSONModel
            if let alive = link.parent {
                parent = alive
            } else if let (ancestor, below, inner) = child.liveAncestor() {
                parent = ancestor
                path = below.path.appending(contentsOf: inner)
            } else {
                break
            }
            let source = parent.currentSource
            if let (prefix, kind) = source.blockingValue(on: path) {
                let place = prefix.segments.isEmpty ? "" : " at \(prefix)"
                return "\(parent.metadata.modelName) holds \(kind.nameWithArticle)\(place), where this model's object would go"
            }
            // The model's own place holding a value of another kind (it read its default there)
            // is not replaced either.
            if !path.isEmpty, let there = source[path], !there.isNull, there.kind != .object {
                return "\(parent.metadata.modelName) holds \(there.kind.nameWithArticle) at \(path), where this model's object would go"
            }
            child = parent
        }
        return nil
    }

    /// Called by a nested model after it changed at `changed` (paths in its own object): takes
    /// its object at `link.path`, unless the link was detached.
    ///
    /// - Parameter removed: The array elements the write removed, in the child's object.
    func childDidChange(
        _ link: ParentLink, from child: JSONModel?, object: JSONValue, changed: [JSONPath], removed: [JSONPath] = []
    ) {
        syncWithGroupParent()  // a group first takes what its parent holds now, as before its own writes
        let propagates = parentLink != nil
        let removedHere = removed.map { link.path.appending(contentsOf: $0) }
        // As in ``apply(_:to:synced:placements:)``: kept only for a model whose parent is gone.
        let keepsBefore = parentLink.map { $0.parent == nil } ?? false
        var before: JSONInput?
        let result: (object: JSONValue, paths: [JSONPath])? = state.withLock { state in
            guard !link.isDetached else { return nil }
            if keepsBefore { before = state.current.map(JSONInput.value) ?? original }
            let written = changed.map { link.path.appending(contentsOf: $0) }
            if state.current == nil { state.current = original.jsonValue }
            let touched = childrenTouched(by: written, in: state, except: link)
            // An element of a collection read from the property's declared default, which this
            // model does not hold: the default is written first, so the other elements stay.
            if let (place, defaultJSON) = declaredDefault(above: link), link.path.segments.count > place.segments.count,
                state.current![place].map({ $0 == .null }) ?? true
            {
                state.current![place] = defaultJSON
            }
            // In place: a copy of the overlay held here would make each element's write copy the array.
            state.current![link.path] = object
            // The child's own property keeps its cache when the cache holds the child (or the
            // collection it is an element of); another model cached there since (a property
            // group read again after a write of this model) is read again.
            // A collection is kept only when it holds the child at the link's place: another model
            // it holds there (read since, and detached by this write) must not be handed out.
            let entry = link.ordinal < state.cache.count ? state.cache[link.ordinal] : nil
            let holdsChild: Bool
            if let child, let entry, let collection = metadata.properties[link.ordinal].lazyCollectionType,
                let holds = collection.holds(entry, child, at: link.path)
            {
                holdsChild = holds
            } else if let model = entry?.anyValue as? JSONModel {
                holdsChild = model === child
            } else if let child, let entry, metadata.properties[link.ordinal].type.holdsModelElements,
                let collection = entry.anyValue as? any LazyModelCollection
            {
                // An optional collection (`[Item]?`), which the property's metadata does not type.
                holdsChild = collection.holds(child, at: link.path)
            } else {
                holdsChild = child != nil || entry == nil
            }
            let kept = holdsChild ? link.ordinal : nil
            detachChanged(touched, in: &state, keeping: kept, moved: Self.movedByRemoving(removedHere))
            invalidate(&state, overlapping: link.path, except: kept)
            return propagates ? (state.current!, written) : nil
        }
        if let result { propagate(result.object, changed: result.paths, removed: removedHere, before: before) }
    }

    /// Passes this model's new object up to its parent, if it has one and is still linked to it.
    ///
    /// - Parameter changed: The paths the write changed in this model's object.
    ///   - before: This model's object before the write, which the model above still holds at
    ///     its place unless something else wrote there since.
    func propagate(_ object: JSONValue, changed: [JSONPath], removed: [JSONPath] = [], before: JSONInput?) {
        guard let link = parentLink, !link.isDetached else { return }
        if let parent = link.parent {
            parent.childDidChange(link, from: self, object: object, changed: changed, removed: removed)
            return
        }
        // The parent is gone: the nearest model above that is alive takes the parent's object
        // as it holds it, with this model's object in place. The parent, had it lived, would
        // have detached this model when the place changed other than through it: here, the
        // place is compared with what this model held before its write.
        guard let (ancestor, below, inner) = liveAncestor() else { return }
        let held = ancestor.currentSource[below.path]?.jsonValue ?? ancestor.defaultJSON(at: below)
        guard var enclosing = held, JSONInput.same(enclosing[inner].map(JSONInput.value), before) else {
            link.detach()
            return
        }
        guard (try? enclosing.writeValue(object, at: inner)) != nil else { return }
        ancestor.childDidChange(
            below, from: nil, object: enclosing, changed: changed.map { inner.appending(contentsOf: $0) },
            removed: removed.map { inner.appending(contentsOf: $0) })
    }

    /// Empties the cache slots of properties whose paths overlap `path`, and
    /// marks conversions in flight as stale.
    private func invalidate(_ state: inout ModelState, overlapping path: JSONPath, except kept: Int?) {
        state.generation += 1
        guard !state.cache.isEmpty else { return }
        for property in metadata.properties where property.ordinal != kept {
            if property.paths.contains(where: { $0.overlaps(path) }) {
                state.cache[property.ordinal] = nil
            }
        }
    }

    /// An immutable model of the same class with this model's current JSON.
    ///
    /// An immutable model returns itself.
    ///
    /// - Complexity: O(1): the copy shares the JSON.
    func immutableCopy() -> Self {
        if !isMutable { return self }
        return makeCopy(source: currentSource, mutable: false)
    }

    /// A mutable model of the same class with this model's current JSON.
    ///
    /// - Complexity: O(1): the copy shares the JSON until its first write.
    func writableCopy() -> Self {
        makeCopy(source: currentSource, mutable: true)
    }


    /// Drops every write, returning the model to its original JSON; a property group, its keys
    /// (``dropGroupMutations()``).
    func dropMutations() {
        // A group, also one whose parent is gone (it reads the object of the model above).
        if let link = parentLink, link.path.segments.isEmpty, link.parent != nil || link.upstream != nil {
            dropGroupMutations()
            return
        }
        var before: JSONInput?
        let hadChanges = state.withLock { state in
            before = state.current.map(JSONInput.value)
            let had = state.current != nil
            let touched = had ? childrenTouched(by: [.root], in: state) : []
            state.current = nil
            state.cache = []
            state.generation += 1
            detachChanged(touched, in: &state)
            return had
        }
        if hadChanges { propagate(original.jsonValue, changed: [.root], before: before) }
    }


}

extension JSONPath {
    /// The array whose element this path ends at (`items` for `items[1]`), or the path itself
    /// when it ends at a key: what removing its value may move.
    var arrayOfElement: JSONPath {
        guard case .index = segments.last, let parent else { return self }
        return parent
    }
}

extension PropertyMetadata {
    /// Where a write of this property goes in `source`: the alternative its value is read from
    /// (the first present, non-null one), else the first present one (holding null), else the
    /// first path. So a write never adds a second alternative beside the one that was there.
    ///
    /// - Complexity: O(1) for a property with one path; one lookup per alternative otherwise.
    func writePath(in source: JSONInput) -> JSONPath {
        guard paths.count > 1 else { return paths[0] }
        var firstNull: JSONPath?
        for path in paths {
            guard let found = source[path] else { continue }
            if !found.isNull { return path }
            if firstNull == nil { firstNull = path }
        }
        return firstNull ?? paths[0]
    }
}

extension JSONPath {
    /// Whether one path is a prefix of the other (writing one changes the other).
    func overlaps(_ other: JSONPath) -> Bool {
        let count = Swift.min(segments.count, other.segments.count)
        return segments.prefix(count) == other.segments.prefix(count)
    }
}

extension PropertyType {
    /// Whether this is an optional type.
    var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }
}

extension JSONModel: PropertyWriting {}
