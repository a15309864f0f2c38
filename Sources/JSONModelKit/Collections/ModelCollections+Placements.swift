import JSONModelKitCore

// Where the elements of a lazy collection being written come from in the model written to
// (Runtime/ElementPlacements.swift).

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
