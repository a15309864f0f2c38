import Foundation
import Testing
import JSONModelKitTestSupport

/// `jsonmodel validate --strict`: lenient conversions and missing non-optionals are problems.
@Suite("jsonmodel validate --strict")
struct ValidateStrictToolTests {
    static let schema = #"""
        {"models": [{"name": "Order", "keyStyle": "snake_case", "properties": [
          {"name": "orderID", "type": "Int"},
          {"name": "customer", "type": "String"},
          {"name": "note", "type": "String?"}]}]}
        """#

    private func validate(_ input: String, strict: Bool) throws -> Tool.Output? {
        let schemaFile = try TemporaryFile(contents: Self.schema)
        let inputFile = try TemporaryFile(contents: input)
        defer {
            schemaFile.remove()
            inputFile.remove()
        }
        let flags = strict ? ["--strict"] : []
        return try Tool.run(["validate"] + flags + ["--schema", schemaFile.path, "--model", "Order", inputFile.path])
    }

    @Test func strictNamesEachKeyLenientPasses() throws {
        let input = #"{"order_id": "7", "custmer": "Ann", "extra": 1}"#
        guard let lenient = try validate(input, strict: false), let strict = try validate(input, strict: true) else { return }
        #expect(lenient.status == 0, "\(lenient.standardOutput)")
        #expect(strict.status == 1)
        let lines = strict.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix(#"order_id: expected Int, found a string "7""#))
        #expect(lines[1] == "customer: a non-optional value is missing (Order.customer, missingRequired)")
        #expect(lines[2].hasSuffix(": 2 problems"))
    }

    @Test func strictPassesExactInput() throws {
        guard let result = try validate(#"{"order_id": 7, "customer": "Ann", "unknown": true}"#, strict: true) else { return }
        #expect(result.status == 0, "\(result.standardOutput)")
    }
}
