import Foundation
import Testing
@testable import JSONModelSpecs
import JSONModelKitTestSupport

/// A case file is data another implementation may run; a key the runner does not know would
/// otherwise leave its expectation unchecked while the case still passes.
@Suite("Spec case keys")
struct SpecCaseKeyTests {
    static let schema = #"{"models": [{"name": "T", "properties": [{"name": "n", "type": "Int"}]}]}"#

    @Test func aCaseWithAnUnknownKeyFailsNamingIt() throws {
        let file = try TemporaryFile(contents: """
            {"name": "renamed option", "schema": \(Self.schema), "model": "T", "input": {"n": 2},
             "reads": {"n": 2}, "forOutput": true}
            """)
        defer { file.remove() }
        let result = try #require(SpecRunner.run(file: URL(fileURLWithPath: file.path), displayName: "case.json"))
        #expect(!result.passed)
        #expect(result.failures == [#"unknown key "forOutput" (a case may hold only the keys Specs/README.md lists)"#])
    }

    @Test func anUnknownOutputOptionFailsToo() throws {
        let file = try TemporaryFile(contents: """
            {"schema": \(Self.schema), "model": "T", "input": {"n": 2}, "output": {"n": 2},
             "outputOptions": {"forOutput": true, "includeNulls": false}, "readz": {}}
            """)
        defer { file.remove() }
        let result = try #require(SpecRunner.run(file: URL(fileURLWithPath: file.path)))
        #expect(result.failures.count == 1)
        #expect(result.failures.first?.contains(#"unknown keys "readz", "outputOptions.forOutput""#) == true, "\(result.failures)")
    }

    @Test func everyDocumentedKeyIsKnown() throws {
        let readme = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("Specs/README.md"), encoding: .utf8)
        // The rows of the table of keys: | `key` | value | meaning |
        let documented = Set(readme.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        })
        #expect(documented == SpecRunner.caseKeys)
    }

    @Test func checkSpecsNamesTheFileAndTheKey() throws {
        let file = try TemporaryFile(contents: """
            {"name": "typo", "schema": \(Self.schema), "model": "T", "input": {"n": 2}, "diagnostic": 0}
            """)
        defer { file.remove() }
        guard let result = try Tool.run(["check-specs", file.path]) else { return }
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("FAIL \(file.path): typo: unknown key \"diagnostic\""), "\(result.standardOutput)")
    }
}
