import Foundation
import JSONModelKit

/// Writing: compact output from our tape against JSONSerialization from its object tree.
struct WriteSection: BenchSection {
    let name = "write"
    let summary = "root.jsonBytes() vs JSONSerialization.data(withJSONObject:)"

    func run(files: [BenchFile], benchmark: Benchmark) -> String {
        var table = TextTable([
            .left("file"), .right("size"),
            .right("jsonBytes()"), .right("JSONSerialization"), .right("ours/JSONSer"),
            .right("ours out"), .right("Foundation out"),
        ])
        var problems: [String] = []

        for file in files {
            // Both writers start from their own parsed form, built once, untimed.
            let document = attempt(&problems, file, "JSONDocument") { try JSONDocument(bytes: file.bytes) }
            let object = attempt(&problems, file, "JSONSerialization read") {
                try JSONSerialization.jsonObject(with: file.data, options: [.fragmentsAllowed])
            }

            var ours: Double?
            var oursSize: Int?
            if let document {
                let root = document.root
                oursSize = root.jsonBytes().count
                ours = attempt(&problems, file, "jsonBytes()") {
                    try benchmark.measure(name: "\(file.name) jsonBytes()", bytes: file.bytes.count) {
                        root.jsonBytes()
                    }
                }
            }
            var theirs: Double?
            var theirsSize: Int?
            if let object {
                theirsSize = (try? JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed]))?.count
                theirs = attempt(&problems, file, "JSONSerialization write") {
                    try benchmark.measure(name: "\(file.name) JSONSerialization.data", bytes: file.bytes.count) {
                        try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])
                    }
                }
            }

            table.append([
                file.name, Format.size(file.bytes.count),
                ours.map { Format.megabytesPerSecond(bytes: file.bytes.count, seconds: $0) } ?? "-",
                theirs.map { Format.megabytesPerSecond(bytes: file.bytes.count, seconds: $0) } ?? "-",
                ours.flatMap { ours in theirs.map { Format.ratio($0 / ours) } } ?? "-",
                oursSize.map(Format.size) ?? "-",
                theirsSize.map(Format.size) ?? "-",
            ])
        }

        var output = """
            Columns are MB/s of the input document size, median of timed runs, compact output.
              jsonBytes():       document.root.jsonBytes(), written straight from the tape
              JSONSerialization: JSONSerialization.data(withJSONObject:) from the tree jsonObject(with:) built
            "out" columns are the size each writer produced.


            """
        output += table.rendered()
        for problem in problems {
            output += "  note: \(problem)\n"
        }
        return output
    }
}
