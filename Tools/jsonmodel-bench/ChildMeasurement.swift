import Foundation

/// Peak memory measured in a fresh process of this benchmark: resident memory is process-wide,
/// so a workload measured in the process that ran the others would count what they left behind.
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment[variable] = workload
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            return .failure(Failure(reason: "cannot start the child: \(error)"))
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix(prefix + " ") }),
            let bytes = Int(line.dropFirst(prefix.count + 1))
        else {
            return .failure(Failure(reason: "the child reported nothing (status \(process.terminationStatus))"))
        }
        return .success(bytes)
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
