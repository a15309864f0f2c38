import Foundation
import Testing
import JSONModelKitTestSupport

/// `jsonmodel check-specs` given a folder or file that does not exist stops with status 2, as
/// every command does for input it cannot read.
@Suite("check-specs input")
struct CheckSpecsInputTests {
    @Test func aMissingFolderExitsTwo() throws {
        guard let result = try Tool.run(["check-specs", "/nonexistent-jsonmodelkit-specs"]) else { return }
        #expect(result.status == 2)
        #expect(result.standardError.contains("no such file or folder"))
    }
}
