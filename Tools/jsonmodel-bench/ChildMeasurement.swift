import Foundation

/// Workloads run in a fresh process: peak memory, as resident memory is process-wide and a
/// workload measured in the process that ran the others would count what they left behind; and
/// the parse section's scans in another build of this benchmark.
enum ChildMeasurement {
    struct Failure: Error {
        var reason: String
    }

    /// The document paths the parent was given, for a child that needs the same ones (the
    /// harness reads them before any section runs).
    static var documentPaths: [String] {
        var paths: [String] = []
        var arguments = CommandLine.arguments.dropFirst()[...]
        while let argument = arguments.popFirst() {
            if ["--section", "--runs", "--seconds", "--clock"].contains(argument) {
                _ = arguments.popFirst()
            } else if !argument.hasPrefix("--") {
                paths.append(argument)
            }
        }
        return paths
    }

    /// Runs this binary with `arguments` and `variable` set to `workload`, and returns the bytes
    /// on the last line of its output that starts with `prefix` and a space.
    static func run(arguments: [String], variable: String, workload: String, prefix: String) -> Result<Int, Failure> {
        run(arguments: arguments, environment: [variable: workload]).flatMap { output in
            guard let bytes = value(prefix, in: output).flatMap({ Int($0) }) else {
                return .failure(Failure(reason: "the child reported nothing"))
            }
            return .success(bytes)
        }
    }

    /// Runs `executable`, by default this binary, with `arguments` and this process's environment
    /// updated with `environment`, and returns its standard output; a failure when it cannot
    /// start or exits with a status other than 0.
    static func run(executable: String? = nil, arguments: [String], environment: [String: String]) -> Result<String, Failure> {
        let process = Process()
        process.executableURL = executable.map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            return .failure(Failure(reason: "cannot start \(executable ?? "the child"): \(error)"))
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return .failure(Failure(reason: "\(executable ?? "the child") exited with status \(process.terminationStatus)"))
        }
        return .success(output)
    }

    /// The text after `prefix` and a space on the last line of `output` that starts with them.
    static func value(_ prefix: String, in output: String) -> Substring? {
        output.split(separator: "\n").last { $0.hasPrefix(prefix + " ") }?.dropFirst(prefix.count + 1)
    }

    /// A table of peak memory growths, one row per labelled result, each also as a multiple of
    /// `inputBytes`; a failed measurement shows dashes and is added to `problems`.
    static func memoryTable(
        _ title: String, rows: [(label: String, result: Result<Int, Failure>)], inputBytes: Int, problems: inout [String]
    ) -> TextTable {
        var table = TextTable([.left(title), .right("peak growth"), .right("x input")])
        for (label, result) in rows {
            switch result {
            case .success(let bytes):
                table.append([label, Format.size(bytes), Format.ratio(Double(bytes) / Double(inputBytes))])
            case .failure(let failure):
                table.append([label, "-", "-"])
                problems.append("memory \(label): \(failure.reason)")
            }
        }
        return table
    }
}
