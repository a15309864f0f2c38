// The names a declared property may not take, in a module of their own with no dependencies:
// the library publishes them as `JSONModel.reservedPropertyNames`, and the accessor generator
// (a build tool) checks registration blocks against them without building the library.

/// Names the library keeps for itself, shared by `JSONModelKit` and the accessor generator.
package enum ReservedNames {
    /// The names no declared property may have: the public instance members of `JSONModel`, by
    /// base name, and the member names Swift itself keeps. Published as
    /// `JSONModel.reservedPropertyNames`, which documents them; a test compares them with the
    /// members of the built `JSONModelKit` module.
    package static let properties: Set<String> = [
        // Swift's own member names.
        "self", "Type", "Protocol", "init", "deinit", "subscript",
        // What the standard library's protocols require of every model: printing and
        // debuggers, hashing, encoding.
        "debugDescription", "customMirror", "hashValue", "hash", "encode",
        // The model's own API, under one name.
        "jsonModel",
    ]
}
