
// Relationships with an inverse: a child model refers back to its parent, weakly.
//
// A model property (or `[Model]`, lazy or not) declared with `inverse: "order"`
// hands each child it creates a weak reference to the model that read it, under
// that name. The parent's cache holds its children strongly; children never hold
// the parent strongly, so the pair is freed together.

extension JSONModel {
    /// The model that created this one through a property declared with `inverse: name`,
    /// while it is alive; nil otherwise.
    ///
    /// ```swift
    /// final class Order: JSONModel, @unchecked Sendable {
    ///     override class func properties(_ p: PropertyRegistrar) {
    ///         p.lines([Line].self, inverse: "order")
    ///     }
    /// }
    /// let line = order.lines[0] as Line
    /// let back: Order? = line.inverse("order")   // === order
    /// ```
    ///
    /// - Parameters:
    ///   - name: The inverse name given in the parent's declaration.
    ///   - type: The class the parent is read as; inferred from the context when omitted.
    /// - Returns: The parent as `T`, or nil when it is gone, was never set, or is not a `T`.
    /// - Complexity: O(1).
    public func inverse<T: JSONModel>(_ name: String, as type: T.Type = T.self) -> T? {
        state.withLock { $0.inverses[name]?.model } as? T
    }
}
