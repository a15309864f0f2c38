// Equality and hashing: same class (or schema model), equal current JSON; or, for a class that
// asks for it, equal JSON of its declared properties.

extension JSONModel: Hashable {
    /// Whether two models are of the same class and have equal current JSON
    /// (objects compare by meaning: key order and number spelling do not matter).
    ///
    /// For a class whose ``comparesDeclaredPropertiesOnly`` is true, only the JSON of the
    /// declared properties counts (`json(options: .onlyDeclared)`); two schema models compare
    /// so only when they are the same schema model.
    public static func == (lhs: JSONModel, rhs: JSONModel) -> Bool {
        if lhs === rhs { return true }
        guard type(of: lhs) == type(of: rhs) else { return false }
        if lhs.metadata.comparesDeclaredPropertiesOnly {
            return lhs.metadata.modelName == rhs.metadata.modelName
                && lhs.jsonModel.json(options: .onlyDeclared) == rhs.jsonModel.json(options: .onlyDeclared)
        }
        return lhs.jsonModel.json() == rhs.jsonModel.json()
    }

    /// Hashes the class and the JSON that equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type(of: self)))
        if metadata.comparesDeclaredPropertiesOnly {
            hasher.combine(metadata.modelName)
            hasher.combine(jsonModel.json(options: .onlyDeclared))
        } else {
            hasher.combine(jsonModel.json())
        }
    }
}
