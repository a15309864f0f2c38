/// What a plugin registers, kept aside until the host commits it all or none.
///
/// A plugin gets one in its entry point (``JSONModelPlugin/register(hostABIVersion:pluginABIVersion:registrar:_:)``)
/// and registers through it exactly as it would through ``ModelRegistry``. Nothing takes
/// effect until the entry point has returned and the host has checked everything: names
/// free, declarations valid, schemas valid against the registry and the plugin's own classes.
///
/// ```swift
/// plugin.register(Vehicle.self)                          // and its subclasses, by their names
/// plugin.register(CentsConverter(), named: "cents")
/// try plugin.register(ModelSchema(string: fleetSchema))  // may use Vehicle and "cents"
/// ```
public final class PluginRegistrar {
    /// The library being loaded, for messages.
    public let pluginPath: String

    /// Model classes by name, in registration order.
    var classes: [(name: String, type: JSONModel.Type)] = []
    /// Schemas, in registration order.
    var schemas: [ModelSchema] = []
    /// Converter registrations, applied to the target registry on commit.
    var converters: [@Sendable (ModelRegistry) -> Void] = []
    /// What the plugin's registration block threw, if anything.
    var failure: String?

    init(pluginPath: String) {
        self.pluginPath = pluginPath
    }

    /// Registers a model class under a name (the class name when nil).
    ///
    /// Register each class the host should find by name: a polymorphic base and each of its
    /// subclasses. The name must be free in the registry or held by the same class.
    public func register(_ type: JSONModel.Type, name: String? = nil) {
        classes.append((name ?? String(describing: type), type))
    }

    /// Registers the models of a schema; its types may name the plugin's classes and models
    /// registered before.
    public func register(_ schema: ModelSchema) {
        schemas.append(schema)
    }

    /// Registers a converter under a name that declarations and schemas refer to.
    public func register<C: JSONConverter>(_ converter: C, named name: String) {
        converters.append { $0.register(converter, named: name) }
    }

    /// Registers a converter for every property of type `type` on a model class, or on every
    /// model when `model` is nil.
    public func register<C: JSONConverter>(_ converter: C, for type: C.Value.Type, in model: JSONModel.Type? = nil) {
        converters.append { $0.register(converter, for: type, in: model) }
    }

    /// Registers a converter for every property of type `type` on a schema model.
    public func register<C: JSONConverter>(_ converter: C, for type: C.Value.Type, inModelNamed model: String) {
        converters.append { $0.register(converter, for: type, inModelNamed: model) }
    }

    /// Registers a converter for one property of a model class.
    public func register<C: JSONConverter>(_ converter: C, forProperty name: String, of model: JSONModel.Type) {
        converters.append { $0.register(converter, forProperty: name, of: model) }
    }

    /// Registers a converter for one property of a schema model.
    public func register<C: JSONConverter>(_ converter: C, forProperty name: String, ofModelNamed model: String) {
        converters.append { $0.register(converter, forProperty: name, ofModelNamed: model) }
    }
}

@available(*, unavailable)
extension PluginRegistrar: Sendable {}
