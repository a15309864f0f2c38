import Foundation
import Testing
import JSONModelKitTestSupport

/// End-to-end tests of `jsonmodel describe`: they run the built binary.
@Suite("jsonmodel describe")
struct DescribeToolTests {
    static let schema = #"""
        {"models": [
          {"name": "Order", "properties": [
            {"name": "id", "type": "Int64"},
            {"name": "customer", "type": "String", "jsonPath": "customer.name"},
            {"name": "lines", "type": "[Line]"},
            {"name": "note", "type": "String?"}]},
          {"name": "Line", "properties": [
            {"name": "sku", "type": "String"},
            {"name": "qty", "type": "Int", "default": 1}]}
        ]}
        """#

    static let order = #"""
        {"id": 7, "customer": {"name": "Zoë", "vip": true}, "lines": [{"sku": "a-1"}, {"sku": "b\"2", "qty": "x"}],
         "channel": "web"}
        """#

    @Test func printsTheFullDescription() throws {
        let files = try Files(schema: Self.schema, input: Self.order)
        defer { files.remove() }
        guard let result = try DescribeTool.run(["describe", "--schema", files.schema, "--model", "Order", files.input]) else { return }
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardError.isEmpty)
        Snapshot.expect(result.standardOutput, named: "order")
    }

    @Test func shortPrintsOneLine() throws {
        let files = try Files(schema: Self.schema, input: Self.order)
        defer { files.remove() }
        guard let result = try DescribeTool.run(["describe", "--short", "--schema", files.schema, "--model", "Order", files.input])
        else { return }
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput == #"Order(id: 7, customer: "Zoë", lines: [2 items])"# + "\n")
    }

    @Test func unknownModelFailsWithTheDeclaredNames() throws {
        let files = try Files(schema: Self.schema, input: Self.order)
        defer { files.remove() }
        guard let result = try DescribeTool.run(["describe", "--schema", files.schema, "--model", "Invoice", files.input]) else { return }
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("declares no model 'Invoice'"))
        #expect(result.standardError.contains("Order, Line"))
    }

    @Test func schemaErrorFails() throws {
        let broken = #"{"models": [{"name": "Order", "properties": [{"name": "id", "type": "Nope"}]}]}"#
        let files = try Files(schema: broken, input: Self.order)
        defer { files.remove() }
        guard let result = try DescribeTool.run(["describe", "--schema", files.schema, "--model", "Order", files.input]) else { return }
        #expect(result.status == 1)
        #expect(result.standardError.contains("schema error"))
        #expect(result.standardError.contains("unknown type \"Nope\""))

        let unparsable = try Files(schema: "{\"models\": [\n  {\"name\": }\n]}", input: Self.order)
        defer { unparsable.remove() }
        guard let second = try DescribeTool.run(["describe", "--schema", unparsable.schema, "--model", "Order", unparsable.input])
        else { return }
        #expect(second.status == 1)
        #expect(second.standardError.contains("line 2, column 12"), "\(second.standardError)")
    }

    @Test func invalidJSONFailsWithLineAndColumn() throws {
        let files = try Files(schema: Self.schema, input: "{\n  \"id\": 7,\n  \"lines\": [tru]\n}\n")
        defer { files.remove() }
        guard let result = try DescribeTool.run(["describe", "--schema", files.schema, "--model", "Order", files.input]) else { return }
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("invalid JSON at line 3, column 13"), "\(result.standardError)")
        #expect(result.standardError.contains(files.input))
    }

    @Test func nonObjectAndMissingFilesFail() throws {
        let files = try Files(schema: Self.schema, input: "42")
        defer { files.remove() }
        guard let scalar = try DescribeTool.run(["describe", "--schema", files.schema, "--model", "Order", files.input]) else { return }
        #expect(scalar.status == 1)
        #expect(scalar.standardError.contains("needs a JSON object"))
        guard let missing = try DescribeTool.run(["describe", "--schema", files.schema, "--model", "Order", files.input + ".missing"])
        else { return }
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("cannot read"))
        guard let noSchema = try DescribeTool.run(["describe", "--schema", files.schema + ".missing", "--model", "Order", files.input])
        else { return }
        #expect(noSchema.status == 1)
        #expect(noSchema.standardError.contains("cannot read"))
    }

    @Test func anArrayDescribesEachElement() throws {
        let files = try Files(schema: Self.schema, input: "[\(Self.order), {\"id\": 8}]")
        defer { files.remove() }
        guard let full = try DescribeTool.run(["describe", "--schema", files.schema, "--model", "Order", files.input]) else { return }
        #expect(full.status == 0, "stderr: \(full.standardError)")
        #expect(full.standardError.isEmpty)
        #expect(full.standardOutput.hasPrefix("[0]:\n"))
        #expect(full.standardOutput.contains("\n\n[1]:\n"))
        // The first element's problems, with paths inside that element, as for a single object.
        #expect(full.standardOutput.contains("problems:"))
        #expect(full.standardOutput.contains("lines[1].qty"))
        guard let short = try DescribeTool.run(["describe", "--short", "--schema", files.schema, "--model", "Order", files.input])
        else { return }
        #expect(short.status == 0)
        #expect(short.standardOutput == #"[0] Order(id: 7, customer: "Zoë", lines: [2 items])"# + "\n[1] Order(id: 8)\n")
    }

    @Test func anArrayWithElementsThatAreNotObjectsFailsAfterTheOthers() throws {
        let files = try Files(schema: Self.schema, input: #"[1, {"id": 3}, null]"#)
        defer { files.remove() }
        guard let result = try DescribeTool.run(["describe", "--short", "--schema", files.schema, "--model", "Order", files.input])
        else { return }
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("[0]: expected an object (Order), found a number"))
        #expect(result.standardOutput.contains("[1] Order(id: 3)"))
        #expect(result.standardOutput.contains("[2]: expected an object (Order), found null"))
        #expect(result.standardError.contains("2 of 3 elements are not objects"))
        let empty = try Files(schema: Self.schema, input: "[]")
        defer { empty.remove() }
        guard let none = try DescribeTool.run(["describe", "--schema", empty.schema, "--model", "Order", empty.input]) else { return }
        #expect(none.status == 0)
        #expect(none.standardOutput.isEmpty)
    }

    @Test(arguments: [
        ["describe"], ["describe", "--model", "Order", "x.json"], ["describe", "--schema", "s.json", "x.json"],
        ["describe", "--schema", "s.json", "--model", "Order"], ["describe", "--schema", "s.json", "--model", "O", "a", "b"],
    ])
    func incompleteCommandLinesAreUsageErrors(arguments: [String]) throws {
        guard let result = try DescribeTool.run(arguments) else { return }
        #expect(result.status == 2)
        #expect(result.standardError.contains("USAGE: jsonmodel describe"))
    }

    @Test func helpAndListing() throws {
        guard let help = try DescribeTool.run(["describe", "--help"]) else { return }
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("--short"))
        guard let list = try DescribeTool.run(["--help"]) else { return }
        #expect(list.standardOutput.contains("describe"))
    }
}

/// A schema file and an input file in the temporary folder.
private struct Files {
    let schema: String
    let input: String

    init(schema schemaText: String, input inputText: String) throws {
        let folder = FileManager.default.temporaryDirectory
        let stem = "jsonmodel-describe-\(UUID().uuidString)"
        schema = folder.appendingPathComponent(stem + "-schema.json").path
        input = folder.appendingPathComponent(stem + "-input.json").path
        try Data(schemaText.utf8).write(to: URL(fileURLWithPath: schema))
        try Data(inputText.utf8).write(to: URL(fileURLWithPath: input))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: schema)
        try? FileManager.default.removeItem(atPath: input)
    }
}

/// The built `jsonmodel` binary, run by the harness every tool test uses, under the name these
/// tests call it by.
private typealias DescribeTool = Tool
