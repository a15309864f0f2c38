// Descriptions of lazy model arrays (`ModelArray`): `lineDescription` counts
// elements without building any; the full layout shows elements up to the cap, using
// the ones already built and making the others for the description only. Inside a
// model's descriptions the array shows like the `[Item]` its property declares.

extension ModelArray: CustomStringConvertible {
    /// `ModelArray<Shape>(count: 3, built: 1)`; elements are not built to describe the array.
    public var description: String { lineDescription }
}

extension ModelArray: LazyDescribable {
    /// `ModelArray<Shape>(count: 3, built: 1)`; builds nothing.
    ///
    /// - Complexity: O(*n*) in the element count (a look at each slot).
    var lineDescription: String {
        let built = indices.reduce(0) { $0 + (isElementBuilt(at: $1) ? 1 : 0) }
        return "ModelArray<\(describedElementName)>(count: \(count), built: \(built))"
    }

    var lazyElementCount: Int { count }

    func lazyElements(_ limit: Int) -> [Any] {
        (0..<Swift.min(limit, count)).map { elementForDescription(at: $0) }
    }

    /// The schema model's name for arrays of schema models, else the element class.
    private var describedElementName: String {
        base.configuration.schemaModel?.modelName ?? String(describing: Element.self)
    }

    /// The element at `index` when it is built; otherwise a model made for the description
    /// only (immutable, unlinked, not kept), so describing leaves the array as lazy as it was.
    func elementForDescription(at index: Int) -> Element {
        if isElementBuilt(at: index) { return self[index] }
        var position = index
        if let changed, case .base(let inBase) = changed[index] { position = inBase }
        return unsafeDowncast(base.modelForDescription(at: position), to: Element.self)
    }

    /// The counts, then the elements in the full layout up to ``DescriptionLimits/maxItems``.
    ///
    /// ```swift
    /// print(shapes.fullDescription)
    /// // ModelArray<Shape>(count: 2, built: 0) [
    /// //   [0]: Circle(radius: 1.0),
    /// //   [1]: Square(side: 2.0)
    /// // ]
    /// ```
    ///
    /// Describing builds no element of the array: elements not built yet are made for
    /// the description and dropped.
    public var fullDescription: String {
        fullDescription(limits: .default)
    }

    /// The full description with limits of your own.
    public func fullDescription(limits: DescriptionLimits) -> String {
        var writer = DescriptionWriter(limits: limits)
        var text = lineDescription + " "
        writer.writeFull(self, to: &text, indent: 0)
        return text
    }
}
