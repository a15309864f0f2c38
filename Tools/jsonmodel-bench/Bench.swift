import Foundation

/// One table of the benchmark. Add a section by writing a type in its own file
/// and listing it in `Bench.sections`.
protocol BenchSection: Sendable {
    /// The name used with `--section`.
    var name: String { get }
    /// One line describing what is compared.
    var summary: String { get }
    /// Measures every file and returns the section's text.
    func run(files: [BenchFile], benchmark: Benchmark) -> String
}

/// `jsonmodel-bench [--section NAME]... [--runs N] [--seconds S] [--verbose] [FILE|FOLDER]...`
@main
struct Bench {
    static let sections: [any BenchSection] = [ParseSection(), WriteSection(), ValueSection(), ModelSection(), BulkSection(), ConverterSection()]

    static let usage = """
        usage: jsonmodel-bench [options] [FILE|FOLDER]...

        Compares JSONModelKit with Foundation on JSON documents, in one process.
        Without arguments, reads the .json files of ../shared/bench-data (looked up
        from the current directory and from the package root).

        options:
          --section NAME   run only this section (repeatable): \(sections.map(\.name).joined(separator: ", "))
          --runs N         at least N timed runs per measurement (default 7)
          --seconds S      aim for S seconds of timed runs per measurement (default 0.3)
          --verbose        print every measurement to standard error
          --help           print this help

        Build with -c release: swift run -c release jsonmodel-bench
        """

    static func main() {
        var benchmark = Benchmark()
        var selected: [String] = []
        var paths: [String] = []

        var arguments = CommandLine.arguments.dropFirst()[...]
        while let argument = arguments.popFirst() {
            switch argument {
            case "--help", "-h":
                print(usage)
                return
            case "--verbose":
                benchmark.isVerbose = true
            case "--section", "--runs", "--seconds":
                guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
                switch argument {
                case "--section":
                    selected += value.split(separator: ",").map(String.init)
                case "--runs":
                    guard let runs = Int(value), runs > 0 else { fail("--runs needs a positive integer") }
                    benchmark.minimumRuns = runs
                default:
                    guard let seconds = Double(value), seconds > 0 else { fail("--seconds needs a positive number") }
                    benchmark.targetSeconds = seconds
                }
            case "--":
                paths += arguments
                arguments = []
            default:
                if argument.hasPrefix("--") { fail("unknown option \(argument)") }
                paths.append(argument)
            }
        }

        let unknown = selected.filter { name in !sections.contains { $0.name == name } }
        if !unknown.isEmpty { fail("unknown section \(unknown.joined(separator: ", "))") }
        let sectionsToRun = selected.isEmpty ? sections : sections.filter { selected.contains($0.name) }

        let located: [String]
        switch BenchData.locate(arguments: paths) {
        case .success(let found):
            located = found
        case .failure(let failure):
            // Missing data is not an error of the benchmark: say why and stop.
            print("jsonmodel-bench: nothing to measure: \(failure.reason)")
            return
        }

        var files: [BenchFile] = []
        for path in located {
            do {
                files.append(try BenchFile(path: path))
            } catch {
                print("jsonmodel-bench: skipping \(path): \(error.localizedDescription)")
            }
        }
        guard !files.isEmpty else {
            print("jsonmodel-bench: nothing to measure: no readable files")
            return
        }

        printHeader(files: files, benchmark: benchmark)
        for section in sectionsToRun {
            print("== \(section.name): \(section.summary)\n")
            print(section.run(files: files, benchmark: benchmark))
        }
    }

    static func printHeader(files: [BenchFile], benchmark: Benchmark) {
        #if DEBUG
        print("warning: debug build; numbers are meaningless, use: swift run -c release jsonmodel-bench\n")
        #endif
        let directories = Set(files.map { URL(fileURLWithPath: $0.path).deletingLastPathComponent().path })
        print("jsonmodel-bench: \(files.count) files from \(directories.sorted().joined(separator: ", "))")
        let info = ProcessInfo.processInfo
        print("\(info.operatingSystemVersionString), \(info.activeProcessorCount) cores")
        print("warm-up, then median of at least \(benchmark.minimumRuns) runs, ~\(benchmark.targetSeconds) s per measurement\n")
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("jsonmodel-bench: \(message)\n\n\(usage)\n".utf8))
        exit(2)
    }
}
