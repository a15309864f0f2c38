import Foundation
import Testing
@testable import JSONModelKit

/// The scanner's test of `ScanningTests` that reads a stream's elements too (`ModelStreamReader`),
/// which the core's test target cannot import.
@Suite("Scanning and validation, through a stream")
struct StreamScanningTests {
    /// The scanner keeps its first sixteen open containers on the stack and moves them to the
    /// heap when nesting goes deeper: every depth around that edge, objects and arrays mixed,
    /// reads back the same values, from a document and from a stream's elements.
    @Test func nestingAroundTheFramesKeptOnTheStack() throws {
        for levels in [1, 2, 15, 16, 17, 18, 31, 32, 33, 64, 300] {
            var text = ""
            for level in 0..<levels { text += level % 2 == 0 ? "{\"k\(level)\": [\(level), " : "[\(level), " }
            text += "\"deepest\""
            for level in (0..<levels).reversed() { text += level % 2 == 0 ? "], \"after\(level)\": \(level)}" : ", \(level)]" }
            let document = try JSONDocument(string: text)
            #expect(document.depth == levels + (levels + 1) / 2, "\(levels) levels")
            let compact = text.replacingOccurrences(of: ", ", with: ",").replacingOccurrences(of: ": ", with: ":")
            #expect(document.root.jsonBytes() == Array(compact.utf8), "\(levels) levels")
            var node = document.root
            for level in 0..<levels {
                if level % 2 == 0 {
                    #expect(node["after\(level)"]?.intValue == level, "\(levels) levels, level \(level)")
                    node = try #require(node["k\(level)"])
                } else {
                    #expect(node[node.count - 1]?.intValue == level, "\(levels) levels, level \(level)")
                }
                #expect(node[0]?.intValue == level, "\(levels) levels, level \(level)")
                node = try #require(node[1])
            }
            #expect(node.stringValue == "deepest", "\(levels) levels")
            let element = Array("[\(text), \(text)]".utf8)
            let reader = ModelStreamReader<JSONModel>(bytes: element)
            var read = 0
            while let model = try reader.read() {
                #expect(model.jsonModel.json() == document.root.value, "\(levels) levels, element \(read)")
                read += 1
            }
            #expect(read == 2, "\(levels) levels")
        }
    }
}
