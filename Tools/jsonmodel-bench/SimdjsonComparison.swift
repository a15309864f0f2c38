import Foundation
import JSONModelKit

/// Our side of Tools/simdjson-compare: a child mode that times one kind of work per file in this
/// process and prints its checksum and the median CPU time of one run, for the run script to
/// pair with the simdjson harness's (Tools/simdjson-compare/harness.cpp), which reads the same
/// values into the same checksum.
///
/// `JSONMODEL_BENCH_SIMDJSON_CHILD=read` reads every property through the models of the model,
/// documents and bulk sections, parse included; `parse` runs `JSONDocument(bytes:)` alone. Each
/// file prints one line, `simdjson-child NAME MODE CHECKSUM SECONDS`; a file this mode has no
/// models for prints `-` for both.
enum SimdjsonComparison {
    static let childVariable = "JSONMODEL_BENCH_SIMDJSON_CHILD"

    /// The work of one run on `file`, returning its checksum; nil when `mode` has none for it.
    static func workload(_ mode: String, for file: BenchFile) -> (() throws -> Int)? {
        switch mode {
        case "parse":
            return { try JSONDocument(bytes: file.bytes).valueCount }
        case "read":
            if file.name.hasPrefix("twitter") {
                return { try TwitterStatus.models(from: file.bytes).reduce(0) { $0 &+ $1.checksum } }
            }
            if file.name.hasPrefix("bulk") {
                return { try BulkWorkload.lazyAll(file.data) }
            }
            guard let document = DocumentSection.workload(for: file.name) else { return nil }
            return { try document.ours(file.bytes) }
        default:
            return nil
        }
    }

    /// Measures every file in `mode` and exits: warms up for at least 3 runs and a tenth of the
    /// target time, then times at least `minimumRuns` runs and about `targetSeconds`, on the
    /// benchmark's clock, as the harness does.
    static func runChild(_ mode: String, files: [BenchFile], benchmark: Benchmark) -> Never {
        guard mode == "read" || mode == "parse" else {
            FileHandle.standardError.write(Data("jsonmodel-bench: \(childVariable) must be read or parse\n".utf8))
            exit(2)
        }
        let clock = benchmark.clock
        for file in files {
            guard let work = workload(mode, for: file) else {
                print("simdjson-child \(file.name) \(mode) - -")
                continue
            }
            do {
                let checksum = try work()
                let warmUpStart = clock.seconds()
                var warmUps = 0
                while warmUps < 3 || clock.seconds() - warmUpStart < benchmark.targetSeconds / 10 {
                    blackHole(try work())
                    warmUps += 1
                }
                var samples: [Double] = []
                let start = clock.seconds()
                while samples.count < benchmark.minimumRuns || clock.seconds() - start < benchmark.targetSeconds {
                    let before = clock.seconds()
                    blackHole(try work())
                    samples.append(clock.seconds() - before)
                }
                print("simdjson-child \(file.name) \(mode) \(checksum) \(samples.median)")
            } catch {
                print("simdjson-child \(file.name) \(mode) - -")
                FileHandle.standardError.write(Data("jsonmodel-bench: \(file.name): \(error)\n".utf8))
            }
        }
        exit(0)
    }
}
