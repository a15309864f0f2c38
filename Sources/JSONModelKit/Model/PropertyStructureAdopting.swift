// Values written to a property in the shape its options call for. Lazy model arrays (Collections/)
// conform, so that a write need not name them.

/// A value whose JSON depends on the structure options of the property it is written to.
protocol PropertyStructureAdopting {
    /// The value as written to `property` (an array wrapping elements at its `embedPath`).
    func adopting(_ property: PropertyMetadata) -> any Sendable
}

extension PropertyMetadata {
    /// `value` prepared for writing to this property (see ``PropertyStructureAdopting``).
    func adoptingStructure(_ value: Any) -> Any {
        if let adopting = value as? any PropertyStructureAdopting { return adopting.adopting(self) }
        return value
    }
}
