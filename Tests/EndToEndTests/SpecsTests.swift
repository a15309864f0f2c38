import Foundation
import Testing
@testable import JSONModelKit
import JSONModelSpecs
import JSONModelKitTestSupport

/// Runs every case in `Specs/`, one test case per file.
@Suite("Specs")
struct SpecsTests {
    static let root = SharedData.packageRoot.appendingPathComponent("Specs")

    static let caseFiles: [String] = {
        let paths = (try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? []
        return paths.filter { $0.hasSuffix(".json") && !$0.hasPrefix("schemas/") }.sorted()
    }()

    @Test func thereAreCases() {
        #expect(Self.caseFiles.count >= 50)
    }

    @Test(arguments: caseFiles)
    func specCase(_ file: String) throws {
        let result = try #require(SpecRunner.run(file: Self.root.appendingPathComponent(file), displayName: file))
        for failure in result.failures {
            Issue.record("\(result.name): \(failure)")
        }
    }
}
