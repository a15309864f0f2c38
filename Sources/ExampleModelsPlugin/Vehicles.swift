import JSONModelKit

/// A vehicle of a fleet; the JSON's `kind` picks the class: `"car"` a ``Car``, `"truck"` a ``Truck``.
///
/// The JSONModelAccessors plugin gives these classes typed members for the plugin's own code.
/// The host knows none of them: it creates them by name (`"Vehicle"`) and reads them by name,
/// through `jsonModel.dynamic`.
class Vehicle: JSONModel, @unchecked Sendable {
    // @unchecked Sendable: restated from JSONModel, whose state is behind its lock;
    // these classes add no stored properties.
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
        p.kind(String.self)
        p.wheels(Int.self, default: 4)
    }

    override class func modelClass(for json: JSONView) -> JSONModel.Type {
        switch json["kind"]?.stringValue {
        case "car": Car.self
        case "truck": Truck.self
        default: self
        }
    }
}

/// A vehicle with seats.
final class Car: Vehicle, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.seats(Int.self, default: 5)
    }
}

/// A vehicle with a payload, in kilograms.
final class Truck: Vehicle, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.payload(Double.self, jsonPath: "payload_kg")
    }
}
