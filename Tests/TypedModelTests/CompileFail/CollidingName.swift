import JSONModelKit

// `description` is a member of JSONModel: the generator refuses it.

final class Product: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
        p.description(String.self)
    }
}
