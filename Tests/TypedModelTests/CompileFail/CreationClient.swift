import Foundation
import JSONModelKit

// Creation with ModelOptions next to the former spellings, which are deprecated: the new calls
// typecheck without a diagnostic, and with typed errors; each former call, marked `// former`,
// gets one deprecation warning and still builds. No call is ambiguous.

func current(_ data: Data, _ text: String, _ node: JSONNode, _ value: JSONValue, _ registry: ModelRegistry) throws(JSONModelError) {
    _ = try User(json: data)
    _ = try User(json: text)
    _ = try User(json: Array(data))
    _ = try User(json: value)
    _ = try User(node: node)
    _ = try User(dictionary: ["login": "ann"])
    _ = try User(json: data, options: .mutable)
    _ = try User(json: data, options: .validating)
    _ = try User(json: data, options: .init())
    _ = try User(json: text, options: ModelOptions(mutable: true, validating: true, parseOptions: .init(maxDepth: 8)))
    _ = try User.make(json: data)
    _ = try User.make(json: text, options: .mutable)
    _ = try User.make(node: node)
    _ = try User.array(from: data)
    _ = try User.array(from: text, options: .validating)
    _ = try ModelDictionary<User>(json: data)
    _ = try registry.makeModel(named: "User", json: data)
    _ = try registry.makeModel(named: "User", node: node, options: .mutable)
}

func former(_ data: Data, _ text: String, _ node: JSONNode, _ value: JSONValue, _ registry: ModelRegistry) throws {
    _ = try User(json: data, mutable: true)  // former
    _ = try User(json: text, mutable: false, options: JSONParseOptions(maxDepth: 8))  // former
    _ = try User(json: text, options: JSONParseOptions(allowsComments: true))  // former
    _ = try User(json: value, mutable: true)  // former
    _ = try User(node: node, mutable: true)  // former
    _ = try User(dictionary: ["login": "ann"], mutable: true)  // former
    _ = try User(validating: data)  // former
    _ = try User(validating: node, mutable: true)  // former
    _ = try User.make(json: data, mutable: true)  // former
    _ = try User.make(node: node, mutable: false)  // former
    _ = try User.array(from: data, mutable: true)  // former
    _ = try ModelDictionary<User>(json: text, mutable: true)  // former
    _ = try registry.makeModel(named: "User", json: data, mutable: true)  // former
}
