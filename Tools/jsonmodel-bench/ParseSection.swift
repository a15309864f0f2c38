import Foundation
import JSONModelKit

/// Reading: Foundation's untyped and typed decoding against our validated parse.
struct ParseSection: BenchSection {
    let name = "parse"
    let summary = "JSONSerialization vs JSONDecoder vs JSONDocument(bytes:)"

    func run(files: [BenchFile], benchmark: Benchmark) -> String {
        var table = TextTable([
            .left("file"), .right("size"),
            .right("JSONSerialization"), .right("JSONDecoder"), .left("decoded as"),
            .right("JSONDocument"), .right("ours/JSONSer"), .right("ours/Decoder"),
            .right("tape/input"),
        ])
        var problems: [String] = []

        for file in files {
            let serialization = attempt(&problems, file, "JSONSerialization") {
                try benchmark.measure(name: "\(file.name) JSONSerialization", bytes: file.bytes.count) {
                    try JSONSerialization.jsonObject(with: file.data, options: [.fragmentsAllowed])
                }
            }
            let model = DecoderModel.forFile(named: file.name)
            let decoder = attempt(&problems, file, "JSONDecoder (\(model.name))") {
                try benchmark.measure(name: "\(file.name) JSONDecoder", bytes: file.bytes.count) {
                    try model.decode(file.data)
                }
            }
            let ours = attempt(&problems, file, "JSONDocument") {
                try benchmark.measure(name: "\(file.name) JSONDocument", bytes: file.bytes.count) {
                    try JSONDocument(bytes: file.bytes)
                }
            }
            let tapeRatio = (try? JSONDocument(bytes: file.bytes)).map {
                Format.decimal(Double($0.tapeByteCount) / Double(max($0.byteCount, 1)), digits: 2)
            }

            table.append([
                file.name, Format.size(file.bytes.count),
                rate(file, serialization), rate(file, decoder), model.name,
                rate(file, ours), ratio(ours, over: serialization), ratio(ours, over: decoder),
                tapeRatio ?? "-",
            ])
        }

        var output = """
            Columns are MB/s (10^6 bytes of input per second), median of timed runs.
              JSONSerialization: JSONSerialization.jsonObject(with: Data, options: .fragmentsAllowed)
              JSONDecoder:       JSONDecoder().decode(Model.self, from: Data), model named in "decoded as"
              JSONDocument:      JSONDocument(bytes: [UInt8]), full validation, builds the tape
            Each starts from the file already in memory; each run includes releasing its result.
            ours/X is how many times faster JSONDocument is than X; tape/input is
            document.tapeByteCount / document.byteCount.


            """
        output += table.rendered()
        for problem in problems {
            output += "  note: \(problem)\n"
        }
        return output
    }

    private func rate(_ file: BenchFile, _ seconds: Double?) -> String {
        seconds.map { Format.megabytesPerSecond(bytes: file.bytes.count, seconds: $0) } ?? "-"
    }

    private func ratio(_ ours: Double?, over theirs: Double?) -> String {
        guard let ours, let theirs, ours > 0 else { return "-" }
        return Format.ratio(theirs / ours)
    }
}

/// How the JSONDecoder column decodes a file: a typed model for the standard
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
