import Foundation
import JSONModelKit
import JSONModelKitFoundation

/// Bulk arrays: a generated array of 100,000 objects read through a lazy
/// `ModelArray` against `JSONDecoder` into `[Struct]`, for time and peak memory.
///
/// The data is generated, not read from the files: the same bytes on every run
/// (a fixed linear congruential generator), about 18 MB.
struct BulkSection: BenchSection {
    let name = "bulk"
    let summary = "BulkUser.array(from:) (lazy) vs JSONDecoder into [BulkRecord], 100,000 generated objects"

    /// Set in the child processes that measure peak memory; names the workload.
    static let childVariable = "JSONMODEL_BENCH_BULK_CHILD"
    /// 100,000; `JSONMODEL_BENCH_BULK_COUNT` overrides it (for profiling under valgrind).
    static let objectCount = ProcessInfo.processInfo.environment["JSONMODEL_BENCH_BULK_COUNT"].flatMap { Int($0) } ?? 100_000
    static let sampleCount = 100

    func run(files: [BenchFile], benchmark: Benchmark) -> String {
        if let workload = ProcessInfo.processInfo.environment[Self.childVariable] {
            BulkMemory.runChild(workload)  // does not return
        }
        let data = BulkData.generate(count: Self.objectCount)
        let samples = BulkData.sampleIndexes(count: Self.sampleCount, upperBound: Self.objectCount)
        let bench = benchmark.forSlowWorkloads
        var problems: [String] = []
        func measure(_ label: String, ours: () throws -> Int, theirs: () throws -> Int) -> PairedTiming? {
            bench.measurePair(label, section: "bulk", bytes: data.count, problems: &problems, ours: ours, theirs: theirs)
        }

        let sample = measure("sample") { try BulkWorkload.lazySample(data, samples) } theirs: { try BulkWorkload.decoderSample(data, samples) }
        let all = measure("all") { try BulkWorkload.lazyAll(data) } theirs: { try BulkWorkload.decoderAll(data) }
        // The two read the same values: a check that the comparison is fair.
        if let ours = try? BulkWorkload.lazyAll(data), let theirs = try? BulkWorkload.decoderAll(data), ours != theirs {
            problems.append("checksums differ: ours \(ours), JSONDecoder \(theirs)")
        }

        let memory = ["lazy", "lazy-all", "decoder", "serialization"].map { BulkMemory.measureInChild($0) }

        var table = TextTable([
            .left("workload"), .right("ours"), .right("JSONDecoder"), .right("speed-up"), .right("middle half"),
            .right("target"),
        ])
        func row(_ label: String, _ pair: PairedTiming?, _ target: String) {
            table.append([
                label, pair.map { Format.seconds($0.ours) } ?? "-", pair.map { Format.seconds($0.theirs) } ?? "-",
                pair.map { Format.ratio($0.ratio) } ?? "-", pair.map { Format.spread($0.ratioQuartiles) } ?? "-", target,
            ])
        }
        row("(a) lazy vs eager: parse + lazy array + 1 property of \(Self.sampleCount) elements", sample, ">= 30x")
        row("(b) like work: parse + every property of every element", all, ">= 6x")

        let memoryLabels = [
            "ours (a): array(from:) + 100 reads", "ours (b): array(from:) + every property (target <= 2x)",
            "JSONDecoder into [BulkRecord] (every field)", "JSONSerialization.jsonObject",
        ]
        let memoryTable = ChildMeasurement.memoryTable(
            "(c) peak memory", rows: Array(zip(memoryLabels, memory)), inputBytes: data.count, problems: &problems)

        var output = """
            Input: \(Self.objectCount) generated objects, \(Format.size(data.count)) (9 fields each, 12 values: numbers,
            strings, a bool, an ISO 8601 date, a string array and a nested object of 3 strings). The two sides run in at least
            \(bench.minimumRuns) alternating pairs, each run from the bytes (parse included) to the values read; times are
            medians, the speed-up is the median of the pairs' ratios, "middle half" their quartiles.
              (a) reads `name` of \(Self.sampleCount) fixed pseudo-random elements. Lazy against eager:
                  JSONDecoder converts every field of all \(Self.objectCount) records, ours \(Self.sampleCount) names,
                  so this shows what laziness saves when little is read
              (b) reads all 9 properties (and the nested object's 3) of every element; dates are decoded.
                  Both sides end with every field converted: the fair comparison

            """
        output += table.rendered()
        output += """

            Peak memory: each workload runs once in a fresh child process (this binary, \(Self.childVariable)
            set). The child generates the input, resets the peak (writes 5 to /proc/self/clear_refs), notes
            VmRSS, runs the workload, and reports VmHWM minus that VmRSS: the growth of the peak over the input
            already in memory. (a) and (b) as above; JSONDecoder converts every field either way.

            """
        output += memoryTable.rendered()
        if !problems.isEmpty { output += "\n" + problems.map { "  problem: \($0)" }.joined(separator: "\n") + "\n" }
        return output
    }
}

// MARK: - Models

/// The model of the bulk benchmark.
final class BulkUser: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
        p.name(String.self)
        p.age(Int.self)
        p.score(Double.self)
        p.active(Bool.self)
        p.createdAt(Date?.self, jsonPath: "created_at")
        p.tags([String].self)
        p.address(BulkAddress.self)
        p.balance(Double.self)
    }
}

final class BulkAddress: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.street(String.self)
        p.city(String.self)
        p.zip(String.self)
    }
}

/// The same record for `JSONDecoder`.
struct BulkRecord: Decodable {
    struct Address: Decodable {
        var street: String
        var city: String
        var zip: String
    }

    var id: Int
    var name: String
    var age: Int
    var score: Double
    var active: Bool
    var createdAt: Date?
    var tags: [String]
    var address: Address
    var balance: Double

    enum CodingKeys: String, CodingKey {
        case id, name, age, score, active, tags, address, balance
        case createdAt = "created_at"
    }
}

// MARK: - Workloads

/// Each workload returns a checksum of what it read, so nothing is optimized away.
enum BulkWorkload {
    static func lazySample(_ data: Data, _ samples: [Int]) throws -> Int {
        let users = try BulkUser.array(from: data)
        var sum = 0
        for index in samples { sum &+= users[index].name.utf8.count }
        return sum
    }

    static func decoderSample(_ data: Data, _ samples: [Int]) throws -> Int {
        let records = try decoder.decode([BulkRecord].self, from: data)
        var sum = 0
        for index in samples { sum &+= records[index].name.utf8.count }
        return sum
    }

    static func lazyAll(_ data: Data) throws -> Int {
        let users = try BulkUser.array(from: data)
        var sum = 0
        for user in users {
            let id = user.id
            let name = user.name
            let age = user.age
            let score = user.score
            let active = user.active
            let created = user.createdAt
            let tags = user.tags
            let address = user.address
            let street = address.street
            let city = address.city
            let zip = address.zip
            let balance = user.balance
            sum &+= id &+ name.utf8.count &+ age &+ Int(score) &+ (active ? 1 : 0)
            sum &+= Int(created?.timeIntervalSince1970 ?? 0) &+ tags.count &+ street.utf8.count &+ city.utf8.count
            sum &+= zip.utf8.count &+ Int(balance)
        }
        return sum
    }

    static func decoderAll(_ data: Data) throws -> Int {
        let records = try decoder.decode([BulkRecord].self, from: data)
        var sum = 0
        for record in records {
            sum &+= record.id &+ record.name.utf8.count &+ record.age &+ Int(record.score)
            sum &+= (record.active ? 1 : 0) &+ Int(record.createdAt?.timeIntervalSince1970 ?? 0) &+ record.tags.count
            sum &+= record.address.street.utf8.count &+ record.address.city.utf8.count &+ record.address.zip.utf8.count
            sum &+= Int(record.balance)
        }
        return sum
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

// MARK: - Data

enum BulkData {
    /// A fixed linear congruential generator (Knuth's MMIX constants).
    struct Generator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let cities = ["Rome", "Oslo", "Lima", "Kyoto", "Austin", "Berlin", "Nairobi", "Perth"]
    static let words = ["red", "green", "blue", "admin", "beta", "vip", "new", "pro"]

    /// `count` objects as a compact JSON array, the same bytes every time.
    static func generate(count: Int) -> Data {
        var generator = Generator(state: 20_260_522)
        var text = "["
        text.reserveCapacity(count * 190)
        for index in 0..<count {
            if index > 0 { text += "," }
            let year = 2000 + generator.next(25)
            let month = 1 + generator.next(12)
            let day = 1 + generator.next(28)
            let hour = generator.next(24)
            let minute = generator.next(60)
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let tags = (0..<(1 + generator.next(2))).map { _ in "\"\(words[generator.next(words.count)])\"" }
            text += #"{"id":\#(index),"name":"user \#(index)","age":\#(18 + generator.next(60)),"#
            text += #""score":\#(generator.next(100_000)).\#(generator.next(100)),"active":\#(generator.next(2) == 0),"#
            text += #""created_at":"\#(year)-\#(two(month))-\#(two(day))T\#(two(hour)):\#(two(minute)):00Z","#
            text += #""tags":[\#(tags.joined(separator: ","))],"#
            text += #""address":{"street":"\#(generator.next(999)) Elm","city":"\#(cities[generator.next(cities.count)])","zip":"\#(10_000 + generator.next(89_999))"},"#
            text += #""balance":\#(generator.next(1_000_000) - 500_000)}"#
        }
        text += "]"
        return Data(text.utf8)
    }

    /// `count` fixed pseudo-random indexes below `upperBound`.
    static func sampleIndexes(count: Int, upperBound: Int) -> [Int] {
        var generator = Generator(state: 7)
        return (0..<count).map { _ in generator.next(upperBound) }
    }
}

// MARK: - Peak memory

enum BulkMemory {
    typealias Failure = ChildMeasurement.Failure

    /// Runs `workload` in a fresh process of this binary and returns its peak memory growth in bytes.
    static func measureInChild(_ workload: String) -> Result<Int, Failure> {
        ChildMeasurement.run(
            arguments: ["--section", "bulk"] + ChildMeasurement.documentPaths, variable: BulkSection.childVariable,
            workload: workload, prefix: "bulk-peak-growth")
    }

    /// In the child: generate, reset the peak, run the workload once, print the growth, exit.
    static func runChild(_ workload: String) -> Never {
        let data = BulkData.generate(count: BulkSection.objectCount)
        let samples = BulkData.sampleIndexes(count: BulkSection.sampleCount, upperBound: BulkSection.objectCount)
        resetPeak()
        let before = status("VmRSS")
        var checksum = 0
        switch workload {
        case "profile-sample":  // for valgrind: one run of (a), nothing measured
            checksum = (try? BulkWorkload.lazySample(data, samples)) ?? -1
        case "phases":  // where the time of (a) goes
            let clock = ContinuousClock()
            var times: [Duration] = []
            for _ in 0..<5 {
                let start = clock.now
                let bytes = [UInt8](data)
                let copied = clock.now
                let document = try! JSONDocument(bytes: bytes)
                let scanned = clock.now
                let users = try! BulkUser.array(from: document.root)
                let indexed = clock.now
                for index in samples { checksum &+= users[index].name.utf8.count }
                let read = clock.now
                times = [copied - start, scanned - copied, indexed - scanned, read - indexed]
            }
            print("bulk-phases copy \(times[0]) scan \(times[1]) index \(times[2]) read \(times[3])")
        case "write":  // the generated input, to a file named by JSONMODEL_BENCH_BULK_FILE
            let path = ProcessInfo.processInfo.environment["JSONMODEL_BENCH_BULK_FILE"] ?? "bulk.json"
            checksum = (try? data.write(to: URL(fileURLWithPath: path))) == nil ? -1 : data.count
        case "profile-all":  // for valgrind and perf: (b), JSONMODEL_BENCH_PROFILE_RUNS times (default once)
            let runs = ProcessInfo.processInfo.environment["JSONMODEL_BENCH_PROFILE_RUNS"].flatMap { Int($0) } ?? 1
            for _ in 0..<max(1, runs) { checksum &+= (try? BulkWorkload.lazyAll(data)) ?? -1 }
        case "memory-phases":  // where the memory of (b) goes: the growth after each step, per record
            checksum = memoryPhases(data, since: before)
        case "lazy":
            checksum = (try? BulkWorkload.lazySample(data, samples)) ?? -1
        case "lazy-all":
            checksum = (try? BulkWorkload.lazyAll(data)) ?? -1
        case "decoder":
            checksum = (try? BulkWorkload.decoderSample(data, samples)) ?? -1
        default:
            let object = try? JSONSerialization.jsonObject(with: data)
            checksum = (object as? [Any])?.count ?? -1
        }
        let peak = status("VmHWM")
        print("bulk-checksum \(checksum)")
        print("bulk-peak-growth \(max(0, peak - before))")
        withExtendedLifetime(data) {}
        exit(0)
    }

    /// Reads every property as (b) does, a kind of value at a time, and prints how much each
    /// step grew the resident memory, per record, beside what `JSONDecoder`'s records hold.
    static func memoryPhases(_ data: Data, since before: Int) -> Int {
        let count = BulkSection.objectCount
        var last = before
        func step(_ label: String) {
            let now = status("VmRSS")
            print("bulk-memory \(label): \((now - last) / count) bytes a record")
            last = now
        }
        guard let document = try? JSONDocument(data: data), let users = try? BulkUser.array(from: document.root) else {
            return -1
        }
        var checksum = 0
        step("parse and lazy array")
        for user in users { checksum &+= user.id }
        step("a model each, and its slots")
        for user in users {
            checksum &+= user.name.utf8.count &+ user.age &+ Int(user.score) &+ (user.active ? 1 : 0) &+ Int(user.balance)
            checksum &+= Int(user.createdAt?.timeIntervalSince1970 ?? 0)
        }
        step("the other plain values, in those slots")
        for user in users { checksum &+= user.tags.count }
        step("the tags arrays")
        for user in users { checksum &+= user.address.street.utf8.count &+ user.address.city.utf8.count &+ user.address.zip.utf8.count }
        step("the addresses: a model each, its slots and values")
        print("bulk-memory in all: \((last - before) / count) bytes a record; the input: \(data.count / count)")
        print("bulk-memory a BulkRecord, as JSONDecoder's array holds it: \(MemoryLayout<BulkRecord>.stride) bytes and its tags")
        withExtendedLifetime((document, users)) {}
        return checksum
    }

    /// Resets VmHWM to the current RSS (Linux 4.0 and later).
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// Hands the memory that `free` keeps for later back to the system (glibc's `malloc_trim`),
    /// so that a workload run after another grows the resident memory as it would in a fresh
    /// process; nothing where there is no `malloc_trim`. Found with `dlsym`: the C library's
    /// module does not declare it.
    static func returnFreedMemory() {
        #if os(Linux)
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
        #endif
    }

    /// A `kB` field of /proc/self/status, in bytes; 0 when unavailable.
    static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
            return (Int(String(digits)) ?? 0) * 1024
        }
        return 0
    }
}
