import JSONModelKitCore

// Descriptions for logs and debuggers: `debugDescription`, the full description, and a
// mirror for `dump` and debuggers.
//
// Describing reads nothing into the model. A property already in the cache shows
// its cached value; any other is converted on a side path: from the same JSON,
// with the same rules, but with a context of its own whose diagnostics are
// dropped and whose nested models are created unlinked and immutable, and the
// result is not stored. So a description shows exactly what a read would return,
// a later read still converts and records its diagnostics as if nothing had
// happened, and describing an immutable model from many threads at once only
// takes the model's lock to look at the cache.

extension JSONModel: CustomDebugStringConvertible {
    /// One line for logs: the model name and the properties whose values differ from their defaults.
    ///
    /// ```swift
    /// print(user)   // User(firstName: "Ann", age: 31, address: Address(city: "Rome"), tags: [2 items])
    /// ```
    ///
    /// `print`, string interpolation and debuggers all show this line: a model conforms to
    /// `CustomDebugStringConvertible` alone, which they fall back to, so that `description` stays
    /// free for a property (a repository, a product and many other objects have one).
    ///
    /// Properties show in declaration order; strings are cut after 80 characters
    /// with `…`, nested models show up to 3 levels deep, arrays and dictionaries
    /// show their size, and the line holds at most 500 characters: it stops at the
    /// last property that fits and counts the rest (`… 12 more)`), a nested model
    /// likewise inside the room it has. Describing never changes what later reads
    /// return nor records diagnostics. See ``DescriptionLimits``, and
    /// ``JSONModelView/fullDescription`` for every property.
    public var debugDescription: String {
        lineDescription(limits: .default)
    }

    func lineDescription(limits: DescriptionLimits) -> String {
        var writer = DescriptionWriter(limits: limits)
        var text = CappedText(limit: limits.maxLineLength)
        writer.writeLine(model: self, to: &text)
        return text.result
    }

    func writeFull(to output: inout some TextOutputStream, limits: DescriptionLimits) {
        var writer = DescriptionWriter(limits: limits)
        writer.writeFull(model: self, to: &output, indent: 0)
        writeSections(to: &output, limits: limits)
    }

    // MARK: Sections

    /// Writes the unknown keys, the changes and the diagnostics, each under a heading when it has lines.
    private func writeSections(to out: inout some TextOutputStream, limits: DescriptionLimits) {
        let unknown = unknownMembersAtAnyDepth(limits: limits.bounded)
        if !unknown.isEmpty {
            out.write("\nunknown keys:")
            for (path, value) in unknown {
                // A key is the input's: one with a line break or another control character is
                // shown escaped and quoted, so that it cannot make lines of its own in a log.
                let text = path.description
                let label = TextEscapes.breaksLines(text)
                    ? DescriptionText.quoted(text, limit: limits.maxFullStringLength)
                    : DescriptionText.cut(text, limit: limits.maxFullStringLength)
                out.write("\n  \(label): " + DescriptionText.cut(value.jsonValue.description, limit: limits.maxFullStringLength))
            }
        }
        let changes = describedChanges(limits: limits.bounded)
        if !changes.isEmpty {
            out.write("\nchanged since the original:")
            for change in changes {
                var writer = DescriptionWriter(limits: limits)
                var old = CappedText(limit: limits.maxLineLength)
                writer.writeLine(change.old, to: &old)
                var new = CappedText(limit: limits.maxLineLength)
                writer.writeLine(change.new, to: &new)
                out.write("\n  " + change.label + ": " + old.result + " → " + new.result)
            }
        }
        let diagnostics = allDiagnostics
        if !diagnostics.isEmpty {
            out.write("\ndiagnostics:")
            for diagnostic in diagnostics { out.write("\n  \(diagnostic)") }
        }
    }

    /// The members of the current JSON object, at any depth, that no declared path reads, in order.
    func unknownMembers() -> [(path: JSONPath, value: JSONInput)] {
        var result: [(path: JSONPath, value: JSONInput)] = []
        // A group's properties read this object too: their keys are known here.
        let declared = metadata.outputProperties().flatMap { $0.paths.map(\.segments) }
        JSONModel.collectUnknownMembers(of: currentSource, declared: declared, prefix: [], into: &result)
        return result
    }

    private static func collectUnknownMembers(
        of object: JSONInput, declared: [[JSONPath.Segment]], prefix: [JSONPath.Segment],
        into result: inout [(path: JSONPath, value: JSONInput)]
    ) {
        object.forEachMember { key, value in
            let segment = JSONPath.Segment.key(key)
            let reaching = declared.filter { $0.first == segment }
            if reaching.isEmpty {
                result.append((JSONPath(prefix + [segment]), value))
                return
            }
            // A path ending here reads the whole value; longer ones read parts of an object.
            if reaching.contains(where: { $0.count == 1 }) || value.kind != .object { return }
            collectUnknownMembers(
                of: value, declared: reaching.map { Array($0.dropFirst()) }, prefix: prefix + [segment], into: &result)
        }
    }

    /// The unknown members of this model's object, then those of the nested models it shows,
    /// each with its path from this model's object: a nested model's after its property's
    /// place, in declaration order, elements of collections up to `limits.maxItems`, models up
    /// to `limits.maxDepth` deep.
    func unknownMembersAtAnyDepth(limits: DescriptionLimits) -> [(path: JSONPath, value: JSONInput)] {
        var result = unknownMembers()
        guard metadata.hasModelProperties else { return result }
        var visited: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        // The models visited, kept alive: a model made on the side path and freed could leave
        // its address to a later one, which the set would then take for seen.
        var kept: [JSONModel] = []
        var pending = describedChildren(limits: limits).reversed().map { (model: $0.model, path: $0.path, depth: 1) }
        while let (model, path, depth) = pending.popLast() {
            guard visited.insert(ObjectIdentifier(model)).inserted else { continue }
            kept.append(model)
            result += model.unknownMembers().map { (path.appending(contentsOf: $0.path), $0.value) }
            guard depth < limits.maxDepth, model.metadata.hasModelProperties else { continue }
            pending += model.describedChildren(limits: limits).reversed().map {
                (model: $0.model, path: path.appending(contentsOf: $0.path), depth: depth + 1)
            }
        }
        return result
    }

    /// The nested models the full description shows, with their paths in this model's object:
    /// the values of model properties with something in the JSON, and the first
    /// `limits.maxItems` elements of collections of models. Values not cached are made on the
    /// side path, as describing makes them.
    private func describedChildren(limits: DescriptionLimits, depth: Int = 0) -> [(model: JSONModel, path: JSONPath)] {
        var found: [(model: JSONModel, path: JSONPath)] = []
        let source = currentSource
        for property in metadata.properties where property.type.containsModel {
            // A group is this object read as another model: its nested models are this one's.
            if property.options.group {
                if depth < DescriptionLimits.deepestNesting,
                    case .model(let group) = DescribedShape(valueForDescription(at: property.ordinal))
                {
                    found += group.describedChildren(limits: limits, depth: depth + 1)
                }
                continue
            }
            guard let path = property.paths.first(where: { source[$0].map { !$0.isNull } ?? false }) else { continue }
            JSONModel.collectModels(
                in: valueForDescription(at: property.ordinal), at: path.segments,
                selecting: .described(limit: limits.maxItems), into: &found)
        }
        return found
    }

    /// What changed since the model was created, property by property: a nested model (or an
    /// element of a collection of models that kept its size) whose JSON changed is opened and
    /// its own properties compared, so a change reads `reblog.favouritesCount: 11 → 12`, not
    /// the whole nested model twice. Labels are property names, `[2]` for an element.
    func describedChanges(limits: DescriptionLimits) -> [(label: String, old: any Sendable, new: any Sendable)] {
        // A model that never made its state has changed nothing: describing makes none.
        guard let current = state.withLockIfMade({ $0.current }) ?? nil else { return [] }
        var result: [(label: String, old: any Sendable, new: any Sendable)] = []
        JSONModel.appendChanges(
            of: self, from: original, to: .value(current), prefix: "", depth: 0, limits: limits, into: &result)
        return result
    }

    /// The changes between `old` and `new`, two objects read as `model`'s class.
    private static func appendChanges(
        of model: JSONModel, from old: JSONInput, to new: JSONInput, prefix: String, depth: Int,
        limits: DescriptionLimits, into result: inout [(label: String, old: any Sendable, new: any Sendable)]
    ) {
        func firstPresent(_ source: JSONInput, _ property: PropertyMetadata) -> JSONValue? {
            for path in property.paths {
                if let found = source[path], !found.isNull { return found.jsonValue }
            }
            return nil
        }
        for property in model.metadata.properties {
            if property.options.group {
                // A group reads the whole object: compared through its own properties, or any
                // change to the parent would show as a change of the group.
                let after = model.valueForDescription(of: property, from: new)
                if depth < limits.maxDepth, case .model(let group) = DescribedShape(after) {
                    appendChanges(
                        of: group, from: old, to: new, prefix: prefix + property.name + ".", depth: depth + 1,
                        limits: limits, into: &result)
                } else if let groupProperties = property.groupMetadata?.outputProperties(),
                    groupProperties.contains(where: { firstPresent(old, $0) != firstPresent(new, $0) })
                {
                    // Not opened at the depth limit: the whole group, when its keys changed.
                    result.append((prefix + property.name, model.valueForDescription(of: property, from: old), after))
                }
                continue
            }
            guard firstPresent(old, property) != firstPresent(new, property) else { continue }
            let before = model.valueForDescription(of: property, from: old)
            let after = model.valueForDescription(of: property, from: new)
            let label = prefix + property.name
            let count = result.count
            if depth < limits.maxDepth {
                appendNestedChanges(from: before, to: after, label: label, depth: depth, limits: limits, into: &result)
            }
            // Not opened, or opened with nothing to show (only unknown keys changed): the whole value.
            if result.count == count { result.append((label, before, after)) }
        }
    }

    /// Opens two values of a property when both are models of one class, or collections of
    /// models of one size, and adds the changes inside them.
    private static func appendNestedChanges(
        from old: Any, to new: Any, label: String, depth: Int, limits: DescriptionLimits,
        into result: inout [(label: String, old: any Sendable, new: any Sendable)]
    ) {
        switch (DescribedShape(old), DescribedShape(new)) {
        case (.model(let before), .model(let after)) where before.metadata === after.metadata:
            appendChanges(
                of: after, from: before.currentSource, to: after.currentSource, prefix: label + ".", depth: depth + 1,
                limits: limits, into: &result)
        case (.lazy(let before), .lazy(let after)) where before.lazyElementCount == after.lazyElementCount:
            let pairs = zip(before.lazyElements(limits.maxItems), after.lazyElements(limits.maxItems))
            for (index, (elementBefore, elementAfter)) in pairs.enumerated() {
                guard case .model(let modelBefore) = DescribedShape(elementBefore),
                    case .model(let modelAfter) = DescribedShape(elementAfter),
                    modelBefore.metadata === modelAfter.metadata,
                    modelBefore.currentSource.jsonValue != modelAfter.currentSource.jsonValue
                else { continue }
                let count = result.count
                let elementLabel = label + "[\(index)]"
                appendChanges(
                    of: modelAfter, from: modelBefore.currentSource, to: modelAfter.currentSource,
                    prefix: elementLabel + ".", depth: depth + 1, limits: limits, into: &result)
                if result.count == count { result.append((elementLabel, modelBefore, modelAfter)) }
            }
        default:
            break
        }
    }

    // MARK: Values on the side path

    /// The value a read of the property returns, without caching it or recording diagnostics.
    func valueForDescription(at ordinal: Int) -> any Sendable {
        let (lockedCached, current) = state.withLockIfMade { state in
            (ordinal < state.cache.count ? state.cache[ordinal] : nil, state.current)
        } ?? (nil, nil)
        let cached: CacheEntry?
        switch slots {
        case .some(let slots):
            cached = slots.cachedEntry(at: ordinal, lock: state, type: metadata.properties[ordinal].valueType)
        case .none: cached = lockedCached
        }
        if let cached { return cached.anyValue }
        return valueForDescription(of: metadata.properties[ordinal], from: current.map(JSONInput.value) ?? original)
    }

    /// Converts a property from `source` the way a read does, in a context of its own that is then dropped.
    ///
    /// The context is the one a read uses, made immutable and unlinked for a mutable model,
    /// so side-path models never write through to this one.
    func valueForDescription(of property: PropertyMetadata, from source: JSONInput) -> any Sendable {
        var context = makeContext(for: property, validating: false, unlinked: true)
        return convert(property, from: source, context: &context)
    }

    /// The models this one refers back to through inverse relationships, sorted by name.
    func inverseReferencesForDescription() -> [(name: String, model: JSONModel)] {
        // A model that never made its state refers back to nothing: describing makes none.
        let references = state.withLockIfMade { state in
            state.inverses.compactMap { name, reference in reference.model.map { (name: name, model: $0) } }
        }
        return (references ?? []).sorted { $0.name < $1.name }
    }

    /// Whether a property's value differs from its default, compared as JSON
    /// (`1.0` equals `1`); a nested model differs from an empty default when
    /// one of its own properties differs from its default.
    ///
    /// `budget` bounds the nested models made for the answer across one description: two
    /// properties that read the same nested model would otherwise double the work at each level.
    /// Once it is spent, a nested model counts as differing (and is shown).
    func differsFromDefault(
        _ value: any Sendable, of property: PropertyMetadata, nesting: Int, budget: DefaultCheckBudget
    ) -> Bool {
        // A declared default read through a converter: compared as the JSON it is stored as.
        if property.defaultsFollowConverter, property.declaredDefault != nil, !property.conversion.isBuiltinChoice() {
            return (property.jsonValue(ofAny: value, replacing: nil) ?? nil) != property.defaultJSON
        }
        let shape = DescribedShape(value)
        // The common cases without building JSON. A property with no stored default holds
        // models; its default is `defaultJSON`.
        switch (shape, property.storedDefault.map(DescribedShape.init)) {
        case (.absent, .some(.absent)):
            return false
        case (.absent, .none):
            return property.defaultJSON != nil && property.defaultJSON != .null
        case (.absent, .some), (_, .some(.absent)):
            return true
        case (.leaf(let leaf), .some(.leaf(let stored))):
            if let equal = DescriptionText.plainValue(leaf, equals: stored) { return !equal }
        case (.array(let array), .some(.array(let stored))) where stored.describedCount == 0:
            return array.describedCount > 0
        case (.dictionary(let dictionary), .some(.dictionary(let stored))) where stored.describedCount == 0:
            return dictionary.describedCount > 0
        case (.model(let model), .none) where property.defaultJSON?.objectValue?.isEmpty == true:
            return model.hasNonDefaultProperty(nesting: nesting + 1, budget: budget)
        case (.array(let array), .none) where property.defaultJSON?.arrayValue?.isEmpty == true:
            return array.describedCount > 0
        case (.lazy(let lazy), _) where property.defaultJSON?.arrayValue?.isEmpty == true:
            return lazy.lazyElementCount > 0
        default:
            break
        }
        let defaultJSON: JSONValue? =
            property.storedDefault.map { property.valueType.jsonValue(ofAny: $0, replacing: nil) ?? nil }
            ?? property.defaultJSON
        let json = property.valueType.jsonValue(ofAny: value, replacing: nil) ?? nil
        return json != defaultJSON
    }

    /// Whether some property differs from its default; true past a nesting of 32 (a cycle guard).
    ///
    /// A model over an empty object reads only defaults, so it answers at once. Otherwise a
    /// property with nothing in the JSON holds its default and is passed over without making its
    /// value: a model's default may contain the model again (`Node.next: Node`), and making
    /// defaults of defaults would go on for as long as the guard lets it, for each property.
    private func hasNonDefaultProperty(nesting: Int, budget: DefaultCheckBudget) -> Bool {
        if nesting > 32 || budget.remaining <= 0 { return true }
        let source = currentSource
        if source.isEmptyObject { return false }
        // The answer for a model of this class over a node of a document, once per description.
        var key: DefaultCheckBudget.Key?
        if case .node(let node) = source {
            key = DefaultCheckBudget.Key(metadata: ObjectIdentifier(metadata), document: node.document, index: node.index)
            if let known = budget.answers[key!] { return known }
        }
        budget.remaining -= 1
        let answer = metadata.properties.contains { property in
            hasJSON(for: property, in: source)
                && differsFromDefault(valueForDescription(at: property.ordinal), of: property, nesting: nesting, budget: budget)
        }
        if let key { budget.answers[key] = answer }
        return answer
    }

    /// Whether the JSON has something for the property: a value other than `null` at one of its
    /// paths. Without, the property reads as its default.
    func hasJSON(for property: PropertyMetadata, in source: JSONInput) -> Bool {
        property.paths.contains { path in
            guard let found = source[path] else { return false }
            return !found.isNull
        }
    }
}

extension JSONModel: CustomReflectable {
    /// The declared properties as children, so `dump(model)` and debuggers show them.
    ///
    /// ```swift
    /// dump(user)
    /// // ▿ User(firstName: "Ann", age: 31) #0
    /// //   - firstName: "Ann"
    /// //   - age: 31
    /// //   - nickname: nil
    /// //   - address: Address() (default)
    /// ```
    ///
    /// Values are read the way descriptions read them: nothing is cached or recorded. A model
    /// property with nothing in the JSON holds a default model; it shows on one line, as
    /// `description` writes it, followed by `(default)`, and is not opened: a model's default
    /// may contain the model again (`p.child(Node.self)`), and `dump` would open defaults of
    /// defaults without end.
    public var customMirror: Mirror {
        let source = currentSource
        let children = metadata.properties.map { property -> Mirror.Child in
            let value: Any
            switch DescribedShape(valueForDescription(at: property.ordinal)) {
            case .absent: value = Optional<Any>.none as Any
            case .model(let model) where !hasJSON(for: property, in: source):
                value = DefaultModelSummary(text: DescriptionWriter.defaultLine(model, limits: .default) + " (default)")
            case .model(let model): value = model
            case .lazy(let lazy): value = lazy
            case .array(let array): value = array
            case .dictionary(let dictionary): value = dictionary
            case .leaf(let leaf): value = leaf
            }
            return (label: property.name, value: value)
        }
        return Mirror(self, children: children, displayStyle: .class, ancestorRepresentation: .suppressed)
    }
}

/// A model property's default as a mirror shows it: one line and no children, so `dump` stops there.
struct DefaultModelSummary: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let text: String

    var description: String { text }
    var debugDescription: String { text }
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// How many nested models one description may still look into to tell whether they hold only
/// defaults (``JSONModel/differsFromDefault(_:of:nesting:budget:)``), and the answers found for
/// models read from a document, which two properties reading one path share.
final class DefaultCheckBudget {
    /// A class's metadata and a node of a document, compared by identity. The key holds the
    /// document: a document made for a value on the side path and freed could otherwise leave
    /// its address to another, which would take this answer.
    struct Key: Hashable {
        let metadata: ObjectIdentifier
        let document: JSONDocument
        let index: Int

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.metadata == rhs.metadata && lhs.document === rhs.document && lhs.index == rhs.index
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(metadata)
            hasher.combine(ObjectIdentifier(document))
            hasher.combine(index)
        }
    }

    var remaining: Int
    var answers: [Key: Bool] = [:]

    init(models: Int = 10_000) {
        remaining = models
    }
}
