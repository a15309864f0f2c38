// The names a declared property may not take. The list is in JSONModelNames, a module with no
// dependencies, so that the accessor generator checks against it without building the library.

internal import JSONModelNames

extension JSONModel {
    /// The twelve names no declared property may have: the model's own instance members and
    /// the member names Swift itself keeps.
    ///
    /// A property is read with the member syntax (`user.login`), and the typed members
    /// generated for it are members of the model class. So a property may take any name but a
    /// member every model has:
    ///
    /// - `jsonModel`, under which the library's API lives (``JSONModelProtocol/jsonModel``):
    ///   `user.jsonModel.json()`, `user.jsonModel.diagnostics`, `user.jsonModel.copy()`;
    /// - what the standard library's protocols require of a model: `debugDescription`
    ///   (printing), `customMirror` (`dump` and debuggers), `hash` and `hashValue`, `encode`;
    /// - `self`, `Type`, `Protocol`, `init`, `deinit` and `subscript`.
    ///
    /// Everything else is free, `value`, `json`, `description`, `properties` and `diagnostics`
    /// included: class members such as ``properties(_:)`` and `array(from:options:)` do not
    /// share a namespace with instance members. A registration block or a schema that declares
    /// a reserved name is a declaration problem (``validateDeclarations()``,
    /// ``ModelSchemaError``); keep the JSON key and name the property otherwise:
    ///
    /// ```swift
    /// override class func properties(_ p: PropertyRegistrar) {
    ///     p.hashCode(String.self, jsonPath: "hash")
    /// }
    /// ```
    public static let reservedPropertyNames: Set<String> = ReservedNames.properties
}
