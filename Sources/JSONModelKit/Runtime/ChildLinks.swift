import JSONModelKitCore

// Detaching nested models their parent no longer holds.
//
// A nested model of a mutable parent writes its whole object into the parent at its path
// (JSONModel+Mutation.swift). That is right only while the parent's JSON there is the JSON the
// nested model was read from, or last wrote: after `user.address = other`, the old address
// writing through would put itself back over the new one. So each parent keeps the links of
// its nested models, by path, and every write of the parent's JSON (a property set or removed,
// a nested model's write, a merge, `clearMutations()`) detaches the nested models linked at the
// paths it touched whose JSON it changed. A detached model keeps its own JSON and stays mutable;
// its later writes stay its own. Property groups read the parent's own object and take it
// before each write, so they are never detached.

/// A nested model's link as its parent keeps it: weak, so the parent does not keep its
/// children alive.
struct WeakLink: Sendable {
    weak var link: ParentLink?
}

/// The links of a model's nested models, in a tree of their paths: the ones a write at a path
/// touches (at the path, above it or below it) are found in O(depth + found).
///
/// A class, so a model that never links a child pays one nil reference for it.
final class ChildLinks: @unchecked Sendable {
    // @unchecked Sendable: used only while the owning model's state lock is held.
    private struct Node: Sendable {
        var links: [WeakLink] = []
        var children: [JSONPath.Segment: Node] = [:]
    }

    private var root = Node()
    /// Entries stored, dead ones included until a prune.
    private var stored = 0
    /// When `stored` reaches this, dead entries are dropped (amortized O(1) per insert).
    private var pruneAt = 64

    /// Keeps `link` (weakly) under its path.
    func insert(_ link: ParentLink) {
        ChildLinks.insert(link, segments: link.path.segments[...], into: &root)
        stored += 1
        if stored >= pruneAt {
            stored = ChildLinks.prune(&root)
            pruneAt = max(64, stored * 2)
        }
    }

    private static func insert(_ link: ParentLink, segments: ArraySlice<JSONPath.Segment>, into node: inout Node) {
        guard let first = segments.first else {
            node.links.append(WeakLink(link: link))
            return
        }
        insert(link, segments: segments.dropFirst(), into: &node.children[first, default: Node()])
    }

    /// Drops dead and detached entries and empty branches; returns how many entries remain.
    private static func prune(_ node: inout Node) -> Int {
        node.links.removeAll { $0.link.map { $0.isDetached } ?? true }
        var count = node.links.count
        for key in Array(node.children.keys) {
            let remaining = prune(&node.children[key]!)
            if remaining == 0 && node.children[key]!.children.isEmpty { node.children[key] = nil }
            count += remaining
        }
        return count
    }

    /// The live, attached links a write at any of `paths` touches (at, above or below each
    /// path), without `source`, each once.
    func touched(by paths: [JSONPath], except source: ParentLink?) -> [ParentLink] {
        var found: [ParentLink] = []
        var seen = Set<ObjectIdentifier>()
        func take(_ links: [WeakLink]) {
            for weak in links {
                guard let link = weak.link, link !== source, !link.isDetached,
                    seen.insert(ObjectIdentifier(link)).inserted
                else { continue }
                found.append(link)
            }
        }
        func takeAll(_ node: Node) {
            var pending = [node]
            while let next = pending.popLast() {
                take(next.links)
                pending += next.children.values
            }
        }
        for path in paths {
            var node = root
            var reached = true
            for segment in path.segments {
                take(node.links)  // above the path
                guard let child = node.children[segment] else {
                    reached = false
                    break
                }
                node = child
            }
            if reached { takeAll(node) }  // at the path and below it
        }
        return found
    }
}

extension JSONModel {
    /// A link for a nested model read at `path` through the property `ordinal`, kept by this
    /// (mutable) model so a later write can detach it. Property groups (the empty path) are not kept.
    ///
    /// With `source`, the JSON the model is made from, the link is made detached when this model
    /// no longer holds that JSON at `path`: an element of a lazy collection read before a write
    /// here, first built after it, would otherwise write over whatever the write put in its
    /// place (another element, after an insertion), or put back a member the write removed.
    func linkChild(at path: JSONPath, ordinal: Int, source: JSONInput? = nil) -> ParentLink {
        let link = ParentLink(parent: self, path: path, ordinal: ordinal)
        if !path.isEmpty {
            state.withLock { state in
                if let source, !JSONInput.same(source, (state.current.map(JSONInput.value) ?? original)[path]) {
                    link.detach()
                    return
                }
                if state.children == nil { state.children = ChildLinks() }
                state.children!.insert(link)
            }
        } else {
            // A group made now holds what this model holds now: the JSON it was made from, or,
            // for a value being written, its own until the write.
            state.withLock { link.seenGeneration.pointer.store(UInt(bitPattern: $0.generation), ordering: .releasing) }
        }
        return link
    }

    /// Before a write at `paths`: the nested models it may change, with their JSON now.
    func childrenTouched(
        by paths: [JSONPath], in state: ModelState, except source: ParentLink? = nil
    ) -> [(link: ParentLink, before: JSONInput?)] {
        guard let links = state.children?.touched(by: paths, except: source), !links.isEmpty else { return [] }
        let current = state.current.map(JSONInput.value) ?? original
        return links.map { ($0, current[$0.path]) }
    }

    /// After the write: detaches each nested model whose JSON the write changed, and empties
    /// the cache of the property it was read through, which may hold it (the model, or an
    /// array of models): a read after the write makes a model of the JSON as it is now, never
    /// hands out the detached one, whose writes no longer reach this model. The cache of
    /// `kept` stays: it holds the nested model whose write this is.
    ///
    /// - Parameter moved: Whether the write moved the element a link is at, whatever JSON took its
    ///   place: equal JSON there is another element's (a removal's neighbour), not the child's.
    func detachChanged(
        _ touched: [(link: ParentLink, before: JSONInput?)], in state: inout ModelState, keeping kept: Int? = nil,
        moved: ((ParentLink) -> Bool)? = nil
    ) {
        guard !touched.isEmpty else { return }
        let current = state.current.map(JSONInput.value) ?? original
        for (link, before) in touched where moved?(link) == true || !JSONInput.same(before, current[link.path]) {
            link.detach()
            if link.ordinal != kept, link.ordinal < state.cache.count { state.cache[link.ordinal] = nil }
        }
    }
}

extension JSONModel {
    /// The default declared for the property `link` (a link to this model) was read through,
    /// and that property's path at or above the link's place: what a nested model read where
    /// this model holds nothing read.
    func declaredDefault(above link: ParentLink) -> (place: JSONPath, json: JSONValue)? {
        guard link.ordinal < metadata.properties.count, let json = metadata.properties[link.ordinal].defaultJSON,
            let place = metadata.properties[link.ordinal].paths.first(where: { link.path.segments.starts(with: $0.segments) })
        else { return nil }
        return (place, json)
    }

    /// What a nested model read through `link` read where this model holds nothing: the
    /// declared default (``declaredDefault(above:)``) at its place.
    func defaultJSON(at link: ParentLink) -> JSONValue? {
        guard let (place, json) = declaredDefault(above: link) else { return nil }
        return json[JSONPath(Array(link.path.segments.dropFirst(place.segments.count)))]
    }

    /// For a nested model whose parent is gone (only a cache of the model above it held it):
    /// the nearest model above that is alive, the link of the model below it (whose object the
    /// ancestor holds at that link's path), and this model's path in that object. Nil when a
    /// link on the way is detached, or no model above is alive.
    func liveAncestor() -> (ancestor: JSONModel, below: ParentLink, inner: JSONPath)? {
        guard let link = parentLink, !link.isDetached else { return nil }
        var inner = link.path
        var next = link.upstream
        while let up = next, !up.isDetached {
            if let ancestor = up.parent { return (ancestor, up, inner) }
            inner = up.path.appending(contentsOf: inner)
            next = up.upstream
        }
        return nil
    }
}

extension JSONInput {
    /// Whether two optional inputs hold the same JSON; O(1) when they share storage.
    static func same(_ lhs: JSONInput?, _ rhs: JSONInput?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (.node(let a)?, .node(let b)?) where a.document === b.document && a.index == b.index: return true
        case (.value(let a)?, .value(let b)?): return a.sharesStorage(with: b) || a == b
        case (let a?, let b?): return a.jsonValue == b.jsonValue
        }
    }
}

extension JSONValue {
    /// Whether both are the same array or object storage (then equal), checked in O(1).
    func sharesStorage(with other: JSONValue) -> Bool {
        switch (self, other) {
        case (.array(let a), .array(let b)):
            return a.buffer.storage === b.buffer.storage
        case (.object(let a), .object(let b)):
            return a.members.buffer.storage === b.members.buffer.storage
        default:
            return false
        }
    }
}
