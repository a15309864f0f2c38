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

/// `jsonmodel-bench [--section NAME]... [--runs N] [--seconds S] [--clock cpu|wall] [--verbose] [FILE|FOLDER]...`
@main
struct Bench {
    static let sections: [any BenchSection] = [
        ParseSection(), WriteSection(), ValueSection(), ModelSection(), DocumentSection(), BulkSection(), InputSection(),
        StreamSection(), ConverterSection(),
    ]

    /// What each side of the races does, and so which comparisons are like for like; printed
    /// by `--help` and at the top of every run.
    static let sides = """
        Each comparison is a race: the two sides run in alternating pairs, and the ratio is the
        median of the pairs' ratios (their time / ours, above 1 when ours is faster, unless the
        section says otherwise), shown with its middle half (the lower to upper quartile of the
        pairs' ratios). A wide middle half means a busy machine and an uncertain ratio.

        What the sides do:
          JSONDocument(bytes:)  validates the whole text and records where each value lies (the
                                tape); it converts no number and unescapes no string until a
                                value is read
          JSONModel             a lazy view over a JSONDocument: a property is converted on its
                                first read, then cached
          JSONSerialization     converts every number and unescapes every string, into
                                Foundation objects
          JSONDecoder           converts every field the Codable model declares, up front
        So the parse and write races compare unlike work (the rows marked "closer work" less
        so); model (a) and bulk (a) compare lazy models, little or nothing read, with eager
        decoding; model (b) and bulk (b), every property read once on both sides, are the fair
        comparison.
        """

    static let usage = """
        usage: jsonmodel-bench [options] [FILE|FOLDER]...

        Races JSONModelKit against Foundation on JSON documents, in one process.

        \(sides)

        options:
          --section NAME    run only this section (repeatable): \(sections.map(\.name).joined(separator: ", "))
          --runs N          at least N timed pairs per race (default 7)
          --seconds S       aim for S seconds of timed runs per side of a race (default 0.3)
          --clock cpu|wall  time runs by the CPU time of the process (default), which leaves out the
                            time spent waiting for a core on a busy machine, or by elapsed time
          --verbose         print every race to standard error
          --help            print this help

        environment:
          JSONMODEL_BENCH_DATA      a folder of documents, read when no FILE or FOLDER is given
          JSONMODEL_BENCH_SIMDJSON_CHILD
                                    read or parse: time every property read through the models
                                    (parse included), or JSONDocument(bytes:) alone, per file,
                                    print "simdjson-child NAME MODE CHECKSUM SECONDS" lines and
                                    exit; for Tools/simdjson-compare/run
          JSONMODEL_BENCH_PORTABLE  a jsonmodel-bench built with -c release -Xswiftc
                                    -DJSONMODELKIT_PORTABLE_SIMD: the parse section then also races
                                    each file's scan in this binary (SSE2's mask readers on x86-64)
                                    against the scan in that one (the portable readers every other
                                    architecture uses) and prints portable ÷ SSE2 per file

        Without arguments or JSONMODEL_BENCH_DATA, reads bench-data/ in the current
        directory, else a folder named shared holding bench-data/: in the current
        directory, in one of the two above it, or beside the package (where CI puts it).

        The documents are the classic JSON benchmark documents twitter.json,
        twitterescaped.json, citm_catalog.json, canada.json and numbers.json. simdjson
        publishes all five (jsonexamples/ in https://github.com/simdjson/simdjson-data,
        formerly in simdjson's own repository); nativejson-benchmark publishes
        twitter.json, citm_catalog.json and canada.json
        (data/ in https://github.com/miloyip/nativejson-benchmark).

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
            case "--section", "--runs", "--seconds", "--clock":
                guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
                switch argument {
                case "--section":
                    selected += value.split(separator: ",").map(String.init)
                case "--clock":
                    guard let clock = BenchClock(rawValue: value) else { fail("--clock needs cpu or wall") }
                    benchmark.clock = clock
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

        if let mode = ProcessInfo.processInfo.environment[SimdjsonComparison.childVariable] {
            SimdjsonComparison.runChild(mode, files: files, benchmark: benchmark)
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
        let clock = benchmark.clock == .cpu ? "the CPU time of the process" : "elapsed time"
        print("each race: a warm-up, then at least \(benchmark.minimumRuns) alternating pairs, ~\(benchmark.targetSeconds) s per side, timed by \(clock)\n")
        print(sides + "\n")
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("jsonmodel-bench: \(message)\n\n\(usage)\n".utf8))
        exit(2)
    }
}
