import Foundation
import JSONModelKit
import JSONModelKitFoundation

/// Writing: compact output from our tape, and from our value tree, raced against
/// JSONSerialization writing from its object tree.
struct WriteSection: BenchSection {
    let name = "write"
    let summary = "root.jsonBytes() and JSONValue.jsonBytes() raced against JSONSerialization.data(withJSONObject:)"

    func run(files: [BenchFile], benchmark: Benchmark) -> String {
        var table = TextTable([
            .left("file"), .right("size"), .left("race"), .right("ours MB/s"), .right("Foundation MB/s"),
            .right("ratio"), .right("middle half"), .right("ours out"), .right("Foundation out"),
        ])
        var problems: [String] = []

        for file in files {
            // Every writer starts from its own parsed form, built once, untimed.
            guard
                let document = attempt(&problems, file, "JSONDocument", { try JSONDocument(bytes: file.bytes) }),
                let object = attempt(&problems, file, "JSONSerialization read", {
                    try JSONSerialization.jsonObject(with: file.data, options: [.fragmentsAllowed])
                })
            else { continue }
            let root = document.root
            let value = root.value
            let theirsSize = (try? JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed]))?.count

            func row(_ label: String, _ race: PairedTiming?, oursSize: Int) {
                table.append([
                    file.name, Format.size(file.bytes.count), label,
                    race.map { Format.megabytesPerSecond(bytes: file.bytes.count, seconds: $0.ours) } ?? "-",
                    race.map { Format.megabytesPerSecond(bytes: file.bytes.count, seconds: $0.theirs) } ?? "-",
                    race.map { Format.ratio($0.ratio) } ?? "-", race.map { Format.spread($0.ratioQuartiles) } ?? "-",
                    Format.size(oursSize), theirsSize.map(Format.size) ?? "-",
                ])
            }

            let fromTape = attempt(&problems, file, "jsonBytes() vs JSONSerialization") {
                try benchmark.measurePair(name: "\(file.name) jsonBytes() vs JSONSerialization.data", bytes: file.bytes.count) {
                    root.jsonBytes()
                } theirs: {
                    try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])
                }
            }
            row("tape: root.jsonBytes() vs JSONSerialization (unlike work)", fromTape, oursSize: root.jsonBytes().count)

            let fromTree = attempt(&problems, file, "JSONValue.jsonBytes() vs JSONSerialization") {
                try benchmark.measurePair(name: "\(file.name) JSONValue.jsonBytes() vs JSONSerialization.data", bytes: file.bytes.count) {
                    value.jsonBytes()
                } theirs: {
                    try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])
                }
            }
            row("tree: JSONValue.jsonBytes() vs JSONSerialization (closer work)", fromTree, oursSize: value.jsonBytes().count)
        }

        var output = """
            Compact output. MB/s are of the input document size, from each side's median time; the two
            sides of a race run in alternating pairs; ratio = Foundation's time / ours (above 1: ours is
            faster), the median of the pairs' ratios; "middle half" is their lower to upper quartile.
            Every writer starts from its own parsed form, built once and not timed.
              root.jsonBytes()       document.root.jsonBytes(), straight from the tape: each string and
                                     number is copied as it stands in the input, escapes included
              JSONValue.jsonBytes()  from the tree document.root.value built: strings escaped again,
                                     numbers written from the text they were read from
              JSONSerialization      JSONSerialization.data(withJSONObject:) from the tree
                                     jsonObject(with:) built: strings escaped, numbers formatted
            "unlike work": copying validated text raced against writing it out of a tree. "closer work":
            both write from a tree and escape every string, but ours formats no number.
            "out" columns are the size each writer produced.


            """
        output += table.rendered()
        for problem in problems {
            output += "  note: \(problem)\n"
        }
        return output
    }
}
