import Foundation

/// Locates the data some tests read in place and the repository does not hold.
///
/// - The JSONTestSuite corpus (https://github.com/nst/JSONTestSuite): the `test_parsing` folder
///   of the checkout named by `$JSONTESTSUITE_DIR`.
/// - The benchmark documents (twitter.json, citm_catalog.json, canada.json, …): the folder
///   named by `$JSONMODEL_BENCH_DATA`, which the benchmark reads too.
///
/// Without a variable, its data is looked for in a folder named `shared` beside the package
/// root, holding `JSONTestSuite` and `bench-data`; CI places the data there. Tests that need
/// data that is not found are disabled with a printed reason.
package enum SharedData {
    /// The package root, derived from this file's path.
    package static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // JSONModelKitTestSupport
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()

    /// The environment variable naming a JSONTestSuite checkout.
    package static let testSuiteVariable = "JSONTESTSUITE_DIR"
    /// The environment variable naming a folder of benchmark documents.
    package static let benchDataVariable = "JSONMODEL_BENCH_DATA"

    package static let testParsing = folder(variable: testSuiteVariable, fallback: "JSONTestSuite")
        .appendingPathComponent("test_parsing")
    package static let benchData = folder(variable: benchDataVariable, fallback: "bench-data")

    /// The folder `variable` names in `environment`, else `fallback` inside the folder named
    /// `shared` beside the package root.
    package static func folder(
        variable: String, fallback: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        if let path = environment[variable], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared").appendingPathComponent(fallback)
    }

    package static func exists(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    package static var hasTestSuite: Bool { report(testParsing, variable: testSuiteVariable) }
    package static var hasBenchData: Bool { report(benchData, variable: benchDataVariable) }

    /// Whether `url` exists; prints why the dependent tests are skipped when it does not.
    private static func report(_ url: URL, variable: String) -> Bool {
        let found = exists(url)
        if !found { print("note: \(url.path) not found (set \(variable)); tests that read it are skipped") }
        return found
    }

    /// The files in `url` whose names have `prefix` and end in `.json`, sorted.
    package static func files(in url: URL, prefix: String = "") -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
            .map { url.appendingPathComponent($0) }
    }
}
