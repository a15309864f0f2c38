import Foundation
import Testing

/// Expected long text kept in files, checked byte for byte or recorded.
///
/// A snapshot named `name` for a test in `Tests/JSONModelKitTests/DescriptionTests.swift` lives
/// in `Tests/JSONModelKitTests/__Snapshots__/DescriptionTests/name.txt`, beside the test file
/// that checks it (``expect(_:named:filePath:sourceLocation:)``); a file elsewhere is checked
/// with ``expect(_:matchesFileAt:recordVariable:sourceLocation:)``. Run the tests with
/// `RECORD_SNAPSHOTS=1` (or the variable a caller names) to write every file afresh from the
/// actual text; a missing file is written too, and the test fails so the new file gets a look
/// before it is trusted. A difference is reported at its first line.
package enum Snapshot {
    /// The environment variable that re-records snapshots.
    package static let recordVariable = "RECORD_SNAPSHOTS"

    /// Whether the environment variable `variable` is 1.
    package static func isRecording(_ variable: String = Snapshot.recordVariable) -> Bool {
        ProcessInfo.processInfo.environment[variable] == "1"
    }

    /// The file of snapshot `name` for the test file at `filePath`.
    package static func url(named name: String, filePath: String) -> URL {
        let testFile = URL(fileURLWithPath: filePath)
        return testFile.deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__")
            .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
            .appendingPathComponent(name + ".txt")
    }

    /// Checks `actual` against the snapshot `name` of the calling test file, or records it.
    package static func expect(
        _ actual: String, named name: String, filePath: String = #filePath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expect(actual, matchesFileAt: url(named: name, filePath: filePath), sourceLocation: sourceLocation)
    }

    /// Checks `actual` against the file at `url` byte for byte, or records it: when the
    /// environment variable `recordVariable` is 1, or the file is missing.
    package static func expect(
        _ actual: String, matchesFileAt url: URL, recordVariable: String = Snapshot.recordVariable,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let stored = try? Data(contentsOf: url)
        let recording = isRecording(recordVariable)
        if recording || stored == nil {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
            } catch {
                Issue.record("cannot write \(url.path): \(error)", sourceLocation: sourceLocation)
                return
            }
            if !recording {
                Issue.record("recorded \(url.path); check it and run again", sourceLocation: sourceLocation)
            }
            return
        }
        guard let stored, Data(actual.utf8) != stored else { return }
        let expected = String(decoding: stored, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let lines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(lines, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(lines.count, expected.count)
        Issue.record(
            """
            differs from \(url.path) at line \(line + 1) (re-record with \(recordVariable)=1):
              file:   \(line < expected.count ? expected[line] : "(end)")
              actual: \(line < lines.count ? lines[line] : "(end)")
            """, sourceLocation: sourceLocation)
    }
}
