import Foundation
import Testing
import JSONModelKitTestSupport

/// The tool refuses command lines and inputs it would otherwise read as something else.
@Suite("Tool arguments and inputs")
struct ToolArgumentTests {
    @Test func anOptionWithoutItsValueIsRefusedNotGivenTheNextOption() throws {
        let sample = FileManager.default.temporaryDirectory.appendingPathComponent("args-\(UUID().uuidString).json")
        try Data(#"{"id": 1}"#.utf8).write(to: sample)
        defer { try? FileManager.default.removeItem(at: sample) }
        guard let result = try Tool.run(["generate", sample.path, "--name", "--schema"]) else { return }
        #expect(result.status == 2)
        #expect(result.standardError.contains("--name"), "\(result.standardError)")
        guard let inline = try Tool.run(["generate", sample.path, "--name=Thing", "--schema"]) else { return }
        #expect(inline.status == 0)
        #expect(inline.standardOutput.contains(#""name": "Thing""#) || inline.standardOutput.contains(#""name":"Thing""#))
    }

    @Test func checkSpecsFailsForAnEmptyFolderAmongOthersAndForAFileThatIsNoCase() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let schema = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString).json")
        try Data(#"{"models": [{"name": "A", "properties": []}]}"#.utf8).write(to: schema)
        defer {
            try? FileManager.default.removeItem(at: empty)
            try? FileManager.default.removeItem(at: schema)
        }
        let specs = SharedData.packageRoot.appendingPathComponent("Specs/enums").path
        guard let withEmpty = try Tool.run(["check-specs", specs, empty.path]) else { return }
        #expect(withEmpty.status == 1)
        #expect(withEmpty.standardError.contains("no cases in"))
        guard let withSchema = try Tool.run(["check-specs", specs, schema.path]) else { return }
        #expect(withSchema.status == 1)
        #expect(withSchema.standardError.contains("is not a case"))
    }
}
