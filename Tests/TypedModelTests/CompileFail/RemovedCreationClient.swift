import Foundation
import JSONModelKit

// The spellings of creation from before ModelOptions (`mutable:`, `validating:`, parse options
// alone) and before JSONSource (`node:`, `dictionary:`, Foundation objects, file descriptors).
// Nothing was released with them, so they are gone rather than deprecated: each call, marked
// `// removed`, fails to build.

func former(_ data: Data, _ text: String, _ node: JSONNode, _ value: JSONValue, _ registry: ModelRegistry) throws {
    _ = try User(json: data, mutable: true)  // removed
    _ = try User(json: text, mutable: false, options: JSONParseOptions(maxDepth: 8))  // removed
    _ = try User(json: text, options: JSONParseOptions(allowsComments: true))  // removed
    _ = try User(json: value, mutable: true)  // removed
    _ = try User(node: node, mutable: true)  // removed
    _ = try User(dictionary: ["login": "ann"], mutable: true)  // removed
    _ = try User(validating: data)  // removed
    _ = try User(validating: node, mutable: true)  // removed
    _ = try User.make(json: data, mutable: true)  // removed
    _ = try User.make(node: node, mutable: false)  // removed
    _ = try User.array(from: data, mutable: true)  // removed
    _ = try ModelDictionary<User>(json: text, mutable: true)  // removed
    _ = try registry.makeModel(named: "User", json: data, mutable: true)  // removed
    _ = try User(node: node)  // removed
    _ = try User.make(node: node)  // removed
    _ = try User(dictionary: ["login": "ann"])  // removed
    _ = try User.array(from: [["login": "ann"]] as [Any])  // removed
    _ = try registry.makeModel(named: "User", node: node)  // removed
    _ = User.stream(fromFileDescriptor: 0)  // removed
    _ = User.stream(contentsOf: URL(fileURLWithPath: "users.jsonl"))  // removed
    _ = try ModelStreamReader<User>(contentsOfFile: "users.jsonl")  // removed
    _ = ModelStreamReader<User>(bytes: Array(data), mutable: true)  // removed
}
