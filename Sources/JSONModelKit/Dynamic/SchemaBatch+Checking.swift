// Checking a batch of schema models against each other and the registry, and registering it:
// names, `extends` chains, discriminators, property groups, and each new model's metadata.

extension SchemaBatch {
    // MARK: Checking

    /// The metadata of each model the batch adds, with the definition it was built from.
    typealias Prepared = [(metadata: ModelMetadata, definition: ModelSchema.Model)]

    /// Checks the batch and registers it, all or none.
    func register(in registry: ModelRegistry) throws(SchemaLoadingError) {
        let prepared = try prepare(for: registry)
        switch registry.store(schemaModels: prepared) {
        case nil: break
        case .nameTaken(let name):
            throw SchemaLoadingError(problems: [problem("a model of this name was registered meanwhile", model: name)])
        case .refused:
            preconditionFailure("nothing refuses a schema batch's names before they are published")
        }
    }

    /// Checks every model against the batch and the registry and builds the metadata of the
    /// new ones, storing nothing.
    ///
    /// - Parameters:
    ///   - registry: Where the models will be registered and names are looked up.
    ///   - classes: Model classes about to be registered with the batch (a plugin's), by name;
    ///     property types may name them.
    /// - Throws: Every problem found.
    func prepare(for registry: ModelRegistry, classes: [String: JSONModel.Type] = [:]) throws(SchemaLoadingError)
        -> Prepared
    {
        // Every step is linear in the batch (inherited properties counted in each model, at
        // most `maximumExtendsDepth + 1` times its own): each model's chain is walked once,
        // each model's own properties resolved once, and a suggestion is a table lookup.
        var problems: [ModelSchemaError] = []
        var byName: [String: Entry] = [:]
        /// Names whose model is new (not already registered identically), in batch order.
        var fresh: [String] = []
        var freshNames: Set<String> = []
        /// Models refused before their properties are looked at: their types nest too deep
        /// (checked first, without recursion: everything after walks types recursively) or
        /// they take a built-in type's name.
        var refused: Set<String> = []

        // Names: unique in the batch, free in the registry (or holding this very definition).
        for entry in entries {
            let name = entry.model.name
            if let first = byName[name] {
                let place = first.file.map { $0 == entry.file ? "earlier in this file" : "in \($0)" } ?? "earlier"
                problems.append(problem("the model is declared twice (also \(place))", entry: entry))
                continue
            }
            byName[name] = entry
            for property in entry.model.properties {
                if let message = property.type.nestingProblem {
                    problems.append(ModelSchemaError("the type " + message, model: name, property: property.name, file: entry.file))
                    refused.insert(name)
                }
            }
            if ModelRegistry.builtinTypes[name] != nil {
                problems.append(problem("\"\(name)\" is a built-in type; a model cannot be named so", entry: entry))
                refused.insert(name)
            }
            if refused.contains(name) { continue }
            if let registered = registry.schemaDefinition(named: name) {
                if registered != entry.model {
                    problems.append(problem("a different model of this name is already registered", entry: entry))
                }
                continue
            }
            if let compiled = classes[name] ?? registry.modelType(named: name) {
                problems.append(problem("the name is taken by the model class \(String(reflecting: compiled))", entry: entry))
                continue
            }
            fresh.append(name)
            freshNames.insert(name)
        }

        func definition(of name: String) -> ModelSchema.Model? {
            byName[name]?.model ?? registry.schemaDefinition(named: name)
        }
        func file(of model: String) -> String? { byName[model]?.file }
        func located(_ message: String, model: String) -> ModelSchemaError {
            ModelSchemaError(message, model: model, file: file(of: model))
        }

        // Known names by their lowercased form, built on the first unknown name.
        var namesByLowercase: [String: String]?
        func suggestion(for name: String) -> String {
            if namesByLowercase == nil {
                var table: [String: String] = [:]
                for known in ModelRegistry.builtinTypes.keys.sorted() + byName.keys.sorted() + classes.keys.sorted() {
                    let key = known.lowercased()
                    if table[key] == nil { table[key] = known }
                }
                namesByLowercase = table
            }
            guard let close = namesByLowercase?[name.lowercased()], close != name else { return "" }
            return " (did you mean \"\(close)\"?)"
        }

        // Each model's own properties resolved, or nil when one of them has a problem.
        var resolved: [String: [PropertyDeclaration]?] = [:]
        func declarations(of model: ModelSchema.Model) -> [PropertyDeclaration]? {
            if let known = resolved[model.name] { return known }  // problems are reported once
            if refused.contains(model.name) { return nil }  // reported already
            var list: [PropertyDeclaration] = []
            var failed = false
            for property in model.properties {
                do {
                    list.append(try declaration(of: property, in: model.name))
                } catch {
                    var located = error
                    located.file = file(of: model.name)
                    problems.append(located)
                    failed = true
                }
            }
            resolved[model.name] = .some(failed ? nil : list)
            return failed ? nil : list
        }
        func declaration(of property: ModelSchema.Property, in model: String) throws(ModelSchemaError) -> PropertyDeclaration {
            func fail(_ message: String) -> ModelSchemaError { ModelSchemaError(message, model: model, property: property.name) }
            let type = try resolve(property.type, fail: fail)
            let base = property.type.baseName
            if property.enumValues != nil && base != "String" {
                throw fail("\"enumValues\" needs a String property, not \(property.type)")
            }
            if property.dateFormat != nil && base != "Date" {
                throw fail("\"dateFormat\" needs a Date property, not \(property.type)")
            }
            if property.inverse != nil && !type.containsModel {
                throw fail("\"inverse\" needs a model property, not \(property.type)")
            }
            let options = PropertyOptions(
                serialize: property.serialize, readOnly: property.readOnly, enumValues: property.enumValues,
                dateFormat: property.dateFormat.map(DateFormat.init(parsing:)), embedPath: property.embedPath,
                converter: property.converter.map(ConverterReference.named), inverse: property.inverse,
                group: property.group, required: property.required)
            return PropertyDeclaration(
                name: property.name, type: type, paths: property.paths, defaultValue: property.defaultValue,
                options: options, defaultIfInvalid: property.defaultIfInvalid
            ).checkingStructure()
        }
        /// Recursion bounded by `ModelSchema.maximumTypeNesting`: deeper types were refused above.
        func resolve(_ type: ModelSchema.TypeName, fail: (String) -> ModelSchemaError) throws(ModelSchemaError) -> PropertyType {
            switch type {
            case .array(let element): return .array(try resolve(element, fail: fail))
            case .dictionary(let value): return .dictionary(try resolve(value, fail: fail))
            case .optional(let wrapped): return .optional(try resolve(wrapped, fail: fail))
            case .named(let name):
                if let builtin = ModelRegistry.builtinTypes[name] { return builtin }
                if definition(of: name) != nil { return .schemaModel(name) }
                if let compiled = classes[name] ?? registry.modelType(named: name) { return .model(compiled) }
                throw fail("unknown type \"\(name)\"" + suggestion(for: name))
            }
        }
        let maximumDepth = ModelSchema.maximumExtendsDepth
        /// The first model of a chain whose depth is known; walks at most `maximumDepth + 1` steps.
        func root(of model: ModelSchema.Model) -> String {
            var current = model
            for _ in 0...maximumDepth {
                guard let parent = current.extends, let next = definition(of: parent) else { break }
                current = next
            }
            return current.name
        }
        /// Whether `model` is `ancestor` or extends it, directly or through a chain.
        func isModel(_ model: ModelSchema.Model, extending ancestor: String) -> Bool {
            var current = model
            for _ in 0...maximumDepth + 1 {
                if current.name == ancestor { return true }
                guard let parent = current.extends, let next = definition(of: parent) else { return false }
                current = next
            }
            return false
        }

        // How many ancestors each model has, or nil when its chain is broken (an unknown parent,
        // a cycle, or more than `maximumExtendsDepth` ancestors; reported once, where it is
        // written). Each model is walked once: a walk stops at the first model already known.
        var depths: [String: Int?] = [:]
        var reportedCycles: Set<Set<String>> = []
        func depth(of model: ModelSchema.Model) -> Int? {
            if let known = depths[model.name] { return known }
            var path: [ModelSchema.Model] = []
            var positions: [String: Int] = [:]
            var current = model
            var topDepth: Int?  // of the last model of `path`
            while true {
                positions[current.name] = path.count
                path.append(current)
                guard let parent = current.extends else {
                    topDepth = 0
                    break
                }
                if let known = depths[parent] {
                    topDepth = known.map { $0 + 1 }
                    break
                }
                if let start = positions[parent] {
                    let cycle = path[start...].map(\.name)
                    if reportedCycles.insert(Set(cycle)).inserted {
                        let names = (cycle + [parent]).joined(separator: " → ")
                        problems.append(located("\"extends\" forms a cycle: \(names)", model: cycle[0]))
                    }
                    topDepth = nil
                    break
                }
                guard let next = definition(of: parent) else {
                    let message = (classes[parent] ?? registry.modelType(named: parent)) != nil
                        ? "extends the model class \"\(parent)\"; a schema model can extend only schema models"
                        : "extends unknown model \"\(parent)\"" + suggestion(for: parent)
                    // Reported where the bad `extends` is written, once.
                    if freshNames.contains(current.name) || byName[current.name] == nil {
                        problems.append(located(message, model: current.name))
                    }
                    topDepth = nil
                    break
                }
                current = next
            }
            for (offset, walked) in path.reversed().enumerated() {
                let found = topDepth.map { $0 + offset }
                if found == maximumDepth + 1 {
                    problems.append(located(
                        "\"extends\" gives the model more than \(maximumDepth) ancestors: "
                            + "\(walked.name) → \(walked.extends ?? "") → … → \(root(of: walked))",
                        model: walked.name))
                }
                depths[walked.name] = .some(found.flatMap { $0 <= maximumDepth ? $0 : nil })
            }
            return depths[model.name] ?? nil
        }
        var prepared: Prepared = []
        /// Problems of inherited properties left to the new model that declares them, and the
        /// problems reported, as `Model.property: message`.
        var inherited: [(key: String, problem: ModelSchemaError)] = []
        var reportedKeys: Set<String> = []
        // Each model's metadata holds its inherited properties: a base of P properties that N
        // models extend costs N × P, however short the schema. The batch may build
        // `maximumInheritanceFactor` times what it declares, plus `inheritanceAllowance`; an
        // ancestor registered before counts as declared too, once, so that models extending it
        // cost the same in one batch as in several.
        var outsideAncestors: Set<String> = []
        for name in fresh {
            var parent = definition(of: name)?.extends
            for _ in 0...ModelSchema.maximumExtendsDepth {
                guard let next = parent, !freshNames.contains(next), outsideAncestors.insert(next).inserted else { break }
                parent = definition(of: next)?.extends
            }
        }
        let declared = fresh.reduce(0) { $0 + (definition(of: $1)?.properties.count ?? 0) + 1 }
            + outsideAncestors.reduce(0) { $0 + (definition(of: $1)?.properties.count ?? 0) }
        let propertyBudget = ModelSchema.maximumInheritanceFactor * declared + ModelSchema.inheritanceAllowance
        var built = 0
        for name in fresh {
            guard let entry = byName[name] else { continue }
            let model = entry.model
            if let discriminator = model.discriminator {
                for target in discriminator.map.values.sorted() where definition(of: target) == nil {
                    let message = (classes[target] ?? registry.modelType(named: target)) != nil
                        ? "the discriminator names the model class \"\(target)\"; it may name only schema models"
                        : "the discriminator names unknown model \"\(target)\"" + suggestion(for: target)
                    problems.append(problem(message, entry: entry))
                }
                // A chosen model stands where this one was asked for, so it must have its properties.
                for (tag, target) in discriminator.map.sorted(by: { $0.key < $1.key }) {
                    guard let chosen = definition(of: target), !isModel(chosen, extending: name) else { continue }
                    problems.append(problem(
                        "the discriminator maps \"\(tag)\" to \"\(target)\", which does not extend \"\(name)\"", entry: entry))
                }
            }
            guard depth(of: model) != nil else { continue }
            // Ancestors, root first: at most `maximumDepth` of them.
            var ancestors = [model]
            while let parent = ancestors[ancestors.count - 1].extends, let next = definition(of: parent) {
                ancestors.append(next)
            }
            var collected: [(declaration: PropertyDeclaration, declaringModel: String)] = []
            var complete = true
            let defaultKeyStyle = registry.defaultKeyStyle
            for (index, ancestor) in ancestors.enumerated().reversed() {
                // An ancestor's problems are reported on the ancestor itself (when it is in the batch).
                guard let list = declarations(of: ancestor) else {
                    complete = false
                    continue
                }
                // Each property follows the style of the model declaring it (or of its nearest ancestor with one).
                let style = ancestors[index...].lazy.compactMap(\.keyStyle).first ?? defaultKeyStyle
                collected += list.map { ($0.keyed(in: style), ancestor.name) }
            }
            guard complete else { continue }
            built += collected.count
            if built > propertyBudget {
                problems.append(problem(
                    "the models would hold more than \(propertyBudget) properties with the ones they inherit "
                        + "(\(ModelSchema.maximumInheritanceFactor) times the \(declared) properties and models the batch and the models it extends declare, "
                        + "plus \(ModelSchema.inheritanceAllowance)); each model extending another holds its properties again",
                    model: model.name))
                break
            }
            let metadata = ModelMetadata(
                modelName: model.name, modelType: DynamicModel.self, declarations: collected, registry: registry,
                discriminator: model.discriminator.map { ModelDiscriminator(path: $0.path, map: $0.map, registry: registry) },
                requiresNonOptionals: ancestors.lazy.compactMap(\.requireNonOptionals).first ?? false,
                comparesDeclaredPropertiesOnly: ancestors.lazy.compactMap(\.compareDeclaredPropertiesOnly).first ?? false,
                allowsNonFiniteNumbers: ancestors.lazy.compactMap(\.allowNonFiniteNumbers).first
                    ?? registry.allowsNonFiniteNumbers,
                lineage: ancestors.map(\.name))
            if !metadata.problems.isEmpty {
                // The last model declaring a name: a name declared again is the later model's problem.
                var owners: [String: String] = [:]
                for (declaration, declaringModel) in collected {
                    owners[declaration.name] = declaringModel
                }
                var seenProblems: Set<String> = []
                for found in metadata.problems {
                    // A problem of an inherited property belongs to the model that declared it,
                    // when that model is new and has it too; else to this model (its own
                    // settings, such as allowNonFiniteNumbers, may make the problem).
                    let owner = owners[found.property] ?? model.name
                    let key = "\(owner).\(found.property): \(found.message)"
                    guard seenProblems.insert(key).inserted else { continue }
                    let own = ModelSchemaError(found.message, model: model.name, property: found.property, file: file(of: model.name))
                    if owner != model.name && freshNames.contains(owner) {
                        inherited.append((key, own))  // reported when that model is built, if it has it
                        continue
                    }
                    reportedKeys.insert(key)
                    problems.append(own)
                }
                continue
            }
            prepared.append((metadata, model))
        }
        // A model whose problem its ancestor does not share is refused all the same.
        problems += inherited.filter { !reportedKeys.contains($0.key) }.map(\.problem)
        for cycle in Self.groupCycles(among: fresh, definition: definition(of:)) {
            problems.append(ModelSchemaError(
                "property groups nest without end: \(cycle.text); a group reads its parent's own object, "
                    + "so its model may not hold the group again", model: cycle.model, property: cycle.property,
                file: file(of: cycle.model)))
        }
        if !problems.isEmpty { throw SchemaLoadingError(problems: problems) }
        return prepared
    }

    /// The most cycles of property groups one check reports.
    static var maximumReportedCycles: Int { 10 }
    /// The most steps a reported cycle names.
    static var maximumReportedSteps: Int { 16 }

    /// A cycle of property groups, named by its first model and that model's group property.
    struct GroupCycle: Equatable {
        var model: String
        var property: String
        /// `A.g → B.h → A`.
        var text: String
    }

    /// The cycles of property groups among the `fresh` models, each reported once.
    ///
    /// A property group is a model over its parent's own object (`group: true`), so a model
    /// that holds itself through groups (`Node.same: Node`, or `A.b: B` and `B.a: A`, inherited
    /// ones included, or a model a group's discriminator may pick) makes a model over that
    /// object at every level: validation and output would never end. Models registered before
    /// cannot be on a cycle: they refer only to models registered before them.
    ///
    /// The graph has a node for each model and one for each type a group has, "a model a group
    /// of this type may make": a model's groups lead to their types' nodes, and a type's node
    /// leads to the model itself and to the nodes of the models its discriminator may pick.
    /// Expanded into an edge from each group to every model it may make, a schema of a
    /// discriminator with 10,000 choices and a model with 10,000 groups of its type had 10^8
    /// edges (gigabytes, from a schema of a megabyte); this way it has about 10,000.
    ///
    /// At most ``maximumReportedCycles`` cycles are reported, each naming at most
    /// ``maximumReportedSteps`` of its steps: one refuses the schema, and a hostile one may hold
    /// as many cycles as groups, each as long as the schema.
    ///
    /// - Complexity: O(*m* + *e*) in the models and the groups and discriminator choices, each
    ///   walked once, iteratively.
    static func groupCycles(
        among fresh: [String], definition: (String) -> ModelSchema.Model?
    ) -> [GroupCycle] {
        let freshNames = Set(fresh)
        /// A model, or a type that a group reads: two kinds of node, which a name cannot confuse
        /// (a name marked with a character of its own was a model's name too, `"\u{0}X"`, whose
        /// groups were then never followed).
        enum Node: Hashable {
            case model(String)
            case type(String)

            var name: String {
                switch self {
                case .model(let name), .type(let name): name
                }
            }
        }
        /// The edges out of `node`: a model's groups (own and inherited), each to its type's node
        /// (the first group of a type only); a type's node to the model, when fresh, and to the
        /// nodes of the models its discriminator may pick.
        func edges(of node: Node) -> [(property: String, target: Node)] {
            var list: [(property: String, target: Node)] = []
            guard case .model(let modelName) = node else {
                let name = node.name
                if freshNames.contains(name) { list.append(("", .model(name))) }
                let choices = definition(name)?.discriminator.map { Set($0.map.values).sorted() } ?? []
                for chosen in choices where definition(chosen) != nil { list.append(("", .type(chosen))) }
                return list
            }
            var seen: Set<String> = []
            var current = definition(modelName)
            for _ in 0...ModelSchema.maximumExtendsDepth {
                guard let model = current else { break }
                for property in model.properties where property.group {
                    guard case .named(let target) = property.type.unwrappingOneOptional, seen.insert(target).inserted,
                        definition(target) != nil
                    else { continue }
                    list.append((property.name, .type(target)))
                }
                current = model.extends.flatMap(definition)
            }
            return list
        }
        enum Mark { case open, done }
        var marks: [Node: Mark] = [:]
        var cycles: [GroupCycle] = []
        var reported: Set<Set<String>> = []
        for name in fresh where marks[.model(name)] == nil {
            let start = Node.model(name)
            // Depth-first, iteratively: the nodes on the path, each with its edges and the next one to follow.
            var path: [(node: Node, edges: [(property: String, target: Node)], next: Int)] = [(start, edges(of: start), 0)]
            marks[start] = .open
            while let top = path.last {
                guard top.next < top.edges.count else {
                    marks[top.node] = .done
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let edge = top.edges[top.next]
                switch marks[edge.target] {
                case .done?:
                    continue
                case .open?:
                    let start = path.firstIndex { $0.node == edge.target }!
                    // The models on the cycle; one of discriminators alone is no cycle of groups.
                    let members = path[start...].filter { if case .model = $0.node { true } else { false } }
                    guard let first = members.first, reported.insert(Set(members.map(\.node.name))).inserted else { continue }
                    // Each model on the cycle with the group followed out of it.
                    let steps = members.prefix(maximumReportedSteps).map { member in
                        "\(member.node.name).\(member.edges[member.next - 1].property)"
                    }
                    let more = members.count - steps.count
                    cycles.append(GroupCycle(
                        model: first.node.name, property: first.edges[first.next - 1].property,
                        text: (steps + [more > 0 ? "… \(more) more → \(first.node.name)" : first.node.name]).joined(separator: " → ")))
                    if cycles.count == maximumReportedCycles { return cycles }
                case nil:
                    marks[edge.target] = .open
                    path.append((edge.target, edges(of: edge.target), 0))
                }
            }
        }
        return cycles
    }

    private func problem(_ message: String, entry: Entry) -> ModelSchemaError {
        ModelSchemaError(message, model: entry.model.name, file: entry.file)
    }

    private func problem(_ message: String, model: String) -> ModelSchemaError {
        ModelSchemaError(message, model: model, file: entries.first { $0.model.name == model }?.file)
    }
}

extension ModelSchema.TypeName {
    /// The type inside one `?`: `Node` for `Node?` and for `Node`.
    var unwrappingOneOptional: ModelSchema.TypeName {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    /// The name inside optionals, arrays and dictionaries: `Date` for `[Date?]`.
    var baseName: String {
        switch self {
        case .named(let name): name
        case .array(let inner), .dictionary(let inner), .optional(let inner): inner.baseName
        }
    }
}
