// The contract between a host and a plugin: one C entry point and an ABI version.
//
// A plugin is a shared library that exports
//
//     int32_t jsonmodelkit_plugin_entry(int32_t host_abi_version, void *registrar);
//
// The host (``ModelRegistry/loadPlugin(at:)``) calls it once with its ABI version and an
// opaque registrar. The plugin registers its models, converters and schemas through the
// registrar only when the versions are equal, and returns the version it was built for (or
// `JSONModelPlugin.unrecognizedRegistrar` when the registrar belongs to another copy of
// JSONModelKit than the one the plugin runs). The host then commits what was registered, or
// nothing. Plugins write the entry point in Swift with ``JSONModelPlugin/register(hostABIVersion:pluginABIVersion:registrar:_:)``.

/// The plugin entry point's contract, and the helper that implements a plugin's side of it.
///
/// A plugin's entry point, in full:
///
/// ```swift
/// import JSONModelKit
///
/// @_cdecl("jsonmodelkit_plugin_entry")
/// public func jsonModelKitPluginEntry(_ hostABIVersion: Int32, _ registrar: UnsafeMutableRawPointer?) -> Int32 {
///     JSONModelPlugin.register(
///         hostABIVersion: hostABIVersion, pluginABIVersion: JSONModelPlugin.abiVersion, registrar: registrar
///     ) { plugin in
///         plugin.register(Vehicle.self)
///         plugin.register(CentsConverter(), named: "cents")
///         try plugin.register(ModelSchema(json: fleetSchema))
///     }
/// }
/// ```
///
/// The plugin must leave JSONModelKit's symbols to the host (see the build recipe in the Schemas and plugins article of the documentation):
/// a plugin with its own copy of JSONModelKit is refused, because its classes would not be the
/// host's `JSONModel`.
public enum JSONModelPlugin {
    /// The name of the C function every plugin exports.
    static let entryPointName = "jsonmodelkit_plugin_entry"

    /// The C type of the entry point: `int32_t (int32_t host_abi_version, void *registrar)`.
    typealias EntryPoint = @convention(c) (Int32, UnsafeMutableRawPointer?) -> Int32

    /// The version of the plugin ABI: the entry point's contract and the registrar's API.
    ///
    /// Compiled into each plugin (the body is emitted into the client), so a plugin passes
    /// the version it was built against even though it calls the host's JSONModelKit. It
    /// changes whenever a plugin built before the change could misbehave in a newer host.
    @_alwaysEmitIntoClient
    public static var abiVersion: Int32 { 1 }

    /// What the entry point returns when the registrar is not an object of the JSONModelKit
    /// the plugin runs: the plugin carries its own copy of JSONModelKit.
    static let unrecognizedRegistrar: Int32 = -1

    /// Implements a plugin's entry point: checks the versions, then lets `body` register.
    ///
    /// `body` runs only when `hostABIVersion == pluginABIVersion` and `registrar` is the host's
    /// registrar; what it registers is kept aside and registered by the host after the entry
    /// point returns, all or none. An error thrown by `body` makes the host register nothing
    /// and report the error.
    ///
    /// - Parameters:
    ///   - hostABIVersion: The entry point's first argument.
    ///   - pluginABIVersion: Always ``abiVersion``, written in the plugin's source so that the
    ///     plugin's own value is passed.
    ///   - registrar: The entry point's second argument.
    ///   - body: Registers the plugin's models, converters and schemas. It should not call
    ///     ``ModelRegistry`` directly. Loading a plugin on its own thread is refused; another
    ///     thread may load plugins while it waits (the loader holds no lock while plugin code
    ///     runs), but a load of the plugin's own library waits for this one and gives up with
    ///     ``PluginLoadError/loadInProgress(path:)``.
    /// - Returns: The value the entry point returns: `pluginABIVersion`, or -1 when `registrar`
    ///   belongs to another copy of JSONModelKit than the one the plugin runs.
    public static func register(
        hostABIVersion: Int32, pluginABIVersion: Int32, registrar: UnsafeMutableRawPointer?,
        _ body: (PluginRegistrar) throws -> Void
    ) -> Int32 {
        guard hostABIVersion == pluginABIVersion else { return pluginABIVersion }
        // The object is cast through the Swift runtime, which host and plugin share; the cast
        // fails when this code belongs to another copy of JSONModelKit than the host's.
        guard let registrar, let host = Unmanaged<AnyObject>.fromOpaque(registrar).takeUnretainedValue() as? PluginRegistrar
        else { return unrecognizedRegistrar }
        do {
            try body(host)
        } catch {
            host.failure = "\(error)"
        }
        return pluginABIVersion
    }
}
