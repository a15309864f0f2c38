/// What a plugin registers, kept aside until the host commits it all or none.
///
/// A plugin gets one in its entry point (``JSONModelPlugin/register(hostABIVersion:pluginABIVersion:registrar:_:)``)
/// and registers through it as it would through ``ModelRegistry``, naming models by the names
/// they are registered under. Nothing takes effect until the entry point has returned and the
/// host has checked everything: names free, declarations valid, schemas valid against the
/// registry and the plugin's own classes.
///
/// ```swift
/// plugin.register(Vehicle.self)                          // under its name, "Vehicle"
/// plugin.register(Car.self)
/// plugin.register(CentsConverter(), named: "cents")
/// try plugin.register(ModelSchema(json: fleetSchema))  // may use Vehicle and "cents"
/// ```
public final class PluginRegistrar {
    /// The library being loaded, for messages.
    let pluginPath: String

    /// Model classes by name, in registration order.
    var classes: [(name: String, type: JSONModel.Type)] = []
    /// Schemas, in registration order.
    var schemas: [ModelSchema] = []
    /// Converter registrations, applied to the target registry on commit with a lookup of the
    /// model classes by name (the plugin's, then the registry's).
    var converters: [(ModelRegistry, (String) -> JSONModel.Type?) -> Void] = []
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

    /// Registers a converter under a name that declarations (`converter: "cents"`) and schemas
    /// (`"converter": "cents"`) refer to.
    public func register<C: JSONConverter>(_ converter: C, named name: String) {
        converters.append { registry, _ in registry.register(converter, named: name) }
    }

    /// Registers a converter for every property of type `type` of the model named `model`, or
    /// of every model when `model` is nil.
    ///
    /// The model is named as it is registered, whether a class (the plugin's or the host's,
    /// whose subclasses the converter covers too) or a schema model.
    ///
    /// ```swift
    /// plugin.register(CentsConverter(), for: Double.self, inModelNamed: "Fleet")
    /// ```
    public func register<C: JSONConverter>(_ converter: C, for type: C.Value.Type, inModelNamed model: String? = nil) {
        converters.append { registry, modelClass in
            if let model, let modelClass = modelClass(model) {
                registry.register(converter, for: type, in: modelClass)
            } else if let model {
                registry.register(converter, for: type, inModelNamed: model)
            } else {
                registry.register(converter, for: type)
            }
        }
    }

    /// Registers a converter for the property `name` of the model named `model`: a class (the
    /// plugin's or the host's, whose subclasses the converter covers too) or a schema model.
    ///
    /// It wins over what the property's declaration asks for; for a model of the plugin's own,
    /// the declaration's `converter` option says the same where the model is declared.
    public func register<C: JSONConverter>(_ converter: C, forProperty name: String, ofModelNamed model: String) {
        converters.append { registry, modelClass in
            if let modelClass = modelClass(model) {
                registry.register(converter, forProperty: name, of: modelClass)
            } else {
                registry.register(converter, forProperty: name, ofModelNamed: model)
            }
        }
    }
}

@available(*, unavailable)
extension PluginRegistrar: Sendable {}
