import Foundation
import JSONModelKit
import JSONModelKitFoundation

/// Reading: our validated parse raced against Foundation's untyped and typed decoding.
///
/// A `JSONDocument` validates and records offsets; Foundation converts every value it keeps.
/// Every race here therefore compares unlike work, and the rows say so; the third race per
/// file, a `JSONValue` tree against Foundation's, comes closest.
///
/// When `JSONMODEL_BENCH_PORTABLE` names a `jsonmodel-bench` built with
/// `-Xswiftc -DJSONMODELKIT_PORTABLE_SIMD` (release), a second table races each file's scan in
/// this binary, which reads masks with SSE2 on x86-64, against the scan in that one, which reads
/// them as every other architecture does (``PortableRace``).
struct ParseSection: BenchSection {
    let name = "parse"
    let summary = "JSONDocument(bytes:) raced against JSONSerialization and JSONDecoder"

    /// When set to `profile`, the section only parses the first file,
    /// `JSONMODEL_BENCH_PROFILE_RUNS` times (default 1000), prints the time that took (on the
    /// benchmark's clock) and how this build reads masks, and exits: for perf and valgrind, and
    /// for ``PortableRace``.
    static let profileVariable = "JSONMODEL_BENCH_PARSE_CHILD"
    /// The number of parses of the profiling child.
    static let profileRunsVariable = "JSONMODEL_BENCH_PROFILE_RUNS"

    func run(files: [BenchFile], benchmark: Benchmark) -> String {
        if ProcessInfo.processInfo.environment[Self.profileVariable] == "profile", let file = files.first {
            let runs = ProcessInfo.processInfo.environment[Self.profileRunsVariable].flatMap { Int($0) } ?? 1000
            var values = 0
            let start = benchmark.clock.seconds()
            for _ in 0..<max(1, runs) {
                values &+= (try? JSONDocument(bytes: file.bytes).valueCount) ?? -1
            }
            let seconds = benchmark.clock.seconds() - start
            print("parse-values \(values)")
            print("parse-seconds \(seconds)")
            print("parse-masks \(PortableRace.maskReaders)")
            exit(0)
        }
        var table = TextTable([
            .left("file"), .right("size"), .left("race"), .right("ours MB/s"), .right("Foundation MB/s"),
            .right("ratio"), .right("middle half"),
        ])
        var problems: [String] = []
        var tapeRatios: [String] = []

        for file in files {
            let model = DecoderModel.forFile(named: file.name)
            func row(_ label: String, _ race: PairedTiming?) {
                table.append([
                    file.name, Format.size(file.bytes.count), label, rate(file, race?.ours), rate(file, race?.theirs),
                    race.map { Format.ratio($0.ratio) } ?? "-", race.map { Format.spread($0.ratioQuartiles) } ?? "-",
                ])
            }

            let bySerialization = attempt(&problems, file, "JSONDocument vs JSONSerialization") {
                try benchmark.measurePair(name: "\(file.name) JSONDocument vs JSONSerialization", bytes: file.bytes.count) {
                    try JSONDocument(bytes: file.bytes)
                } theirs: {
                    try JSONSerialization.jsonObject(with: file.data, options: [.fragmentsAllowed])
                }
            }
            row("JSONDocument vs JSONSerialization (unlike work)", bySerialization)

            let byDecoder = attempt(&problems, file, "JSONDocument vs JSONDecoder (\(model.name))") {
                try benchmark.measurePair(name: "\(file.name) JSONDocument vs JSONDecoder", bytes: file.bytes.count) {
                    try JSONDocument(bytes: file.bytes)
                } theirs: {
                    try model.decode(file.data)
                }
            }
            row("JSONDocument vs JSONDecoder, \(model.name) (unlike work)", byDecoder)

            // Both sides must build the same values, or the closer race compares nothing.
            let agree = attempt(&problems, file, "comparing values") {
                let theirs = try JSONValue(any: JSONSerialization.jsonObject(with: file.data, options: [.fragmentsAllowed]))
                return try JSONDocument(bytes: file.bytes).root.value == theirs
            }
            if agree == false {
                problems.append("\(file.name): JSONDocument + .value and JSONSerialization read different values")
            }
            let converted = attempt(&problems, file, "JSONDocument + .value vs JSONSerialization") {
                try benchmark.measurePair(name: "\(file.name) JSONDocument + .value vs JSONSerialization", bytes: file.bytes.count) {
                    try JSONDocument(bytes: file.bytes).root.value
                } theirs: {
                    try JSONSerialization.jsonObject(with: file.data, options: [.fragmentsAllowed])
                }
            }
            row("JSONDocument + .value vs JSONSerialization (closer work)", converted)

            if let document = try? JSONDocument(bytes: file.bytes) {
                let ratio = Double(document.tapeByteCount) / Double(max(document.byteCount, 1))
                tapeRatios.append("\(file.name) \(Format.decimal(ratio, digits: 2))")
            }
        }

        var output = """
            MB/s are 10^6 bytes of input per second, from each side's median time. The two sides of a
            race run in alternating pairs, each run from the file already in memory to its result
            released; ratio = Foundation's time / ours (above 1: ours is faster), the median of the
            pairs' ratios; "middle half" is their range from the lower to the upper quartile.
              JSONDocument           JSONDocument(bytes: [UInt8]): validates the whole text and records
                                     where each value lies (the tape). It converts no number and
                                     unescapes no string: that happens when a value is read.
              JSONDocument + .value  the same, then document.root.value: a JSONValue tree with every
                                     string unescaped; numbers keep their validated text (a
                                     JSONNumber converts when asked).
              JSONSerialization      JSONSerialization.jsonObject(with: Data, options: .fragmentsAllowed):
                                     every number converted and every string unescaped, into Foundation
                                     objects.
              JSONDecoder            JSONDecoder().decode(Model.self, from: Data), the model named in the
                                     row: validates the whole text, then converts every field the model
                                     declares.
            "unlike work": a parse that converts nothing raced against one that converts what it keeps.
            Such a ratio is what deferring the conversion saves when little is read, not a faster parser
            of the same output. "closer work" builds a tree of every value on both sides, but converts
            no number on ours. For like work, every property read on both sides, see the (b) rows of
            the model and bulk sections.


            """
        output += table.rendered()
        if !tapeRatios.isEmpty {
            output += "tape/input (document.tapeByteCount / document.byteCount): \(tapeRatios.joined(separator: ", "))\n"
        }
        for problem in problems {
            output += "  note: \(problem)\n"
        }
        if let portable = ProcessInfo.processInfo.environment[PortableRace.variable], !portable.isEmpty {
            output += "\n" + PortableRace.run(files: files, benchmark: benchmark, portable: portable)
        }
        return output
    }

    private func rate(_ file: BenchFile, _ seconds: Double?) -> String {
        seconds.map { Format.megabytesPerSecond(bytes: file.bytes.count, seconds: $0) } ?? "-"
    }
}

/// Each file's scan in this binary raced against the scan in another build of the benchmark, one
/// built with `-Xswiftc -DJSONMODELKIT_PORTABLE_SIMD`: there x86-64 reads the scanner's masks
/// with the portable code every other architecture (Apple silicon among them) takes, instead of
/// SSE2's `pmovmskb`.
///
/// The two binaries cannot share a process, so each side of a pair is a run of its binary's
/// parse profiling child (``ParseSection/profileVariable``), which parses the file a number of
/// times and reports the time the parses took on the benchmark's clock: process start and
/// reading the file are left out. The sides alternate which runs first, as in
/// ``Benchmark/measurePair(name:bytes:runs:ours:theirs:)``, and the ratio is portable ÷ SSE2:
/// above 1 when the portable path is slower.
///
/// ```sh
/// swift build -c release --scratch-path .build-portable-release -Xswiftc -DJSONMODELKIT_PORTABLE_SIMD \
///     --product jsonmodel-bench
/// JSONMODEL_BENCH_PORTABLE=.build-portable-release/release/jsonmodel-bench \
///     swift run -c release jsonmodel-bench --section parse
/// ```
enum PortableRace {
    /// The environment variable naming the portable build of the benchmark.
    static let variable = "JSONMODEL_BENCH_PORTABLE"

    /// How this build reads masks, as the profiling child reports it: `sse2` or `portable`.
    static var maskReaders: String {
        #if arch(x86_64) && !JSONMODELKIT_PORTABLE_SIMD
        "sse2"
        #else
        "portable"
        #endif
    }

    /// One run of `executable`'s profiling child, `runs` parses of `file`: the seconds they took
    /// and how that build reads masks.
    static func scan(
        _ executable: String?, _ file: BenchFile, runs: Int, clock: BenchClock
    ) -> Result<(seconds: Double, masks: String), ChildMeasurement.Failure> {
        ChildMeasurement.run(
            executable: executable, arguments: ["--section", "parse", "--clock", clock.rawValue, "--", file.path],
            environment: [ParseSection.profileVariable: "profile", ParseSection.profileRunsVariable: "\(runs)"]
        ).flatMap { output in
            guard let seconds = ChildMeasurement.value("parse-seconds", in: output).flatMap({ Double($0) }),
                let masks = ChildMeasurement.value("parse-masks", in: output)
            else {
                return .failure(ChildMeasurement.Failure(reason: "\(executable ?? "the child") reported no time"))
            }
            return .success((seconds, String(masks)))
        }
    }

    /// Races the scan of `file` in this binary (`ours`) against the scan in `portable`
    /// (`theirs`): at least `benchmark.minimumRuns` pairs, about `benchmark.targetSeconds` of
    /// parsing per side.
    static func race(
        _ file: BenchFile, portable: String, benchmark: Benchmark, problems: inout [String]
    ) -> PairedTiming? {
        func failed(_ failure: ChildMeasurement.Failure) -> PairedTiming? {
            problems.append("\(file.name): portable race failed: \(failure.reason)")
            return nil
        }
        // A warm-up of each side, which checks how each reads masks and estimates a parse's time.
        let estimate: Double
        switch (scan(nil, file, runs: 3, clock: benchmark.clock), scan(portable, file, runs: 3, clock: benchmark.clock)) {
        case (.failure(let failure), _), (_, .failure(let failure)):
            return failed(failure)
        case (.success(let ours), .success(let theirs)):
            if ours.masks != "sse2" || theirs.masks != "portable" {
                problems.append(
                    "\(file.name): this binary reads masks with \(ours.masks) code and \(portable) with \(theirs.masks) code,"
                        + " where the race wants sse2 and portable")
            }
            estimate = max(ours.seconds, theirs.seconds) / 3
        }
        let pairs = benchmark.minimumRuns
        let runs = estimate > 0 ? max(1, Int((benchmark.targetSeconds / Double(pairs) / estimate).rounded(.up))) : 1

        /// The seconds of one parse, from a run of `executable` (nil for this binary).
        func time(_ executable: String?) throws(ChildMeasurement.Failure) -> Double {
            try scan(executable, file, runs: runs, clock: benchmark.clock).get().seconds / Double(runs)
        }
        let result: PairedTiming
        do throws(ChildMeasurement.Failure) {
            result = try PairedTiming.alternating(pairs, ours: { () throws(ChildMeasurement.Failure) in try time(nil) },
                                                  theirs: { () throws(ChildMeasurement.Failure) in try time(portable) })
        } catch {
            return failed(error)
        }
        if benchmark.isVerbose {
            let line = "  \(file.name) portable vs SSE2: \(pairs) pairs of \(runs) parses, medians"
                + " \(Format.seconds(result.ours)) / \(Format.seconds(result.theirs)) a parse,"
                + " ratio \(Format.ratio(result.ratio)), middle half \(Format.spread(result.ratioQuartiles))\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        return result
    }

    /// The table of every file's race, with its explanation and notes.
    static func run(files: [BenchFile], benchmark: Benchmark, portable: String) -> String {
        var table = TextTable([
            .left("file"), .right("size"), .right("SSE2 MB/s"), .right("portable MB/s"), .right("portable ÷ SSE2"),
            .right("middle half"),
        ])
        var problems: [String] = []
        for file in files {
            let race = race(file, portable: portable, benchmark: benchmark, problems: &problems)
            func rate(_ seconds: Double?) -> String {
                seconds.map { Format.megabytesPerSecond(bytes: file.bytes.count, seconds: $0) } ?? "-"
            }
            table.append([
                file.name, Format.size(file.bytes.count), rate(race?.ours), rate(race?.theirs),
                race.map { Format.ratio($0.ratio) } ?? "-", race.map { Format.spread($0.ratioQuartiles) } ?? "-",
            ])
        }
        var output = """
            The portable mask readers: JSONDocument(bytes:) alone, in this binary, which reads the
            scanner's masks with SSE2 on x86-64, and in \(variable), built with
            -Xswiftc -DJSONMODELKIT_PORTABLE_SIMD, which reads them as every other architecture (Apple
            silicon among them) does:
              \(portable)
            Each side of a pair is a fresh process parsing the file many times and timing only the
            parses; the sides alternate which runs first. portable ÷ SSE2 = the portable build's time /
            this one's (above 1: the portable path is slower), the median of the pairs' ratios; "middle
            half" is their range from the lower to the upper quartile.


            """
        output += table.rendered()
        for problem in problems {
            output += "  note: \(problem)\n"
        }
        return output
    }
}

/// How the JSONDecoder race decodes a file: a typed model for the standard
/// documents, `JSONValue` for anything else.
struct DecoderModel: Sendable {
    /// The type decoded, for the table.
    var name: String
    /// Decodes `data` with a fresh `JSONDecoder` and returns the result.
    var decode: @Sendable (Data) throws -> any Sendable

    static func forFile(named fileName: String) -> DecoderModel {
        if fileName.hasPrefix("twitter") {
            DecoderModel(name: "TwitterSearch") { try JSONDecoder().decode(TwitterSearch.self, from: $0) }
        } else if fileName.hasPrefix("citm_catalog") {
            DecoderModel(name: "Catalog") { try JSONDecoder().decode(Catalog.self, from: $0) }
        } else if fileName.hasPrefix("canada") {
            DecoderModel(name: "FeatureCollection") { try JSONDecoder().decode(FeatureCollection.self, from: $0) }
        } else if fileName.hasPrefix("numbers") {
            DecoderModel(name: "[Double]") { try JSONDecoder().decode([Double].self, from: $0) }
        } else {
            DecoderModel(name: "JSONValue") { try JSONDecoder().decode(JSONValue.self, from: $0) }
        }
    }
}

/// Runs `body`, turning a thrown error into a note for the section's output.
func attempt<T>(_ problems: inout [String], _ file: BenchFile, _ label: String, _ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch {
        let oneLine = "\(error)".split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        problems.append("\(file.name): \(label) failed: \(oneLine)")
        return nil
    }
}
