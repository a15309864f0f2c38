import FoundationEssentials
import JSONModelKit

/// A schema with every kind of property, read and written over arbitrary JSON.
let registry: ModelRegistry = {
    let registry = ModelRegistry()
    let schema = #"""
        {"models": [
          {"name": "Everything", "properties": [
            {"name": "int", "type": "Int"}, {"name": "int8", "type": "Int8", "jsonPath": "small"},
            {"name": "uint64", "type": "UInt64?"}, {"name": "double", "type": "Double", "anyOf": ["d", "double"]},
            {"name": "float", "type": "Float?"}, {"name": "bool", "type": "Bool", "default": true},
            {"name": "string", "type": "String", "jsonPath": "a.b.c"}, {"name": "decimal", "type": "Decimal?"},
            {"name": "date", "type": "Date?"}, {"name": "url", "type": "URL?"}, {"name": "uuid", "type": "UUID?"},
            {"name": "data", "type": "Data?"}, {"name": "raw", "type": "JSON"},
            {"name": "list", "type": "[Int?]"}, {"name": "map", "type": "[String: String]"},
            {"name": "child", "type": "Everything?"}, {"name": "children", "type": "[Everything]"},
            {"name": "byIndex", "type": "String?", "jsonPath": ["list", 0]}]}]}
        """#
    try! registry.register(ModelSchema(json: schema))
    return registry
}()

let names = ["int", "int8", "uint64", "double", "float", "bool", "string", "decimal", "date", "url", "uuid", "data",
             "raw", "list", "map", "child", "children", "byIndex"]

/// Builds the registry before the first input, so its one-time allocations are not counted
/// against that input by libFuzzer's per-input leak check.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzModelInitialize(_ argc: OpaquePointer?, _ argv: OpaquePointer?) -> CInt {
    _ = registry
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModel(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    guard let document = try? JSONDocument(bytes: bytes, options: JSONParseOptions(maxDepth: 64)),
        let model = try? registry.makeModel(named: "Everything", json: document.root.value, options: .mutable)
    else { return 0 }
    let original = model.jsonModel.json()
    // Reads never trap, and reading changes nothing.
    for name in names {
        let untyped: ModelValue = model.jsonModel.dynamic[dynamicMember: name]
        _ = untyped.debugDescription
        _ = model.jsonModel.jsonValue(forProperty: name)
    }
    precondition(model.jsonModel.json() == original, "reading changed the JSON")
    _ = try? model.jsonModel.validate()
    // Write each property's own JSON back, then values taken from the input itself.
    for (index, name) in names.enumerated() {
        let own = model.jsonModel.jsonValue(forProperty: name) ?? .null
        _ = try? model.jsonModel.set(own, forProperty: name)
        if let other = document.root.value[index % max(1, document.root.count)] {
            _ = try? model.jsonModel.set(other, forProperty: name)
        }
    }
    let output = model.jsonModel.json()
    guard let reparsed = try? JSONDocument(string: output.jsonString()) else { fatalError("model output does not parse") }
    precondition(reparsed.root.value == output)
    _ = model.jsonModel.mutate { _ in }.jsonModel.json()
    return 0
}
