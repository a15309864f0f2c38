import JSONModelKitCore

/// Collects a model class's property declarations in its registration block.
///
/// Override ``JSONModel/properties(_:)`` and declare one property per line;
/// the member name is the property name:
///
/// ```swift
/// final class User: JSONModel, @unchecked Sendable {
///     override class func properties(_ p: PropertyRegistrar) {
///         p.firstName(String.self, jsonPath: "first_name")
///         p.age(Int.self, default: 18)
///         p.login(String.self, required: true)
///         p.id(Int64.self, anyOf: ["id", "objectId", "object_id"])
///         p.add("not-an-identifier", String?.self)
///     }
/// }
/// ```
///
/// Calling `super.properties(p)` is allowed but not needed: the registry reads
/// each class of the hierarchy on its own.
///
/// A property may not be named like a member of ``JSONModel``
/// (``JSONModel/reservedPropertyNames``): declare `p.digest(String.self, jsonPath: "hash")`,
/// not `p.hash(String.self)`.
@dynamicMemberLookup
public final class PropertyRegistrar {
    /// The declarations so far, in order.
    private(set) var declarations: [PropertyDeclaration] = []

    init() {}

    /// A declarator for the property `name`; call it with the type and options.
    public subscript(dynamicMember name: String) -> PropertyDeclarator {
        PropertyDeclarator(registrar: self, name: name)
    }

    /// Declares a property whose name is not a Swift identifier (or clashes with `add`).
    ///
    /// - Parameters:
    ///   - name: The property name, used by the member syntax and the dynamic API.
    ///   - type: The Swift type: an integer, `Double`, `Float`, `Bool`, `String`,
    ///     `Decimal`, `URL`, `UUID`, `Data`, `Date`, `JSONValue`, a model class, or an
    ///     optional, array or `[String: …]` dictionary of those; or a `Sendable` type of yours
    ///     that an enum raw value, `JSONConvertible`, a registered converter or `Codable`
    ///     converts (with its optional, array or `[String: …]` dictionary when `Codable`).
    ///   - jsonPath: Where the value is; the property name by default. Dotted text
    ///     (`"user.address.city"`) nests. A path naming the root (`"$"`), a negative index
    ///     or one above 10,000 is a declaration problem.
    ///   - anyOf: Alternative paths: the first present wins on read, writes go to the first.
    ///   - default: The value when the JSON lacks one; otherwise nil for optionals,
    ///     zero, empty, or an empty model. Also the value when the JSON holds one that does not
    ///     convert, unless `defaultIfInvalid` says otherwise.
    ///   - defaultIfInvalid: The value when the JSON holds a value that does not convert (a
    ///     diagnostic is recorded all the same), so that a missing value and a wrong one read
    ///     apart: `p.age(Int?.self, defaultIfInvalid: -1)` reads nil for a missing age and -1
    ///     for `"age": "old"`.
    ///   - required: Whether the JSON must hold a value: a missing or `null` value reads the
    ///     default and records a ``ModelDiagnostic/Kind/missingRequired`` diagnostic, so
    ///     ``JSONModelView/validate(strict:)`` throws. Declaring an optional required is a declaration problem.
    ///   - serialize: Whether ``JSONOutputOptions/omitNonSerialized`` output includes the property.
    ///   - readOnly: Whether writes are refused.
    ///   - enumValues: Valid strings of a `String` property; known values read as one shared string each.
    ///   - dateFormat: The format of a `Date`: `.iso8601` (the default), `.secondsSince1970`,
    ///     `.millisecondsSince1970`, or a pattern such as `"MM/dd/yyyy"`; see ``DateFormat``.
    ///   - embedPath: For an embedded array, where each element's value sits inside the
    ///     element: `"node"` reads `[{"node": {…}}]`.
    ///   - converter: A registered converter's name (`"hexColor"`), or `.using(someConverter)`.
    ///   - cachedObject: Whether the JSON holds an id resolved by the ``JSONObjectStore`` registered for the type.
    ///   - inverse: For a model or `[Model]` property: the name under which each child refers
    ///     back to this model (weakly), read with ``JSONModelView/inverse(_:as:)``.
    ///   - group: For a model property: a property group, reading the parent's own object.
    public func add<T: Sendable>(
        _ name: String, _ type: T.Type, jsonPath: JSONPath? = nil, anyOf: [JSONPath]? = nil, default: T? = nil,
        defaultIfInvalid: T? = nil, required: Bool = false, serialize: Bool = true, readOnly: Bool = false, enumValues: [String]? = nil,
        dateFormat: DateFormat? = nil, embedPath: JSONPath? = nil, converter: ConverterReference? = nil, cachedObject: Bool = false,
        inverse: String? = nil, group: Bool = false
    ) {
        var paths: [JSONPath] = []
        if let jsonPath { paths.append(jsonPath) }
        if let anyOf { paths += anyOf.filter { !paths.contains($0) } }
        let options = PropertyOptions(
            serialize: serialize, readOnly: readOnly, enumValues: enumValues, dateFormat: dateFormat,
            embedPath: embedPath, converter: converter, cachedObject: cachedObject,
            inverse: inverse, group: group, required: required)

        guard let valueType = type as? any PropertyValue.Type else {
            // The user's own type (an enum, a JSONConvertible, a type with a registered converter).
            if let custom = CustomValueType.descriptor(for: T.self) {
                let shared = ModelRegistry.shared.converters
                let converter = custom.builtin
                    ?? shared.converter(forType: ObjectIdentifier(custom.baseType), in: nil)
                    ?? custom.elementConverter { shared.converter(forType: $0, in: nil) }
                var declaration = PropertyDeclaration(name: name, type: .custom(custom), paths: paths, options: options)
                for (value, option) in [(`default`, "default"), (defaultIfInvalid, "defaultIfInvalid")] {
                    guard let value else { continue }
                    guard let json = custom.json(of: value, with: converter, replacing: nil) ?? nil else {
                        declaration.problem = "the \(option) of \(T.self) has no JSON: conform \(custom.elementBaseType) to JSONConvertible or register its converter first"
                        break
                    }
                    if option == "default" { declaration.defaultValue = json } else { declaration.defaultIfInvalid = json }
                }
                // A type of the user's is no model: `group` and `embedPath` are problems here too.
                let problem = declaration.problem
                declaration = declaration.checkingStructure()
                if let problem { declaration.problem = problem }
                declarations.append(declaration)
                return
            }
            var declaration = PropertyDeclaration(name: name, type: .json, paths: paths, options: options)
            declaration.problem = "the type \(T.self) is not supported"
            declarations.append(declaration)
            return
        }
        var defaultJSON: JSONValue?
        if let value = `default` {
            defaultJSON = valueType.jsonValue(ofAny: value, replacing: nil) ?? nil
        }
        var invalidJSON: JSONValue?
        if let value = defaultIfInvalid {
            invalidJSON = valueType.jsonValue(ofAny: value, replacing: nil) ?? nil
        }
        var declaration = PropertyDeclaration(
            name: name, type: valueType.propertyType, paths: paths, defaultValue: defaultJSON, options: options,
            defaultIfInvalid: invalidJSON)
        declaration.defaultsAreValues = true
        declarations.append(declaration.checkingStructure())
    }
}

@available(*, unavailable)
extension PropertyRegistrar: Sendable {}

/// The callable a registration block gets for `p.someName`; call it to declare `someName`.
public struct PropertyDeclarator {
    let registrar: PropertyRegistrar
    let name: String

    /// Declares the property; see ``PropertyRegistrar/add(_:_:jsonPath:anyOf:default:defaultIfInvalid:required:serialize:readOnly:enumValues:dateFormat:embedPath:converter:cachedObject:inverse:group:)``
    /// for the parameters.
    public func callAsFunction<T: Sendable>(
        _ type: T.Type, jsonPath: JSONPath? = nil, anyOf: [JSONPath]? = nil, default: T? = nil,
        defaultIfInvalid: T? = nil, required: Bool = false, serialize: Bool = true, readOnly: Bool = false, enumValues: [String]? = nil,
        dateFormat: DateFormat? = nil, embedPath: JSONPath? = nil, converter: ConverterReference? = nil, cachedObject: Bool = false,
        inverse: String? = nil, group: Bool = false
    ) {
        registrar.add(
            name, type, jsonPath: jsonPath, anyOf: anyOf, default: `default`, defaultIfInvalid: defaultIfInvalid,
            required: required,
            serialize: serialize, readOnly: readOnly, enumValues: enumValues, dateFormat: dateFormat, embedPath: embedPath,
            converter: converter, cachedObject: cachedObject, inverse: inverse, group: group)
    }
}

@available(*, unavailable)
extension PropertyDeclarator: Sendable {}
