import JSONModelKit
import JSONModelKitCore

/// Gives every model node its final name, and every property its Swift name.
///
/// Models are named breadth first from the root, properties in key order, so a model nearer the
/// top gets the plain name. A nested model takes the prefix and the name its key suggests; when
/// that name is taken by a model of another shape, it takes its parent's name first
/// (`OrderCustomer`), then a number (`Customer2`). A model with the same name and shape as one
/// already named is the same model.
struct ModelNaming {
    let prefix: String

    private var assigned: [ObjectIdentifier: String] = [:]
    private var nodeNamed: [String: ModelNode] = [:]
    private var order: [ModelNode] = []

    init(prefix: String) {
        self.prefix = prefix
    }

    func schema(root: ModelNode, rootName: String) -> InferredSchema {
        var naming = self
        naming.nameAll(root: root, rootName: rootName)
        let models = naming.order.map { node in
            InferredModel(name: naming.name(of: node), properties: naming.properties(of: node))
        }
        return InferredSchema(models: models)
    }

    private func name(of node: ModelNode) -> String {
        assigned[ObjectIdentifier(node)] ?? node.candidateName
    }

    /// Names every model, the root first. A nested model's name is never one of its parent's
    /// property names: in the parent's registration block, `p._3d(_3d.self)` would find the
    /// property's typed member before the type, and not build.
    private mutating func nameAll(root: ModelNode, rootName: String) {
        var queue: [(node: ModelNode, parentName: String?, parentProperties: Set<String>)] = [(root, nil, [])]
        var next = 0
        while next < queue.count {
            let (node, parentName, parentProperties) = queue[next]
            next += 1
            func isFree(_ option: String) -> Bool {
                !InferenceNames.reservedTypeNames.contains(option) && !parentProperties.contains(option)
            }
            let base = parentName == nil ? rootName : Self.join(prefix, node.candidateName)
            var options = [base]
            if let parentName { options.append(Self.join(parentName, node.candidateName)) }
            var chosen: String?
            var reused = false
            for option in options where isFree(option) {
                if let existing = nodeNamed[option] {
                    if existing.hasSameShape(as: node) {
                        // Its own spelling: `String` finds a name that differs only in how its
                        // accents are encoded, and Swift tells the two apart.
                        chosen = name(of: existing)
                        reused = true
                        break
                    }
                    continue
                }
                chosen = option
                break
            }
            if chosen == nil {
                var number = 2
                while true {
                    let option = base + String(number)
                    if let existing = nodeNamed[option] {
                        if existing.hasSameShape(as: node) && !parentProperties.contains(option) {
                            chosen = name(of: existing)
                            reused = true
                            break
                        }
                    } else if isFree(option) {
                        chosen = option
                        break
                    }
                    number += 1
                }
            }
            let name = chosen!
            assigned[ObjectIdentifier(node)] = name
            if reused { continue }
            nodeNamed[name] = node
            order.append(node)
            let propertyNames = Set(self.propertyNames(of: node))
            for property in node.properties {
                for child in property.type.models { queue.append((child, name, propertyNames)) }
            }
        }
    }

    /// `head` and `name` run together; the underscore that kept a name from starting with a
    /// digit goes when something comes before it (`Odd` and `_3d` give `Odd3d`).
    static func join(_ head: String, _ name: String) -> String {
        guard !head.isEmpty, name.hasPrefix("_"), let second = name.unicodeScalars.dropFirst().first,
            InferenceNames.isDigit(second)
        else { return head + name }
        return head + name.dropFirst()
    }

    /// The properties of a named node with their Swift names: reserved names get a suffix, and
    /// a name two keys share goes to the key spelled exactly like it, else to the first; the
    /// others get a number.
    private func properties(of node: ModelNode) -> [InferredProperty] {
        let names = propertyNames(of: node)
        return node.properties.enumerated().map { index, property in
            InferredProperty(
                name: names[index], key: property.key, type: property.type.inferredType(names: name(of:)),
                enumValues: property.enumValues)
        }
    }

    /// The Swift names of a node's properties, in order (``properties(of:)``).
    private func propertyNames(of node: ModelNode) -> [String] {
        let bases = node.properties.map { property -> String in
            let name = InferenceNames.propertyName(forKey: property.key)
            return InferenceNames.reservedPropertyNames.contains(name) ? name + InferenceNames.reservedPropertySuffix : name
        }
        var names = [String?](repeating: nil, count: bases.count)
        var used: Set<String> = []
        for (index, base) in bases.enumerated() where base.isSameJSONKey(as: node.properties[index].key) && !used.contains(base) {
            names[index] = base
            used.insert(base)
        }
        for (index, base) in bases.enumerated() where names[index] == nil {
            var name = base
            var number = 2
            while used.contains(name) {
                name = base + String(number)
                number += 1
            }
            names[index] = name
            used.insert(name)
        }
        return names.map { $0! }
    }
}
