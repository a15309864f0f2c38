import JSONModelKitCore

/// How the elements of a lazy collection are created: mutability, the model they write
/// through to, polymorphism and relationships. Taken from the conversion context of the
/// property that read the collection, or the defaults for a collection made at top level.
struct ElementConfiguration: Sendable {
    /// Whether elements accept writes.
    let mutable: Bool
    /// The mutable model elements write their changes through to (weak: it holds the collection).
    let owner: WeakModel
    /// The collection's path in the owner.
    let path: JSONPath
    /// The owner's property the collection was read through.
    let ordinal: Int
    /// The model and property names for diagnostics.
    let modelName: String
    let property: String
    /// The schema model of the elements, for schema models.
    let schemaModel: ModelMetadata?
    /// Its registry, kept alive for the elements made after the model that read the collection
    /// is gone (see ``ModelMetadata/registry``).
    let schemaRegistry: ModelRegistry?
    /// The parent each element refers back to, for relationships.
    let inverse: InverseLink?
    /// Where each JSON element holds the model's object, for embedded arrays.
    let embedPath: JSONPath?
    /// Whether the collection was made from a declared default, which the owner does not hold:
    /// its elements are linked without checking that the owner holds their JSON.
    var isDefault = false

    /// Whether elements are made with nothing from this configuration: immutable, of a compiled
    /// class, with no relationship or embed path. Its names and path then serve only the
    /// diagnostics of elements left out.
    var isPlain: Bool { !mutable && schemaModel == nil && inverse == nil && embedPath == nil }

    /// This configuration for models made for a description only: immutable, unlinked, not kept.
    var sidePath: ElementConfiguration {
        ElementConfiguration(
            mutable: false, owner: WeakModel(model: nil), path: path, ordinal: ordinal, modelName: modelName,
            property: property, schemaModel: schemaModel, inverse: inverse, embedPath: embedPath)
    }

    static func topLevel(mutable: Bool, modelName: String = "") -> ElementConfiguration {
        ElementConfiguration(
            mutable: mutable, owner: WeakModel(model: nil), path: JSONPath([]), ordinal: 0, modelName: modelName,
            property: "", schemaModel: nil, inverse: nil, embedPath: nil)
    }

    init(
        mutable: Bool, owner: WeakModel, path: JSONPath, ordinal: Int, modelName: String, property: String,
        schemaModel: ModelMetadata?, inverse: InverseLink?, embedPath: JSONPath?
    ) {
        self.mutable = mutable
        self.owner = owner
        self.path = path
        self.ordinal = ordinal
        self.modelName = modelName
        self.property = property
        self.schemaModel = schemaModel
        self.schemaRegistry = schemaModel?.registry
        self.inverse = inverse
        self.embedPath = embedPath
    }

    init(_ context: ConversionContext) {
        self.init(
            mutable: context.mutable, owner: WeakModel(model: context.owner), path: context.path,
            ordinal: context.ordinal, modelName: context.modelName, property: context.property,
            schemaModel: context.schemaModel, inverse: context.inverse, embedPath: context.embedPath)
        isDefault = context.readingDefault
    }

    /// A diagnostic for an element left out, at `suffix` below the collection.
    func leftOut(_ found: JSONInput, at suffix: [JSONPath.Segment], expected: String) -> ModelDiagnostic {
        ModelDiagnostic(
            kind: .typeMismatch, path: JSONPath(path.segments + suffix), property: property, model: modelName,
            message: "expected \(expected) object, found \(found.summary); left out")
    }

    /// Creates the element model over `input`, linked at `suffix` below the collection while the
    /// owner holds `input` there (or, for a default, always).
    func makeElement<Element: JSONModel>(_ type: Element.Type, _ input: consuming JSONInput, at suffix: [JSONPath.Segment]) -> Element {
        var link: ParentLink?
        if mutable, let owner = owner.model {
            link = owner.linkChild(at: JSONPath(path.segments + suffix), ordinal: ordinal, source: isDefault ? nil : copy input)
        }
        return Element.makeResolved(input, metadata: schemaModel, mutable: mutable, parent: link, inverse: inverse)
    }
}

/// A lazy array's storage with its elements typed as `JSONModel`: what a storage viewing it
/// (``ModelArrayBase/init(viewing:)``) builds its elements through.
protocol ModelArrayElements: AnyObject, Sendable {
    /// The element at `index`, built on first access.
    func model(at index: Int) -> JSONModel
    /// The element at `index` if it has been built.
    func builtModel(at index: Int) -> JSONModel?
    /// The element at `index` when it is built; otherwise one made as a read would make it,
    /// of the class a read gives, but for a description only: immutable, unlinked, not kept.
    func modelForDescription(at index: Int) -> JSONModel
}

/// The JSON a ``ModelArray`` was created over and the elements built from it so far.
///
/// Shared by the copies of an array; immutable apart from the elements built, each set once (`BuiltModels`).
final class ModelArrayBase<Element: JSONModel>: ModelArrayElements, Sendable {
    /// Where the element objects are.
    enum Source: Sendable {
        case empty
        /// Tape positions of the element objects in a parsed document.
        case nodes(JSONDocument, [UInt32])
        /// The same for a small array (up to ``BuiltModels/eagerLimit`` elements), its positions
        /// kept after the element places, in one allocation with them (``BuiltModels/extra``).
        case small(JSONDocument)
        /// The element objects as owned values.
        case values(JSONArray)
        /// Every element built when the array was read, for a first read that asked for the
        /// Swift array (``init(builtFrom:)``): the elements are the array, with no places or
        /// positions beside them.
        case built([JSONModel])
    }

    /// What only some arrays have: elements left out, a single object read as an array, an
    /// embed path, mutable or schema elements, relationships, a typed storage viewed.
    ///
    /// Apart, so that the common array (immutable elements of a compiled class, every JSON
    /// element an object) is a third of the size: a payload of many small arrays of models
    /// holds one storage per array.
    final class Details: Sendable {
        /// The JSON array itself (for embedded arrays, whose wrappers output keeps).
        let array: JSONInput?
        /// The JSON index of each element, when some JSON elements were left out; nil when they match.
        let jsonIndices: [Int]?
        /// Whether the JSON was a single object read as a one-element array (a to-many relationship).
        let isSingleObject: Bool
        let configuration: ElementConfiguration
        /// One diagnostic per JSON element left out.
        let diagnostics: [ModelDiagnostic]
        /// For a storage of `JSONModel` viewing a typed one (``init(viewing:)``), the typed storage:
        /// it builds each element, as the class (or schema model) its array was read as, and both
        /// storages hold the same instance.
        let origin: (any ModelArrayElements)?

        init(
            array: JSONInput?, jsonIndices: [Int]?, isSingleObject: Bool, configuration: ElementConfiguration,
            diagnostics: [ModelDiagnostic], origin: (any ModelArrayElements)?
        ) {
            self.array = array
            self.jsonIndices = jsonIndices
            self.isSingleObject = isSingleObject
            self.configuration = configuration
            self.diagnostics = diagnostics
            self.origin = origin
        }
    }

    let source: Source
    let count: Int
    /// Nil for the common array: see ``Details``.
    private let details: Details?
    /// The elements built so far, by index.
    ///
    /// Typed as `JSONModel`, not `Element`: this code runs unspecialized in clients, where every
    /// use of a generic container of `Element` looks up metadata at run time.
    ///
    /// PERF: reading every property of a lazy array's elements; see jsonmodel-bench --section bulk, row (b).
    private let built: BuiltModels
    /// Every element as a Swift `[Element]`, once a read asked for one (``ModelArray/bridged(to:)``);
    /// touched only under the striped lock of this object (``swiftArray(making:)``).
    nonisolated(unsafe) private var swiftArrayValue: [Element]?

    /// The configuration of the common array: immutable elements, no schema model, relationship
    /// or embed path. Its names and path serve only diagnostics of elements left out, which such
    /// an array has none of.
    private static var plainConfiguration: ElementConfiguration { .topLevel(mutable: false) }

    /// Whether this is the common array, whose storage keeps no ``Details``.
    var keepsNoDetails: Bool { details == nil }

    /// Whether every element was built when the array was read (``init(builtFrom:)``).
    var wasBuiltWhenRead: Bool {
        if case .built = source { return true }
        return false
    }

    var array: JSONInput? { details?.array }
    var jsonIndices: [Int]? { details?.jsonIndices }
    var isSingleObject: Bool { details?.isSingleObject ?? false }
    var configuration: ElementConfiguration { details?.configuration ?? Self.plainConfiguration }
    var diagnostics: [ModelDiagnostic] { details?.diagnostics ?? [] }
    var origin: (any ModelArrayElements)? { details?.origin }

    /// The Swift array kept for this storage, `make()` kept first when there is none. `make` runs
    /// without the lock (it builds models, which may run the user's code), and the first array
    /// kept is the one every caller gets.
    func swiftArray(making make: () -> [Element]) -> [Element] {
        // Built when read: the elements are the array, reinterpreted (see ModelArray.swiftArray()).
        if case .built(let elements) = source { return unsafeBitCast(elements, to: [Element].self) }
        return StripedLocks.keepOnce(for: self, read: { swiftArrayValue }, write: { swiftArrayValue = $0 }, make: make)
    }

    init(empty: ()) {
        source = .empty
        count = 0
        details = nil
        built = BuiltModels(count: 0)
    }

    /// A storage over the JSON of `origin`, whose elements are those `origin` builds; for reading a
    /// `ModelArray<Item>` as a `ModelArray<JSONModel>` without building its elements.
    ///
    /// - Complexity: O(1).
    init<Typed: JSONModel>(viewing typed: ModelArrayBase<Typed>) {
        precondition(Typed.self is Element.Type, "a ModelArray of \(Typed.self) viewed as one of \(Element.self)")
        switch typed.source {
        case .empty: source = .empty
        case .nodes(let document, let positions): source = .nodes(document, positions)
        case .small(let document): source = .nodes(document, (0..<typed.count).map(typed.smallPosition(at:)))
        case .values(let values): source = .values(values)
        case .built(let elements): source = .built(elements)
        }
        count = typed.count
        details = Details(
            array: typed.array, jsonIndices: typed.jsonIndices, isSingleObject: typed.isSingleObject,
            configuration: typed.configuration, diagnostics: typed.diagnostics, origin: typed)
        built = BuiltModels(count: count)
    }

    /// The common array over the array `node`, made as ``init(array:configuration:)`` makes it
    /// with a plain configuration (``ElementConfiguration/isPlain``); nil when an element is not
    /// an object, or `node` not an array.
    ///
    /// A small array keeps its elements' positions in one allocation with their places.
    init?(plainArray node: JSONNode) {
        let entry = node.entry
        guard entry.tag == .array else { return nil }
        let count = entry.containerCount
        if count > 0 && count <= BuiltModels.eagerLimit {
            built = BuiltModels(count: count, extraBytes: count * MemoryLayout<UInt32>.stride)
            let positions = built.extra.bindMemory(to: UInt32.self, capacity: count)
            let wrote = node.writeElementTapePositions(into: UnsafeMutableBufferPointer(start: positions, count: count))
            guard wrote.allObjects, wrote.count == count else { return nil }
            source = .small(node.document)
            self.count = count
        } else {
            var allObjects = false
            let positions = node.elementTapePositions(allObjects: &allObjects)
            guard allObjects else { return nil }
            built = BuiltModels(count: positions.count)
            source = .nodes(node.document, positions)
            self.count = positions.count
        }
        details = nil
    }

    /// The common array over the array `node`, every element built now, as `init(plainArray:)`
    /// would build each when read: for a first read of the property as the Swift array, which
    /// builds every element anyway. Nil when an element is not an object, or `node` not an array.
    init?(builtFrom node: JSONNode) {
        let entry = node.entry
        guard entry.tag == .array else { return nil }
        let document = node.document
        let end = entry.containerEnd
        var elements: [JSONModel] = []
        elements.reserveCapacity(entry.containerCount)
        var position = node.index + 1
        while position < end {
            guard document.entry(position).tag == .object else { return nil }
            elements.append(Element.makeResolved(.node(JSONNode(document: document, index: position)), metadata: nil, mutable: false))
            position = document.next(after: position)
        }
        source = .built(elements)
        count = elements.count
        details = nil
        built = BuiltModels(count: 0)
    }

    /// The tape position of element `index` of a small array (``Source/small(_:)``).
    private func smallPosition(at index: Int) -> UInt32 {
        built.extra.load(fromByteOffset: index * MemoryLayout<UInt32>.stride, as: UInt32.self)
    }

    /// Indexes the element objects of `array` (an array, or an object read as one element).
    ///
    /// - Complexity: O(*n*) in the element count: one tape read per element, no model built.
    init(array input: JSONInput, configuration: ElementConfiguration) {
        // Named only for diagnostics, so made only for them: `String(describing:)` of a type costs
        // more than indexing a small array (PERF: citm_catalog.json, `jsonmodel-bench --section documents`).
        func expected() -> String { "a " + (configuration.schemaModel?.modelName ?? String(describing: Element.self)) }
        var diagnostics: [ModelDiagnostic] = []
        var indices: [Int] = []
        var leftOut = false
        var isSingleObject = false
        let embed = configuration.embedPath
        let source: Source

        if input.kind == .object {
            isSingleObject = true
            if let embed, let inner = input[embed], inner.kind == .object {
                source = Self.single(inner)
                indices = [0]  // as without an embed path: the one element is the JSON's first
            } else if embed == nil {
                source = Self.single(input)
            } else {
                diagnostics.append(configuration.leftOut(input, at: embed!.segments, expected: expected()))
                source = .empty
            }
        } else if case .node(let node) = input {
            var allObjects = false
            let positions = node.elementTapePositions(allObjects: &allObjects)
            if let embed {
                var kept: [UInt32] = []
                for (index, position) in positions.enumerated() {
                    let element = node.node(atTapePosition: position)
                    if let inner = element[embed], inner.kind == .object {
                        kept.append(UInt32(inner.index))
                        indices.append(index)
                    } else {
                        diagnostics.append(
                            configuration.leftOut(.node(element[embed] ?? element), at: [.index(index)] + embed.segments,
                                                  expected: expected()))
                    }
                }
                leftOut = true  // positions are explicit
                source = .nodes(node.document, kept)
            } else if !allObjects, let firstOther = positions.firstIndex(where: { !node.isObject(atTapePosition: $0) }) {
                // Rare: some elements are not objects. Keep the objects' positions and JSON indices.
                var kept = Array(positions[..<firstOther])
                indices = Array(0..<firstOther)
                for index in firstOther..<positions.count {
                    if node.isObject(atTapePosition: positions[index]) {
                        kept.append(positions[index])
                        indices.append(index)
                    } else {
                        diagnostics.append(
                            configuration.leftOut(.node(node.node(atTapePosition: positions[index])), at: [.index(index)],
                                                  expected: expected()))
                    }
                }
                leftOut = true
                source = .nodes(node.document, kept)
            } else {
                // The common case: every element is an object; nothing else to do.
                source = .nodes(node.document, positions)
            }
        } else if case .value(.array(let elements)) = input {
            var kept = JSONArray()
            for (index, var element) in elements.enumerated() {
                if let embed {
                    guard let inner = element[embed] else {
                        diagnostics.append(configuration.leftOut(.value(element), at: [.index(index)] + embed.segments, expected: expected()))
                        leftOut = true
                        continue
                    }
                    element = inner
                }
                if case .object = element {
                    if leftOut || embed != nil { kept.append(element); indices.append(index) }
                } else {
                    if !leftOut && embed == nil {
                        kept = JSONArray(elements[..<index])
                        indices = Array(0..<index)
                    }
                    leftOut = true
                    diagnostics.append(configuration.leftOut(.value(element), at: [.index(index)] + (embed?.segments ?? []), expected: expected()))
                }
            }
            source = .values(leftOut || embed != nil ? kept : elements)
        } else {
            source = .empty
        }
        let jsonIndices = leftOut || embed != nil ? indices : nil
        self.source = source
        switch source {
        case .empty: count = 0
        case .nodes(_, let positions): count = positions.count
        case .small, .built: preconditionFailure("made only by init(plainArray:) and init(builtFrom:)")
        case .values(let values): count = values.count
        }
        if configuration.isPlain, !isSingleObject, jsonIndices == nil, diagnostics.isEmpty {
            details = nil
        } else {
            details = Details(
                array: input, jsonIndices: jsonIndices, isSingleObject: isSingleObject, configuration: configuration,
                diagnostics: diagnostics, origin: nil)
        }
        built = BuiltModels(count: count)
    }

    /// A single object as a one-element source.
    private static func single(_ input: JSONInput) -> Source {
        switch input {
        case .node(let node): return .nodes(node.document, [UInt32(node.index)])
        case .value(let value): return .values(JSONArray(CollectionOfOne(value)))
        }
    }

    /// The JSON index of element `index`.
    func jsonIndex(of index: Int) -> Int {
        jsonIndices?[index] ?? index
    }

    /// The path of element `index` below the collection.
    func suffix(of index: Int) -> [JSONPath.Segment] {
        let embed = details?.configuration.embedPath?.segments ?? []
        if isSingleObject { return embed }
        return [.index(jsonIndex(of: index))] + embed
    }

    /// The object of element `index`.
    func input(at index: Int) -> JSONInput {
        switch source {
        case .empty: preconditionFailure("index out of range")
        case .nodes(let document, let positions): return .node(JSONNode(document: document, index: Int(positions[index])))
        case .small(let document):
            precondition(index >= 0 && index < count, "index out of range")
            return .node(JSONNode(document: document, index: Int(smallPosition(at: index))))
        case .values(let values): return .value(values[index])
        case .built(let elements): return elements[index].original
        }
    }

    /// The element at `index`, built on first access; the first stored wins a race, so every
    /// caller gets the same instance.
    func element(at index: Int) -> Element {
        precondition(index >= 0 && index < count, "ModelArray index \(index) out of range 0..<\(count)")
        if case .built(let elements) = source { return unsafeDowncast(elements[index], to: Element.self) }
        if let model = built.model(at: index) { return unsafeDowncast(model, to: Element.self) }
        let model: JSONModel
        if let details {
            if let origin = details.origin {
                model = origin.model(at: index)
            } else {
                // The suffix links a mutable element to the array; immutable ones need none.
                let configuration = details.configuration
                let suffix = configuration.mutable ? suffix(of: index) : []
                model = configuration.makeElement(Element.self, input(at: index), at: suffix)
            }
        } else {
            // What a plain configuration makes (``ElementConfiguration/isPlain``), without one.
            model = Element.makeResolved(input(at: index), metadata: nil, mutable: false)
        }
        // Handed over: passed as a copy, the model cost a retain and a release around the store.
        // PERF: reading the elements of a lazy array; see jsonmodel-bench --section converters.
        return unsafeDowncast(built.store(consume model, at: index), to: Element.self)
    }

    /// The element at `index` if it has been built (here, or by the storage this one views).
    func builtElement(at index: Int) -> Element? {
        // No `Optional.map` here: in a client this code runs unspecialized, where the generic
        // `map` goes through metadata at run time on every call.
        // PERF: every read of a built element; see jsonmodel-bench --section bulk, row (b).
        if case .built(let elements) = source { return unsafeDowncast(elements[index], to: Element.self) }
        if let model = built.model(at: index) { return unsafeDowncast(model, to: Element.self) }
        guard let origin = details?.origin, let model = origin.builtModel(at: index) else { return nil }
        return unsafeDowncast(model, to: Element.self)
    }

    func model(at index: Int) -> JSONModel { element(at: index) }

    func builtModel(at index: Int) -> JSONModel? { builtElement(at: index) }

    func modelForDescription(at index: Int) -> JSONModel {
        if let model = builtElement(at: index) { return model }
        // A view makes its elements through the storage it views, as the element type that
        // storage reads (`Shape`, which picks `Circle` or `Square`), not as its own (`JSONModel`).
        if let origin { return origin.modelForDescription(at: index) }
        return configuration.sidePath.makeElement(Element.self, input(at: index), at: suffix(of: index))
    }

    func isBuilt(_ index: Int) -> Bool { builtElement(at: index) != nil }

    /// The JSON of one slot: the built element's current object, or the JSON as it was;
    /// wrapped at the embed path (in its original wrapper when there was one). `existing` is the
    /// JSON array the output replaces, where a model given in the slot finds its wrapper.
    func json(of slot: ModelArraySlot<Element>, embedPath: JSONPath?, replacing existing: JSONInput? = nil) -> JSONValue {
        let inner: JSONValue
        var original: JSONInput?
        switch slot {
        case .base(let index):
            inner = builtElement(at: index)?.jsonModel.json() ?? input(at: index).jsonValue
            // Elements read through the same embed path keep the rest of their original wrapper.
            if details?.configuration.embedPath == embedPath {
                original = isSingleObject ? array : array?[jsonIndex(of: index)]
            }
        case .model(let model):
            inner = model.jsonModel.json()
            if let embedPath { original = Self.wrapper(of: model, embedPath: embedPath, in: existing) }
        }
        guard let embed = embedPath else { return inner }
        var wrapper: JSONValue = .object(JSONObject())
        if let original, original.kind == .object { wrapper = original.jsonValue }
        wrapper[embed] = inner
        return wrapper
    }

    /// The wrapper in `existing` (an embedded array) that `model` was read from, found where the
    /// model's link to its owner says, while that wrapper still holds the model's JSON at
    /// `embedPath`: a model read from the array and written back as a model, in a Swift array
    /// (`order.edges = edges.filter { … }`), keeps the wrapper's other members.
    private static func wrapper(of model: Element, embedPath: JSONPath, in existing: JSONInput?) -> JSONInput? {
        guard let existing, existing.kind == .array, let link = model.parentLink else { return nil }
        let segments = link.path.segments
        let embed = embedPath.segments
        guard segments.count > embed.count, segments.suffix(embed.count).elementsEqual(embed),
            case .index(let index) = segments[segments.count - embed.count - 1],
            let wrapper = existing[index], JSONInput.same(wrapper[embedPath], model.currentSource)
        else { return nil }
        return wrapper
    }
}

