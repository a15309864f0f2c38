// The error of a schema, here because the registry's own checks throw it too: a model class
// registered under a name a schema model has.

/// A mistake in a schema, naming where it is.
public struct ModelSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The model at fault, when known.
    public var model: String?
    /// The property at fault, when known.
    public var property: String?
    /// The schema file, when the schema came from one.
    public var file: String?

    package init(_ message: String, model: String? = nil, property: String? = nil, file: String? = nil) {
        self.message = message
        self.model = model
        self.property = property
        self.file = file
    }

    public var description: String {
        var place = [file, model.map { m in property.map { "\(m).\($0)" } ?? m }].compactMap { $0 }.joined(separator: ": ")
        if !place.isEmpty { place += ": " }
        return "schema error: \(place)\(message)"
    }
}
