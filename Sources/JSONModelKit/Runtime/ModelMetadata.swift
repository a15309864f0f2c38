import JSONModelKitCore

// The metadata of a model class, assembled from its declarations (PropertyDeclaration.swift)
// and checked as it is built; what it keeps of each property is PropertyMetadata.swift.

/// The metadata of one model class: its properties, inherited ones included.
///
/// Built once per class, on first use, by ``ModelRegistry``.
final class ModelMetadata: Sendable {
    /// The model's name (the class name for compiled models).
    let modelName: String
    /// The model class.
    let modelType: JSONModel.Type
    /// Every usable property, superclasses' first, in declaration order.
    let properties: [PropertyMetadata]
    /// Mistakes found in the declarations; a class with any cannot be instantiated.
    let problems: [ModelDeclarationError.Problem]
    /// Whether every non-optional property without a declared default is required
    /// (``JSONModel/requiresNonOptionals``, a schema model's `"requireNonOptionals"`), inherited
    /// properties included.
    let requiresNonOptionals: Bool
    /// Whether models compare and hash by the JSON of their declared properties only
    /// (``JSONModel/comparesDeclaredPropertiesOnly``, a schema model's
    /// `"compareDeclaredPropertiesOnly"`), not by their whole JSON object.
    let comparesDeclaredPropertiesOnly: Bool
    /// Whether `Double` and `Float` properties read the strings `"NaN"`, `"Infinity"` and
    /// `"-Infinity"`, and write those values back as those strings
    /// (``JSONModel/allowsNonFiniteNumbers``, a schema model's `"allowNonFiniteNumbers"`).
    let allowsNonFiniteNumbers: Bool

    // Names to ordinals: `rawNames` answers the member syntax's names by their bits, without
    // reading them; `nameSlots` answers every name, by a hash of its bytes. No third table.

    /// Property names by ordinal, for the lookup table.
    private let names: [String]
    /// Ordinals by the raw bits of the names, for reads with the member syntax; models keep a
    /// view of it, valid because the metadata outlives each of its models.
    let rawNames: RawNameTable
    /// Where each property's inline value lives in a model's slots; nil for values kept in entries.
    let inlineLayouts: [InlineLayout?]
    /// The bytes after the slots that inline values take.
    let inlineBytes: Int
    /// ``ImmutableModelStates/counters``, kept here for models to reach with one load.
    nonisolated(unsafe) let stateCounters = ImmutableModelStates.counters
    /// The ordinals whose inline values are models' references, bit by bit (ordinals below 64).
    let inlineModels: UInt64
    /// The keys of the properties with a first read, to find their members in one walk; nil
    /// when no property has one.
    let memberKeys: MemberKeyIndex?
    /// Open-addressing table of ordinals by a hash of the name's UTF-8 bytes; -1 is empty.
    private let nameSlots: [Int32]
    private let nameMask: Int
    /// Whether some property's type contains a model (then output options recurse).
    let hasModelProperties: Bool
    /// How a schema model picks a more specific model from the JSON (``ModelSchema``'s `discriminator`).
    let discriminator: ModelDiscriminator?
    /// The registry a schema model was built for, where the names in its property types and
    /// discriminator are looked up; nil for compiled classes.
    ///
    /// Weak, because the registry holds this metadata. The models made from it hold the
    /// registry instead (``DynamicModel``, `ElementConfiguration`): a registry and its schemas
    /// are freed once neither the program nor any of their models refers to them.
    weak let registry: ModelRegistry?

    /// Assembles metadata from declarations in order; later duplicates of a name are reported.
    ///
    /// - Parameters:
    ///   - modelName: The name used in messages and by ``ModelRegistry/modelType(named:)``.
    ///   - modelType: The class instantiated for this model.
    ///   - declarations: Each property with the name of the model that declared it.
    ///   - problems: Problems already found while collecting the declarations.
    ///   - registry: Where the names of schema models in property types are looked up.
    ///   - requiresNonOptionals: Whether non-optionals without a declared default are required.
    ///   - comparesDeclaredPropertiesOnly: Whether equality ignores keys no property reads.
    ///   - allowsNonFiniteNumbers: Whether `"NaN"` and `"Infinity"` strings read as numbers.
    ///   - lineage: For a schema model, its name and the names of the models it extends, most
    ///     derived first: converters registered for any of them reach its properties, as those
    ///     registered for a class reach its subclasses.
    init(
        modelName: String, modelType: JSONModel.Type,
        declarations: [(declaration: PropertyDeclaration, declaringModel: String)],
        problems: [ModelDeclarationError.Problem] = [], registry: ModelRegistry? = nil,
        discriminator: ModelDiscriminator? = nil, requiresNonOptionals: Bool = false,
        comparesDeclaredPropertiesOnly: Bool = false, allowsNonFiniteNumbers: Bool = false, lineage: [String] = []
    ) {
        var problems = problems
        var properties: [PropertyMetadata] = []
        var ordinals: [String: Int] = [:]
        var writers: [JSONPath: String] = [:]
        func report(_ property: String, _ message: String) {
            problems.append(ModelDeclarationError.Problem(model: modelName, property: property, message: message))
        }
        for (declaration, declaringModel) in declarations {
            let name = declaration.name
            if let problem = declaration.problem {
                report(name, problem)
                continue
            }
            if name.isEmpty {
                report(name, "a property needs a name")
                continue
            }
            if JSONModel.reservedPropertyNames.contains(name) {
                // The key stays readable under another name; suggest it when the name was the key.
                let keepKey = declaration.paths == [JSONPath([.key(name)])]
                    ? " and keep the key with jsonPath: \"\(name)\"" : ""
                report(name, "'\(name)' is a member of JSONModel; name the property otherwise\(keepKey)")
                continue
            }
            if ordinals[name] != nil {
                report(name, "'\(name)' is declared more than once")
                continue
            }
            if let problem = ModelMetadata.pathProblem(of: declaration) {
                report(name, problem)
                continue
            }
            let valueType = declaration.type.storageType
            let isOptional = declaration.type.readsNilWhenMissing
            if declaration.options.required && isOptional {
                report(name, "an optional cannot be required: a missing value reads nil; drop required or the '?'")
                continue
            }
            let isRequired = declaration.options.required
                || (requiresNonOptionals && !isOptional && declaration.defaultValue == nil && !declaration.options.group)
            if let problem = declaration.options.dateFormat?.problem ?? declaration.optionProblem {
                report(name, problem)
                continue
            }
            let conversion = PropertyConversion(
                name: name, modelName: modelName, type: declaration.type, options: declaration.options,
                models: ModelKey.chain(
                    modelName: modelName, modelType: modelType, declaringModel: declaringModel, lineage: lineage),
                registry: registry)
            let defaultsFollowConverter = !declaration.defaultsAreValues && !declaration.type.containsModel
            /// A declared default as the value it reads (nil inside for one holding models, which
            /// is converted for each model), or nil after reporting why it does not convert.
            ///
            /// A default given as a Swift value is read as the type alone: its JSON is the type's
            /// own form of the value, which the property's converter would read as another value
            /// (`5` through a converter of cents is 0.05).
            func converted(_ declared: JSONValue, _ option: String) -> (any Sendable)?? {
                if declaration.type.containsModel {
                    // Converted for each model when read, which must not fail: checked here.
                    guard declaration.type.acceptsAsModelDefault(declared) else {
                        report(name, "the \(option) \(declared) is not a valid \(declaration.type): every model in it must be a JSON object")
                        return nil
                    }
                    return .some(nil)
                }
                var context = ConversionContext(
                    modelName: modelName, property: name, segments: [], mutable: false, owner: nil, ordinal: 0)
                context.allowsNonFiniteNumbers = allowsNonFiniteNumbers
                // Through the property's converter (stored form), else as the type alone (value
                // form), and only without a diagnostic: a collection leaves out an element that
                // does not convert, and a number may be rounded, each with one, which as a
                // default would read as other than what was declared.
                func clean(_ value: (any Sendable)?, _ scratch: ConversionContext) -> (any Sendable)? {
                    scratch.diagnostics.isEmpty ? value : nil
                }
                var scratch = context
                var plain = context
                let stored = declaration.defaultsAreValues
                    ? nil : clean(conversion.convert(.value(declared), valueType: valueType, context: &scratch), scratch)
                let own = clean(valueType.convertAny(.value(declared), context: &plain), plain)
                guard let value = stored ?? own else {
                    report(name, "the \(option) \(declared) is not a valid \(declaration.type)")
                    return nil
                }
                // Kept as the engine reads it, when it does: a converter, the one chosen now or
                // one registered later, reads the JSON when the property is read.
                return .some(defaultsFollowConverter ? own ?? value : value)
            }
            /// The JSON a default is stored as: what the property's converter writes for a
            /// default given as a Swift value, so that writing that value where there is no key
            /// writes nothing and writing another value is never taken for it; a schema's
            /// default as declared.
            func storedJSON(of value: (any Sendable)?, declared: JSONValue) -> JSONValue {
                guard declaration.defaultsAreValues, let value else { return declared }
                return (conversion.json(of: value, valueType: valueType, replacing: nil) ?? nil) ?? declared
            }
            var invalidDefault: InvalidValueDefault?
            if let declared = declaration.defaultIfInvalid {
                guard let value = converted(declared, "defaultIfInvalid") else { continue }
                invalidDefault = InvalidValueDefault(stored: value, json: storedJSON(of: value, declared: declared))
            }
            let storedDefault: (any Sendable)?
            let defaultJSON: JSONValue?
            if let declared = declaration.defaultValue {
                guard let value = converted(declared, "default") else { continue }
                storedDefault = value
                defaultJSON = storedJSON(of: value, declared: declared)
            } else if let natural = valueType.implicitDefaultAny {
                storedDefault = natural
                defaultJSON = valueType.jsonValue(ofAny: natural, replacing: nil) ?? nil
            } else if declaration.type.isModel {
                storedDefault = nil
                defaultJSON = .object(JSONObject())
            } else {
                report(name, "a non-optional \(declaration.type) has no natural default; declare a default or make it optional")
                continue
            }
            // Property groups all read the root and each writes only its own keys there. A write
            // goes to the path its value was read from, any of `anyOf`'s.
            if !declaration.options.readOnly && !declaration.options.group {
                if let (path, other) = declaration.paths.lazy.compactMap({ path in writers[path].map { (path, $0) } }).first {
                    report(name, "'\(other)' and '\(name)' both write JSON path \(path); mark one readOnly")
                    continue
                }
                for path in declaration.paths { writers[path] = name }
            }
            ordinals[name] = properties.count
            properties.append(
                PropertyMetadata(
                    ordinal: properties.count, name: name, type: declaration.type, paths: declaration.paths,
                    declaredDefault: declaration.defaultValue, options: declaration.options,
                    declaringModel: declaringModel, isRequired: isRequired, valueType: valueType,
                    storedDefault: storedDefault,
                    defaultJSON: defaultJSON,
                    schemaModel: declaration.type.schemaModelName.map { SchemaModelReference(name: $0, registry: registry) },
                    conversion: conversion, invalidDefault: invalidDefault, defaultsFollowConverter: defaultsFollowConverter))
        }
        self.modelName = modelName
        self.modelType = modelType
        self.properties = properties
        self.problems = problems
        self.requiresNonOptionals = requiresNonOptionals
        self.comparesDeclaredPropertiesOnly = comparesDeclaredPropertiesOnly
        self.allowsNonFiniteNumbers = allowsNonFiniteNumbers
        self.hasModelProperties = properties.contains { $0.type.containsModel }
        self.discriminator = discriminator
        self.registry = registry
        let names = properties.map(\.name)
        var capacity = 4
        while capacity < names.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        for (ordinal, name) in names.enumerated() {
            var slot = ModelMetadata.hash(name) & (capacity - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(ordinal)
        }
        self.names = names
        self.nameSlots = slots
        self.nameMask = capacity - 1
        self.rawNames = RawNameTable(names: names)
        // Inline values follow the slots, each aligned for its type. They are placed by
        // alignment, largest first, and among equal alignments those whose size is a multiple
        // of it first, so a value with a tail (a `Date?` takes 9 bytes) is followed by smaller
        // ones that fit after it. In declared order, values would leave padding between them,
        // which can put a model's slots in a larger heap block.
        // PERF: the size of a model's slots; see jsonmodel-bench --section bulk, row (c).
        var offset = names.count * MemoryLayout<UInt>.stride
        var layouts = [InlineLayout?](repeating: nil, count: properties.count)
        var inlineModels: UInt64 = 0
        let reads = properties.enumerated().compactMap { ordinal, property -> (Int, InlineFirstRead)? in
            // A model's reference is inline only where the release's bit mask can name its slot.
            guard let read = property.inlineFirstRead, read.type == property.entryType.storedLayout.type,
                !read.isModel || ordinal < UInt64.bitWidth
            else { return nil }
            return (ordinal, read)
        }
        let placed = reads.sorted { first, second in
            let (a, b) = (first.1, second.1)
            if a.alignment != b.alignment { return a.alignment > b.alignment }
            let (aWhole, bWhole) = (a.size % a.alignment == 0, b.size % b.alignment == 0)
            if aWhole != bWhole { return aWhole }
            return first.0 < second.0
        }
        for (ordinal, read) in placed {
            let start = (offset + read.alignment - 1) / read.alignment * read.alignment
            guard let layout = InlineLayout(read, offset: start) else { continue }
            layouts[ordinal] = layout
            offset = start + read.size
            if read.isModel { inlineModels |= 1 << UInt64(ordinal) }
        }
        self.inlineLayouts = layouts
        self.inlineModels = inlineModels
        self.memberKeys = MemberKeyIndex(keys: properties.map { property -> String? in
            guard property.hasFirstRead, case .key(let key) = property.paths[0].segments[0] else { return nil }
            return key
        })
        self.inlineBytes = offset - names.count * MemoryLayout<UInt>.stride
    }

    /// The first declared path that names the root, holds a negative index or one beyond
    /// ``JSONPath/maximumIndex``; a property group's own path is the root by design.
    static func pathProblem(of declaration: PropertyDeclaration) -> String? {
        if !declaration.options.group {
            for path in declaration.paths {
                if let problem = path.declarationProblem {
                    let option = path == declaration.paths.first && declaration.paths.count == 1 ? "jsonPath" : "path"
                    return "\(option) \(path) \(problem)"
                }
            }
        }
        if let embed = declaration.options.embedPath, let problem = embed.declarationProblem {
            return "embedPath \(embed) \(problem)"
        }
        return nil
    }

    /// FNV-1a over the UTF-8 bytes: cheaper than `Hasher` for short names, and
    /// the table holds only a class's own property names.
    @inline(__always)
    private static func hash(_ name: String) -> Int {
        var name = name
        // `withUTF8` hands over contiguous bytes (small strings from the stack), far cheaper
        // than iterating `utf8` through its generic path.
        return name.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return Int(truncatingIfNeeded: hash ^ (hash >> 29))
        }
    }

    /// The property named `name`, or nil.
    ///
    /// - Complexity: O(1) on average.
    func property(named name: String) -> PropertyMetadata? {
        ordinal(of: name).map { properties[$0] }
    }

    /// The ordinal of the property named `name`, or nil.
    ///
    /// - Complexity: O(1) on average; no allocation.
    func ordinal(of name: String) -> Int? {
        if let ordinal = rawNames.view.ordinal(of: name) { return ordinal }
        var slot = ModelMetadata.hash(name) & nameMask
        while true {
            let ordinal = Int(nameSlots[slot])
            if ordinal < 0 { return nil }
            if names[ordinal] == name { return ordinal }
            slot = (slot + 1) & nameMask
        }
    }
}

extension PropertyType {
    /// Whether `json` converts to a value of this type (which holds models) without leaving
    /// anything out: each model in it an object, each collection the right container, null only
    /// where an optional is. Such a default converts on every read; anything else is refused
    /// when the metadata is built.
    ///
    /// Recursion follows the type, not the JSON, so it is bounded by the type's nesting.
    func acceptsAsModelDefault(_ json: JSONValue) -> Bool {
        switch self {
        case .model, .schemaModel:
            return json.objectValue != nil
        case .optional(let wrapped):
            return json.isNull || wrapped.acceptsAsModelDefault(json)
        case .array(let element):
            guard let elements = json.arrayValue else { return false }
            return elements.allSatisfy { element.acceptsAsModelDefault($0) }
        case .dictionary(let value):
            guard let object = json.objectValue else { return false }
            return object.allSatisfy { value.acceptsAsModelDefault($0.value) }
        default:
            // No model inside: converting the default when the metadata is built checks it.
            return true
        }
    }
}

// The structural options (`group`, `embedPath`), applied and checked as each declaration is made, by
// the registrar or a schema; how a group reads its parent's object is Model/PropertyGroup.swift.

extension PropertyDeclaration {
    /// Applies and checks `group` and `embedPath`: a group reads the parent's own object
    /// (the empty path) and must be a model; an embedded array must be an array of models.
    func checkingStructure() -> PropertyDeclaration {
        var declaration = self
        if options.group {
            if type.modelType == nil || !type.isModelOrOptionalModel {
                declaration.problem = "a property group must have a model type, not \(type)"
            }
            if options.embedPath != nil {
                declaration.problem = "a property group cannot have an embedPath"
            }
            if !keyFollowsName {
                declaration.problem = "a property group reads its parent's own object, so it takes no jsonPath or anyOf"
            }
            declaration.paths = [JSONPath([])]
        } else if options.embedPath != nil && type.modelArrayElement == nil {
            declaration.problem = "embedPath needs an array of models, not \(type)"
        }
        return declaration
    }
}

extension PropertyType {
    /// Whether this is a model or an optional model.
    var isModelOrOptionalModel: Bool {
        switch self {
        case .model, .schemaModel: return true
        case .optional(let wrapped): return wrapped.isModel
        default: return false
        }
    }
}

/// Mistakes in a model's declarations, each naming the class and the property.
///
/// ```swift
/// #expect(throws: Never.self) { try User.validateDeclarations() }
/// ```
public struct ModelDeclarationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One mistake.
    struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The model class whose metadata has the problem.
        let model: String
        /// The property concerned.
        let property: String
        /// What is wrong.
        let message: String

        /// `Model.property: message`.
        var description: String { "\(model).\(property): \(message)" }
    }

    /// Every mistake found.
    let problems: [Problem]

    /// One line per problem.
    public var description: String {
        "invalid model declarations:\n" + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}
