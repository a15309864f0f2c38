import Foundation
import Testing
import JSONModelKitTestSupport

/// End-to-end tests of `jsonmodel validate`: they run the built binary.
@Suite("jsonmodel validate")
struct ValidateToolTests {
    static let schema = #"""
        {"models": [
          {"name": "Order", "properties": [
            {"name": "id", "type": "Int64"},
            {"name": "status", "type": "String", "enumValues": ["open", "shipped"]},
            {"name": "placedAt", "type": "Date?", "jsonPath": "placed_at"},
            {"name": "customer", "type": "String", "jsonPath": "customer.name"},
            {"name": "lines", "type": "[Line]"}]},
          {"name": "Line", "properties": [
            {"name": "sku", "type": "String"},
            {"name": "qty", "type": "Int", "default": 1},
            {"name": "price", "type": "Double"}]}
        ]}
        """#

    static let validOrder = #"""
        {"id": 7, "status": "open", "placed_at": "2025-03-12T18:04:11Z", "customer": {"name": "Zoë"},
         "lines": [{"sku": "a-1", "qty": 2, "price": 9.5}, {"sku": "b-2", "price": 1}]}
        """#

    static let badOrder = #"""
        {"id": "seven", "status": "lost", "placed_at": "yesterday", "customer": {"name": "Zoë"},
         "lines": [{"sku": "a-1", "qty": 2.5, "price": 9.5}, {"sku": "b-2", "qty": "x", "price": true}, 3]}
        """#

    /// Writes the schema and an input, runs `validate`, removes both.
    private func validate(_ input: String, model: String = "Order", schema: String = Self.schema) throws -> Tool.Output? {
        let schemaFile = try TemporaryFile(contents: schema)
        let inputFile = try TemporaryFile(contents: input)
        defer {
            schemaFile.remove()
            inputFile.remove()
        }
        return try Tool.run(["validate", "--schema", schemaFile.path, "--model", model, inputFile.path])
    }

    @Test func aValidFileExitsZero() throws {
        guard let result = try validate(Self.validOrder) else { return }
        #expect(result.status == 0, "stdout: \(result.standardOutput)\nstderr: \(result.standardError)")
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput.hasSuffix(": valid Order\n"))
    }

    @Test func everyProblemIsPrintedWithItsPath() throws {
        guard let result = try validate(Self.badOrder) else { return }
        #expect(result.status == 1)
        #expect(result.standardError.isEmpty)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let expected = [
            #"id: expected Int64, found a string "seven" (Order.id, typeMismatch)"#,
            #"status: "lost" is not one of the enumValues (Order.status, invalidValue)"#,
            "placed_at: ",
            // The array leaves out its element that is not an object when it is created,
            // then its elements report their own problems.
            "lines[2]: expected a Line object, found a number 3",
            "lines[0].qty: 2.5 rounded to 3",
            "lines[1].qty: ",
            "lines[1].price: ",
        ]
        #expect(lines.count == expected.count + 1, "\(result.standardOutput)")
        for (line, start) in zip(lines, expected) {
            #expect(line.hasPrefix(start), "\(line) should start with \(start)")
        }
        #expect(lines.last?.hasSuffix(": 7 problems") == true, "\(lines.last ?? "")")
    }

    @Test func anArrayChecksEachElementWithItsIndex() throws {
        guard let result = try validate("[\(Self.validOrder), \(Self.badOrder), null]") else { return }
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("[1].id: expected Int64") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("[1].lines[1].qty: ") })
        #expect(lines.contains("[2]: expected an object (Order), found null"), "\(lines)")
        #expect(lines.last?.hasSuffix(": 8 problems in 2 Order objects") == true, "\(lines.last ?? "")")

        guard let clean = try validate("[\(Self.validOrder), \(Self.validOrder)]") else { return }
        #expect(clean.status == 0)
        #expect(clean.standardOutput.hasSuffix(": valid in 2 Order objects\n"), "\(clean.standardOutput)")
    }

    @Test func invalidJSONIsAProblemWithLineAndColumn() throws {
        guard let result = try validate("{\n  \"id\": 7,\n  \"lines\": [tru]\n}\n") else { return }
        #expect(result.status == 1)
        #expect(result.standardOutput.hasPrefix("$: invalid JSON at line 3, column 13: "), "\(result.standardOutput)")
        #expect(result.standardError.isEmpty)
    }

    @Test func aScalarIsAProblem() throws {
        guard let result = try validate("42") else { return }
        #expect(result.status == 1)
        #expect(result.standardOutput.hasPrefix("$: expected an object (Order) or an array of objects, found a number"))
    }

    @Test func setupProblemsAreStatus2OnStandardError() throws {
        // A model the schema does not declare.
        guard let unknown = try validate(Self.validOrder, model: "Invoice") else { return }
        #expect(unknown.status == 2)
        #expect(unknown.standardOutput.isEmpty)
        #expect(unknown.standardError.contains("declares no model 'Invoice' (it declares: Order, Line)"))
        // A schema that does not load.
        guard let broken = try validate(Self.validOrder, schema: #"{"models": [{"name": "Order", "properties": [{"name": "id", "type": "Nope"}]}]}"#)
        else { return }
        #expect(broken.status == 2)
        #expect(broken.standardError.contains(#"unknown type "Nope""#))
        guard let unparsable = try validate(Self.validOrder, schema: "{\"models\": [") else { return }
        #expect(unparsable.status == 2)
        #expect(unparsable.standardError.contains("schema error"))
    }

    @Test func unreadableFilesAreStatus2() throws {
        let schemaFile = try TemporaryFile(contents: Self.schema)
        defer { schemaFile.remove() }
        guard let input = try Tool.run(["validate", "--schema", schemaFile.path, "--model", "Order", "/no/such/order.json"])
        else { return }
        #expect(input.status == 2)
        #expect(input.standardOutput.isEmpty)
        #expect(input.standardError.contains("cannot read /no/such/order.json"))
        guard let schema = try Tool.run(["validate", "--schema", "/no/such/schema.json", "--model", "Order", schemaFile.path])
        else { return }
        #expect(schema.status == 2)
        #expect(schema.standardError.contains("cannot read /no/such/schema.json"))
    }

    @Test func readsStandardInput() throws {
        let schemaFile = try TemporaryFile(contents: Self.schema)
        defer { schemaFile.remove() }
        guard let result = try Tool.run(["validate", "--schema", schemaFile.path, "--model", "Order", "-"], standardInput: Self.badOrder)
        else { return }
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("lines[1].price: "))
    }

    @Test func aGeneratedSchemaValidatesItsOwnSample() throws {
        for fixture in GenerateFixtures.all {
            guard let result = try Tool.run(["validate", "--schema", fixture.schemaURL.path, "--model", fixture.name, fixture.sampleURL.path])
            else { return }
            #expect(result.status == 0, "\(fixture.sample): \(result.standardOutput)")
        }
    }

    @Test(arguments: [
        ["validate"], ["validate", "x.json"], ["validate", "--schema", "s.json", "x.json"],
        ["validate", "--model", "Order", "x.json"], ["validate", "--schema", "s.json", "--model", "Order"],
        ["validate", "--schema", "s.json", "--model", "Order", "a.json", "b.json"], ["validate", "--schema"],
        ["validate", "--schema", "s.json", "--model", "Order", "--strictly", "x.json"],
    ])
    func wrongCommandLinesAreUsageErrors(arguments: [String]) throws {
        guard let result = try Tool.run(arguments) else { return }
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("USAGE: jsonmodel validate"), "\(result.standardError)")
    }
}
