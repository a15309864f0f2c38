import Foundation
import Testing
import JSONModelKitTestSupport

/// End-to-end tests of the `jsonmodel` command-line tool: they run the built
/// binary and check its exit status and output.
///
/// The binary is looked up in the build products folder next to the test
/// bundle (`swift build` and `swift test` build it). Set `JSONMODEL_TOOL` to
/// test another binary.
@Suite("jsonmodel tool")
struct ToolTests {
    @Test func demoTakesTheTour() throws {
        guard let result = try Tool.run(["demo"]) else { return }
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardError.isEmpty)
        let output = result.standardOutput
        // The lazy array before and after one element was read.
        #expect(output.contains("ModelArray<Order>(count: 3, built: 0)"))
        #expect(output.contains("ModelArray<Order>(count: 3, built: 1)"))
        // Typed reads: the 20-digit id exactly, the date in UTC.
        #expect(output.contains("12345678901234567890"))
        #expect(output.contains("2025-03-12T17:04:11Z"))
        // Descriptions, polymorphism and a diagnostic with its path.
        #expect(output.contains("LineItem(sku: \"TEA-SEN-100\""))
        #expect(output.contains("Customer(\n"))
        #expect(output.contains("CardPayment(method: \"card\""))
        #expect(output.contains("TransferPayment(method: \"transfer\""))
        #expect(output.contains("Payment(method: \"voucher\")"))
        #expect(output.contains("shipping.price: expected Double"))
        // The invalid snippet's error is reported with its position.
        #expect(output.contains("line 4, column 12"))
        // Short enough to read in one screen.
        #expect(output.split(separator: "\n", omittingEmptySubsequences: false).count < 60)
    }

    @Test func demoRefusesArguments() throws {
        guard let result = try Tool.run(["demo", "extra"]) else { return }
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("unexpected argument 'extra'"))
    }

    @Test func parseAcceptsAValidFile() throws {
        let file = try TemporaryFile(contents: #"{"id": 12345678901234567890, "tags": ["a", "b"], "nested": {"x": [1, 2.5]}}"#)
        defer { file.remove() }
        guard let result = try Tool.run(["parse", file.path]) else { return }
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains(file.path))
        #expect(result.standardOutput.contains("values"))
    }

    @Test func parseRejectsAnInvalidFileWithItsLine() throws {
        let file = try TemporaryFile(contents: "{\n  \"a\": 1,\n  \"b\": tru\n}\n")
        defer { file.remove() }
        guard let result = try Tool.run(["parse", file.path]) else { return }
        #expect(result.status == 1)
        #expect((result.standardError + result.standardOutput).contains("line 3"),
                "stdout: \(result.standardOutput)\nstderr: \(result.standardError)")
    }

    @Test func parseFailsWhenAnyFileIsInvalidOrMissing() throws {
        let valid = try TemporaryFile(contents: "[1, 2, 3]")
        defer { valid.remove() }
        let missing = valid.path + ".missing"
        guard let result = try Tool.run(["parse", valid.path, missing]) else { return }
        #expect(result.status == 1)
        #expect(result.standardOutput.contains(valid.path))
        #expect(result.standardError.contains(missing))
    }

    @Test func checkSpecsPassesOnTheBundledSpecs() throws {
        let specs = SharedData.packageRoot.appendingPathComponent("Specs").path
        guard let result = try Tool.run(["check-specs", specs]) else { return }
        #expect(result.status == 0, "stdout: \(result.standardOutput)")
        let last = result.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasSuffix(" passed, 0 failed"), "\(last)")
    }

    @Test func checkSpecsReportsAFailingCase() throws {
        let file = try TemporaryFile(contents: """
            {"name": "wrong on purpose", "schema": {"models": [{"name": "T", "properties": [{"name": "n", "type": "Int"}]}]},
             "model": "T", "input": {"n": 2}, "reads": {"n": 3}}
            """)
        defer { file.remove() }
        guard let result = try Tool.run(["check-specs", file.path]) else { return }
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("FAIL"))
        #expect(result.standardOutput.contains("wrong on purpose: read n: expected 3, got 2"))
        #expect(result.standardOutput.contains("0 passed, 1 failed"))
        guard let missing = try Tool.run(["check-specs", file.path + ".missing"]) else { return }
        #expect(missing.status == 2)
    }

    @Test func unknownSubcommandIsAUsageError() throws {
        guard let result = try Tool.run(["frobnicate"]) else { return }
        #expect(result.status == 2)
        #expect(result.standardError.contains("USAGE"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func noArgumentsPrintsUsageAsAnError() throws {
        guard let result = try Tool.run([]) else { return }
        #expect(result.status == 2)
        #expect(result.standardError.contains("USAGE"))
    }

    @Test(arguments: [
        ["--help"], ["help"], ["-h"], ["help", "parse"], ["parse", "--help"], ["demo", "--help"], ["demo", "-h"],
        ["check-specs", "--help"], ["describe", "-h"], ["generate", "--help"], ["generate", "-h"], ["help", "generate"],
        ["validate", "--help"], ["validate", "-h"], ["help", "validate"], ["accessors", "--help"], ["help", "accessors"],
    ])
    func helpSucceeds(arguments: [String]) throws {
        guard let result = try Tool.run(arguments) else { return }
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("USAGE"))
        #expect(result.standardError.isEmpty)
    }

    @Test func topLevelHelpListsEveryCommandAndItsExitStatuses() throws {
        guard let result = try Tool.run(["--help"]) else { return }
        let output = result.standardOutput
        #expect(output.contains("EXIT STATUS:"))
        for command in ["demo", "parse", "check-specs", "describe", "generate", "validate", "accessors"] {
            let lines = output.split(separator: "\n").filter { $0.hasPrefix("  \(command) ") }
            #expect(lines.count == 2, "\(command) needs a line in SUBCOMMANDS and one in EXIT STATUS")
        }
        #expect(output.contains("every command exits 2 for a wrong command line"))
    }

    @Test func helpForAnUnknownCommandIsAUsageError() throws {
        guard let result = try Tool.run(["help", "frobnicate"]) else { return }
        #expect(result.status == 2)
        #expect(result.standardError.contains("unknown subcommand 'frobnicate'"))
    }

    @Test func unknownOptionIsAUsageError() throws {
        guard let result = try Tool.run(["parse", "--no-such-option", "x.json"]) else { return }
        #expect(result.status == 2)
        #expect(result.standardError.contains("--no-such-option"))
    }
}
