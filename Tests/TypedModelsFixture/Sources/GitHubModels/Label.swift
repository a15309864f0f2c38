import JSONModelKit

/// A label of an issue.
public final class Label: JSONModel, @unchecked Sendable {
    public override class func properties(_ p: PropertyRegistrar) {
        p.id(Int64.self, readOnly: true)
        p.name(String.self)
        p.color(String.self)
        p.description(String?.self)
        p.isDefault(Bool.self, jsonPath: "default")
    }
}
