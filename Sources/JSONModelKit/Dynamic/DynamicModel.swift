#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A model whose properties come from a ``ModelSchema`` rather than a registration block.
///
/// You do not subclass it or create it directly: register a schema, then ask the registry for
/// a model by name. It reads, writes, copies and outputs exactly like a compiled model, through
/// the same engine; ``JSONModel/modelName`` is the schema's name for it.
///
/// ```swift
/// try ModelRegistry.shared.register(ModelSchema(data: schemaData))
/// let invoice = try ModelRegistry.shared.makeModel(named: "Invoice", json: data)
/// let total: Decimal = invoice.total
/// invoice.value(forProperty: "total")       // for code that knows names only at run time
/// ```
public final class DynamicModel: JSONModel, @unchecked Sendable {
    // @unchecked Sendable: restated from JSONModel, whose state is behind its Mutex;
    // this class adds no stored properties.

    /// Creates a model of a schema model over an object.
    static func make(metadata: ModelMetadata, source: JSONInput, mutable: Bool) throws(JSONModelError) -> DynamicModel {
        guard source.kind == .object else { throw .notAnObject(model: metadata.modelName, found: source.kind) }
        let resolved = metadata.resolvedSchemaModel(for: source)
        return DynamicModel(ModelStorage(metadata: resolved, source: source, mutable: mutable))
    }
}

/// A weak, by-name reference from a property type to a schema model, resolved on each read
/// so that schemas may refer to themselves and to each other.
final class SchemaModelReference: Sendable {
    let name: String
    weak let registry: ModelRegistry?

    init(name: String, registry: ModelRegistry?) {
        self.name = name
        self.registry = registry
    }

    var metadata: ModelMetadata? { registry?.schemaMetadata(named: name) }
}

extension ModelRegistry {
    /// Registers the models of a schema, all or none.
    ///
    /// Checks that every type name is known (a built-in type, a model of this schema or of one
    /// registered before, or a registered model class), that `extends` names a model and has
    /// no cycle, that no model name is taken, that defaults convert, and that discriminators
    /// name models. On any problem nothing is registered.
    ///
    /// ```swift
    /// try ModelRegistry.shared.register(ModelSchema(data: schemaData))
    /// ```
    ///
    /// - Throws: ``ModelSchemaError`` naming the model and property at fault.
    public func register(_ schema: ModelSchema) throws(ModelSchemaError) {
        var byName: [String: ModelSchema.Model] = [:]
        for model in schema.models {
            guard byName[model.name] == nil else { throw ModelSchemaError("the model name is used twice", model: model.name) }
            guard schemaMetadata(named: model.name) == nil, modelType(named: model.name) == nil else {
                throw ModelSchemaError("a model of this name is already registered", model: model.name)
            }
            byName[model.name] = model
        }

        func resolve(_ type: ModelSchema.TypeName, model: String, property: String) throws(ModelSchemaError) -> PropertyType {
            switch type {
            case .array(let element): return .array(try resolve(element, model: model, property: property))
            case .dictionary(let value): return .dictionary(try resolve(value, model: model, property: property))
            case .optional(let wrapped): return .optional(try resolve(wrapped, model: model, property: property))
            case .named(let name):
                if let builtin = Self.builtinTypes[name] { return builtin }
                if byName[name] != nil || schemaMetadata(named: name) != nil { return .schemaModel(name) }
                if let compiled = modelType(named: name) { return .model(compiled) }
                throw ModelSchemaError("unknown type \"\(name)\"", model: model, property: property)
            }
        }

        // Each model's chain of ancestors, root first, with cycles refused.
        func chain(of model: ModelSchema.Model) throws(ModelSchemaError) -> [ModelSchema.Model] {
            var result = [model]
            var seen: Set<String> = [model.name]
            var current = model
            while let parent = current.extends {
                guard let next = byName[parent] else {
                    let message = schemaMetadata(named: parent) == nil
                        ? "extends unknown model \"\(parent)\"" : "extends \"\(parent)\" from another schema; register them together"
                    throw ModelSchemaError(message, model: current.name)
                }
                guard seen.insert(parent).inserted else {
                    throw ModelSchemaError("\"extends\" forms a cycle through \(parent)", model: model.name)
                }
                result.append(next)
                current = next
            }
            return result.reversed()
        }

        var built: [ModelMetadata] = []
        for model in schema.models {
            var declarations: [(declaration: PropertyDeclaration, declaringModel: String)] = []
            for ancestor in try chain(of: model) {
                for property in ancestor.properties {
                    let type = try resolve(property.type, model: ancestor.name, property: property.name)
                    let options = PropertyOptions(
                        serialize: property.serialize, readOnly: property.readOnly, enumValues: property.enumValues,
                        dateFormat: property.dateFormat.map(DateFormat.init(parsing:)), embedPath: property.embedPath,
                        converter: property.converter.map(ConverterReference.named),
                        inverse: property.inverse, group: property.group)
                    let declaration = PropertyDeclaration(
                        name: property.name, type: type, paths: property.paths, defaultValue: property.defaultValue,
                        options: options
                    ).checkingStructure()
                    declarations.append((declaration, ancestor.name))
                }
            }
            if let discriminator = model.discriminator {
                for target in discriminator.map.values where byName[target] == nil && schemaMetadata(named: target) == nil {
                    throw ModelSchemaError("the discriminator names unknown model \"\(target)\"", model: model.name)
                }
            }
            let metadata = ModelMetadata(
                modelName: model.name, modelType: DynamicModel.self, declarations: declarations, registry: self,
                discriminator: model.discriminator.map {
                    ModelDiscriminator(path: $0.path, map: $0.map, registry: self)
                })
            if let problem = metadata.problems.first {
                throw ModelSchemaError(problem.message, model: problem.model, property: problem.property)
            }
            built.append(metadata)
        }
        if let taken = store(schemaModels: built) {
            throw ModelSchemaError("a model of this name is already registered", model: taken)
        }
    }

    /// Reads a schema file and registers it; see ``register(_:)-(ModelSchema)``.
    ///
    /// - Throws: ``ModelSchemaError`` with the file's path.
    public func registerSchema(at url: URL) throws(ModelSchemaError) {
        do {
            let data = try Data(contentsOf: url)
            try register(ModelSchema(data: data))
        } catch var error as ModelSchemaError {
            error.file = url.path
            throw error
        } catch {
            throw ModelSchemaError("cannot read the file: \(error)", file: url.path)
        }
    }

    /// The type names a schema may use besides model names.
    static let builtinTypes: [String: PropertyType] = [
        "Int": .int, "Int8": .int8, "Int16": .int16, "Int32": .int32, "Int64": .int64,
        "UInt": .uint, "UInt8": .uint8, "UInt16": .uint16, "UInt32": .uint32, "UInt64": .uint64,
        "Double": .double, "Float": .float, "Bool": .bool, "String": .string, "Decimal": .decimal,
        "Date": .date, "URL": .url, "UUID": .uuid, "Data": .data, "JSON": .json,
    ]
}
