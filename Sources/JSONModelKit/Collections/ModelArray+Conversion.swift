import JSONModelKitCore

// Lazy collections as property values.
//
// A property declared `[Item]` (or `[Item]?`, or `ModelArray<Item>`) is stored as a
// lazy `ModelArray<Item>`: reading the property indexes the JSON array, and each
// element is built when it is first read. Its declared type stays `[Item]`, so
// `let items: [Item] = order.items` still works (it builds every element and
// returns a Swift array of the cached instances); `let items: ModelArray<Item> =
// order.items` and `let items: ModelArray<JSONModel> = order.items` read lazily.
// Dictionaries of models work the same way with `ModelDictionary`, except that
// `ModelDictionary<JSONModel>` builds every value. An immutable model's first read of the
// property as `[Item]` builds every element then (`BuiltArrayFirstReadable`).

extension ModelArray: PropertyValue {
    static var propertyType: PropertyType { .array(Element.propertyType) }
    static var implicitDefault: ModelArray? { ModelArray() }

    /// Indexes a JSON array; a single object reads as one element for a relationship
    /// (`inverse:`). Non-object elements are left out with a diagnostic each.
    static func convert(_ input: JSONInput, context: inout ConversionContext) -> ModelArray? {
        let single = input.kind == .object && context.inverse != nil
        guard input.kind == .array || single else {
            context.typeMismatch(input, expected: "an array of \(Element.propertyType)")
            return nil
        }
        let base = ModelArrayBase<Element>(array: input, configuration: ElementConfiguration(context))
        context.diagnostics += base.diagnostics
        if context.validating {
            for index in 0..<base.count {
                let prefix = JSONPath(context.segments + base.suffix(of: index))
                context.nestedModels.append((base.element(at: index), prefix))
            }
        }
        return ModelArray(base: base)
    }

    func jsonValue(replacing existing: JSONInput?) -> JSONValue? { json(replacing: existing) }

    /// Accepts a `ModelArray` of this element type, or a Swift array of models of it.
    static func cast(_ value: Any) -> (any Sendable)? {
        if let same = value as? ModelArray<Element> { return same }
        if let models = value as? [Element] { return ModelArray(models) }
        if let models = value as? ModelArray<JSONModel> {
            // A view of an array of this element type keeps the elements it has not built.
            if let typed = models.base.origin as? ModelArrayBase<Element> {
                var same = ModelArray(base: typed)
                if let changed = models.changed {
                    var slots: [ModelArraySlot<Element>] = []
                    slots.reserveCapacity(changed.count)
                    for slot in changed {
                        switch slot {
                        case .base(let index): slots.append(.base(index))
                        case .model(let model):
                            guard let element = model as? Element else { return nil }
                            slots.append(.model(element))
                        }
                    }
                    same.changed = slots
                }
                return same
            }
            return cast(Array(models))
        }
        if let models = value as? [JSONModel] {
            var typed: [Element] = []
            for model in models {
                guard let element = model as? Element else { return nil }
                typed.append(element)
            }
            return ModelArray(typed)
        }
        return nil
    }
}

extension ModelArray: LazyModelCollection {
    func holds(_ model: JSONModel, at path: JSONPath) -> Bool {
        let prefix = base.configuration.path.segments
        if base.isSingleObject {
            // One object read as an array of one: its element's place is the collection's own,
            // below its embed path when it has one, and has no index.
            let embed = base.configuration.embedPath?.segments ?? []
            guard path.segments.count == prefix.count + embed.count, path.segments.starts(with: prefix),
                path.segments.dropFirst(prefix.count).elementsEqual(embed)
            else { return false }
            guard changed != nil else { return base.builtElement(at: 0) === model }
            return changedSlotsHold(model)
        }
        guard path.segments.count > prefix.count, path.segments.starts(with: prefix),
            case .index(let jsonIndex) = path.segments[prefix.count]
        else { return false }
        guard let changed else {
            // As read: the element whose place in the JSON is `jsonIndex`, found directly, or by a
            // binary search of the places when elements were left out.
            guard let places = base.jsonIndices else {
                return jsonIndex < base.count && base.builtElement(at: jsonIndex) === model
            }
            var low = 0
            var high = places.count
            while low < high {
                let middle = (low + high) / 2
                if places[middle] < jsonIndex { low = middle + 1 } else { high = middle }
            }
            return low < places.count && places[low] == jsonIndex && base.builtElement(at: low) === model
        }
        return changedSlotsHold(model)
    }

    /// Whether `model` is an element of the array as changed: one of the base's built, or given.
    private func changedSlotsHold(_ model: JSONModel) -> Bool {
        changed?.contains { slot in
            switch slot {
            case .base(let index): base.builtElement(at: index) === model
            case .model(let element): element === model
            }
        } ?? false
    }

    /// An array as created returns the Swift array its base built the first time, so that
    /// reading `[Item]` again (a typed member in a loop) costs no new array.
    ///
    /// Read as `ModelArray<JSONModel>` (how code that knows no model class reads a schema
    /// model's `[Line]`), it gives a lazy array over the same JSON: an element is built when
    /// first read, by this array's storage, so both give the same instance of the right class.
    func bridged<T>(to type: T.Type) -> T? {
        if Element.self != JSONModel.self, T.self == ModelArray<JSONModel>.self || T.self == ModelArray<JSONModel>?.self {
            var view = ModelArray<JSONModel>(base: ModelArrayBase(viewing: base))
            view.outputEmbedPath = outputEmbedPath
            if let changed {
                view.changed = changed.map { slot -> ModelArraySlot<JSONModel> in
                    switch slot {
                    case .base(let index): return .base(index)
                    case .model(let model): return .model(model)
                    }
                }
            }
            return view as? T
        }
        return elementsArray() as? T
    }

    /// The Swift array, as ``bridged(to:)`` gives it, reinterpreted as `T` (which is `[Element]`)
    /// rather than cast: a cast looks `[Element]` up at run time.
    func declaredCollection<T>(as type: T.Type) -> T? {
        unsafeBitCast(elementsArray(), to: T.self)
    }

    /// The elements as a Swift array: the one the storage keeps, unless this array was changed.
    fileprivate func elementsArray() -> [Element] {
        changed == nil ? base.swiftArray { swiftArray() } : swiftArray()
    }

    /// The elements in a Swift array, each built if it was not.
    ///
    /// By index, not `Array(self)`: in the unspecialized code a client runs, `Collection`'s
    /// generic copy looks up `Range<Int>` metadata for every element (PERF: citm_catalog.json
    /// in `jsonmodel-bench --section documents`, whose models read arrays of models as `[Item]`).
    ///
    /// Built as a `[JSONModel]`, in code compiled for it, and reinterpreted: every element is an
    /// `Element`, and arrays of classes share one layout (the standard library's own casts
    /// between them reinterpret the storage). Built as `[Element]`, each call to the array looks
    /// up `[Element]` at run time.
    private func swiftArray() -> [Element] {
        let count = endIndex
        var elements: [JSONModel] = []
        elements.reserveCapacity(count)
        var position = 0
        while position < count {
            elements.append(self[position])
            position += 1
        }
        return unsafeBitCast(elements, to: [Element].self)
    }
}

extension ModelArray: ScalarFirstReadable {
    /// An array of objects, indexed as the general path indexes it for a plain declaration (an
    /// immutable model's property under one key, with no option that links its elements): no
    /// element is left out, so there is no diagnostic to record and no conversion context to
    /// make. Anything else (an element that is not an object, a single object, not an array)
    /// takes the general path.
    ///
    /// PERF: models holding many small arrays of models; see jsonmodel-bench --section documents,
    /// citm_catalog.json.
    static func plainValue(of node: JSONNode) -> ModelArray? {
        guard let base = ModelArrayBase<Element>(plainArray: node) else { return nil }
        return ModelArray(base: base)
    }
}

extension ModelArray: BuiltArrayFirstReadable {
    static var builtStorageClass: AnyClass { ModelArrayBase<Element>.self }

    /// The storage of the plain array with every element built now
    /// (``ModelArrayBase/init(builtFrom:)``); nil when the general path must decide.
    static func builtStorage(of node: JSONNode, storageClass: AnyClass) -> AnyObject? {
        unsafeBitCast(storageClass, to: ModelArrayBase<Element>.Type.self).init(builtFrom: node)
    }

    init(builtStorage: AnyObject) {
        self.init(base: unsafeDowncast(builtStorage, to: ModelArrayBase<Element>.self))
    }

    static func declaredArray<T>(of entry: CacheEntry, as type: T.Type) -> T {
        unsafeBitCast(unsafeDowncast(entry, to: CacheBox<Self>.self).value.elementsArray(), to: T.self)
    }
}

extension JSONModel: LazyCollectionStorage {
    /// `ModelArray<Self>`, for the class this is called on.
    static var lazyArrayType: any PropertyValue.Type { ModelArray<Self>.self }
    /// `ModelDictionary<Self>`, for the class this is called on.
    static var lazyDictionaryType: any PropertyValue.Type { ModelDictionary<Self>.self }
}

extension ModelArray: PropertyStructureAdopting {
    func adopting(_ property: PropertyMetadata) -> any Sendable {
        var copy = self
        copy.outputEmbedPath = .some(property.options.embedPath)
        return copy
    }
}
