import Foundation

/// Locates `../shared` (the conformance corpus and benchmark data) beside the package.
///
/// Users run `swift test` without it; tests that need it are disabled with a printed reason.
enum SharedData {
    /// The package root, derived from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // JSONModelKitTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `$JSONMODELKIT_SHARED` if set, else `../shared` next to the package root.
    static let root: URL = {
        if let path = ProcessInfo.processInfo.environment["JSONMODELKIT_SHARED"] {
            return URL(fileURLWithPath: path)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }()

    static let testParsing = root.appendingPathComponent("JSONTestSuite/test_parsing")
    static let benchData = root.appendingPathComponent("bench-data")

    static func exists(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static var hasTestSuite: Bool { report(testParsing) }
    static var hasBenchData: Bool { report(benchData) }

    /// Whether `url` exists; prints why the dependent tests are skipped when it does not.
    private static func report(_ url: URL) -> Bool {
        let found = exists(url)
        if !found { print("note: \(url.path) not found; tests that read it are skipped") }
        return found
    }

    /// The files in `url` whose names have `prefix` and end in `.json`, sorted.
    static func files(in url: URL, prefix: String = "") -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
            .map { url.appendingPathComponent($0) }
    }
}
