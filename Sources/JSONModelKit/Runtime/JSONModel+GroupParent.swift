import JSONModelKitCore

// A property group's view of its parent: what the engine's reads and the model's writes both
// take before they use a group's JSON.

extension JSONModel {
    /// For a property group of a mutable parent: takes the parent's current object before a
    /// write, so the group's write starts from what the parent holds now.
    ///
    /// What the parent holds now is its writes, or its original when it has none: writes it
    /// dropped since the group was read are gone from the group too. A parent that is a group
    /// itself first takes what its own parent holds. (Before, a parent without writes left the
    /// group its own copy, as old as the group, which the group's next write put back over the
    /// parent; and a group in a group wrote back its parent's stale copy.)
    func syncWithGroupParent() {
        guard let link = parentLink, link.path.segments.isEmpty else { return }
        let parentSource: JSONInput
        let generation: Int?
        if let parent = link.parent {
            parent.syncWithGroupParent()
            generation = parent.state.withLock { $0.generation }
            parentSource = parent.currentSource
        } else if let (ancestor, below, inner) = liveAncestor() {
            // The parent is gone (a group in a group, which only the parent's cache held): the
            // group reads the same object in the model above that is alive.
            ancestor.syncWithGroupParent()
            generation = nil
            guard let source = ancestor.currentSource[below.path.appending(contentsOf: inner)] else { return }
            parentSource = source
        } else {
            return
        }
        state.withLock { state in
            let touched = childrenTouched(by: [.root], in: state)
            switch parentSource {
            case .value(let value): state.current = value
            case .node where JSONInput.same(parentSource, original): state.current = nil
            case .node: state.current = parentSource.jsonValue
            }
            state.cache = []
            state.generation += 1
            detachChanged(touched, in: &state)
        }
        if let generation { link.seenGeneration.pointer.store(UInt(bitPattern: generation), ordering: .releasing) }
    }
}

extension JSONModel {
    /// For a property group of a mutable parent, before it is read: takes the parent's object
    /// when the parent changed since the group last took it (or was made), so that a group held
    /// from before reads what the parent holds now (the parent's writes, a merge, another
    /// group's writes), as its next write would. An object equal to the group's is taken without
    /// emptying the cache. A group made for a value being written keeps its own JSON until the
    /// write, which changes the parent.
    func refreshFromGroupParent() {
        guard isMutable, let link = parentLink, link.path.segments.isEmpty else { return }
        guard let parent = link.parent else {
            // The parent is gone: the group takes the object of the model above that is alive,
            // whose writes it cannot count, when it differs from its own (its cache stays then).
            guard !link.isDetached, let (ancestor, below, inner) = liveAncestor(),
                let source = ancestor.currentSource[below.path.appending(contentsOf: inner)]
            else { return }
            if !state.withLock({ JSONInput.same(source, $0.current.map(JSONInput.value) ?? original) }) {
                syncWithGroupParent()
            }
            return
        }
        guard link.ordinal < parent.metadata.properties.count, parent.metadata.properties[link.ordinal].options.group
        else { return }
        parent.refreshFromGroupParent()  // a parent that is a group takes its own parent's first
        let generation = parent.state.withLock { $0.generation }
        guard UInt(bitPattern: generation) != link.seenGeneration.pointer.load(ordering: .acquiring) else { return }
        let parentSource = parent.currentSource
        let changed = state.withLock { state -> Bool in
            guard JSONInput.same(parentSource, state.current.map(JSONInput.value) ?? original) else { return true }
            if case .value(let value) = parentSource { state.current = value }
            return false
        }
        if changed {
            syncWithGroupParent()
        } else {
            link.seenGeneration.pointer.store(UInt(bitPattern: generation), ordering: .releasing)
        }
    }
}
