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
