import Foundation
import JSONModelKit

/// Where the bytes come from: `BulkUser.array(from:)` over `Data`, over `[UInt8]` and over a
/// mapped file, for time and peak memory; and a lazy read of each file given, mapped.
///
/// `Data` is parsed in place and mapped files hand their pages back as the scan goes, so the
/// targets are: from `Data`, time and peak within 10% of `[UInt8]`; from a file of the
/// benchmark documents (`twitter.json`), peak growth at most 0.6x the file.
struct InputSection: BenchSection {
    let name = "input"
    let summary = "array(from:) over Data, [UInt8] and a mapped file; lazy reads of mapped files"

    /// Set in the child processes that measure peak memory; names the workload.
    static let childVariable = "JSONMODEL_BENCH_INPUT_CHILD"

    func run(files: [BenchFile], benchmark: Benchmark) -> String {
        if let workload = ProcessInfo.processInfo.environment[Self.childVariable] {
            InputMemory.runChild(workload)  // does not return
        }
        let count = BulkSection.objectCount
        let data = BulkData.generate(count: count)
        let bytes = [UInt8](data)
        let samples = BulkData.sampleIndexes(count: BulkSection.sampleCount, upperBound: count)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodel-bench-input-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        var problems: [String] = []
        if (try? data.write(to: file)) == nil { problems.append("cannot write \(file.path)") }

        var bench = benchmark
        bench.minimumRuns = max(benchmark.minimumRuns, 9)
        func measure(_ label: String, _ ours: () throws -> Int, _ theirs: () throws -> Int) -> PairedTiming? {
            bench.measurePair(label, section: "input", bytes: data.count, problems: &problems, ours: ours, theirs: theirs)
        }
        func sample(_ users: ModelArray<BulkUser>) -> Int {
            var sum = 0
            for index in samples { sum &+= users[index].name.utf8.count }
            return sum
        }
        let fromData = measure("Data vs [UInt8]", { sample(try BulkUser.array(from: data)) }, { sample(try BulkUser.array(from: bytes)) })
        let fromFile = measure("file vs [UInt8]", { sample(try BulkUser.array(from: file)) }, { sample(try BulkUser.array(from: bytes)) })

        var table = TextTable([.left("time: parse + index + \(samples.count) reads"), .right("this input"), .right("[UInt8]"), .right("ratio"), .right("middle half"), .right("target")])
        func row(_ label: String, _ pair: PairedTiming?, _ target: String) {
            table.append([
                label, pair.map { Format.seconds($0.ours) } ?? "-", pair.map { Format.seconds($0.theirs) } ?? "-",
                pair.map { Format.ratio($0.ratio) } ?? "-", pair.map { Format.spread($0.ratioQuartiles) } ?? "-", target,
            ])
        }
        row("array(from: Data)", fromData, ">= 0.91x")
        row("array(from: URL), file in the page cache", fromFile, "-")

        var memoryTable = TextTable([
            .left("peak memory growth"), .right("bytes"), .right("x input"), .right("target"), .right("result"),
        ])
        func result(_ value: Double, atMost target: Double) -> String { value <= target ? "PASS" : "MISS" }
        var peaks: [String: Int] = [:]
        for (workload, label) in [("bytes", "array(from: [UInt8]) + reads"), ("data", "array(from: Data) + reads"), ("file", "array(from: URL) + reads")] {
            switch InputMemory.measureInChild(workload, paths: files.map(\.path)) {
            case .success(let growth):
                peaks[workload] = growth
                memoryTable.append([label, Format.size(growth), Format.ratio(Double(growth) / Double(data.count)), "-", ""])
            case .failure(let failure):
                memoryTable.append([label, "-", "-", "-", ""])
                problems.append("memory \(label): \(failure.reason)")
            }
        }
        for benchFile in files {
            switch InputMemory.measureInChild("document:" + benchFile.path, paths: [benchFile.path]) {
            case .success(let growth):
                let ratio = Double(growth) / Double(benchFile.bytes.count)
                let targeted = benchFile.name == "twitter.json"
                memoryTable.append([
                    "\(benchFile.name): JSONDocument(contentsOf:) + lazy reads", Format.size(growth), Format.ratio(ratio),
                    targeted ? "<= 0.6x" : "-", targeted ? result(ratio, atMost: 0.6) : "",
                ])
            case .failure(let failure):
                memoryTable.append([benchFile.name, "-", "-", "-", ""])
                problems.append("memory \(benchFile.name): \(failure.reason)")
            }
        }
        if let fromBytes = peaks["bytes"], let fromData = peaks["data"], fromBytes > 0 {
            let ratio = Double(fromData) / Double(fromBytes)
            memoryTable.append(["Data peak / [UInt8] peak", "", Format.ratio(ratio), "<= 1.1x", result(ratio, atMost: 1.1)])
        }

        var output = """
            Input: \(count) generated objects (the bulk section's), \(Format.size(data.count)). Each timed run parses, indexes the
            array and reads `name` of \(samples.count) elements; the ratio is [UInt8] time / this input's time (1 is even,
            above 1 this input is faster). The file is the same bytes, written to the temporary folder first.

            """
        output += table.rendered()
        output += """

            Peak memory: each workload runs once in a fresh child process, after the input is in memory
            (or, for files, written and in the page cache). The child resets the peak (5 to
            /proc/self/clear_refs), notes VmRSS, runs, and reports VmHWM minus that VmRSS (it reads its status once
            before the reset, as the first read allocates). A mapped file's pages count while they are mapped in;
            the scan hands them back in whole 64 KiB stretches as it goes. The rows for the
            documents given (twitter.json, ...) parse the file mapped and read `id` of the first 10 elements of
            its first array member, or else its top-level keys; the target, 0.6x, is for twitter.json (a tape of
            0.35x), not for documents of numbers whose tape alone is 0.5x or more (canada.json). In the generated
            array, each of the 100 reads scattered over the file maps in what the kernel maps around a fault
            (64 KiB). On recent kernels VmHWM comes from per-CPU counters summed approximately: growths of a
            few hundred KB are within that error.

            """
        output += memoryTable.rendered()
        if !problems.isEmpty { output += "\n" + problems.map { "  problem: \($0)" }.joined(separator: "\n") + "\n" }
        return output
    }
}

/// A status of a twitter-like document: one property read lazily.
final class InputStatus: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int64?.self)
    }
}

enum InputMemory {
    typealias Failure = ChildMeasurement.Failure

    /// Runs `workload` in a fresh process of this binary and returns its peak memory growth in bytes.
    ///
    /// The child gets `paths` as its documents: the harness reads them before any section runs.
    static func measureInChild(_ workload: String, paths: [String]) -> Result<Int, Failure> {
        ChildMeasurement.run(
            arguments: ["--section", "input", "--runs", "1", "--"] + paths, variable: InputSection.childVariable,
            workload: workload, prefix: "input-peak-growth")
    }

    /// In the child: prepare the input, reset the peak, run the workload once, print the growth, exit.
    static func runChild(_ workload: String) -> Never {
        var checksum = 0
        var keep: Any = 0
        if workload.hasPrefix("document:") {
            let url = URL(fileURLWithPath: String(workload.dropFirst("document:".count)))
            _ = try? Data(contentsOf: url)  // in the page cache, as the generated file is
            // The same reads once over a small document, so that what the process sets up on first
            // use (type metadata, the model's metadata) is not counted against the file.
            checksum &+= lazyReads(try! JSONDocument(string: #"{"statuses": [{"id": 1}]}"#))
            _ = BulkMemory.status("VmRSS")  // reading the status allocates: once before the reset
            BulkMemory.resetPeak()
            let before = BulkMemory.status("VmRSS")
            if let document = try? JSONDocument(contentsOf: url) {
                checksum &+= lazyReads(document)
                keep = document
            }
            report(before: before, checksum: checksum, keep: keep)
        }
        let count = BulkSection.objectCount
        let data = BulkData.generate(count: count)
        let samples = BulkData.sampleIndexes(count: BulkSection.sampleCount, upperBound: count)
        let bytes = workload == "bytes" ? [UInt8](data) : []
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodel-bench-input-child-\(getpid()).json")
        if workload == "file" { try? data.write(to: file) }
        defer { try? FileManager.default.removeItem(at: file) }
        _ = BulkMemory.status("VmRSS")  // reading the status allocates: once before the reset
        BulkMemory.resetPeak()
        let before = BulkMemory.status("VmRSS")
        let users: ModelArray<BulkUser>?
        switch workload {
        case "bytes": users = try? BulkUser.array(from: bytes)
        case "data": users = try? BulkUser.array(from: data)
        default: users = try? BulkUser.array(from: file)
        }
        if let users {
            for index in samples { checksum &+= users[index].name.utf8.count }
        } else {
            checksum = -1
        }
        try? FileManager.default.removeItem(at: file)
        report(before: before, checksum: checksum, keep: (users as Any, data, bytes))
    }

    /// Reads `id` of the first 10 elements of the first array member of the top-level object (the
    /// statuses of twitter.json), or the keys of the top level; returns a checksum.
    private static func lazyReads(_ document: JSONDocument) -> Int {
        var checksum = 0
        let root = document.root
        if let array = root.members.first(where: { $0.value.kind == .array })?.value,
            let statuses = try? InputStatus.array(from: array)
        {
            for index in 0..<min(10, statuses.count) { checksum &+= Int(statuses[index].id ?? 0) }
        } else {
            for member in root.members { checksum &+= member.key.utf8.count }
        }
        return checksum
    }

    private static func report(before: Int, checksum: Int, keep: Any) -> Never {
        let peak = BulkMemory.status("VmHWM")
        print("input-checksum \(checksum)")
        print("input-peak-growth \(max(0, peak - before))")
        withExtendedLifetime(keep) {}
        exit(0)
    }
}
