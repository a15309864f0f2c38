import Foundation
import Testing
import JSONModelKitTestSupport

/// `jsonmodel accessors` on valid Swift the generator cannot read correctly: it exits 1 with an
/// error at the line, rather than printing members that are wrong.
@Suite("jsonmodel accessors refusals")
struct AccessorsToolRefusalTests {
    static let flags = """
        import JSONModelKit

        final class Flags: JSONModel, @unchecked Sendable {
            #if DEBUG
            override class func properties(_ p: PropertyRegistrar) { p.trace(String.self) }
            #else
            override class func properties(_ p: PropertyRegistrar) { p.name(String.self, readOnly: Self.frozen) }
            #endif
        }

        final class Doc: JSONModel, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) { p.title(String.self, readOnly: !true) }
        }
        """

    @Test func blocksUnderIfAndReadOnlyExpressionsExitOneWithTheLine() throws {
        let folder = try AccessorsToolTests.SourceFolder(["Flags.swift": Self.flags])
        defer { folder.remove() }
        let path = folder.path("Flags.swift")
        guard let result = try Tool.run(["accessors", path]) else { return }
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "stderr: \(result.standardError)")
        #expect(lines.first?.hasPrefix("\(path):5:25: error: Flags: the registration block is declared under #if") == true)
        #expect(lines.last?.hasPrefix("\(path):12:64: error: Doc.title: readOnly: !true is not a literal") == true)
        #expect(!result.standardOutput.contains("extension Flags"))
        #expect(!result.standardOutput.contains("extension Doc"))
    }
}
