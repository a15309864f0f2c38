import Foundation
import Testing
@testable import JSONModelKitCore
import JSONModelKitTestSupport

/// The JSONTestSuite corpus (https://github.com/nst/JSONTestSuite), its `test_parsing` folder read
/// in place: `y_` files must be accepted, `n_` files rejected, `i_` files may go either way.
@Suite("JSONTestSuite conformance", .enabled(if: SharedData.hasTestSuite, "JSONTestSuite not found; set JSONTESTSUITE_DIR"))
struct ConformanceTests {
    static func files(_ prefix: String) -> [URL] { SharedData.files(in: SharedData.testParsing, prefix: prefix) }

    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    @Test func corpusHasTheExpectedCounts() {
        #expect(Self.files("y_").count == 95)
        #expect(Self.files("n_").count == 188)
        #expect(Self.files("i_").count == 35)
    }

    @Test func everyYesFileIsAcceptedAndRoundTrips() throws {
        var accepted = 0
        for url in Self.files("y_") {
            let document: JSONDocument
            do {
                document = try JSONDocument(bytes: try Self.bytes(url))
            } catch {
                Issue.record("rejected \(url.lastPathComponent): \(error)")
                continue
            }
            accepted += 1
            for options: JSONWriteOptions in [[], [.prettyPrinted], [.sortedKeys]] {
                let written = document.root.jsonBytes(options: options)
                let reparsed = try JSONDocument(bytes: written)
                #expect(reparsed.root.value == document.root.value, "\(url.lastPathComponent) \(options)")
            }
            #expect(try JSONDocument(bytes: document.root.value.jsonBytes()).root.value == document.root.value)
        }
        #expect(accepted == 95)
    }

    @Test func everyNoFileIsRejected() throws {
        var rejected = 0
        for url in Self.files("n_") {
            do {
                _ = try JSONDocument(bytes: try Self.bytes(url))
                Issue.record("accepted \(url.lastPathComponent)")
            } catch {
                rejected += 1
            }
        }
        #expect(rejected == 188)
    }

    /// Implementation-defined files: either outcome is fine, a crash or hang is not.
    @Test func everyImplementationDefinedFileIsHandled() throws {
        var handled = 0
        for url in Self.files("i_") {
            if let document = try? JSONDocument(bytes: try Self.bytes(url)) {
                _ = document.root.value
                _ = document.root.jsonBytes()
            }
            handled += 1
        }
        #expect(handled == 35)
    }
}

/// The benchmark documents, read in place from the folder `SharedData.benchData` names.
@Suite("Benchmark documents", .enabled(if: SharedData.hasBenchData, "benchmark documents not found; set JSONMODEL_BENCH_DATA"))
struct BenchDataTests {
    @Test func everyDocumentRoundTrips() throws {
        let urls = SharedData.files(in: SharedData.benchData)
        #expect(urls.count >= 5)
        for url in urls {
            let bytes = [UInt8](try Data(contentsOf: url))
            let document = try JSONDocument(bytes: bytes)
            let value = document.root.value
            #expect(try JSONDocument(bytes: document.root.jsonBytes()).root.value == value, "\(url.lastPathComponent)")
            #expect(try JSONDocument(bytes: value.jsonBytes(options: .prettyPrinted)).root.value == value)
            // The tape costs at most twice the input.
            #expect(document.tapeByteCount <= 2 * document.byteCount, "\(url.lastPathComponent)")
        }
    }

    @Test func agreesWithJSONSerializationOnValues() throws {
        let url = SharedData.benchData.appendingPathComponent("twitter.json")
        let data = try Data(contentsOf: url)
        let ours = try JSONDocument(data: data).root.value
        let theirs = try JSONValue(any: JSONSerialization.jsonObject(with: data))
        #expect(ours == theirs)
    }
}

/// Where the tests above look for their data.
@Suite("Test data lookup")
struct TestDataLookupTests {
    @Test func theVariableNamesTheFolder() {
        let url = SharedData.folder(variable: "DATA", fallback: "bench-data", environment: ["DATA": "/data/documents"])
        #expect(url.path == "/data/documents")
    }

    @Test func withoutTheVariableTheFolderNamedSharedBesideThePackageIsUsed() {
        for environment in [[:], ["DATA": ""]] {
            let url = SharedData.folder(variable: "DATA", fallback: "bench-data", environment: environment)
            let shared = url.deletingLastPathComponent()
            #expect(url.lastPathComponent == "bench-data")
            #expect(shared.lastPathComponent == "shared")
            #expect(shared.deletingLastPathComponent().path == SharedData.packageRoot.deletingLastPathComponent().path)
        }
    }
}
