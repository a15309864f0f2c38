// The names a declared property may not take, in a module of their own with no dependencies:
// the library publishes them as `JSONModel.reservedPropertyNames`, and the accessor generator
// (a build tool) checks registration blocks against them without building the library.

/// Names the library keeps for itself, shared by `JSONModelKit` and the accessor generator.
package enum ReservedNames {
    /// The names no declared property may have: every public member of `JSONModel`, by base
    /// name, and the member names Swift itself keeps. Published as
    /// `JSONModel.reservedPropertyNames`, which documents them; a test compares them with the
    /// members of the built `JSONModelKit` module.
    package static let properties: Set<String> = [
        // Swift's own member names.
        "self", "Type", "Protocol", "init", "deinit", "subscript",
        // Descriptions.
        "description", "debugDescription", "fullDescription", "writeFullDescription", "customMirror",
        // Reading.
        "value", "jsonValue", "hasProperty", "propertyNames", "modelName", "diagnostics", "validate",
        "isMutable", "dynamic", "inverse",
        // Output.
        "json", "jsonBytes", "jsonData", "jsonString", "originalJSON",
        // Writing, copying and merging.
        "set", "copy", "mutableCopy", "mutate", "clearMutations", "hasMutations", "merging", "update",
        // Equality, hashing and coding.
        "hash", "hashValue", "encode",
        // Class members: declarations, metadata and creation.
        "properties", "requiresNonOptionals", "keyStyle", "comparesDeclaredPropertiesOnly", "allowsNonFiniteNumbers",
        "validateDeclarations", "modelMetadata", "modelClass", "make", "array", "stream",
        "reservedPropertyNames",
    ]
}
