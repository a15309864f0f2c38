import Foundation
import Testing

/// Runs one test of this binary in a child process and reads the report it writes.
///
/// Resident memory is process-wide and tests run in parallel, so a test that measures memory
/// runs its workload alone: the test binary is started again with a filter that selects one
/// child test, ``workloadVariable`` naming the workload, and ``reportVariable`` naming a file
/// where the child writes its report as `name value` lines (``write(_:)``).
///
/// A measuring test takes the ``available`` trait; its child test takes ``child(_:)``.
package enum ChildTestProcess {
    package static let workloadVariable = "JSONMODELKIT_CHILD_WORKLOAD"
    package static let reportVariable = "JSONMODELKIT_CHILD_REPORT"

    /// Whether this system can start this binary again and read its memory: Linux's `/proc`.
    package static let isAvailable = FileManager.default.fileExists(atPath: "/proc/self/exe")
        && FileManager.default.fileExists(atPath: "/proc/self/status")

    /// The trait of a test that measures a child: skipped, saying why, where that cannot be done.
    package static var available: ConditionTrait {
        .enabled(if: isAvailable, "needs /proc to start this test binary again and read its memory")
    }

    /// The trait of a child test: it runs only in a child started for it, where the workload
    /// variable is set.
    package static func child(_ comment: Comment = "runs only in a child process started by its suite") -> ConditionTrait {
        .enabled(if: requestedWorkload != nil, comment)
    }

    /// The workload this process was started to run; nil when it is not a child.
    package static var requestedWorkload: String? { ProcessInfo.processInfo.environment[workloadVariable] }

    /// Writes this child's report: one `name value` line per field.
    package static func write(_ fields: KeyValuePairs<String, any CustomStringConvertible>) throws {
        guard let path = ProcessInfo.processInfo.environment[reportVariable] else { return }
        let text = fields.map { "\($0.key) \($0.value)\n" }.joined()
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The fields a child reported.
    package struct Report {
        package var fields: [String: String]
        package let label: String

        /// The field `name` as a number; records an issue and gives nil when it is missing.
        package func number<Number: LosslessStringConvertible>(_ name: String, as type: Number.Type = Int.self) -> Number? {
            guard let value = fields[name].flatMap(Number.init) else {
                Issue.record("\(label): no number \"\(name)\" in its report \(fields)")
                return nil
            }
            return value
        }

        /// Whether the child's own checks held (its `passed` field).
        package var passed: Bool { fields["passed"] == "true" }
    }

    /// Runs the test `filter` of this binary for `workload`, and returns its report; nil, with a
    /// recorded issue, when the child failed, hung or wrote nothing readable. The filter is a
    /// regular expression, as `--filter` reads it, naming the test with its module
    /// (`JSONModelKitTests\.Suite/test`): the binary holds every test target. A child gets four
    /// minutes. Call it only from a test with the ``available`` trait.
    package static func run(filter: String, workload: String, label: String) throws -> Report? {
        guard isAvailable else {
            Issue.record("\(label): a child process needs /proc; give the test the ChildTestProcess.available trait")
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
        environment[workloadVariable] = workload
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
        return Report(fields: fields, label: label)
    }
}

/// This process's memory as Linux reports it; 0 where `/proc` is missing (tests that rely on
/// it take ``ChildTestProcess/available``).
package enum ProcessMemory {
    /// Resets `VmHWM` to the current resident size (Linux 4.0 and later).
    package static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// A `/proc/self/status` field in bytes (`VmRSS`, `VmHWM`).
    package static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kilobytes = line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ").first
            return (kilobytes.flatMap { Int($0) } ?? 0) * 1024
        }
        return 0
    }

    /// The resident memory in bytes: `/proc/self/statm`'s second field, in pages.
    package static func resident() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
