// Held by the property metadata of a schema model's property, so it lives beside that metadata
// rather than with the schemas (Dynamic/).

/// A weak, by-name reference from a property type to a schema model, resolved on each read
/// so that schemas may refer to themselves and to each other. The registry lives as long as a
/// model made from it (``DynamicModel/schemaRegistry``).
final class SchemaModelReference: Sendable {
    let name: String
    weak let registry: ModelRegistry?

    init(name: String, registry: ModelRegistry?) {
        self.name = name
        self.registry = registry
    }

    var metadata: ModelMetadata? { registry?.schemaMetadata(named: name) }
}
