/// Member syntax for any property name, checked when the program runs instead of when it builds.
///
/// A compiled model reads its properties through the typed members that the
/// `JSONModelAccessors` build plugin (or `jsonmodel accessors`) generates from its
/// registration block, so a misspelled name or a wrong type is a build error. A model whose
/// names are known only at run time reads them through this protocol instead:
/// ``DynamicModel`` (schema models) adopts it, and a compiled class may too:
///
/// ```swift
/// final class Legacy: JSONModel, DynamicMembers, @unchecked Sendable {
///     override class func properties(_ p: PropertyRegistrar) {
///         p.age(Int.self)
///     }
/// }
/// let age: Int = legacy.age      // checked at run time
/// print(legacy.age)              // an untyped read gives a ModelValue
/// ```
///
/// Reading an undeclared name, or a declared one as the wrong type, stops the program
/// with a message that names the class and property (Objective-C's "unrecognized
/// selector"). For a reference typed ``JSONModel``, use ``JSONModelView/dynamic``.
@dynamicMemberLookup
public protocol DynamicMembers: JSONModel {}

extension DynamicMembers {
    /// Reads (or writes) a declared property with its Swift type; see ``JSONModel/subscript(property:)``.
    ///
    /// - Complexity: O(1) once cached.
    @inlinable
    public subscript<T>(dynamicMember name: String) -> T {
        @inline(__always) get { self[property: name] }
        set { self[property: name] = newValue }
    }

    /// Reads a declared property without stating its type, for logs and chaining.
    ///
    /// ```swift
    /// print("age: \(legacy.age)")                // age: 30
    /// let city: String? = legacy.address.city    // reads through a nested model
    /// ```
    public subscript(dynamicMember name: String) -> ModelValue {
        modelValue(forProperty: name)
    }
}

/// Schema models read their properties with the member syntax too (`invoice.total`). Declared
/// here rather than with the class: the member syntax reads through the model's API, which
/// builds on the engine that declares ``DynamicModel``.
extension DynamicModel: DynamicMembers {}


