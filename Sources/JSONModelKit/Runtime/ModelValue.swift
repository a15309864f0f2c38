import JSONModelKitCore

/// A property value read without a stated type: printable, and chainable
/// into nested models.
///
/// ```swift
/// print(invoice.total)                       // 12.50
/// let city: String? = invoice.customer.city  // chains through the nested model
/// let total: Decimal = invoice.total         // typed reads need no ModelValue
/// ```
///
/// Dynamic members (``DynamicMembers``, ``JSONModelView/dynamic``) return it when no type is stated.
@dynamicMemberLookup
public struct ModelValue: Sendable, CustomDebugStringConvertible {
    // Internal, like everything but the dynamic members: a public name here would hide the
    // property of that name one link further down a chain (`invoice.customer.value`).

    /// The model class the value was read from.
    let model: String
    /// The property read (a dotted path when chained); empty for ``JSONModelView/dynamic``.
    let property: String
    /// The value, nil for nil.
    let value: (any Sendable)?

    /// The value as a nested model, or nil.
    var nestedModel: JSONModel? { value as? JSONModel }

    /// Reads (or writes) a property of the nested model this value holds.
    ///
    /// Reading through a nil model gives nil when `T` is optional.
    public subscript<T>(dynamicMember name: String) -> T {
        get {
            guard let nested = nestedModel else {
                if value == nil, let none = (Optional<Any>.none as Any) as? T { return none }
                notAModel(name)
            }
            return nested[property: name]
        }
        nonmutating set {
            guard let nested = nestedModel else { notAModel(name) }
            nested[property: name] = newValue
        }
    }

    /// Reads a property of the nested model this value holds, untyped.
    public subscript(dynamicMember name: String) -> ModelValue {
        guard let nested = nestedModel else {
            if value == nil { return ModelValue(model: model, property: path(to: name), value: nil) }
            notAModel(name)
        }
        return nested.modelValue(forProperty: name)
    }

    private func path(to name: String) -> String {
        property.isEmpty ? name : "\(property).\(name)"
    }

    private func notAModel(_ name: String) -> Never {
        if value == nil {
            preconditionFailure("\(model).\(property) is nil, so it has no property '\(name)'")
        }
        preconditionFailure(
            "\(model).\(property) is \(type(of: value!)), not a model; read it with a type "
                + "(let value: \(type(of: value!)) = ….\(property)) to use its '\(name)'")
    }

    /// Whether the value is nil: `user.nickname == nil`.
    public static func == (lhs: ModelValue, rhs: _OptionalNilComparisonType) -> Bool {
        lhs.value == nil
    }

    /// Whether the value is not nil: `user.nickname != nil`.
    public static func != (lhs: ModelValue, rhs: _OptionalNilComparisonType) -> Bool {
        lhs.value != nil
    }

    /// The value as `print` would show it unwrapped; `nil` for nil.
    public var debugDescription: String {
        guard let value else { return "nil" }
        return String(describing: value)
    }
}
