import Foundation
import JSONModelKit
import JSONModelKitFoundation

/// Reading: our validated parse raced against Foundation's untyped and typed decoding.
///
/// A `JSONDocument` validates and records offsets; Foundation converts every value it keeps.
/// Every race here therefore compares unlike work, and the rows say so; the third race per
/// file, a `JSONValue` tree against Foundation's, comes closest.
struct ParseSection: BenchSection {
    let name = "parse"
    let summary = "JSONDocument(bytes:) raced against JSONSerialization and JSONDecoder"

    /// When set to `profile`, the section only parses the first file,
    /// `JSONMODEL_BENCH_PROFILE_RUNS` times (default 1000), and exits: for perf and valgrind.
    static let profileVariable = "JSONMODEL_BENCH_PARSE_CHILD"

    func run(files: [BenchFile], benchmark: Benchmark) -> String {
        if ProcessInfo.processInfo.environment[Self.profileVariable] == "profile", let file = files.first {
            let runs = ProcessInfo.processInfo.environment["JSONMODEL_BENCH_PROFILE_RUNS"].flatMap { Int($0) } ?? 1000
            var values = 0
            for _ in 0..<max(1, runs) {
                values &+= (try? JSONDocument(bytes: file.bytes).valueCount) ?? -1
            }
            print("parse-values \(values)")
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
        return output
    }

    private func rate(_ file: BenchFile, _ seconds: Double?) -> String {
        seconds.map { Format.megabytesPerSecond(bytes: file.bytes.count, seconds: $0) } ?? "-"
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
