import JSONModelKitCore

// Validation: every property converted afresh, nested models visited from a list rather than
// by recursion, and every diagnostic gathered with its path.

extension JSONModel {
    /// Converts every property, nested models included; throws the problems found (see
    /// ``JSONModelView/validate(strict:)``).
    func validateAll(strict: Bool = false) throws(ModelValidationError) {
        let diagnostics = validationDiagnostics(strict: strict)
        if !diagnostics.isEmpty {
            throw ModelValidationError(model: metadata.modelName, diagnostics: diagnostics)
        }
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
