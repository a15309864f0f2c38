import Foundation
import Testing

@testable import JSONModelKitCore
import JSONModelKitTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files that are not regular files (named pipes, devices) are read by reading them, by the
/// library and the tool: `Data(contentsOf:)` refused them as a permission problem.
@Suite("Non-regular files")
struct NonRegularFileTests {
    /// A named pipe in the temporary folder, and a thread that writes `text` into it.
    static func pipe(writing text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodelkit-fifo-\(UUID().uuidString)").path
        try #require(mkfifo(path, 0o600) == 0)
        // A reader that closes the pipe early must fail the test, not kill the process.
        signal(SIGPIPE, SIG_IGN)
        let writer = Thread {
            let descriptor = open(path, O_WRONLY)
            guard descriptor >= 0 else { return }
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        writer.start()
        return path
    }

    @Test func aNamedPipeIsReadAsADocument() throws {
        let path = try Self.pipe(writing: #"{"id": 7, "tags": ["a"]}"#)
        defer { unlink(path) }
        let document = try JSONDocument(contentsOf: URL(fileURLWithPath: path))
        #expect(document.root["id"]?.intValue == 7)
    }

    @Test func anEndlessDeviceStopsAtTheLimit() throws {
        #expect {
            _ = try UnmappableFile.read(path: "/dev/zero", limit: 1 << 20)
        } throws: { error in
            (error as? JSONParseError)?.kind == .documentTooLarge
        }
    }

    @Test func regularFilesAreLeftToTheUsualReading() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodelkit-\(UUID().uuidString).json").path
        try Data("[1]".utf8).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        #expect(try UnmappableFile.read(path: path) == nil)
        #expect(try UnmappableFile.read(path: "/nonexistent-jsonmodelkit") == nil)
    }

    @Test func theToolReadsANamedPipe() throws {
        let path = try Self.pipe(writing: #"{"id": 7}"#)
        defer { unlink(path) }
        guard let result = try Tool.run(["parse", path]) else { return }
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("2 values"), "\(result.standardOutput)")
    }
}
