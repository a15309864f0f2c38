import JSONModelNames

// The members the generator writes for each model class, and the names and imports they need.

extension AccessorGenerator {
    // MARK: Members

    mutating func report(_ severity: Diagnostic.Severity, at location: SourceLocation, _ message: String) {
        diagnostics.append(
            Diagnostic(severity: severity, file: location.file, line: location.line, column: location.column, message: message))
    }

    /// The lowest access level of a type and the types it is nested in.
    func effectiveAccess(of type: TypeDeclaration) -> AccessLevel {
        var access = min(type.access, type.enclosingAccess)
        var path = type.scope
        while !path.isEmpty {
            if let enclosing = types[Self.key(path)] { access = min(access, enclosing.access) }
            path.removeLast()
        }
        return access
    }

    /// The extension for one model class, or nil when it declares nothing to generate.
    mutating func members(of model: TypeDeclaration) -> String? {
        guard let block = model.registration, !block.isUnderCondition else { return nil }
        let name = Self.key(model.path)
        let spelled = Self.spelling(of: model.path)
        let classAccess = effectiveAccess(of: model)
        if declarationCounts[name, default: 1] > 1 {
            report(.warning, at: model.location,
                "\(name) is declared more than once, under #if, so its typed members are not generated; read its properties by name, or declare it once and put the #if inside its registration block")
            return nil
        }
        if classAccess < .internal {
            report(.warning, at: model.location,
                "\(name) is private to its file, so no other file can extend it with typed members; make it internal, or adopt DynamicMembers")
            return nil
        }
        // Where the class's properties start among the model's: after its superclasses', when
        // every block of the lineage was read whole (otherwise the getters find them by name).
        let inheritance = hierarchy[name] ?? Inheritance(allRead: false)
        var ordinal: Int? = inheritance.allRead ? inheritance.propertiesBefore : nil
        var seen: [String: SourceLocation] = [:]
        var accessors: [String] = []
        for property in block.properties {
            if let accessor = accessor(
                for: property, ordinal: ordinal, in: model, classAccess: classAccess, seen: &seen)
            {
                accessors.append(accessor)
            }
            ordinal = ordinal.map { $0 + 1 }
        }
        // An extension is no more available than its class: `@available(iOS 16, *)` on the class
        // (or a type or extension it is declared in) goes on the extension too.
        let availability = model.availability.map { $0 + "\n" }.joined()
        var text = ""
        if !accessors.isEmpty {
            text += availability + "extension \(spelled) {\n" + accessors.joined(separator: "\n") + "}\n"
        }
        if let first = block.unreadable.first {
            let more = block.unreadable.count > 1 ? " (and \(block.unreadable.count - 1) more)" : ""
            let adopts = adoptsDynamicMembers(model)
            let subclassAdopts = !adopts && inheritance.subclassAdoptsDynamicMembers
            report(.warning, at: first.location,
                "\(name): the generator cannot read this statement of the registration block (\(first.description))\(more); "
                    + "properties declared there get no typed member, and \(name) "
                    + (adopts ? "reads them through DynamicMembers"
                        : subclassAdopts
                            ? "cannot adopt DynamicMembers, which a subclass adopts itself (read them with self[property:], or adopt DynamicMembers in \(name))"
                            : "adopts DynamicMembers so they can be read by name"))
            if !adopts && !subclassAdopts { text += (text.isEmpty ? "" : "\n") + availability + "extension \(spelled): DynamicMembers {}\n" }
        }
        guard !text.isEmpty else { return nil }
        // A class declared under `#if` has its members under the same conditions.
        return model.condition.map { "#if \($0)\n" + text + "#endif\n" } ?? text
    }

    /// The computed property for one declared property, or nil (with a diagnostic) when there is none.
    private mutating func accessor(
        for property: DeclaredProperty, ordinal: Int?, in model: TypeDeclaration, classAccess: AccessLevel,
        seen: inout [String: SourceLocation]
    ) -> String? {
        let className = Self.key(model.path)
        let name = property.name
        if let first = seen[name] {
            report(.error, at: property.location,
                "\(className).\(name) is declared twice; the first declaration is at line \(first.line)")
            return nil
        }
        seen[name] = property.location
        if let base = inheritedDeclaration(of: name, in: model) {
            report(.error, at: property.location,
                "\(className).\(name) is already declared by a superclass (\(base.file):\(base.line)); declare it once")
            return nil
        }
        guard SwiftNames.isIdentifier(name) else {
            // Not a Swift name: read with `model[property: "…"]`; nothing to generate.
            return nil
        }
        if ReservedNames.properties.contains(name) {
            report(.error, at: property.location,
                "\(className).\(name): '\(name)' is a member of JSONModel; name the property otherwise and keep the key with jsonPath: \"\(name)\"")
            return nil
        }
        guard let propertyType = replacingSelf(in: property.type, of: model) else {
            report(.warning, at: property.location,
                "\(className).\(name) has type \(property.type.source), which is a different type in each subclass of \(className); it gets no typed member (read it with self[property: \"\(name)\"], or make \(className) final)")
            return nil
        }
        if let local = model.registration?.localTypes, let path = propertyType.namedTypes.first(where: { local.contains($0[0]) }) {
            report(.warning, at: property.location,
                "\(className).\(name) has type \(property.type.source), and \(path[0]) is declared in the registration block, where no extension can name it; it gets no typed member (read it with self[property: \"\(name)\"], or declare \(path[0]) in the class)")
            return nil
        }
        if let owner = swiftDeclarer(of: name, in: model) {
            // A member of the class or a superclass written in Swift: an extension can neither
            // redeclare nor override it.
            report(.warning, at: property.location,
                "\(className).\(name) is also a member \(owner) declares in Swift; it gets no typed member (read it with self[property: \"\(name)\"], or name it otherwise and keep the key with jsonPath: \"\(name)\")")
            return nil
        }
        if let caller = globalFunctionCaller(of: name, in: model) {
            report(.warning, at: property.location,
                "\(className).\(name) is named like the standard library's function \(name), which \(caller) calls by that name; it gets no typed member, which would hide the function there (read it with self[property: \"\(name)\"], or name it otherwise and keep the key with jsonPath: \"\(name)\")")
            return nil
        }
        if typeNamesInBlocks.contains(name) {
            // In the class and its subclasses a member hides the type of its name, so the
            // registration block (`p.Date(Date?.self)`) would no longer build.
            report(.warning, at: property.location,
                "\(className).\(name) is named like a type that registration blocks name; it gets no typed member, which would hide the type in the class (read it with self[property: \"\(name)\"], or name it otherwise and keep the key with jsonPath: \"\(name)\")")
            return nil
        }
        if let expression = property.readOnlyExpression {
            report(.error, at: property.location,
                "\(className).\(name): readOnly: \(expression) is not a literal, so the generator cannot tell whether to write a setter; pass readOnly: true or readOnly: false")
            return nil
        }
        if let reason = propertyType.unsupportedReason(declared: { resolve($0, in: model) != nil }) {
            report(.error, at: property.location, "\(className).\(name): \(reason)")
            return nil
        }
        // A type of the files named `Date` is not Foundation's: a model has a default, the empty object.
        if !property.hasDefault, let type = propertyType.typeWithoutNaturalDefault,
            propertyType.namedTypes.first.map({ resolve($0, in: model) == nil }) ?? true
        {
            report(.error, at: property.location,
                "\(className).\(name): a non-optional \(type) has no natural default; declare a default or make it optional")
            return nil
        }
        var access = classAccess
        var spiGroups = model.spiGroups
        for path in propertyType.namedTypes {
            guard let resolved = resolve(path, in: model), let type = types[resolved] else {
                // A generic parameter is of no module.
                if path.count == 1, isGenericParameter(path[0], in: model) { continue }
                // A type of another module: no wider than that module's import.
                guard let imported = importAccess(of: path, in: model.location.file) else { continue }
                if imported < .internal {
                    report(.warning, at: property.location,
                        "\(className).\(name) has type \(property.type.source), whose module is imported \(imported) to its file; it gets no typed member (read it with self[property: \"\(name)\"])")
                    return nil
                }
                access = min(access, imported)
                continue
            }
            let typeAccess = effectiveAccess(of: type)
            if typeAccess < .internal {
                report(.warning, at: property.location,
                    "\(className).\(name) has type \(property.type.source), which is private to its file; it gets no typed member (read it with self[property: \"\(name)\"])")
                return nil
            }
            access = min(access, typeAccess)
            spiGroups += type.spiGroups.filter { !spiGroups.contains($0) }
        }
        // Not `@inlinable`: the getter reads through the ordinal subscript, which JSONModelKit
        // shows only to generated code (SPI), and SPI cannot be inlined into another module. A
        // client of a public model calls the getter, which is specialised for its type.
        var modifier: String
        switch access {
        case .public, .open: modifier = "public "
        case .package: modifier = "package "
        default: modifier = ""
        }
        // A public member that shows an SPI type, or belongs to an SPI class, is SPI too.
        if access >= .public { modifier = spiGroups.map { "@_spi(\($0)) " }.joined() + modifier }
        let literal = Self.stringLiteral(name)
        let type = qualified(propertyType, in: model).source
        var text = "    \(modifier)var \(SwiftNames.escaped(name)): \(type) {\n"
        let place = ordinal.map { ", ordinal: \($0)" } ?? ""
        text += "        @inline(__always) get { self[property: \(literal)\(place)] }\n"
        if !property.isReadOnly {
            text += "        set { self[property: \(literal)] = newValue }\n"
        }
        return text + "    }\n"
    }

    /// `type` with `Self` written as the class (`Self.Kind` as `Event.Kind`), since an extension
    /// cannot declare a stored-like property of the covariant `Self`; nil where `Self` is the
    /// type of the instance, which differs in each subclass of a class that is not final.
    private func replacingSelf(in type: TypeReference, of model: TypeDeclaration) -> TypeReference? {
        switch type {
        case .named(let components):
            var arguments: [TypeReference.NameComponent] = []
            for component in components {
                var replaced: [TypeReference] = []
                for argument in component.arguments {
                    guard let argument = replacingSelf(in: argument, of: model) else { return nil }
                    replaced.append(argument)
                }
                arguments.append(TypeReference.NameComponent(name: component.name, arguments: replaced))
            }
            guard arguments.first?.name == "Self" else { return .named(arguments) }
            guard arguments.count > 1 || model.isFinal else { return nil }
            return .named(model.path.map { TypeReference.NameComponent(name: $0, arguments: []) } + arguments.dropFirst())
        case .optional(let wrapped): return replacingSelf(in: wrapped, of: model).map { .optional($0) }
        case .array(let element): return replacingSelf(in: element, of: model).map { .array($0) }
        case .dictionary(let key, let value):
            guard let key = replacingSelf(in: key, of: model), let value = replacingSelf(in: value, of: model) else { return nil }
            return .dictionary(key: key, value: value)
        case .unsupported: return type
        }
    }

    /// `type` with each name of a type of the files written in full: a name the class's body
    /// finds in an enclosing type (`Address` for `Outer.Address`) is not in scope in an extension,
    /// and one it inherits is written through the class (``lookUp(_:in:)``).
    private func qualified(_ type: TypeReference, in model: TypeDeclaration) -> TypeReference {
        switch type {
        case .named(let components):
            let arguments = components.map { component in
                TypeReference.NameComponent(
                    name: component.name, arguments: component.arguments.map { qualified($0, in: model) })
            }
            guard let written = lookUp(components.map(\.name), in: model)?.written else { return .named(arguments) }
            let prefix = written.dropLast(components.count)
            return .named(prefix.map { TypeReference.NameComponent(name: $0, arguments: []) } + arguments)
        case .optional(let wrapped): return .optional(qualified(wrapped, in: model))
        case .array(let element): return .array(qualified(element, in: model))
        case .dictionary(let key, let value): return .dictionary(key: qualified(key, in: model), value: qualified(value, in: model))
        case .unsupported: return type
        }
    }

    // MARK: Names and imports

    /// The imports of the files that declare models, each once, `JSONModelKit` always; notes
    /// what each of those files imports, and at what access (``fileImports``).
    mutating func imports() -> [String] {
        var lines: [String] = []
        var seen: Set<String> = []
        // For each module imported plainly, its line and the widest access written on it (nil:
        // none written). Swift warns of a second, narrower import of a module in one file.
        var plain: [String: (line: Int, access: AccessLevel?)] = [:]
        let modelFiles = Set(models.values.map(\.location.file))
        for summary in summaries where summary.types.contains(where: { modelFiles.contains($0.location.file) }) {
            var own = FileImports()
            for statement in summary.imports {
                if statement.isPlain, let module = statement.modules.first {
                    if let known = plain[module.name] {
                        guard let access = known.access else { continue }
                        guard let new = module.access else {
                            plain[module.name]?.access = nil
                            lines[known.line] = "import " + module.name
                            continue
                        }
                        if new > access {
                            plain[module.name]?.access = new
                            lines[known.line] = "\(new) import " + module.name
                        }
                    } else {
                        plain[module.name] = (lines.count, module.access)
                        lines.append(statement.text)
                    }
                } else if seen.insert(statement.text).inserted {
                    lines.append(statement.text)
                }
                for module in statement.modules {
                    own.modules.insert(module.name)
                    guard let access = module.access, access < .public else { continue }
                    own.restricted[module.name] = min(access, own.restricted[module.name] ?? access)
                }
            }
            fileImports[summary.path] = own
            if let access = own.restricted["JSONModelKit"] { libraryImportAccess = min(access, libraryImportAccess ?? access) }
        }
        // The typed getters read through `subscript(property:ordinal:)`, which JSONModelKit shows
        // to generated code only; the import is no wider than the files' own import of JSONModelKit.
        let access = libraryImportAccess.map { "\($0) " } ?? ""
        lines.append("@_spi(GeneratedAccessors) \(access)import JSONModelKit")
        return lines
    }

    /// How far a member may show a type the files do not declare: nil when as far as it likes;
    /// the access of its module's import when that is below public (a public member cannot show
    /// a type of a module imported `internal`). A name not qualified with its module may come
    /// from any imported module but the standard library; a name of two parts or more is
    /// qualified with its module only when the first is a module the files import
    /// (`Foundation.URL`, not `Currency.Code`).
    private func importAccess(of path: [String], in file: String) -> AccessLevel? {
        guard let imports = fileImports[file], !imports.restricted.isEmpty, let first = path.first else { return nil }
        if path.count > 1, first == "Swift" { return nil }
        if path.count > 1, imports.modules.contains(first) { return imports.restricted[first] }
        if Self.standardLibraryNames.contains(first) { return nil }
        if Self.libraryNames.contains(first) { return imports.restricted["JSONModelKit"] }
        return imports.restricted.values.min()
    }

    private static let standardLibraryNames: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "Int128", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "UInt128",
        "Double", "Float", "Float16", "Float80", "Bool", "String", "Substring", "Character", "Optional", "Array",
        "ContiguousArray", "Dictionary",
    ]

    /// The types of JSONModelKit a property can have.
    private static let libraryNames: Set<String> = [
        "JSONValue", "JSONNumber", "JSONObject", "JSONArray", "ModelArray", "ModelDictionary", "JSONModel",
    ]

    /// A qualified name as Swift source, each component in backticks when it needs them.
    private static func spelling(of path: [String]) -> String {
        path.map { SwiftNames.escaped($0, asType: true) }.joined(separator: ".")
    }

    /// `name` as a string literal; an identifier needs no escapes.
    private static func stringLiteral(_ name: String) -> String {
        "\"" + name + "\""
    }
}
