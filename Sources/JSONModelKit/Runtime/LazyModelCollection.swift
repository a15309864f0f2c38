// What the model reads and writes ask of the lazy collections (Collections/), which build on
// this folder: protocols here, conformances there, so that models need not name the
// collection types.

/// A lazy collection that a typed read may turn into the Swift collection it stands for.
protocol LazyModelCollection {
    /// The collection as `T` (`[Item]`, `[Item]?`, `[String: Item]`), building every element; nil
    /// when `T` is not such a type.
    func bridged<T>(to type: T.Type) -> T?
}

/// `value` (a lazy collection, possibly optional) as `T`, or nil.
func bridgedLazyCollection<T>(_ value: Any) -> T? {
    guard let lazy = value as? any LazyModelCollection else { return nil }
    return lazy.bridged(to: T.self)
}
