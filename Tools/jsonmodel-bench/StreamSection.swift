import Foundation
import JSONModelKit

/// Streaming: models one element at a time (`ModelStreamReader`) against a lazy
/// `array(from:)` over the same bytes, and against `JSONDecoder` decoding JSON Lines one line
/// at a time; then peak memory.
///
/// The data is the bulk section's: 100,000 generated objects, as one array and as JSON Lines.
struct StreamSection: BenchSection {
    let name = "stream"
    let summary = "ModelStreamReader vs BulkUser.array(from:) and vs JSONDecoder line by line, 100,000 generated objects"

    /// Set in the child processes that measure peak memory; names the workload.
    static let childVariable = "JSONMODEL_BENCH_STREAM_CHILD"
    /// For the `file` workload: the file to stream (a JSON array or JSON Lines).
    static let fileVariable = "JSONMODEL_BENCH_STREAM_FILE"

    func run(files: [BenchFile], benchmark: Benchmark) -> String {
        if let workload = ProcessInfo.processInfo.environment[Self.childVariable] {
            StreamMemory.runChild(workload)  // does not return
        }
        let array = BulkData.generate(count: BulkSection.objectCount)
        let arrayBytes = [UInt8](array)
        let lines = StreamData.lines(fromArray: arrayBytes)
        let bench = benchmark.forSlowWorkloads
        var problems: [String] = []
        func measure(_ label: String, ours: () throws -> Int, theirs: () throws -> Int) -> PairedTiming? {
            bench.measurePair(label, section: "stream", bytes: array.count, problems: &problems, ours: ours, theirs: theirs)
        }

        let oneRead = measure("one property") { try StreamWorkload.streamName(arrayBytes) } theirs: {
            try StreamWorkload.arrayName(array)
        }
        let allReads = measure("every property") { try StreamWorkload.streamAll(arrayBytes) } theirs: {
            try BulkWorkload.lazyAll(array)
        }
        let decoder = measure("JSON Lines") { try StreamWorkload.streamAll(lines, format: .lines) } theirs: {
            try StreamWorkload.decoderLines(lines)
        }
        let decoderLazy = measure("JSON Lines, name") { try StreamWorkload.streamName(lines, format: .lines) } theirs: {
            try StreamWorkload.decoderLines(lines)
        }
        let asyncBytes = measure("async bytes") { try StreamWorkload.asyncName(lines) } theirs: {
            try StreamWorkload.streamName(lines, format: .lines)
        }
        let asyncIteration = measure("async iteration") { try StreamWorkload.asyncName(lines) } theirs: {
            try StreamWorkload.asyncSum(lines)
        }
        // The sides read the same values: a check that the comparison is fair.
        let checks = [
            (try? StreamWorkload.streamAll(arrayBytes)), (try? BulkWorkload.lazyAll(array)),
            (try? StreamWorkload.streamAll(lines, format: .lines)), (try? StreamWorkload.decoderLines(lines)),
        ]
        if Set(checks.map { $0 ?? -1 }).count != 1 { problems.append("checksums differ: \(checks)") }

        let memory = ["stream-file", "array"].map { StreamMemory.measureInChild($0) }

        var table = TextTable([
            .left("workload"), .right("ours"), .right("theirs"), .right("ratio"), .right("middle half"), .right("target"),
        ])
        func row(_ label: String, _ pair: PairedTiming?, _ target: String) {
            table.append([
                label, pair.map { Format.seconds($0.ours) } ?? "-", pair.map { Format.seconds($0.theirs) } ?? "-",
                pair.map { Format.ratio($0.ratio) } ?? "-", pair.map { Format.spread($0.ratioQuartiles) } ?? "-", target,
            ])
        }
        row("(a) vs array(from:): `name` of every element", oneRead, ">= 0.8x")
        row("(b) vs array(from:): every property of every element", allReads, ">= 0.8x")
        row("(c) vs JSONDecoder line by line, JSON Lines, every property", decoder, ">= 5x")
        row("(d) vs JSONDecoder line by line, JSON Lines, `name` (lazy vs eager)", decoderLazy, "-")
        row("(e) Model.stream(from:) over async bytes vs ModelStreamReader, JSON Lines, `name`", asyncBytes, "-")
        row("(e') the same vs only iterating the async bytes (summing them)", asyncIteration, "-")

        let labels = ["ours: ModelStreamReader from a file, every property", "array(from:) in memory, every property"]
        let memoryTable = ChildMeasurement.memoryTable(
            "(f) peak memory", rows: Array(zip(labels, memory)), inputBytes: array.count, problems: &problems)

        var output = """
            Input: the bulk section's \(BulkSection.objectCount) generated objects, \(Format.size(array.count)), as one array and
            as JSON Lines. The ratio is theirs / ours: above 1 when streaming is faster, 0.8 when it takes 1.25 times as long.
              (a), (b) the same in-memory array: ModelStreamReader(bytes:) makes each element a model over a
                  small document of its own as it is read; array(from:) parses the whole array once and makes
                  the models as they are read. (a) reads `name` only, (b) every property (dates decoded)
              (c), (d) JSON Lines in memory: ours streams them; JSONDecoder decodes each line into a BulkRecord,
                  one decode call per line, as a caller without a streaming reader would. (c) reads every
                  property on both sides: like work. In (d) ours reads `name` only while JSONDecoder converts
                  every field: what laziness saves when a stream is filtered or summarized
              (e) the cost of an async byte sequence: the JSON Lines of (d) handed out one byte per `next()`
                  by an async sequence in memory (as `URLSession.bytes` does), against the reader of (d);
                  (e') against a loop that only sums the same bytes: the part of (e) the byte sequence costs

            """
        output += table.rendered()
        output += """

            Peak memory: each workload runs once in a fresh child process (this binary, \(Self.childVariable)
            set), which writes the JSON Lines to a temporary file (for the stream) or holds the array in memory,
            resets the peak, notes VmRSS, runs, and reports VmHWM minus that VmRSS. Streaming holds one chunk of
            the file and one element, whatever the size of the file. With \(Self.fileVariable)=PATH and
            \(Self.childVariable)=file (or file-async, for Model.stream(contentsOf:)), the child streams the
            file at PATH instead and prints its growth.

            """
        output += memoryTable.rendered()
        if !problems.isEmpty { output += "\n" + problems.map { "  problem: \($0)" }.joined(separator: "\n") + "\n" }
        return output
    }
}

// MARK: - Workloads

/// Each workload returns a checksum of what it read, so nothing is optimized away.
enum StreamWorkload {
    static func streamName(_ bytes: [UInt8], format: JSONStreamFormat = .automatic) throws -> Int {
        let reader = ModelStreamReader<BulkUser>(bytes: bytes, options: ModelOptions(streamOptions: JSONStreamOptions(format: format)))
        var sum = 0
        while let user = try reader.read() { sum &+= user.name.utf8.count }
        return sum
    }

    /// `streamName` through `Model.stream(from:)` over an async sequence of the bytes, run to
    /// its end from this synchronous caller.
    static func asyncName(_ bytes: [UInt8]) throws -> Int {
        let result = AsyncResult()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                var sum = 0
                let options = ModelOptions(streamOptions: JSONStreamOptions(format: .lines))
                for try await user in BulkUser.stream(from: MemoryBytes(bytes: bytes), options: options) {
                    sum &+= user.name.utf8.count
                }
                result.value = .success(sum)
            } catch {
                result.value = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try result.value.get()
    }

    /// The sum of the bytes of an async sequence: what iterating it costs.
    static func asyncSum(_ bytes: [UInt8]) throws -> Int {
        let result = AsyncResult()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            var sum = 0
            for await byte in MemoryBytes(bytes: bytes) { sum &+= Int(byte) }
            result.value = .success(sum)
            done.signal()
        }
        done.wait()
        return try result.value.get()
    }

    static func arrayName(_ data: Data) throws -> Int {
        let users = try BulkUser.array(from: data)
        var sum = 0
        for user in users { sum &+= user.name.utf8.count }
        return sum
    }

    static func streamAll(_ bytes: [UInt8], format: JSONStreamFormat = .automatic) throws -> Int {
        try streamAll(ModelStreamReader<BulkUser>(bytes: bytes, options: ModelOptions(streamOptions: JSONStreamOptions(format: format))))
    }

    static func streamAll(_ reader: ModelStreamReader<BulkUser>) throws -> Int {
        var sum = 0
        while let user = try reader.read() { sum &+= checksum(user) }
        return sum
    }

    /// Every property of `user`, as `BulkWorkload.lazyAll` reads them.
    @inline(__always)
    static func checksum(_ user: BulkUser) -> Int {
        let address = user.address
        var sum = user.id &+ user.name.utf8.count &+ user.age &+ Int(user.score) &+ (user.active ? 1 : 0)
        sum &+= Int(user.createdAt?.timeIntervalSince1970 ?? 0) &+ user.tags.count &+ address.street.utf8.count
        sum &+= address.city.utf8.count &+ address.zip.utf8.count &+ Int(user.balance)
        return sum
    }

    static func decoderLines(_ lines: [UInt8]) throws -> Int {
        let decoder = BulkWorkload.decoder
        var sum = 0
        try lines.withUnsafeBufferPointer { buffer in
            var start = 0
            for index in 0...buffer.count where index == buffer.count || buffer[index] == UInt8(ascii: "\n") {
                defer { start = index + 1 }
                guard index > start else { continue }
                let line = Data(UnsafeBufferPointer(rebasing: buffer[start..<index]))
                let record = try decoder.decode(BulkRecord.self, from: line)
                sum &+= record.id &+ record.name.utf8.count &+ record.age &+ Int(record.score)
                sum &+= (record.active ? 1 : 0) &+ Int(record.createdAt?.timeIntervalSince1970 ?? 0) &+ record.tags.count
                sum &+= record.address.street.utf8.count &+ record.address.city.utf8.count &+ record.address.zip.utf8.count
                sum &+= Int(record.balance)
            }
        }
        return sum
    }
}

/// The result of an async workload, handed to the waiting thread (which reads it after the
/// semaphore, so never at the same time).
final class AsyncResult: @unchecked Sendable {
    var value: Result<Int, any Error> = .success(0)
}

/// Bytes in memory as an async sequence, one byte per `next()`, never suspending.
struct MemoryBytes: AsyncSequence, Sendable {
    typealias Element = UInt8
    let bytes: [UInt8]

    struct AsyncIterator: AsyncIteratorProtocol {
        let bytes: [UInt8]
        var index = 0

        mutating func next() async -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes) }
}

// MARK: - Data

enum StreamData {
    /// The bulk array as JSON Lines: its elements are objects whose only nested object is
    /// followed by another member, so `},{"id":` only stands between two elements.
    static func lines(fromArray array: [UInt8]) -> [UInt8] {
        let separator = Array(#"},{"id":"#.utf8)
        var lines: [UInt8] = []
        lines.reserveCapacity(array.count + 1)
        var index = 1  // past "["
        let end = array.count - 1  // at "]"
        while index < end {
            if array[index] == UInt8(ascii: "}"), index + separator.count <= end,
                array[index..<index + separator.count].elementsEqual(separator)
            {
                lines.append(UInt8(ascii: "}"))
                lines.append(UInt8(ascii: "\n"))
                index += 2
                continue
            }
            lines.append(array[index])
            index += 1
        }
        lines.append(UInt8(ascii: "\n"))
        return lines
    }
}

// MARK: - Peak memory

enum StreamMemory {
    /// Runs `workload` in a fresh process of this binary and returns its peak memory growth in bytes.
    static func measureInChild(_ workload: String) -> Result<Int, BulkMemory.Failure> {
        ChildMeasurement.run(
            arguments: ["--section", "stream"] + ChildMeasurement.documentPaths, variable: StreamSection.childVariable,
            workload: workload, prefix: "stream-peak-growth")
    }

    /// In the child: prepare the input, reset the peak, run the workload once, print the growth, exit.
    static func runChild(_ workload: String) -> Never {
        var checksum = 0
        var before = 0
        switch workload {
        case "profile":  // for a profiler: (a) ten times, nothing measured
            let array = [UInt8](BulkData.generate(count: BulkSection.objectCount))
            for _ in 0..<10 { checksum &+= (try? StreamWorkload.streamName(array)) ?? -1 }
        case "profile-array":  // for a profiler: the other side of (a), array(from:), ten times
            let data = BulkData.generate(count: BulkSection.objectCount)
            for _ in 0..<10 { checksum &+= (try? StreamWorkload.arrayName(data)) ?? -1 }
        case "profile-lines":  // for a profiler: (c), ours, four times, nothing measured
            let lines = StreamData.lines(fromArray: [UInt8](BulkData.generate(count: BulkSection.objectCount)))
            for _ in 0..<4 { checksum &+= (try? StreamWorkload.streamAll(lines, format: .lines)) ?? -1 }
        case "profile-async":  // for a profiler: (e) twice, nothing measured
            let lines = StreamData.lines(fromArray: [UInt8](BulkData.generate(count: BulkSection.objectCount)))
            for _ in 0..<2 { checksum &+= (try? StreamWorkload.asyncName(lines)) ?? -1 }
        case "file", "file-async":
            let path = ProcessInfo.processInfo.environment[StreamSection.fileVariable] ?? ""
            BulkMemory.resetPeak()
            before = BulkMemory.status("VmRSS")
            var elements = 0
            if workload == "file-async" {
                // Model.stream(contentsOf:), iterated on a task this thread waits for.
                let result = AsyncResult()
                let count = AsyncResult()
                let done = DispatchSemaphore(value: 0)
                Task.detached {
                    do {
                        var sum = 0
                        var read = 0
                        for try await user in BulkUser.stream(contentsOf: URL(fileURLWithPath: path)) {
                            sum &+= StreamWorkload.checksum(user)
                            read += 1
                        }
                        result.value = .success(sum)
                        count.value = .success(read)
                    } catch {
                        result.value = .failure(error)
                    }
                    done.signal()
                }
                done.wait()
                do {
                    checksum = try result.value.get()
                    elements = try count.value.get()
                } catch {
                    print("stream-error \(error)")
                    checksum = -1
                }
            } else {
                do {
                    let reader = try ModelStreamReader<BulkUser>(contentsOf: URL(fileURLWithPath: path))
                    while let user = try reader.read() {
                        checksum &+= StreamWorkload.checksum(user)
                        elements += 1
                    }
                } catch {
                    print("stream-error \(error)")
                    checksum = -1
                }
            }
            print("stream-elements \(elements)")
        case "stream-file":
            let array = [UInt8](BulkData.generate(count: BulkSection.objectCount))
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodel-bench-stream-\(getpid()).jsonl")
            defer { try? FileManager.default.removeItem(at: url) }
            do {
                try Data(StreamData.lines(fromArray: array)).write(to: url)
            } catch {
                print("stream-error cannot write \(url.path): \(error)")
                exit(1)
            }
            BulkMemory.resetPeak()
            before = BulkMemory.status("VmRSS")
            checksum = (try? StreamWorkload.streamAll(ModelStreamReader<BulkUser>(contentsOf: url))) ?? -1
            let peak = BulkMemory.status("VmHWM")
            print("stream-checksum \(checksum)")
            print("stream-peak-growth \(max(0, peak - before))")
            try? FileManager.default.removeItem(at: url)
            exit(0)
        default:
            let data = BulkData.generate(count: BulkSection.objectCount)
            BulkMemory.resetPeak()
            before = BulkMemory.status("VmRSS")
            checksum = (try? BulkWorkload.lazyAll(data)) ?? -1
            withExtendedLifetime(data) {}
        }
        let peak = BulkMemory.status("VmHWM")
        print("stream-checksum \(checksum)")
        print("stream-peak-growth \(max(0, peak - before))")
        exit(0)
    }
}
