import JSONModelKitCore

// What the model reads and writes ask of the lazy collections (Collections/), which build on
// this folder: protocols here, conformances there, so that models need not name the
// collection types.

/// A lazy collection that a typed read may turn into the Swift collection it stands for.
protocol LazyModelCollection {
    /// The collection as `T` (`[Item]`, `[Item]?`, `[String: Item]`), building every element; nil
    /// when `T` is not such a type.
    func bridged<T>(to type: T.Type) -> T?
    /// The collection as `T`, which the caller knows is the Swift collection the property was
    /// declared as (`[Item]`), building every element.
    func declaredCollection<T>(as type: T.Type) -> T?
    /// Whether `model` is the element this collection holds at `path`, a path in the model that
    /// read the collection (an element's link path): a parent keeps the collection it cached
    /// after that element's write only then, never one that hands out another model there.
    func holds(_ model: JSONModel, at path: JSONPath) -> Bool
}

extension LazyModelCollection {
    /// The collection an entry holds, as `T`, when the entry holds this type; nil otherwise.
    ///
    /// For a property whose metadata knows its collection type: an exact type check and a
    /// downcast, where casting the entry's value to `any LazyModelCollection` looked up the
    /// conformance at run time, some 1,300 instructions on every read of `[Item]` (PERF:
    /// citm_catalog.json, `jsonmodel-bench --section documents`).
    static func bridged<T>(_ entry: CacheEntry, to type: T.Type) -> T? {
        guard entry.valueType == ObjectIdentifier(Self.self) else { return nil }
        return unsafeDowncast(entry, to: CacheBox<Self>.self).value.bridged(to: T.self)
    }

    /// ``holds(_:at:)`` of the collection an entry holds; nil when the entry holds another type.
    static func holds(_ entry: CacheEntry, _ model: JSONModel, at path: JSONPath) -> Bool? {
        guard entry.valueType == ObjectIdentifier(Self.self) else { return nil }
        return unsafeDowncast(entry, to: CacheBox<Self>.self).value.holds(model, at: path)
    }

    /// ``declaredCollection(as:)`` of the collection an entry holds, when the entry holds this type.
    static func declaredCollection<T>(_ entry: CacheEntry, as type: T.Type) -> T? {
        guard entry.valueType == ObjectIdentifier(Self.self) else { return nil }
        return unsafeDowncast(entry, to: CacheBox<Self>.self).value.declaredCollection(as: T.self)
    }

    /// Through ``bridged(to:)``, for the collections that have no faster way.
    func declaredCollection<T>(as type: T.Type) -> T? { bridged(to: T.self) }
}

/// `value` (a lazy collection, possibly optional) as `T`, or nil.
func bridgedLazyCollection<T>(_ value: Any) -> T? {
    guard let lazy = value as? any LazyModelCollection else { return nil }
    return lazy.bridged(to: T.self)
}

/// A lazy array whose first read can build every element at once: when the read asks for the
/// Swift array the property was declared as (`[Item]`), which builds every element anyway. The
/// elements then are the array, and the storage needs no places or positions beside them, nor a
/// lock to keep the Swift array. A read as the lazy array keeps building elements one by one.
///
/// PERF: models holding many small arrays of models read as `[Item]`; see jsonmodel-bench
/// --section documents, citm_catalog.json.
///
/// The same arrays are read as the Swift array without an optional in between
/// (``declaredArray(of:as:)``).
///
/// Generic code that runs unspecialized, as a client runs the library's, finds the metadata of
/// a generic type it names (`ModelArrayBase<Element>`, `T?`) at run time, a hash lookup of
/// about 400 instructions each time: these reads name none. The storage's class is found once,
/// with the property's metadata (``builtStorageClass``), and passed in.
protocol BuiltArrayFirstReadable: Sendable {
    /// The class of the storage ``builtStorage(of:storageClass:)`` makes.
    static var builtStorageClass: AnyClass { get }
    /// The storage of the array `node`, every element built, made as `storageClass`
    /// (``builtStorageClass``); nil when the general path must decide.
    static func builtStorage(of node: JSONNode, storageClass: AnyClass) -> AnyObject?
    /// The array over a storage ``builtStorage(of:storageClass:)`` made.
    init(builtStorage: AnyObject)
    /// The Swift array the array in `entry` stands for, as `T`: `entry` holds this type, and `T`
    /// is the Swift array it stands for.
    static func declaredArray<T>(of entry: CacheEntry, as type: T.Type) -> T
}

extension BuiltArrayFirstReadable {
    /// The array at `index` of `document`, every element built, in an entry of `entryType`, the
    /// property's class; nil when the general path must decide.
    ///
    /// Made and boxed here, where `Self` is at hand: made where only the element type is, the
    /// array, its optional and its entry class are each looked up at run time, for every array.
    static func readBuilt(_ document: JSONDocument, _ index: Int, entryType: CacheEntry.Type, storageClass: AnyClass)
        -> CacheEntry?
    {
        guard let storage = builtStorage(of: JSONNode(document: document, index: index), storageClass: storageClass)
        else { return nil }
        return entryType.boxing(exactly: Self(builtStorage: storage))
    }
}
