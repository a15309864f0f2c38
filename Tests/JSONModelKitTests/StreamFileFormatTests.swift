import Foundation
import Testing

@testable import JSONModelKit

/// A file named `.jsonl` or `.ndjson` read with the default options is read as JSON Lines, so
/// a broken line is reported at that line, not where the next line starts.
@Suite("Stream file format")
struct StreamFileFormatTests {
    static let text = "{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}\n{\"id\": 4, \"name\": \"d\"\n{\"id\": 5}\n"

    static func file(_ name: String, _ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodelkit-\(UUID().uuidString)-\(name)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: ["events.jsonl", "events.ndjson", "EVENTS.JSONL"])
    func aBrokenLineIsReportedAtItsLine(name: String) throws {
        let path = try Self.file(name, Self.text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try JSONStreamReader(contentsOfFile: path)
        var read = 0
        do {
            while try reader.read() != nil { read += 1 }
            Issue.record("no error")
        } catch {
            #expect(read == 3)
            #expect(error.line == 4 && error.element == 3, "\(error)")
        }
        let models = try ModelStreamReader<StreamEvent>(contentsOf: URL(fileURLWithPath: path)).map { $0 }
        #expect(models.count == 4)
        if case .failure(let error) = models.last {
            #expect(error.line == 4, "\(error)")
        } else {
            Issue.record("no stream error: \(models)")
        }
    }

    /// An element over the size limit is refused as too large, in memory as from a file, small
    /// or large, whatever fault lies past the limit: a reader does not scan past the limit (one in
    /// memory, or a file's element within one chunk, reported the fault instead).
    @Test(arguments: [3_000, 300_000])
    func anElementOverTheLimitIsTooLargeWhateverFollows(size: Int) throws {
        let zeros = String(repeating: "0,", count: size / 4)
        let text = "[[" + zeros + "x," + zeros + "0]]"
        let options = ModelOptions(streamOptions: JSONStreamOptions(format: .array, maxElementSize: 1024))
        let path = try Self.file("oversize.json", text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for reader in [
            ModelStreamReader<StreamEvent>(bytes: Array(text.utf8), options: options),
            try ModelStreamReader<StreamEvent>(contentsOf: URL(fileURLWithPath: path), options: options),
        ] {
            #expect {
                _ = try reader.read()
            } throws: { error in
                guard let error = error as? JSONStreamError else { return false }
                return error.kind == .elementTooLarge(limit: 1024) && error.element == 0 && error.offset == 1
            }
        }
    }

    @Test func theAsyncStreamOfAFileReadsLinesToo() async throws {
        let path = try Self.file("events.jsonl", Self.text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var read = 0
        do {
            for try await _ in StreamEvent.stream(contentsOf: URL(fileURLWithPath: path)) { read += 1 }
            Issue.record("no error")
        } catch let error as JSONStreamError {
            #expect(read == 3 && error.line == 4, "\(error)")
        }
    }

    /// Other names keep the automatic layout: values one after another may span lines.
    @Test func otherFilesKeepTheAutomaticLayout() throws {
        let path = try Self.file("events.json", "{\n  \"id\": 1\n}\n{\"id\": 2}\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try JSONStreamReader(contentsOfFile: path)
        var read = 0
        while try reader.read() != nil { read += 1 }
        #expect(read == 2)
    }
}
