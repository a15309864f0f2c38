// Equality and hashing: same class (or schema model), equal current JSON; or, for a class that
// asks for it, equal JSON of its declared properties.

extension JSONModel: Hashable {
    /// Whether two models are of the same class (for schema models, the same schema model, by
    /// name) and have equal current JSON (objects compare by meaning: key order and number
    /// spelling do not matter).
    ///
    /// For a class whose ``comparesDeclaredPropertiesOnly`` is true, only the JSON of the
    /// declared properties counts (`json(options: .onlyDeclared)`). Models that do not compare
    /// by the same rule are never equal, so that equality is symmetric: two schema models of one
    /// name from registries that disagree on the rule, for instance.
    public static func == (lhs: JSONModel, rhs: JSONModel) -> Bool {
        if lhs === rhs { return true }
        let declaredOnly = lhs.metadata.comparesDeclaredPropertiesOnly
        guard type(of: lhs) == type(of: rhs), lhs.metadata.modelName == rhs.metadata.modelName,
            declaredOnly == rhs.metadata.comparesDeclaredPropertiesOnly
        else { return false }
        if declaredOnly {
            return lhs.jsonModel.json(options: .onlyDeclared) == rhs.jsonModel.json(options: .onlyDeclared)
        }
        return lhs.jsonModel.json() == rhs.jsonModel.json()
    }

    /// Hashes the class, the model's name and the JSON that equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type(of: self)))
        hasher.combine(metadata.modelName)
        if metadata.comparesDeclaredPropertiesOnly {
            hasher.combine(jsonModel.json(options: .onlyDeclared))
        } else {
            hasher.combine(jsonModel.json())
        }
    }
}
