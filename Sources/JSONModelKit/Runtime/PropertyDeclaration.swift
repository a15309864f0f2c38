import JSONModelKitCore

// A property as a registration block or a schema declares it, with its options: what
// ModelMetadata.swift assembles into a model's metadata and checks.

/// Options of a declared property besides its name, type, paths and default.
struct PropertyOptions: Sendable, Hashable {
    /// Whether output for other systems (``JSONOutputOptions/omitNonSerialized``) includes the property.
    var serialize: Bool
    /// Whether writes are refused; two properties may share a JSON key only if all but one are read-only.
    var readOnly: Bool
    /// The valid strings of a `String` property: known values read as one shared string each.
    var enumValues: [String]?
    /// The date format of a `Date` property (ISO 8601 when nil); `"MM/dd/yyyy"` reads as a pattern.
    var dateFormat: DateFormat?
    /// For an embedded array: where each element's value sits inside the element (`"node"` reads
    /// `[{"node": {…}}]`).
    var embedPath: JSONPath?
    /// The converter the declaration names: a registered name (`"hexColor"`) or an instance.
    var converter: ConverterReference? { converterStorage.map(ConverterReference.init(storage:)) }
    /// What ``converter`` holds, in the form options compare and hash by.
    private var converterStorage: ConverterReference.Storage?
    /// Whether the value is an identifier resolved through the object store registered for its type.
    var cachedObject: Bool
    /// The name under which each child model of this property refers back to its parent
    /// (weakly; see `JSONModel+Relationships.swift`).
    var inverse: String?
    /// Whether the property is a property group: a submodel over its parent's own object.
    var group: Bool
    /// Whether the JSON must hold a value: a missing or `null` value still reads the default,
    /// and records a ``ModelDiagnostic/Kind/missingRequired`` diagnostic. An optional cannot be
    /// required.
    var required: Bool

    /// Creates options; every argument has the default a plain declaration gets.
    init(
        serialize: Bool = true, readOnly: Bool = false, enumValues: [String]? = nil, dateFormat: DateFormat? = nil,
        embedPath: JSONPath? = nil, converter: ConverterReference? = nil, cachedObject: Bool = false,
        inverse: String? = nil, group: Bool = false, required: Bool = false
    ) {
        self.serialize = serialize
        self.readOnly = readOnly
        self.enumValues = enumValues
        self.dateFormat = dateFormat
        self.embedPath = embedPath
        self.converterStorage = converter?.storage
        self.cachedObject = cachedObject
        self.inverse = inverse
        self.group = group
        self.required = required
    }
}

/// One property as declared, before the class's metadata is assembled.
///
/// The registration block produces these; a schema loaded at run time can
/// produce them too, so both end up in the same ``ModelMetadata``.
struct PropertyDeclaration: Sendable, Equatable {
    /// The property's name, used with the member syntax.
    var name: String
    /// The property's type.
    var type: PropertyType
    /// Where the value is: the first present path wins on read, writes go to the first.
    var paths: [JSONPath]
    /// The declared default as JSON, or nil for the type's natural default.
    var defaultValue: JSONValue?
    /// The value read instead when the JSON holds a value that does not convert, as JSON; nil
    /// when such a value reads ``defaultValue`` too.
    var defaultIfInvalid: JSONValue?
    /// Whether the defaults were given as Swift values of a built-in type (in a registration
    /// block) and are that JSON in the type's own form, not in what the property's converter
    /// stores: a schema's defaults are the stored JSON itself.
    var defaultsAreValues = false
    /// The other options.
    var options: PropertyOptions

    /// A problem found while declaring (an unsupported Swift type).
    var problem: String?
    /// Whether no path was declared, so the key is the name in the model's ``KeyStyle``.
    var keyFollowsName: Bool

    /// Creates a declaration; `paths` empty means the property's name as a single key.
    init(
        name: String, type: PropertyType, paths: [JSONPath] = [], defaultValue: JSONValue? = nil,
        options: PropertyOptions = PropertyOptions(), defaultIfInvalid: JSONValue? = nil
    ) {
        self.name = name
        self.type = type
        self.paths = paths.isEmpty ? [JSONPath([.key(name)])] : paths
        self.defaultValue = defaultValue
        self.defaultIfInvalid = defaultIfInvalid
        self.options = options
        self.keyFollowsName = paths.isEmpty
    }

    static func == (lhs: PropertyDeclaration, rhs: PropertyDeclaration) -> Bool {
        lhs.name == rhs.name && lhs.type == rhs.type && lhs.paths == rhs.paths
            && lhs.defaultValue == rhs.defaultValue && lhs.defaultIfInvalid == rhs.defaultIfInvalid
            && lhs.options == rhs.options && lhs.problem == rhs.problem
            && lhs.keyFollowsName == rhs.keyFollowsName && lhs.defaultsAreValues == rhs.defaultsAreValues
    }

    /// The declaration with its key in `style`, when no path was declared (and it is not a
    /// property group, which reads its parent's own object).
    func keyed(in style: KeyStyle) -> PropertyDeclaration {
        guard keyFollowsName, style != .camelCase, !options.group else { return self }
        var keyed = self
        keyed.paths = [JSONPath([.key(style.key(for: name))])]
        return keyed
    }
}
