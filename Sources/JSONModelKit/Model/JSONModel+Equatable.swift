// Equality and hashing: same class, equal current JSON.

extension JSONModel: Hashable {
    /// Whether two models are of the same class and have equal current JSON
    /// (objects compare by meaning: key order and number spelling do not matter).
    public static func == (lhs: JSONModel, rhs: JSONModel) -> Bool {
        if lhs === rhs { return true }
        return type(of: lhs) == type(of: rhs) && lhs.json() == rhs.json()
    }

    /// Hashes the class and the current JSON.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type(of: self)))
        hasher.combine(json())
    }
}
