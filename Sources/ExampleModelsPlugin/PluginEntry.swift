import JSONModelKit

// The example plugin: a polymorphic family of compiled models (Vehicle, Car, Truck), a
// converter named "cents", and a schema model (Fleet) that uses both.
//
// Build it leaving JSONModelKit's symbols to the host (the Schemas and plugins article of the documentation), with the typed
// members the JSONModelAccessors plugin would generate:
//     jsonmodel accessors Sources/ExampleModelsPlugin/*.swift > Accessors.swift
//     swiftc -emit-library -module-name ExampleModelsPlugin -I <build>/Modules \
//         -Xcc -fmodule-map-file=<build>/JSONModelKitAtomics.build/module.modulemap \
//         -Xcc -fmodule-map-file=<build>/JSONModelKitUTF8.build/module.modulemap \
//         Sources/ExampleModelsPlugin/*.swift Accessors.swift -o libExampleModelsPlugin.so

/// The schema model the plugin brings: a fleet of the plugin's vehicles, with a budget in cents.
let fleetSchema = #"""
    {"models": [{"name": "Fleet", "properties": [
        {"name": "owner", "type": "String"},
        {"name": "vehicles", "type": "[Vehicle]"},
        {"name": "flagship", "type": "Vehicle?"},
        {"name": "budget", "type": "Double", "converter": "cents"}]}]}
    """#

/// The entry point the host looks up; see `JSONModelPlugin`.
@_cdecl("jsonmodelkit_plugin_entry")
public func jsonModelKitPluginEntry(_ hostABIVersion: Int32, _ registrar: UnsafeMutableRawPointer?) -> Int32 {
    JSONModelPlugin.register(
        hostABIVersion: hostABIVersion, pluginABIVersion: JSONModelPlugin.abiVersion, registrar: registrar
    ) { plugin in
        plugin.register(Vehicle.self)
        plugin.register(Car.self)
        plugin.register(Truck.self)
        plugin.register(CentsConverter(), named: "cents")
        plugin.register(try ModelSchema(json: fleetSchema))
    }
}
