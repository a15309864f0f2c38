import Foundation
import JSONModelKit

// Creation with ModelOptions: every call typechecks without a diagnostic, with typed errors, and
// none is ambiguous.

func current(_ data: Data, _ text: String, _ node: JSONNode, _ value: JSONValue, _ registry: ModelRegistry) throws(JSONModelError) {
    _ = try User(json: data)
    _ = try User(json: text)
    _ = try User(json: Array(data))
    _ = try User(json: value)
    _ = try User(json: node)
    _ = try User(json: ["login": "ann"] as JSONValue)
    _ = try User(json: URL(fileURLWithPath: "user.json"))
    _ = try User(json: data, options: .mutable)
    _ = try User(json: data, options: .validating)
    _ = try User(json: data, options: .init())
    _ = try User(json: text, options: ModelOptions(mutable: true, validating: true, parseOptions: .init(maxDepth: 8)))
    _ = try User.make(json: data)
    _ = try User.make(json: text, options: .mutable)
    _ = try User.make(json: node)
    _ = try User.array(from: data)
    _ = try User.array(from: text, options: .validating)
    _ = try ModelDictionary<User>(json: data)
    _ = try registry.makeModel(named: "User", json: data)
    _ = try registry.makeModel(named: "User", json: node, options: .mutable)
}

func streams(_ data: Data, _ bytes: AsyncStream<UInt8>) throws(JSONStreamError) {
    _ = try ModelStreamReader<User>(contentsOf: URL(fileURLWithPath: "users.jsonl"), options: .validating)
    _ = ModelStreamReader<User>(bytes: Array(data), options: ModelOptions(streamOptions: JSONStreamOptions(format: .lines)))
    _ = User.stream(from: bytes, options: .strict)
}
