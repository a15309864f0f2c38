// The names a declared property may not take. The list is in JSONModelNames, a module with no
// dependencies, so that the accessor generator checks against it without building the library.

internal import JSONModelNames

extension JSONModel {
    /// The names no declared property may have: every public member of `JSONModel`, by base
    /// name, and the member names Swift itself keeps.
    ///
    /// A property is read with the member syntax (`user.login`), and typed accessors generated
    /// for it are members of the model class. A property named like a member of `JSONModel`
    /// would be shadowed by that member, or would shadow it: `user.description` would read the
    /// model's description, `user.modelName` its class name. So a registration block or a
    /// schema that declares one of these names is a declaration problem
    /// (``validateDeclarations()``, ``ModelSchemaError``). The JSON key stays usable: name the
    /// property otherwise and keep the key with `jsonPath`.
    ///
    /// ```swift
    /// override class func properties(_ p: PropertyRegistrar) {
    ///     p.bio(String.self, jsonPath: "description")   // not p.description(String.self)
    /// }
    /// ```
    ///
    /// The set holds the base names of the public instance and class members of `JSONModel`
    /// and its extensions (`json` for `json(options:)`, `value` for `value(forProperty:)`),
    /// those it gets from the protocols it conforms to (`hashValue`, `debugDescription`,
    /// `customMirror`, `array` from ``ModelCollectionCreating``), `dynamic`, and `self`,
    /// `Type`, `Protocol`, `init`, `deinit` and `subscript`. Operators are not names.
    public static let reservedPropertyNames: Set<String> = ReservedNames.properties
}
