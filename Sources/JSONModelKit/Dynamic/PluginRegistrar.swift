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
    /// Converter registrations, resolved on commit with a lookup of the model classes by name
    /// (the plugin's, then the registry's) into the registrations the registry takes.
    var converters: [((String) -> JSONModel.Type?) -> ConverterTable.Registration] = []
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
    ///
    /// The name must be free in the registry: a plugin adds converters, and never replaces one
    /// that the host or another plugin registered.
    public func register<C: JSONConverter>(_ converter: C, named name: String) {
        converters.append { _ in .named(name, converter) }
    }

    /// Registers a converter for every property of type `type` of the model named `model`, or
    /// of every model when `model` is nil.
    ///
    /// No converter may be registered for that type and model already. One for every model
    /// reaches the host's models too, wherever a property of that type has no converter of its
    /// own.
    ///
    /// The model is named as it is registered, whether a class (the plugin's or the host's,
    /// whose subclasses the converter covers too) or a schema model (and the models extending it).
    ///
    /// ```swift
    /// plugin.register(CentsConverter(), for: Double.self, inModelNamed: "Fleet")
    /// ```
    public func register<C: JSONConverter>(_ converter: C, for type: C.Value.Type, inModelNamed model: String? = nil) {
        converters.append { modelClass in
            .type(converter, in: model.map { ModelKey(named: $0, class: modelClass($0)) }, name: model)
        }
    }

    /// Registers a converter for the property `name` of the model named `model`: a class (the
    /// plugin's or the host's, whose subclasses the converter covers too) or a schema model (and the
    /// models extending it).
    ///
    /// It wins over what the property's declaration asks for; for a model of the plugin's own,
    /// the declaration's `converter` option says the same where the model is declared. No
    /// converter may be registered for that property already.
    public func register<C: JSONConverter>(_ converter: C, forProperty name: String, ofModelNamed model: String) {
        converters.append { modelClass in
            .property(name, converter, in: ModelKey(named: model, class: modelClass(model)), name: model)
        }
    }
}

extension PluginRegistrar {
    /// The schema properties whose defaults would be read through a converter the plugin
    /// registers by name (`registrations`), as problems.
    ///
    /// A schema model's defaults are checked when its metadata is built, which is before the
    /// plugin's converters are in the registry: such a default could be checked only without
    /// its converter, as another value. Refused rather than registered unchecked.
    func defaultsThroughOwnConverters(_ registrations: [ConverterTable.Registration]) -> [String] {
        let ownNames = Set(registrations.compactMap { registration -> String? in
            if case .named(let name) = registration.change { name } else { nil }
        })
        return schemas.flatMap(\.models).flatMap { model in
            model.properties.compactMap { property -> String? in
                guard let converter = property.converter, ownNames.contains(converter),
                    property.defaultValue != nil || property.defaultIfInvalid != nil
                else { return nil }
                return "\(model.name).\(property.name): a default cannot be read through the plugin's own converter "
                    + "\"\(converter)\", which the registry has only once the plugin is loaded"
            }
        }
    }
}

@available(*, unavailable)
extension PluginRegistrar: Sendable {}
