import JSONModelKit

// `jsonModel` is the one member name the model's API keeps: the generator refuses it.

final class Product: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
        p.jsonModel(String.self)
    }
}
