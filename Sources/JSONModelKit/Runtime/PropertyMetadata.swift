import JSONModelKitCore

// What the engine keeps of one declared property, and the Swift type its values are stored as.

/// Everything the engine knows about one declared property.
///
/// A class, so the read path passes one reference around instead of copying a dozen fields.
final class PropertyMetadata: Sendable {
    /// The position of the property in its model's ``ModelMetadata/properties``
    /// (inherited ones first); also its cache slot.
    let ordinal: Int
    /// The property's name.
    let name: String
    /// The property's type.
    let type: PropertyType
    /// Where the value is: the first present path wins on read, writes go to the first.
    let paths: [JSONPath]
    /// The declared default as JSON, or nil when none was declared.
    let declaredDefault: JSONValue?
    /// The other options.
    let options: PropertyOptions
    /// The class whose registration block declared the property.
    let declaringModel: String
    /// Whether a missing or `null` value records a ``ModelDiagnostic/Kind/missingRequired``
    /// diagnostic: declared `required`, or a non-optional without a declared default in a model
    /// that requires non-optionals (``ModelMetadata/requiresNonOptionals``).
    let isRequired: Bool

    /// The Swift type that converts values of this property.
    let valueType: any PropertyValue.Type
    /// The default as a Swift value when it can be shared; nil when it must be
    /// converted from `defaultJSON` for each model (defaults holding models).
    let storedDefault: (any Sendable)?
    /// The default as JSON, declared or natural; nil for nil (optionals).
    let defaultJSON: JSONValue?
    /// What a value that is present but does not convert reads, when declared apart from the
    /// default (`defaultIfInvalid`); nil when such a value reads the default.
    let invalidDefault: InvalidValueDefault?
    /// Whether declared defaults are JSON in the form the property stores (a schema's), which a
    /// registered converter reads: then ``storedDefault`` and the invalid default's `stored`
    /// are the engine's own reading, and a property that has a converter reads a declared
    /// default's JSON through it (``JSONModel/defaultValue(of:stored:json:followsConverter:context:)``);
    /// a natural default stays the engine's. Converters may be registered after the metadata is
    /// built: by a plugin after its schemas, or by the host.
    let defaultsFollowConverter: Bool
    /// The schema model the type refers to, resolved by name when read.
    let schemaModel: SchemaModelReference?
    /// The converter lookup's cached choice for this property (PropertyConversion.swift).
    let conversion: PropertyConversion
    /// The first read without a conversion context, for plain scalars (`ScalarFirstRead.swift`).
    let scalarFirstRead: ScalarFirstRead?
    /// The same read storing the value in the model's slots, for values that can be (``InlineLayout``);
    /// for a converted value, the only first read (ConvertedFirstRead.swift).
    let inlineFirstRead: InlineFirstRead?
    /// Whether the property has a first read of either kind, so the object walk finds its member.
    let hasFirstRead: Bool
    /// The lazy collection the property stores, when it stores one (not an optional of one): a
    /// typed read as the Swift collection bridges through it without a conformance cast.
    let lazyCollectionType: (any LazyModelCollection.Type)?
    /// The Swift collection a lazy collection stands for (`[Item]` for `ModelArray<Item>`): a
    /// typed read as it is found by comparing identities, where the collection's own generic
    /// code would look the type up at run time.
    let declaredCollectionType: ObjectIdentifier?
    /// For a property with a first read of a lazy array: the read that builds every element,
    /// taken when the read asks for ``declaredCollectionType``.
    var builtArrayFirstRead: (any BuiltArrayFirstReadable.Type)? { scalarFirstRead != nil ? lazyArrayType : nil }
    /// For a property that stores a lazy array: the array type, which reads the Swift array of
    /// one in an entry (``BuiltArrayFirstReadable/declaredArray(of:as:)``).
    let lazyArrayType: (any BuiltArrayFirstReadable.Type)?
    /// The class of that array's storage, found once here rather than on every read.
    let lazyArrayStorageClass: AnyClass?
    /// The class of the property's cache entries (`CacheBox` of its stored type).
    let entryType: CacheEntry.Type

    init(
        ordinal: Int, name: String, type: PropertyType, paths: [JSONPath], declaredDefault: JSONValue?,
        options: PropertyOptions, declaringModel: String, isRequired: Bool, valueType: any PropertyValue.Type,
        storedDefault: (any Sendable)?, defaultJSON: JSONValue?, schemaModel: SchemaModelReference?,
        conversion: PropertyConversion, invalidDefault: InvalidValueDefault? = nil, defaultsFollowConverter: Bool = false
    ) {
        self.invalidDefault = invalidDefault
        self.defaultsFollowConverter = defaultsFollowConverter
        self.ordinal = ordinal
        self.name = name
        self.type = type
        self.paths = paths
        self.declaredDefault = declaredDefault
        self.options = options
        self.declaringModel = declaringModel
        self.isRequired = isRequired
        self.valueType = valueType
        self.storedDefault = storedDefault
        self.defaultJSON = defaultJSON
        self.schemaModel = schemaModel
        self.conversion = conversion
        // With no declared default, an optional's default is nil; not required, nil comes
        // without a diagnostic.
        let absentReadsNil = declaredDefault == nil && !isRequired
        let firstRead = Self.scalarFirstRead(type: type, paths: paths, options: options, absentReadsNil: absentReadsNil)
        self.entryType = valueType.cacheEntryType
        self.scalarFirstRead = firstRead?.boxed
        self.inlineFirstRead = firstRead?.inline ?? Self.convertedFirstRead(
            type: type, paths: paths, options: options, absentReadsNil: absentReadsNil, entryType: entryType)
        self.hasFirstRead = inlineFirstRead != nil || scalarFirstRead != nil
        // Asked of arrays and dictionaries only: a conformance that does not exist is looked for
        // through every conformance record of the process, once per type.
        switch type {
        case .array, .dictionary: self.lazyCollectionType = valueType as? any LazyModelCollection.Type
        default: self.lazyCollectionType = nil
        }
        declaredCollectionType = lazyCollectionType == nil ? nil : ObjectIdentifier(type.swiftType)
        // Asked only of lazy arrays, which all conform: a conformance that does not exist is
        // looked for through every conformance record of the process.
        if case .array = type, lazyCollectionType != nil {
            lazyArrayType = valueType as? any BuiltArrayFirstReadable.Type
        } else {
            lazyArrayType = nil
        }
        lazyArrayStorageClass = lazyArrayType?.builtStorageClass
    }
}

/// The value a property reads when its JSON holds a value that does not convert, declared apart
/// from its default with `defaultIfInvalid`.
struct InvalidValueDefault: Sendable {
    /// The value, when it can be shared; nil when it holds models, converted for each model.
    let stored: (any Sendable)?
    /// The value as JSON.
    let json: JSONValue
}

extension PropertyType {
    /// The Swift type a property of this type is stored as: lazy collections for arrays and
    /// dictionaries of models (also when optional), `swiftType` otherwise.
    var storageType: any PropertyValue.Type {
        switch self {
        case .array(.model(let element)): return Self.lazyStorage(of: element).lazyArrayType
        case .array(.schemaModel): return Self.lazyStorage(of: DynamicModel.self).lazyArrayType
        case .dictionary(.model(let value)): return Self.lazyStorage(of: value).lazyDictionaryType
        case .dictionary(.schemaModel): return Self.lazyStorage(of: DynamicModel.self).lazyDictionaryType
        case .optional(let wrapped):
            switch wrapped {
            case .array(.model), .array(.schemaModel), .dictionary(.model), .dictionary(.schemaModel):
                return Self.optionalStorage(of: wrapped.storageType)
            default: return swiftType
            }
        default: return swiftType
        }
    }

    /// The lazy collections of `model`'s class: every model class has them (Collections/).
    private static func lazyStorage(of model: JSONModel.Type) -> any LazyCollectionStorage.Type {
        // Found at run time, not assumed here: the conformance is Collections' to declare.
        let type: Any.Type = model
        guard let storage = type as? any LazyCollectionStorage.Type else {
            preconditionFailure("\(model) has no lazy collections: Collections/ makes every model class a LazyCollectionStorage")
        }
        return storage
    }

    private static func optionalStorage<Wrapped: PropertyValue>(of _: Wrapped.Type) -> any PropertyValue.Type {
        Wrapped?.self
    }
}

/// The lazy collections (Collections/) that store arrays and dictionaries of a model class's
/// models: declared here and adopted there by every model class, so that the metadata chooses
/// each property's storage without naming the collection types. (Not constrained to
/// ``JSONModel``: then a call through it would bind to the adopting class's own members.)
protocol LazyCollectionStorage {
    /// `ModelArray<Self>`.
    static var lazyArrayType: any PropertyValue.Type { get }
    /// `ModelDictionary<Self>`.
    static var lazyDictionaryType: any PropertyValue.Type { get }
}

extension PropertyValue {
    /// `implicitDefault`, boxed.
    static var implicitDefaultAny: (any Sendable)? { implicitDefault }
}
