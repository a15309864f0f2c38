// The generator's state and the model classes it finds in the files, with what each inherits
// from its superclasses; the members it writes for them are in AccessorGenerator+Members.swift.

/// Generates typed members for the model classes of a target from their registration blocks.
///
/// Give it every Swift file of the target. It finds each class that derives from
/// `JSONModel` (directly, or through other classes of the files), reads its registration
/// block, and writes one extension per class with a computed property per declared
/// property, of exactly the declared type:
///
/// ```swift
/// extension User {
///     var login: String {
///         @inline(__always) get { self[property: "login", ordinal: 0] }
///         set { self[property: "login"] = newValue }
///     }
/// }
/// ```
///
/// The getter passes the property's place among the model's declarations (superclasses'
/// first), which the read checks against the name and uses to skip the lookup by name. When a
/// block of the class or of a superclass has a statement the generator cannot read, the places
/// after it are not known, and the getters of that class pass the name alone.
///
/// A `readOnly: true` property gets no setter. Names declared twice (in the class or its
/// superclasses), names of `JSONModel`'s members, types no property can have, `readOnly:` given
/// as anything but a literal, and a registration block under `#if` are errors at the
/// declaration's line; so are types and interpolations nested deeper than the reader goes. A block with statements it cannot read (a loop, `#if`, a call
/// of another function) is a warning: the class adopts `DynamicMembers`, so the properties
/// declared there are still read by name.
package struct AccessorGenerator {
    /// A message about a place in the sources, printed as compilers do.
    package struct Diagnostic: CustomStringConvertible, Equatable {
        package enum Severity: String { case error, warning }

        package let severity: Severity
        package let file: String
        package let line: Int
        package let column: Int
        package let message: String

        /// `file:line:column: error: message`, which build systems show at the line.
        package var description: String { "\(file):\(line):\(column): \(severity.rawValue): \(message)" }
    }

    /// The generated source and the diagnostics.
    package struct Output {
        package let source: String
        package let diagnostics: [Diagnostic]
        package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Generates the members for `files`, each a path (used in messages) and its text.
    package static func generate(files: [(path: String, text: String)]) -> Output {
        var generator = AccessorGenerator(summaries: files.map { SourceReader.read(path: $0.path, text: $0.text) })
        return generator.run()
    }

    let summaries: [SourceSummary]
    /// Every type declared in the files, by qualified name (`Event.Payload`).
    var types: [String: TypeDeclaration] = [:]
    /// The model classes, by qualified name.
    var models: [String: TypeDeclaration] = [:]
    /// What each class's superclass clause names, by the class's qualified name, worked out once.
    private var superclasses: [String: Superclass] = [:]
    /// The last component of every type's qualified name: a name that is none of them names no
    /// type of the files, whatever the scope (most property types: `Int`, `String`).
    private var declaredNames: Set<String> = []
    /// What each class inherits, worked out once from its superclass's (see ``indexHierarchy()``).
    var hierarchy: [String: Inheritance] = [:]
    /// The classes whose blocks declare each property name.
    private var declarers: [String: [(key: String, location: SourceLocation)]] = [:]
    /// The protocols the extensions of the files add, by the qualified name of the extended type.
    private var extensionConformances: [String: [TypeReference]] = [:]
    /// The lowest access level written on an import of each module the generated file repeats,
    /// when it is below public (`internal import Foundation`).
    var restrictedImports: [String: AccessLevel] = [:]
    /// The modules the generated file imports, at any access.
    var importedModules: Set<String> = []
    /// The first names of the types the registration blocks name (`Date` of `Date?`,
    /// `Foundation` of `Foundation.URL`): no member takes one (``accessor(for:ordinal:in:classAccess:seen:)``).
    var typeNamesInBlocks: Set<String> = []
    var diagnostics: [Diagnostic] = []

    private init(summaries: [SourceSummary]) {
        self.summaries = summaries
        for summary in summaries {
            for type in summary.types where types[Self.key(type.path)] == nil || type.kind == .class {
                types[Self.key(type.path)] = type
                if let last = type.path.last { declaredNames.insert(last) }
            }
        }
        for type in types.values where type.kind == .class {
            superclasses[Self.key(type.path)] = superclassReference(of: type)
        }
        for summary in summaries {
            for ext in summary.extensions {
                guard let key = resolve(ext.extended, from: ext.scope) else { continue }
                extensionConformances[key, default: []] += ext.inherited
            }
        }
        indexHierarchy()
    }

    static func key(_ path: [String]) -> String { path.joined(separator: ".") }

    private mutating func run() -> Output {
        for summary in summaries {
            for error in summary.errors { report(.error, at: error.location, error.message) }
        }
        findModels()
        typeNamesInBlocks = Set(models.values.flatMap { model in
            (model.registration?.properties ?? []).flatMap { $0.type.namedTypes.compactMap(\.first) }
        })
        let importLines = imports()
        var extensions: [String] = []
        let ordered = models.values.sorted {
            ($0.location.file, $0.location.line, $0.location.column) < ($1.location.file, $1.location.line, $1.location.column)
        }
        for model in ordered {
            if let text = members(of: model) { extensions.append(text) }
        }
        var source = """
            // Typed members of the model classes in this target, generated by JSONModelAccessors from
            // their registration blocks. Do not edit: every build writes this file again.

            """
        for line in importLines { source += line + "\n" }
        for text in extensions { source += "\n" + text }
        return Output(source: source, diagnostics: diagnostics)
    }

    // MARK: Models

    /// The qualified name `path` refers to from `scope`, when it is a type of the files.
    private func resolve(_ path: [String], from scope: [String]) -> String? {
        for length in stride(from: scope.count, through: 0, by: -1) {
            let candidate = Self.key(Array(scope.prefix(length)) + path)
            if types[candidate] != nil { return candidate }
        }
        return nil
    }

    /// The qualified name `path` refers to in the body of `model`, looked up as Swift does: in
    /// each scope from the class outwards, the scope's own member types, then those it inherits
    /// from its superclasses among the files (`Item` in `Sub: Base` is `Base.Item` before any
    /// `Item` around `Sub`).
    func resolve(_ path: [String], in model: TypeDeclaration) -> String? {
        lookUp(path, in: model)?.declaration
    }

    /// ``resolve(_:in:)``'s declaration, and the name to write for it outside the class's body:
    /// a member type a class inherits is named through that class (`Sub.Item` for `Base.Item`),
    /// since a generic superclass's name needs the arguments only the class's clause gives
    /// (`Base<User>`), and `Base.Item` alone does not compile.
    func lookUp(_ path: [String], in model: TypeDeclaration) -> (declaration: String, written: [String])? {
        guard let last = path.last, declaredNames.contains(last) else { return nil }
        for length in stride(from: model.path.count, through: 0, by: -1) {
            let scope = Array(model.path.prefix(length))
            let candidate = Self.key(scope + path)
            if types[candidate] != nil { return (candidate, scope + path) }
            guard length > 0, let type = types[Self.key(scope)], type.kind == .class else { continue }
            for base in lineage(of: type).dropFirst() {
                let inherited = Self.key(base.path + path)
                if types[inherited] != nil { return (inherited, scope + path) }
            }
        }
        return nil
    }

    /// What a class's superclass clause names: a class of the files, `JSONModel` itself, or
    /// neither; type aliases of the files (`typealias Model = JSONModel`) are followed.
    private enum Superclass {
        case declared(TypeDeclaration)
        case jsonModel
        case other
    }

    private func superclassReference(of type: TypeDeclaration) -> Superclass {
        var reference = type.inherited.first
        var scope = type.scope
        // A bounded number of aliases: a cycle of them is the compiler's error to report.
        for _ in 0..<32 {
            guard case .named(let components)? = reference else { return .other }
            guard let name = resolve(components.map(\.name), from: scope), let declared = types[name] else {
                return Self.isJSONModel(reference) ? .jsonModel : .other
            }
            if declared.kind == .class { return .declared(declared) }
            guard let aliased = declared.aliased else { return .other }
            reference = aliased
            scope = declared.scope
        }
        return .other
    }

    /// The superclass of a class, when it is a class of the files.
    private func superclass(of type: TypeDeclaration) -> TypeDeclaration? {
        if case .declared(let base) = superclasses[Self.key(type.path)] ?? superclassReference(of: type) { return base }
        return nil
    }

    private static func isJSONModel(_ reference: TypeReference?) -> Bool {
        guard case .named(let components)? = reference else { return false }
        let names = components.map(\.name)
        return names == ["JSONModel"] || names == ["JSONModelKit", "JSONModel"]
    }

    /// Finds the classes that derive from `JSONModel`, through any number of classes of the
    /// files: each class's chain of superclasses is walked once, up to a class already decided.
    private mutating func findModels() {
        var derives: [String: Bool] = [:]
        for type in types.values where type.kind == .class {
            var chain: [TypeDeclaration] = []
            var inChain: Set<String> = []
            var current = type
            var result = false
            while true {
                let key = Self.key(current.path)
                if let known = derives[key] {
                    result = known
                    break
                }
                guard inChain.insert(key).inserted else { break }  // a cycle: no model
                chain.append(current)
                switch superclasses[key] ?? .other {
                case .declared(let base):
                    current = base
                    continue
                case .jsonModel: result = true
                case .other: break
                }
                break
            }
            for member in chain {
                derives[Self.key(member.path)] = result
                if result { models[Self.key(member.path)] = member }
            }
        }
    }

    /// The class and its superclasses among the files, the class first.
    private func lineage(of model: TypeDeclaration) -> [TypeDeclaration] {
        var chain = [model]
        var seen: Set<String> = [Self.key(model.path)]
        while let base = superclass(of: chain[chain.count - 1]), seen.insert(Self.key(base.path)).inserted {
            chain.append(base)
        }
        return chain
    }

    /// What a class has from its superclasses among the files.
    struct Inheritance {
        /// Its place in a walk of the inheritance tree, and the place after its last subclass:
        /// a class is an ancestor of another when its span holds the other's.
        var order = 0
        var end = 0
        /// How many properties its superclasses declare, and whether every block of it and its
        /// superclasses was read whole (so that count places its own properties).
        var propertiesBefore = 0
        var allRead = true
        /// Whether it or a superclass adopts `DynamicMembers`, in the files or by the generator.
        var adoptsDynamicMembers = false
        /// Whether it has `DynamicMembers` once the generator's output is compiled: it adopts
        /// the protocol, or the generator gives it (its block has statements the generator
        /// cannot read). A subclass then has it too, and must not be given it again: Swift
        /// refuses a redundant conformance.
        var hasDynamicMembers = false
    }

    private static let dynamicMembersNames: Set<[String]> = [["DynamicMembers"], ["JSONModelKit", "DynamicMembers"]]

    /// Walks the inheritance tree of the files' classes once, superclasses first, so each class's
    /// ``Inheritance`` comes from its superclass's: the generator's time stays in proportion to
    /// the classes however long their chains. Classes in a cycle of superclasses are left out.
    private mutating func indexHierarchy() {
        var children: [String: [String]] = [:]
        var roots: [String] = []
        for (key, type) in types where type.kind == .class {
            if case .declared(let base)? = superclasses[key] {
                children[Self.key(base.path), default: []].append(key)
            } else {
                roots.append(key)
            }
            for property in type.registration?.properties ?? [] {
                declarers[property.name, default: []].append((key, property.location))
            }
        }
        var order = 0
        for root in roots.sorted() {
            // (class, whether its subclasses were walked)
            var stack: [(String, Bool)] = [(root, false)]
            while let (key, walked) = stack.popLast() {
                if walked {
                    hierarchy[key]?.end = order
                    continue
                }
                guard let type = types[key] else { continue }
                var entry = Inheritance()
                entry.order = order
                order += 1
                let block = type.registration
                let readWhole = (block?.unreadable.isEmpty ?? true) && block?.isUnderCondition != true
                let conforms = (type.inherited + extensionConformances[key, default: []]).contains {
                    if case .named(let components) = $0 { return Self.dynamicMembersNames.contains(components.map(\.name)) }
                    return false
                }
                if case .declared(let base)? = superclasses[key], let parent = hierarchy[Self.key(base.path)] {
                    entry.propertiesBefore = parent.propertiesBefore + (base.registration?.properties.count ?? 0)
                    entry.allRead = parent.allRead && readWhole
                    entry.adoptsDynamicMembers = parent.hasDynamicMembers || conforms
                } else {
                    entry.allRead = readWhole
                    entry.adoptsDynamicMembers = conforms
                }
                // A class with statements the generator cannot read is given the conformance, but
                // only where its members are generated at all: not under #if, and not private.
                let givenDynamicMembers = !(block?.unreadable.isEmpty ?? true) && !type.isConditional
                    && block?.isUnderCondition != true && effectiveAccess(of: type) >= .internal
                entry.hasDynamicMembers = entry.adoptsDynamicMembers || givenDynamicMembers
                hierarchy[key] = entry
                stack.append((key, true))
                for child in (children[key] ?? []).sorted().reversed() { stack.append((child, false)) }
            }
        }
    }

    /// Whether the class or one of its superclasses among the files adopts `DynamicMembers`.
    func adoptsDynamicMembers(_ model: TypeDeclaration) -> Bool {
        hierarchy[Self.key(model.path)]?.adoptsDynamicMembers ?? false
    }

    /// Where the nearest superclass of `model` among the files declares `name`, if one does.
    func inheritedDeclaration(of name: String, in model: TypeDeclaration) -> SourceLocation? {
        let key = Self.key(model.path)
        guard let place = hierarchy[key] else { return nil }
        var nearest: (order: Int, location: SourceLocation)?
        for declarer in declarers[name] ?? [] where declarer.key != key {
            guard let span = hierarchy[declarer.key], span.order < place.order, place.order < span.end else { continue }
            if nearest.map({ span.order > $0.order }) ?? true { nearest = (span.order, declarer.location) }
        }
        return nearest?.location
    }
}
