#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// A lazy array of models over a JSON array: elements are built when first read, then kept.
///
/// ```swift
/// let shapes = try Shape.array(from: data)     // one scan of the bytes; no model built yet
/// let third = shapes[2]                        // built now (a Circle, if the JSON says so)
/// shapes[2] === third                          // true: the same instance from now on
/// ```
///
/// Creating the array costs the parse and nothing per element beyond the document's
/// table of element positions. Each element is created through
/// ``JSONModel/modelClass(for:)`` on first access and the same instance is returned
/// afterwards, from any number of threads at once.
///
/// **Elements that are not objects** (`null`, numbers, strings, arrays) are left out
/// when the array is created, each with a diagnostic in ``diagnostics`` (and, for a
/// property, in the model's diagnostics) — the rule `[T]` properties follow for values
/// that do not convert. Indices are therefore positions among the objects; they are
/// fixed when the array is created and never shift while it is read.
/// ``jsonIndex(of:)`` gives an element's position in the JSON array.
///
/// The array is a value: `append`, `insert`, `remove` and replacing an element change
/// this copy only, and its ``json()`` (or the model property it is assigned back to)
/// shows the change. Copies share the elements already built.
public struct ModelArray<Element: JSONModel>: Sendable {
    /// The JSON the array was created over, with the elements built so far.
    let base: ModelArrayBase<Element>
    /// The elements after a change (insert, remove, replace); nil while the array is as created.
    var changed: [ModelArraySlot<Element>]?
    /// The embed path of the property the array is being written to (set just before the write);
    /// nil outside writes, when ``json()`` gives the elements themselves.
    var outputEmbedPath: JSONPath??

    init(base: ModelArrayBase<Element>) {
        self.base = base
    }

    /// Creates an empty array.
    public init() {
        self.base = ModelArrayBase(empty: ())
    }

    /// Creates an array of the given models.
    ///
    /// - Complexity: O(*n*).
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.base = ModelArrayBase(empty: ())
        self.changed = elements.map { .model($0) }
    }

    /// The diagnostics recorded when the array was created: one per element left out.
    public var diagnostics: [ModelDiagnostic] { base.diagnostics }

    /// The position in the JSON array of the element at `index`, or nil for an element
    /// added after creation and for an index outside the array.
    ///
    /// - Complexity: O(1).
    public func jsonIndex(of index: Int) -> Int? {
        guard indices.contains(index) else { return nil }
        guard let changed else { return base.jsonIndex(of: index) }
        if case .base(let position) = changed[index] { return base.jsonIndex(of: position) }
        return nil
    }

    /// Whether the element at `index` has been built; for tests of laziness.
    ///
    /// - Complexity: O(1).
    func isElementBuilt(at index: Int) -> Bool {
        guard let changed else { return base.isBuilt(index) }
        if case .base(let position) = changed[index] { return base.isBuilt(position) }
        return true
    }

    /// The array as JSON: each element's current object.
    ///
    /// Written to a property with an `embedPath`, each element is wrapped again at that path
    /// (in its original wrapper, for elements read through it).
    ///
    /// Elements never read are copied from the JSON without building them.
    ///
    /// - Complexity: O(*n*) in the size of the JSON.
    public func json() -> JSONValue { json(replacing: nil) }

    /// The array as JSON, written over `existing`, the JSON array at the property's path: an
    /// element given as a model keeps the wrapper it was read from there.
    func json(replacing existing: JSONInput?) -> JSONValue {
        var elements = JSONArray()
        elements.reserveCapacity(count)
        for slot in slots {
            elements.append(base.json(of: slot, embedPath: outputEmbedPath ?? nil, replacing: existing))
        }
        return .array(elements)
    }

    /// The array as compact JSON bytes.
    package func jsonData() -> [UInt8] {
        json().jsonBytes()
    }

    /// The slots in order, whether or not the array changed.
    var slots: [ModelArraySlot<Element>] {
        changed ?? (0..<base.count).map { .base($0) }
    }

    /// Switches to explicit slots before a change.
    mutating func makeChangeable() {
        if changed == nil { changed = (0..<base.count).map { .base($0) } }
    }
}

/// One element of a changed ``ModelArray``: a position in its JSON, or a model given.
enum ModelArraySlot<Element: JSONModel>: Sendable {
    case base(Int)
    case model(Element)
}

// MARK: - Collection

extension ModelArray: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { changed?.count ?? base.count }

    /// The element at `position`, built on first access and kept.
    ///
    /// - Complexity: O(1); the first access of an element creates its model (O(1) too:
    ///   nothing is converted until a property is read).
    public subscript(position: Int) -> Element {
        get {
            guard let changed else { return base.element(at: position) }
            switch changed[position] {
            case .base(let index): return base.element(at: index)
            case .model(let model): return model
            }
        }
        set {
            makeChangeable()
            changed![position] = .model(newValue)
        }
    }

    /// Replaces a range of elements; the rest of the array keeps its built elements.
    ///
    /// - Complexity: O(*n*) the first time the array changes, then O(*m* + the elements moved).
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        makeChangeable()
        changed!.replaceSubrange(subrange, with: newElements.map { .model($0) })
    }
}

extension ModelArray: Equatable {
    /// Whether two arrays have equal elements, compared as models compare (``JSONModel/==(_:_:)``):
    /// by class and JSON, or the JSON of their declared properties where the class says so.
    ///
    /// - Complexity: O(*n*), building the elements not built yet.
    public static func == (lhs: ModelArray, rhs: ModelArray) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0 == $1 }
    }
}

// MARK: - Creating from JSON

extension JSONModelProtocol {
    /// A lazy array of models over JSON whose top level is an array.
    ///
    /// ```swift
    /// let users = try User.array(from: data)
    /// print(users.count)            // no model built yet
    /// let name: String = users[10].name
    /// let mapped = try User.array(from: URL(fileURLWithPath: "users.json"))
    /// ```
    ///
    /// The JSON may be text, a file, a parsed node or a value: see ``JSONSource``. A file is mapped
    /// into memory and its pages handed back as the scan goes, so the array costs its tape and
    /// position table plus the pages of the elements read.
    ///
    /// Each element is created through ``JSONModel/modelClass(for:)`` when first read, and
    /// `options.mutable` applies to every element. With `options.validating` every element is
    /// built and validated at once, and elements that are not objects count as problems too:
    /// the error lists them all, each path starting at the element's index (`[3].age`).
    ///
    /// - Parameters:
    ///   - json: The JSON.
    ///   - options: Mutability, validation and parsing, for every element; see ``ModelOptions``.
    /// - Throws: ``JSONModelError/invalidJSON(_:)``, ``JSONModelError/unreadable(url:reason:)``,
    ///   ``JSONModelError/notAnArray(model:found:)``, or with `options.validating`,
    ///   ``JSONModelError/validationFailed(_:)``.
    /// - Complexity: O(*n*) to scan text; O(1) per element for the position table; O(*n*)
    ///   more to build and convert every element when validating.
    public static func array(from json: some JSONSource, options: ModelOptions = ModelOptions()) throws(JSONModelError)
        -> ModelArray<Self>
    {
        try array(over: json.parsedJSON(options: options.parseOptions).input, options: options)
    }

    /// A lazy array over `input`, an array, validated when `options` asks.
    static func array(over input: JSONInput, options: ModelOptions) throws(JSONModelError) -> ModelArray<Self> {
        guard input.kind == .array else { throw .notAnArray(model: String(describing: self), found: input.kind) }
        let base = ModelArrayBase<Self>(array: input, configuration: .topLevel(mutable: options.mutable))
        if options.validatesAtCreation {
            // The array's own diagnostics (elements left out) first, then each element's, as
            // `validate()` orders them for an array property.
            var diagnostics = base.diagnostics
            for index in 0..<base.count {
                let prefix = JSONPath(base.suffix(of: index))
                diagnostics += base.element(at: index).validationDiagnostics(strict: options.strict).map { $0.prefixed(by: prefix) }
            }
            if !diagnostics.isEmpty {
                throw .validationFailed(ModelValidationError(model: "[\(self)]", diagnostics: diagnostics))
            }
        }
        return ModelArray(base: base)
    }
}
