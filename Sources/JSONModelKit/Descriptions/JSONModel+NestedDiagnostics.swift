import JSONModelKitCore

// The diagnostics of the nested models a model holds, seen from the model.
//
// A nested model records the problems of its own reads in its own state, with paths from its
// own object. `diagnostics` of a model adds those of every nested model it has built so far
// (a model property read, an element of a lazy collection read), each path put after the path
// of the nested model in this one, so a log of the top model shows every problem below it.
// Only values already cached are looked at: gathering converts nothing and builds no model.

extension JSONModel {
    /// The diagnostics recorded by the reads so far: this model's, then those of the nested
    /// models it holds.
    ///
    /// This model's own come first, in the order its reads happened. Then come those of every
    /// nested model already built (a model property read, an element of a lazy collection
    /// read), depth first in declaration order, each with its path from this model's object:
    /// a quantity read badly in the first line of an order shows on the order as `lines[0].qty`,
    /// and on the line itself as `qty`. Gathering them converts nothing and builds no model;
    /// ``validate(strict:)`` converts everything and finds every problem, read or not.
    var allDiagnostics: [ModelDiagnostic] {
        let own = ownDiagnostics
        guard metadata.hasModelProperties else { return own }
        let nested = nestedDiagnostics()
        return nested.isEmpty ? own : own + nested
    }

    /// The diagnostics this model's own reads recorded, without its nested models'.
    var ownDiagnostics: [ModelDiagnostic] {
        state.withLockIfMade { $0.diagnostics } ?? []
    }

    /// The diagnostics of the nested models built so far, at any depth, each with its path from
    /// this model's object; depth first, in declaration order, elements in index order.
    ///
    /// Walks a list of models rather than recursing, so a model that contains itself as deep as
    /// its JSON goes costs no stack per level.
    func nestedDiagnostics() -> [ModelDiagnostic] {
        guard metadata.hasModelProperties else { return [] }
        var all: [ModelDiagnostic] = []
        var visited: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        var pending = Array(builtChildren().reversed())
        while let (model, path) = pending.popLast() {
            guard visited.insert(ObjectIdentifier(model)).inserted else { continue }
            let own = model.ownDiagnostics
            if !own.isEmpty { all += own.map { $0.prefixed(by: path) } }
            guard model.metadata.hasModelProperties else { continue }
            pending += model.builtChildren().reversed().map { ($0.model, path.appending(contentsOf: $0.path)) }
        }
        return all
    }

    /// The nested models held by cached values of this model's properties, with their paths in
    /// this model's object, in declaration order.
    func builtChildren() -> [(model: JSONModel, path: JSONPath)] {
        var found: [(model: JSONModel, path: JSONPath)] = []
        let source = currentSource
        for property in metadata.properties where property.type.containsModel {
            guard let value = cachedValueIfAny(at: property.ordinal) else { continue }
            // Where the value was read: the first path with something other than null.
            let path = property.paths.first { path in source[path].map { !$0.isNull } ?? false } ?? property.paths[0]
            JSONModel.collectModels(in: value, at: path.segments, selecting: .built, into: &found)
        }
        return found
    }

    /// The value cached for property `ordinal`, or nil when it has none yet.
    func cachedValueIfAny(at ordinal: Int) -> (any Sendable)? {
        switch slots {
        case .some(let slots):
            return slots.cachedEntry(at: ordinal, lock: state, type: metadata.properties[ordinal].valueType)?.anyValue
        case .none:
            let entry = state.withLockIfMade { state in ordinal < state.cache.count ? state.cache[ordinal] : nil }
            return entry??.anyValue
        }
    }

    /// The models in `value`, each with its path: the value itself, or the elements of a lazy
    /// collection `selection` picks, or those inside a Swift collection.
    static func collectModels(
        in value: Any, at segments: [JSONPath.Segment], selecting selection: ModelSelection,
        into found: inout [(model: JSONModel, path: JSONPath)]
    ) {
        switch DescribedShape(value) {
        case .absent, .leaf:
            return
        case .model(let model):
            found.append((model, JSONPath(segments)))
        case .lazy(let collection as any BuiltModelHolder), .dictionary(let collection as any BuiltModelHolder):
            for (suffix, model) in collection.models(selection) { found.append((model, JSONPath(segments + suffix))) }
        case .lazy:
            return
        case .dictionary(let dictionary):
            for (key, element) in dictionary.describedEntries(selection.limit(of: dictionary.describedCount)) {
                collectModels(in: element, at: segments + [.key(key)], selecting: selection, into: &found)
            }
        case .array(let array):
            for (index, element) in array.describedElements(selection.limit(of: array.describedCount)).enumerated() {
                collectModels(in: element, at: segments + [.index(index)], selecting: selection, into: &found)
            }
        }
    }
}

/// Which models of a lazy collection ``JSONModel/collectModels(in:at:selecting:into:)`` takes.
enum ModelSelection {
    /// Those built so far, none made: what a model's diagnostics gather.
    case built
    /// The first `limit`, made if need be, as descriptions show them.
    case described(limit: Int)

    /// How many of `count` elements of a Swift collection to look at.
    func limit(of count: Int) -> Int {
        switch self {
        case .built: count
        case .described(let limit): Swift.min(limit, count)
        }
    }
}

/// A lazy collection of models that lists the models it has built, without building others.
protocol BuiltModelHolder {
    /// The models built so far, each with its path below the collection, in order.
    func builtModels() -> [(suffix: [JSONPath.Segment], model: JSONModel)]
    /// The first `limit` models as descriptions show them (those not built made for the
    /// description only), each with its path below the collection.
    func describedModels(_ limit: Int) -> [(suffix: [JSONPath.Segment], model: JSONModel)]
}

extension BuiltModelHolder {
    /// The models `selection` picks, each with its path below the collection.
    func models(_ selection: ModelSelection) -> [(suffix: [JSONPath.Segment], model: JSONModel)] {
        switch selection {
        case .built: builtModels()
        case .described(let limit): describedModels(limit)
        }
    }
}

extension ModelArray: BuiltModelHolder {
    func builtModels() -> [(suffix: [JSONPath.Segment], model: JSONModel)] {
        var found: [(suffix: [JSONPath.Segment], model: JSONModel)] = []
        guard let changed else {
            for index in 0..<base.count {
                if let model = base.builtElement(at: index) { found.append((base.suffix(of: index), model)) }
            }
            return found
        }
        // After a change, an element is where the array now has it.
        let embed = base.configuration.embedPath?.segments ?? []
        for (index, slot) in changed.enumerated() {
            switch slot {
            case .base(let position):
                if let model = base.builtElement(at: position) { found.append(([.index(index)] + embed, model)) }
            case .model(let model):
                found.append(([.index(index)] + embed, model))
            }
        }
        return found
    }
}

extension ModelArray {
    func describedModels(_ limit: Int) -> [(suffix: [JSONPath.Segment], model: JSONModel)] {
        let embed = base.configuration.embedPath?.segments ?? []
        return (0..<Swift.min(limit, count)).map { index in
            let suffix = changed == nil ? base.suffix(of: index) : [.index(index)] + embed
            return (suffix, elementForDescription(at: index))
        }
    }
}

extension ModelDictionary {
    func describedModels(_ limit: Int) -> [(suffix: [JSONPath.Segment], model: JSONModel)] {
        describedEntries(limit).map { ([.key($0.key)], $0.value as! JSONModel) }
    }
}

extension ModelDictionary: BuiltModelHolder {
    func builtModels() -> [(suffix: [JSONPath.Segment], model: JSONModel)] {
        var found: [(suffix: [JSONPath.Segment], model: JSONModel)] = []
        guard changedKeys != nil else {
            for (index, key) in base.keys.enumerated() {
                if let model = base.builtElement(at: index) { found.append(([.key(key)], model)) }
            }
            return found
        }
        for key in keys {
            switch changedSlots[ExactKey(key)] {
            case .base(let index):
                if let model = base.builtElement(at: index) { found.append(([.key(key)], model)) }
            case .model(let model):
                found.append(([.key(key)], model))
            case nil:
                break
            }
        }
        return found
    }
}
