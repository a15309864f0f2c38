import Foundation
import Testing

/// Runs one test of this binary in a child process and reads the report it writes.
///
/// Resident memory is process-wide and tests run in parallel, so a test that measures memory
/// runs its workload alone: the test binary is started again with a filter that selects one
/// child test, an environment variable naming the workload, and one naming a file where the
/// child writes its report as `name value` lines.
enum ChildTestProcess {
    /// Runs the test `filter` (`Suite/test`) of this binary with `environment` added, and returns
    /// the fields of the report it wrote at the path in `reportVariable`; nil where that cannot
    /// be done: no `/proc` (with a note), or the child failed, hung or wrote nothing readable
    /// (with a recorded issue). A child gets four minutes.
    static func run(
        filter: String, environment added: [String: String], reportVariable: String, label: String
    ) throws -> [String: String]? {
        guard FileManager.default.fileExists(atPath: "/proc/self/exe") else {
            print("note: no /proc on this system; \(label) is skipped")
            return nil
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodelkit-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let reportFile = directory.appendingPathComponent("report.txt")
        let logFile = directory.appendingPathComponent("log.txt")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)

        let process = Process()
        process.executableURL = executable
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        var environment = ProcessInfo.processInfo.environment
        environment.merge(added) { _, new in new }
        environment[reportVariable] = reportFile.path
        process.environment = environment
        let log = try FileHandle(forWritingTo: logFile)
        defer { try? log.close() }
        process.standardOutput = log
        process.standardError = log
        try process.run()
        // A hang is a failure too.
        let deadline = ContinuousClock.now + .seconds(240)
        while process.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("\(label) did not finish in four minutes")
            return nil
        }
        let logText = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0, let text = try? String(contentsOf: reportFile, encoding: .utf8) else {
            Issue.record("\(label) failed (status \(process.terminationStatus)):\n\(logText.suffix(3000))")
            return nil
        }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return fields
    }
}
