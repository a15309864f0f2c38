import JSONModelKit
import JSONModelKitCore

/// A model found in the samples, before it has its final name.
final class ModelNode {
    /// The name its key suggests (`Customer`, `LineItem`), before prefixes and collisions.
    let candidateName: String
    var properties: [PropertyNode] = []

    init(candidateName: String) {
        self.candidateName = candidateName
    }

    /// Same keys, types and enum values, nested models compared the same way.
    func hasSameShape(as other: ModelNode) -> Bool {
        self === other || properties == other.properties
    }
}

/// One property of a ``ModelNode``.
struct PropertyNode: Equatable {
    var key: String
    var type: NodeType
    var enumValues: [String]?

    /// Keys and enum values compared by their bytes, as models read them: `String`'s `==` takes
    /// `"caf\u{E9}"` and `"cafe\u{301}"` for one.
    static func == (lhs: PropertyNode, rhs: PropertyNode) -> Bool {
        lhs.key.isSameJSONKey(as: rhs.key) && lhs.type == rhs.type
            && lhs.enumValues?.map(ExactKey.init) == rhs.enumValues?.map(ExactKey.init)
    }
}

/// A property type whose models are still nodes.
indirect enum NodeType: Equatable {
    case scalar(InferredType)
    case model(ModelNode)
    case array(NodeType)
    case dictionary(NodeType)
    case optional(NodeType)

    static func == (lhs: NodeType, rhs: NodeType) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let a), .scalar(let b)): a == b
        case (.model(let a), .model(let b)): a.candidateName == b.candidateName && a.hasSameShape(as: b)
        case (.array(let a), .array(let b)), (.dictionary(let a), .dictionary(let b)), (.optional(let a), .optional(let b)):
            a == b
        default: false
        }
    }

    var optional: NodeType {
        if case .optional = self { return self }
        return .optional(self)
    }

    /// The models this type holds directly (through arrays, dictionaries and optionals).
    var models: [ModelNode] {
        switch self {
        case .scalar: []
        case .model(let node): [node]
        case .array(let inner), .dictionary(let inner), .optional(let inner): inner.models
        }
    }

    /// At most this many levels of arrays, dictionaries and optionals in an inferred type; deeper,
    /// the rest is raw `JSON`. Fewer than a schema takes (``ModelSchema/maximumTypeNesting``), so
    /// that the schema inferred from a sample registers and reads it; and few enough for Swift's
    /// type checker, whose time grows about 1.8 times a level of nested arrays: a property of 22
    /// levels took a second to check, one of 26 seventeen, and one of 32 did not finish in ten
    /// minutes.
    static let maximumNesting = 16

    /// The type with each model replaced by its name, at most ``maximumNesting`` levels deep.
    func inferredType(names: (ModelNode) -> String, levels: Int = 0) -> InferredType {
        let deeper = levels + 1
        switch self {
        case .scalar(let type): return type
        case .model(let node): return .model(names(node))
        case _ where deeper > Self.maximumNesting: return .json
        case .array(let inner): return .array(inner.inferredType(names: names, levels: deeper))
        case .dictionary(let inner): return .dictionary(inner.inferredType(names: names, levels: deeper))
        case .optional(let inner): return .optional(inner.inferredType(names: names, levels: deeper))
        }
    }
}
