import JSONModelKitCore

// Where the elements of a collection of models being written come from in the model written to:
// so that a write keeps linked only the nested models whose element stays where it was, however
// equal the JSON that lands in a place is to what was there.

/// A value whose elements are models: a lazy collection, a Swift array or dictionary of models.
protocol ElementPlacing {
    /// For each place of the written collection (an index or a key), the path in `owner` the
    /// element written there was read from, when it was read from `owner` and is still linked
    /// there; places whose element came from elsewhere have none.
    func placements(in owner: JSONModel) -> [JSONPath.Segment: JSONPath]
}

extension JSONModel {
    /// The path in `owner` this model was read from, while it is linked there.
    func linkedPath(in owner: JSONModel) -> JSONPath? {
        guard let link = parentLink, !link.isDetached, link.parent === owner else { return nil }
        return link.path
    }
}

extension ModelArray: ElementPlacing {
    func placements(in owner: JSONModel) -> [JSONPath.Segment: JSONPath] {
        let configuration = base.configuration
        let fromOwner = configuration.owner.model === owner
        var found: [JSONPath.Segment: JSONPath] = [:]
        for (position, slot) in slots.enumerated() {
            switch slot {
            case .base(let index):
                if let built = base.builtElement(at: index) {
                    if let place = built.linkedPath(in: owner) { found[.index(position)] = place }
                } else if fromOwner {
                    found[.index(position)] = JSONPath(configuration.path.segments + [.index(base.jsonIndex(of: index))])
                }
            case .model(let model):
                if let place = model.linkedPath(in: owner) { found[.index(position)] = place }
            }
        }
        return found
    }
}

extension ModelDictionary: ElementPlacing {
    /// Builds no value: a value never built is placed by its key in the JSON it was read from.
    func placements(in owner: JSONModel) -> [JSONPath.Segment: JSONPath] {
        let configuration = base.configuration
        let fromOwner = configuration.owner.model === owner
        var found: [JSONPath.Segment: JSONPath] = [:]
        for key in keys {
            let baseIndex: Int?
            if changedKeys == nil {
                baseIndex = base.index(of: key)
            } else {
                switch changedSlots[ExactKey(key)] {
                case .base(let index): baseIndex = index
                case .model(let model):
                    if let place = model.linkedPath(in: owner) { found[.key(key)] = place }
                    continue
                case nil: continue
                }
            }
            guard let index = baseIndex else { continue }
            if let built = base.builtElement(at: index) {
                if let place = built.linkedPath(in: owner) { found[.key(key)] = place }
            } else if fromOwner {
                found[.key(key)] = JSONPath(configuration.path.segments + [.key(key)])
            }
        }
        return found
    }
}

extension Array: ElementPlacing where Element: JSONModel {
    func placements(in owner: JSONModel) -> [JSONPath.Segment: JSONPath] {
        var found: [JSONPath.Segment: JSONPath] = [:]
        for (position, model) in enumerated() {
            if let place = model.linkedPath(in: owner) { found[.index(position)] = place }
        }
        return found
    }
}

extension Dictionary: ElementPlacing where Key == String, Value: JSONModel {
    func placements(in owner: JSONModel) -> [JSONPath.Segment: JSONPath] {
        var found: [JSONPath.Segment: JSONPath] = [:]
        for (key, model) in self {
            if let place = model.linkedPath(in: owner) { found[.key(key)] = place }
        }
        return found
    }
}

extension Optional: ElementPlacing where Wrapped: ElementPlacing {
    func placements(in owner: JSONModel) -> [JSONPath.Segment: JSONPath] {
        self?.placements(in: owner) ?? [:]
    }
}
