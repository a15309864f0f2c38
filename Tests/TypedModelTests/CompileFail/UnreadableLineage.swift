import JSONModelKit

// A class and its subclass whose registration blocks each hold a statement the generator cannot
// read: the base is given DynamicMembers, and the subclass inherits it (a second conformance
// would not build).

class Vehicle: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.wheels(Int.self)
        #if DEBUG
        p.trace(String?.self)
        #endif
    }
}

final class Truck: Vehicle, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.load(Double.self)
        #if DEBUG
        p.debugLoad(Double?.self)
        #endif
    }
}
