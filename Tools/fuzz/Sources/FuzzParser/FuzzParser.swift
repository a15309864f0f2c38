import JSONModelKit

/// Parses arbitrary bytes; whatever parses must read, materialize, write and parse back equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    for options in [JSONParseOptions(), JSONParseOptions(maxDepth: 64, allowsTrailingCommas: true, allowsComments: true)] {
        guard let document = try? JSONDocument(bytes: bytes, options: options) else { continue }
        let value = document.root.value
        for writeOptions: JSONWriteOptions in [[], [.prettyPrinted, .sortedKeys]] {
            let written = Array(document.root.jsonString(options: writeOptions).utf8)
            guard let again = try? JSONDocument(bytes: written) else { fatalError("output does not parse: \(written)") }
            precondition(again.root.value == value, "round trip changed the value")
            precondition(value.jsonString(options: writeOptions) == again.root.value.jsonString(options: writeOptions))
        }
        // Every view must answer without trapping.
        var stack = [document.root]
        var visited = 0
        while let node = stack.popLast(), visited < 10_000 {
            visited += 1
            let number = node.numberValue
            _ = (node.kind, node.stringValue, number?.intValue, number?.doubleValue, node.count)
            for (key, member) in node.members {
                precondition(node[key] != nil, "member \(key) not found by lookup")
                stack.append(member)
            }
            stack.append(contentsOf: node.elements)
            _ = node[node.count - 1]
        }
    }
    return 0
}
