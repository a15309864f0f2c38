import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// End-to-end tests of `jsonmodel generate`: they run the built binary.
@Suite("jsonmodel generate")
struct GenerateToolTests {
    @Test func printsTheSwiftSourceOfTheCompiledFixture() throws {
        let fixture = GenerateFixtures.all[0]
        guard let result = try Tool.run(["generate", fixture.sampleURL.path, "--name", fixture.name, "--prefix", fixture.prefix])
        else { return }
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput == (try String(contentsOf: fixture.swiftURL, encoding: .utf8)))
        // --swift is the default.
        guard let explicit = try Tool.run(["generate", "--swift", "--prefix=\(fixture.prefix)", "--name", fixture.name, fixture.sampleURL.path])
        else { return }
        #expect(explicit.standardOutput == result.standardOutput)
    }

    @Test func printsASchemaThatLoads() throws {
        let fixture = GenerateFixtures.all[2]
        guard let result = try Tool.run(["generate", fixture.sampleURL.path, "--name", fixture.name, "--prefix", fixture.prefix, "--schema"])
        else { return }
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput == (try String(contentsOf: fixture.schemaURL, encoding: .utf8)))
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: result.standardOutput))
        #expect(registry.schemaMetadata(named: "FeedPage") != nil)
    }

    @Test func aTopLevelDictionaryIsCommentedInSwiftAndNotedForASchema() throws {
        let fixture = try #require(GenerateFixtures.all.first { $0.sample == "org-archive.json" })
        let arguments = ["generate", fixture.sampleURL.path, "--name", fixture.name, "--prefix", fixture.prefix]
        guard let swift = try Tool.run(arguments) else { return }
        #expect(swift.status == 0, "stderr: \(swift.standardError)")
        #expect(swift.standardOutput == (try String(contentsOf: fixture.swiftURL, encoding: .utf8)))
        #expect(swift.standardOutput.contains("// The top level is [String: Org]: read it with ModelDictionary<Org>(json: data).\n"))
        // The comment in the source is the whole message: nothing on standard error.
        #expect(swift.standardError.isEmpty)
        guard let schema = try Tool.run(arguments + ["--schema"]) else { return }
        #expect(schema.status == 0)
        #expect(schema.standardOutput == (try String(contentsOf: fixture.schemaURL, encoding: .utf8)))
        #expect(schema.standardError == """
            jsonmodel generate: note: the top level is [String: Org], which a schema cannot declare; read each of its values as Org

            """)
    }

    @Test func readsStandardInput() throws {
        guard let result = try Tool.run(["generate", "-", "--name", "point"], standardInput: #"{"x": 1, "y": 2.5}"#) else { return }
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("final class Point: JSONModel, @unchecked Sendable {"))
        #expect(result.standardOutput.contains("// For typed members, compile it in a target with the JSONModelAccessors plugin"))
        #expect(result.standardOutput.contains("p.y(Double.self)"))
        #expect(!result.standardOutput.contains("import Foundation"))
    }

    @Test func invalidJSONFailsWithLineAndColumn() throws {
        let file = try TemporaryFile(contents: "{\n  \"a\": 1,\n  \"b\": tru\n}\n")
        defer { file.remove() }
        guard let result = try Tool.run(["generate", file.path, "--name", "Thing"]) else { return }
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("invalid JSON at line 3, column 8"), "\(result.standardError)")
        #expect(result.standardError.contains(file.path))
    }

    @Test(arguments: [("42", "found a number"), ("[]", "empty array"), (#"[{"a": 1}, "b"]"#, "element [1]")])
    func samplesThatAreNotObjectsFail(json: String, message: String) throws {
        let file = try TemporaryFile(contents: json)
        defer { file.remove() }
        guard let result = try Tool.run(["generate", file.path, "--name", "Thing"]) else { return }
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test func unreadableFileIsStatus2() throws {
        guard let result = try Tool.run(["generate", "/no/such/sample.json", "--name", "Thing"]) else { return }
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("cannot read /no/such/sample.json"))
        guard let folder = try Tool.run(["generate", FileManager.default.temporaryDirectory.path, "--name", "Thing"]) else { return }
        #expect(folder.status == 2)
    }

    @Test(arguments: [
        ["generate"], ["generate", "x.json"], ["generate", "--name", "Thing"], ["generate", "a.json", "b.json", "--name", "T"],
        ["generate", "x.json", "--name", "T", "--swift", "--schema"], ["generate", "x.json", "--name"],
        ["generate", "x.json", "--name", "!!!"], ["generate", "x.json", "--name", "Data"],
        ["generate", "x.json", "--name", "T", "--prefix", "9lives"], ["generate", "x.json", "--name", "T", "--bogus"],
        ["generate", "x.json", "--name=T", "--swift=yes"],
    ])
    func wrongCommandLinesAreUsageErrors(arguments: [String]) throws {
        guard let result = try Tool.run(arguments) else { return }
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("USAGE: jsonmodel generate"), "\(result.standardError)")
    }

    @Test func helpDocumentsTheRulesAndStatuses() throws {
        guard let result = try Tool.run(["generate", "--help"]) else { return }
        #expect(result.status == 0)
        for word in ["--name", "--schema", "--prefix", "optionals", "dates", "enums", "EXIT STATUS"] {
            #expect(result.standardOutput.contains(word), "\(word)")
        }
    }
}
