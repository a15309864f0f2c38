#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// The JSON a conversion reads: a node of a parsed document, or an owned value.

/// A JSON value to read from: a view into a parsed document, or an owned value.
enum JSONInput: Sendable {
    case node(JSONNode)
    /// Boxed: a `JSONValue` takes 17 bytes and a node 12, and every model holds one of these.
    indirect case value(JSONValue)

    var kind: JSONKind {
        switch self {
        case .node(let node): return node.kind
        case .value(let value):
            switch value {
            case .null: return .null
            case .bool: return .bool
            case .number: return .number
            case .string: return .string
            case .array: return .array
            case .object: return .object
            }
        }
    }

    /// Whether this is an object without members.
    var isEmptyObject: Bool {
        switch self {
        case .node(let node): return node.kind == .object && node.count == 0
        case .value(let value): return value.objectValue?.isEmpty == true
        }
    }

    var isNull: Bool {
        switch self {
        case .node(let node): return node.isNull
        case .value(let value): return value.isNull
        }
    }

    var boolValue: Bool? {
        switch self {
        case .node(let node): return node.boolValue
        case .value(let value): return value.boolValue
        }
    }

    var stringValue: String? {
        switch self {
        case .node(let node): return node.stringValue
        case .value(let value): return value.stringValue
        }
    }

    /// The exact source text of a number.
    var numberText: String? {
        switch self {
        case .node(let node): return node.numberText
        case .value(let value): return value.numberValue?.text
        }
    }

    subscript(key: String) -> JSONInput? {
        switch self {
        case .node(let node): return node[key].map(JSONInput.node)
        case .value(let value): return value[key].map(JSONInput.value)
        }
    }

    subscript(index: Int) -> JSONInput? {
        switch self {
        case .node(let node): return node[index].map(JSONInput.node)
        case .value(let value): return value[index].map(JSONInput.value)
        }
    }

    subscript(path: JSONPath) -> JSONInput? {
        switch self {
        case .node(let node): return node[path].map(JSONInput.node)
        case .value(let value): return value[path].map(JSONInput.value)
        }
    }

    /// Where `path` runs into a value that cannot hold its next segment (a string where a key
    /// is needed, an object where an index is), with that value's kind; nil when the path
    /// resolves or stops at a missing key or null.
    func blockingValue(on path: JSONPath) -> (prefix: JSONPath, kind: JSONKind)? {
        var current = self
        var prefix = JSONPath([])
        for segment in path.segments {
            if current.isNull { return nil }
            let next: JSONInput?
            switch segment {
            case .key(let key):
                guard current.kind == .object else { return (prefix, current.kind) }
                next = current[JSONPath([.key(key)])]
            case .index(let index):
                guard current.kind == .array else { return (prefix, current.kind) }
                next = current[JSONPath([.index(index)])]
            }
            guard let next else { return nil }
            prefix.append(segment)
            current = next
        }
        return nil
    }

    /// Calls `body` with each array element and its index; nothing for other kinds.
    func forEachElement(_ body: (Int, JSONInput) -> Void) {
        switch self {
        case .node(let node):
            for (index, element) in node.elements.enumerated() { body(index, .node(element)) }
        case .value(let value):
            guard case .array(let elements) = value else { return }
            for (index, element) in elements.enumerated() { body(index, .value(element)) }
        }
    }

    /// Calls `body` with each object member in order, duplicates included.
    func forEachMember(_ body: (String, JSONInput) -> Void) {
        switch self {
        case .node(let node):
            for member in node.members { body(member.key, .node(member.value)) }
        case .value(let value):
            guard case .object(let object) = value else { return }
            for member in object { body(member.key, .value(member.value)) }
        }
    }

    /// The value as an owned `JSONValue`; O(size) for a node.
    var jsonValue: JSONValue {
        switch self {
        case .node(let node): return node.value
        case .value(let value): return value
        }
    }

    /// A short name of the value's kind for messages: `a string "abc"`, `a number 2.5`.
    var summary: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a bool \(boolValue!)"
        case .number: return "a number \(numberText!)"
        case .string:
            let text = stringValue!
            return text.count > 40 ? "a string \"\(text.prefix(40))…\"" : "a string \"\(text)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension JSONInput {
    /// Calls `body` with a string's UTF-8 bytes; straight from the document when it has no escapes.
    func withStringUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        switch self {
        case .node(let node):
            let entry = node.entry
            if entry.tag == .string { return node.document.withBytes(entry.byteRange, body) }
            guard var text = node.stringValue else { return nil }
            return text.withUTF8(body)
        case .value(let value):
            guard var text = value.stringValue else { return nil }
            return text.withUTF8(body)
        }
    }
}
