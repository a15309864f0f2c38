import Foundation
import JSONModelKit
import JSONModelKitFoundation

/// Owned trees: building, writing and comparing `JSONValue`s, against Foundation's object tree.
///
/// Each of our measurements is paired with a Foundation one over the same document (alternating
/// runs), so the ratios hold steady on a busy machine and compare across builds: a change to how
/// `JSONValue` stores, copies or releases its arrays and objects shows as a change of ratio.
struct ValueSection: BenchSection {
    let name = "value"
    let summary = "JSONValue trees: root.value, jsonBytes(), == vs Foundation's jsonObject tree"

    func run(files: [BenchFile], benchmark: Benchmark) -> String {
        var table = TextTable([
            .left("file"), .right("size"),
            .right("root.value"), .right("jsonObject"), .right("build ours/F"),
            .right("value.jsonBytes()"), .right("F.data"), .right("write ours/F"),
            .right("=="), .right("isEqual"), .right("== ours/F"),
        ])
        var problems: [String] = []

        for file in files {
            guard let document = attempt(&problems, file, "JSONDocument", { try JSONDocument(bytes: file.bytes) }),
                let object = attempt(&problems, file, "JSONSerialization read", {
                    try JSONSerialization.jsonObject(with: file.data, options: [.fragmentsAllowed])
                }),
                let otherObject = attempt(&problems, file, "JSONSerialization read", {
                    try JSONSerialization.jsonObject(with: file.data, options: [.fragmentsAllowed])
                })
            else { continue }
            let root = document.root
            let value = root.value
            let other = root.value  // equal, built separately: == walks both trees
            let nsObject = object as AnyObject as! NSObject
            let nsOther = otherObject as AnyObject as! NSObject

            // Building: the tape turned into a tree, released after each run; Foundation parses and
            // builds its tree in one go, so its side includes parsing and ours does not.
            let build = attempt(&problems, file, "root.value") {
                try benchmark.measurePair(name: "\(file.name) root.value", bytes: file.bytes.count,
                    ours: { root.value },
                    theirs: { try JSONSerialization.jsonObject(with: file.data, options: [.fragmentsAllowed]) })
            }
            let write = attempt(&problems, file, "value.jsonBytes()") {
                try benchmark.measurePair(name: "\(file.name) value.jsonBytes()", bytes: file.bytes.count,
                    ours: { value.jsonBytes() },
                    theirs: { try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed]) })
            }
            let equal = attempt(&problems, file, "==") {
                try benchmark.measurePair(name: "\(file.name) ==", bytes: file.bytes.count,
                    ours: { value == other },
                    theirs: { nsObject.isEqual(nsOther) })
            }

            func rate(_ seconds: Double?) -> String {
                seconds.map { Format.megabytesPerSecond(bytes: file.bytes.count, seconds: $0) } ?? "-"
            }
            table.append([
                file.name, Format.size(file.bytes.count),
                rate(build?.ours), rate(build?.theirs), build.map { Format.ratio($0.ratio) } ?? "-",
                rate(write?.ours), rate(write?.theirs), write.map { Format.ratio($0.ratio) } ?? "-",
                rate(equal?.ours), rate(equal?.theirs), equal.map { Format.ratio($0.ratio) } ?? "-",
            ])
        }

        var output = """
            Columns are MB/s of the input document size, medians of paired runs; ours/F is the
            median over pairs of Foundation's time / ours (above 1: ours is faster).
              root.value:        a parsed document's tape turned into a JSONValue tree, then released
              jsonObject:        JSONSerialization.jsonObject(with:), parse and tree, then released
              value.jsonBytes(): compact output written from the JSONValue tree
              F.data:            JSONSerialization.data(withJSONObject:) from Foundation's tree
              ==:                two equal JSONValue trees compared; isEqual: the same for NSObject trees


            """
        output += table.rendered()
        for problem in problems {
            output += "  note: \(problem)\n"
        }
        return output
    }
}
