import Foundation
import Testing
import JSONModelKitTestSupport

/// End-to-end tests of `jsonmodel validate` and `describe` on streamed input: JSON Lines and
/// standard input. They run the built binary.
@Suite("jsonmodel, streamed input")
struct StreamToolTests {
    static let schema = #"""
        {"models": [{"name": "Item", "properties": [
          {"name": "id", "type": "Int"},
          {"name": "name", "type": "String?"}]}]}
        """#

    /// Runs the tool with the schema written to a file, `input` in a `.jsonl` file (or on
    /// standard input when `stdin` is set), and removes both.
    private func run(_ command: [String], input: String, stdin: Bool = false) throws -> Tool.Output? {
        let schema = try TemporaryFile(contents: Self.schema)
        let lines = FileManager.default.temporaryDirectory.appendingPathComponent("stream-tool-\(UUID()).jsonl")
        try Data(input.utf8).write(to: lines)
        defer {
            schema.remove()
            try? FileManager.default.removeItem(at: lines)
        }
        return try Tool.run(
            command + ["--schema", schema.path, "--model", "Item", stdin ? "-" : lines.path],
            standardInput: stdin ? input : nil)
    }

    @Test func validateChecksEachLine() throws {
        let input = "{\"id\": 1}\n{\"id\": \"two\"}\n\n7\n{\"id\": 4, \"name\": \"d\"}\n"
        guard let result = try run(["validate"], input: input) else { return }
        #expect(result.status == 1)
        #expect(result.standardError.isEmpty)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first?.hasPrefix("[1].id: expected Int") == true)
        #expect(lines.dropFirst().first == "[2]: expected an object (Item), found a number")
        #expect(lines.last?.hasSuffix(".jsonl: 2 problems in 3 Item objects") == true)

        guard let valid = try run(["validate"], input: "{\"id\": 1}\n{\"id\": 2}") else { return }
        #expect(valid.status == 0)
        #expect(valid.standardOutput.hasSuffix(".jsonl: valid in 2 Item objects\n"))
    }

    @Test func validateReadsStandardInputInAnyLayout() throws {
        for input in ["[{\"id\": 1}, {\"id\": 2}]", "{\"id\": 1}\n{\"id\": 2}\n", "{\n  \"id\": 1\n}\n{\n  \"id\": 2\n}"] {
            guard let result = try run(["validate"], input: input, stdin: true) else { return }
            #expect(result.status == 0, "\(input): \(result.standardOutput)")
            #expect(result.standardOutput == "-: valid in 2 Item objects\n")
            #expect(result.standardError.isEmpty)  // no progress line: standard error is not a terminal
        }
    }

    @Test func invalidJSONNamesTheElementLineAndColumn() throws {
        guard let result = try run(["validate"], input: "{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3,, }\n{\"id\": 4}\n") else { return }
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "invalid JSON in element 2 at line 3, column 10: unexpected ',' (byte 29)")
        #expect(lines.last?.hasSuffix(".jsonl: not valid JSON") == true)

        guard let truncated = try run(["validate"], input: "[{\"id\": 1}, {\"id\"", stdin: true) else { return }
        #expect(truncated.status == 1)
        #expect(truncated.standardOutput.hasPrefix("invalid JSON in element 1 at line 1, column 18: unexpected end of input"))
    }

    @Test func describeDescribesEachElement() throws {
        guard let result = try run(["describe", "--short"], input: "{\"id\": 1}\n{\"id\": 2, \"name\": \"b\"}\n") else { return }
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[1].contains("\"b\""))

        guard let full = try run(["describe"], input: "{\"id\": 1}\n{\"id\": 2}", stdin: true) else { return }
        #expect(full.status == 0)
        #expect(full.standardOutput.components(separatedBy: "\n\n").count == 2)

        // An element that is not an object is listed and the ones after it are described, as in
        // a file read whole: describing stopped at it.
        guard let bad = try run(["describe", "--short"], input: "{\"id\": 1}\n[2]\n{\"id\": 3}\n") else { return }
        #expect(bad.status == 1)
        let listed = bad.standardOutput.split(separator: "\n").map(String.init)
        #expect(listed.count == 3)
        #expect(listed[1] == "[1]: expected an object (Item), found an array")
        #expect(listed[2].contains("3"))
        #expect(bad.standardError.contains("1 of 3 elements is not an object"))
        guard let piped = try run(["describe"], input: "[{\"id\": 1}, 5, {\"id\": 2}]", stdin: true) else { return }
        #expect(piped.status == 1)
        #expect(piped.standardOutput.components(separatedBy: "\n\n").count == 3)
        #expect(piped.standardOutput.contains("[1]: expected an object (Item), found a number"))
    }
}
