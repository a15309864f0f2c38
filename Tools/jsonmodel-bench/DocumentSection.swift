import Foundation
import JSONModelKit

/// Every property of citm_catalog.json and canada.json, read through models declared for each
/// file, against `JSONDecoder` into `Codable` structs with the same fields: like work, on
/// documents unlike twitter's (many small objects and integer-keyed dictionaries; arrays of
/// arrays of coordinates); and every number of numbers.json, an array no model fits, read
/// through the document's nodes against `JSONDecoder` into `[Double]`. Target: at least 6x.
/// The peak memory of those reads, and of the model section's read of every property of
/// twitter's statuses (timed there), against `JSONDecoder`'s: at most as much.
struct DocumentSection: BenchSection {
    let name = "documents"
    let summary = "every value of citm_catalog, canada and numbers vs JSONDecoder (like work); peak memory, with twitter's"

    /// When set to `profile`, the section runs only our side on the first file given that it
    /// knows, `JSONMODEL_BENCH_PROFILE_RUNS` times (default 200), and exits: for perf and valgrind.
    static let profileVariable = "JSONMODEL_BENCH_DOCUMENT_CHILD"

    /// The documents this section knows: our side and Foundation's, each returning a checksum of
    /// every value read, which must agree.
    struct Workload {
        var ours: ([UInt8]) throws -> Int
        var theirs: (Data) throws -> Int
    }

    static func workload(for name: String) -> Workload? {
        if name.hasPrefix("citm_catalog") {
            return Workload(ours: { try CitmCatalog(json: $0).checksum }, theirs: { try CitmCatalogStruct.decode($0).checksum })
        }
        if name.hasPrefix("canada") {
            return Workload(ours: { try CanadaCollection(json: $0).checksum }, theirs: { try CanadaCollectionStruct.decode($0).checksum })
        }
        if name.hasPrefix("numbers") {
            return Workload(ours: { try NumberList.checksum(of: $0) }, theirs: { try NumberList.decodedChecksum(of: $0) })
        }
        return nil
    }

    /// The documents whose peak memory this section measures: those it times, and twitter's,
    /// read as the model section reads them in its row (b), which times them.
    static func memoryWorkload(for name: String) -> Workload? {
        if let timed = workload(for: name) { return timed }
        if name.hasPrefix("twitter") {
            return Workload(
                ours: { try TwitterStatus.models(from: $0).reduce(0) { $0 &+ $1.checksum } },
                theirs: { try StatusSubset.decode($0).reduce(0) { $0 &+ $1.checksum } })
        }
        return nil
    }

    /// In a child measuring peak memory, the name of the file to read.
    static let fileNameVariable = "JSONMODEL_BENCH_DOCUMENT_FILE"

    /// In the child (``profileVariable`` set to `memory-ours` or `memory-theirs`): reads every
    /// property of the file named by ``fileNameVariable`` twice, on one side, and prints the growth
    /// of the peak resident memory of each read over what the process held before it.
    ///
    /// The first read also pays what a process pays once: the code it runs paged in, the
    /// classes' metadata built, the registry filled. Before the second, the memory the first
    /// freed is handed back to the system, so the second grows the resident memory by what the
    /// document itself costs.
    static func runMemoryChild(_ side: String, files: [BenchFile]) -> Never {
        let name = ProcessInfo.processInfo.environment[fileNameVariable] ?? ""
        guard let file = files.first(where: { $0.name == name }), let workload = memoryWorkload(for: name) else {
            print("document-error no file \(name)")
            exit(1)
        }
        func read() -> (checksum: Int, growth: Int) {
            BulkMemory.resetPeak()
            let before = BulkMemory.status("VmRSS")
            let checksum = side == "memory-ours" ? (try? workload.ours(file.bytes)) : (try? workload.theirs(file.data))
            return (checksum ?? -1, max(0, BulkMemory.status("VmHWM") - before))
        }
        let first = read()
        BulkMemory.returnFreedMemory()
        let later = read()
        print("document-checksum \(first.checksum == later.checksum ? later.checksum : -1)")
        print("document-peak-growth-first \(first.growth)")
        print("document-peak-growth \(later.growth)")
        withExtendedLifetime(file) {}
        exit(0)
    }

    /// The growth of the resident memory that VmHWM may leave out: Linux kernels before 6.2
    /// count a thread's page faults into the process's resident memory 64 at a time, so up to 63
    /// pages a read touches and gives back before the count catches up never show.
    static let peakResolution = 64 * 4096

    /// Codable's peak growth ÷ ours, and its text; a lower bound where ours is below
    /// ``peakResolution``, taking ours to be as large as it may be.
    static func memoryRatio(theirs: Int, ours: Int) -> (value: Double, text: String) {
        guard ours < peakResolution else {
            let ratio = Double(theirs) / Double(ours)
            return (ratio, Format.ratio(ratio))
        }
        let bound = Double(theirs) / Double(ours + peakResolution)
        return (bound, "≥ " + Format.ratio(bound))
    }

    func run(files: [BenchFile], benchmark: Benchmark) -> String {
        if let side = ProcessInfo.processInfo.environment[Self.profileVariable], side.hasPrefix("memory-") {
            Self.runMemoryChild(side, files: files)
        }
        if ProcessInfo.processInfo.environment[Self.profileVariable] == "profile",
            let file = files.first(where: { Self.workload(for: $0.name) != nil }), let workload = Self.workload(for: file.name)
        {
            let runs = ProcessInfo.processInfo.environment["JSONMODEL_BENCH_PROFILE_RUNS"].flatMap { Int($0) } ?? 200
            var checksum = 0
            for _ in 0..<max(1, runs) {
                checksum &+= (try? workload.ours(file.bytes)) ?? -1
            }
            print("document-checksum \(checksum)")
            exit(0)
        }
        var table = TextTable([
            .left("file"), .right("JSONModelKit"), .right("Codable"), .right("ratio"), .right("middle half"),
            .right("target"), .left("result"),
        ])
        var problems: [String] = []
        let target = 6.0
        var measured = 0
        for file in files {
            guard let workload = Self.workload(for: file.name) else { continue }
            measured += 1
            do {
                let ours = try workload.ours(file.bytes)
                let theirs = try workload.theirs(file.data)
                guard ours == theirs else {
                    problems.append("\(file.name): the models and the structs read different values; not measured")
                    continue
                }
            } catch {
                problems.append("\(file.name): could not read: \(error)")
                continue
            }
            let pair = attempt(&problems, file, "read every property") {
                try benchmark.measurePair(name: "documents \(file.name)", bytes: file.bytes.count) {
                    try workload.ours(file.bytes)
                } theirs: {
                    try workload.theirs(file.data)
                }
            }
            guard let pair, pair.ratio.isFinite else {
                table.append([file.name, "-", "-", "-", "-", "≥ \(Format.ratio(target))", "-"])
                continue
            }
            table.append([
                file.name, Format.seconds(pair.ours), Format.seconds(pair.theirs), Format.ratio(pair.ratio),
                Format.spread(pair.ratioQuartiles), "≥ \(Format.ratio(target))", pair.ratio >= target ? "PASS" : "MISS",
            ])
        }
        if measured == 0 && !files.contains(where: { Self.memoryWorkload(for: $0.name) != nil }) {
            return "  note: no citm_catalog.json, canada.json, numbers.json or twitter.json given; nothing measured\n"
        }
        var memory = TextTable([
            .left("peak memory"), .right("JSONModelKit"), .right("Codable"), .right("ratio"), .right("first read"),
            .right("ratio"), .right("target"), .left("result"),
        ])
        for file in files where Self.memoryWorkload(for: file.name) != nil {
            func measure(_ side: String) -> Result<(first: Int, later: Int), ChildMeasurement.Failure> {
                ChildMeasurement.run(
                    arguments: ["--section", "documents"] + ChildMeasurement.documentPaths,
                    environment: [Self.profileVariable: side, Self.fileNameVariable: file.name]
                ).flatMap { output in
                    guard let first = ChildMeasurement.value("document-peak-growth-first", in: output).flatMap({ Int($0) }),
                        let later = ChildMeasurement.value("document-peak-growth", in: output).flatMap({ Int($0) })
                    else {
                        return .failure(ChildMeasurement.Failure(reason: "the child reported nothing"))
                    }
                    return .success((first, later))
                }
            }
            switch (measure("memory-ours"), measure("memory-theirs")) {
            case (.success(let ours), .success(let theirs)):
                let ratio = Self.memoryRatio(theirs: theirs.later, ours: ours.later)
                let firstRatio = Self.memoryRatio(theirs: theirs.first, ours: ours.first)
                memory.append([
                    file.name, Format.size(ours.later), Format.size(theirs.later), ratio.text,
                    "\(Format.size(ours.first)) / \(Format.size(theirs.first))", firstRatio.text, "≥ 1.00x",
                    ratio.value >= 1 ? "PASS" : "MISS",
                ])
            case (.failure(let failure), _), (_, .failure(let failure)):
                memory.append([file.name, "-", "-", "-", "-", "-", "≥ 1.00x", "-"])
                problems.append("\(file.name) peak memory: \(failure.reason)")
            }
        }
        var output = """
            Both sides start from the file in memory (ours [UInt8], Foundation's Data), parse, create
            and read every declared field once, nested models and arrays included, and fold what they
            read into a checksum (which must agree). Time of one document; ratio = Codable / ours.
              citm_catalog: a catalog model with 11 dictionaries, 184 events and 243 performances,
                            their prices, seat categories and areas (integer arrays and optionals).
              canada:       a feature collection whose one polygon is [[[Double]]], 111,000 numbers.
              numbers:      an array of 10,000 numbers, which no model fits: ours reads each node's
                            numberValue.doubleValue, JSONDecoder decodes [Double].


            """
        output += table.rendered()
        output += """

            Peak memory: each side reads every property twice in a fresh child process (this binary,
            \(Self.profileVariable)=memory-ours or memory-theirs), which holds the file and, for each
            read, resets the peak, notes VmRSS, reads, and reports VmHWM minus that VmRSS. Between the
            reads it hands freed memory back to the system (malloc_trim). The target is on the second
            read, what each document costs; the first also pays, once per process, for paging in the
            code it runs and building the classes' metadata (shown ours / Codable's). Ratio = Codable
            / ours: at least 1 when ours needs no more memory than JSONDecoder's. Where ours grew by
            less than 256 KiB, which VmHWM may not show (below), the ratio is a lower bound, "≥":
            Codable / (ours + 256 KiB). The twitter files are read as the model section's row (b)
            reads them, which times them.


            """
        output += memory.rendered()
        for problem in problems {
            output += "  note: \(problem)\n"
        }
        return output
    }
}

// MARK: - Checksums

/// Folds the values read into one number, the same way on both sides.
private struct Fold {
    var value = 0
    mutating func add(_ int: Int) { value = value &* 31 &+ int }
    mutating func add(_ string: String?) { add(string.map { $0.utf8.count &+ Int($0.utf8.first ?? 0) } ?? -1) }
    mutating func add(_ double: Double) { add(Int(truncatingIfNeeded: double.bitPattern)) }
    mutating func add(_ ints: [Int]) { add(ints.count); for int in ints { add(int) } }
    mutating func add(_ names: [String: String]) {
        add(names.count)
        // Keys in order, so that both sides fold the same sequence.
        for key in names.keys.sorted() { add(key); add(names[key]) }
    }
}

// MARK: - citm_catalog.json, what both sides read

/// The fields of the catalog, read the same way from the models and from the structs, so that
/// one checksum serves both.
protocol CitmCatalogFields {
    associatedtype Event: CitmEventFields
    associatedtype Performance: CitmPerformanceFields
    var areaNames: [String: String] { get }
    var audienceSubCategoryNames: [String: String] { get }
    var blockNames: [String: String] { get }
    var events: [String: Event] { get }
    var performances: [Performance] { get }
    var seatCategoryNames: [String: String] { get }
    var subTopicNames: [String: String] { get }
    var subjectNames: [String: String] { get }
    var topicNames: [String: String] { get }
    var topicSubTopics: [String: [Int]] { get }
    var venueNames: [String: String] { get }
}

protocol CitmEventFields {
    var about: String? { get }
    var id: Int { get }
    var logo: String? { get }
    var name: String { get }
    var subTopicIds: [Int] { get }
    var subjectCode: String? { get }
    var subtitle: String? { get }
    var topicIds: [Int] { get }
}

protocol CitmPerformanceFields {
    associatedtype Price: CitmPriceFields
    associatedtype SeatCategory: CitmSeatCategoryFields
    var eventId: Int { get }
    var id: Int { get }
    var logo: String? { get }
    var name: String? { get }
    var prices: [Price] { get }
    var seatCategories: [SeatCategory] { get }
    var seatMapImage: String? { get }
    var start: Int { get }
    var venueCode: String { get }
}

protocol CitmPriceFields {
    var amount: Int { get }
    var audienceSubCategoryId: Int { get }
    var seatCategoryId: Int { get }
}

protocol CitmSeatCategoryFields {
    associatedtype Area: CitmAreaFields
    var areas: [Area] { get }
    var seatCategoryId: Int { get }
}

protocol CitmAreaFields {
    var areaId: Int { get }
    var blockIds: [Int] { get }
}

extension CitmCatalogFields {
    /// Every field read once, folded into one number.
    var checksum: Int {
        var fold = Fold()
        for names in [areaNames, audienceSubCategoryNames, blockNames, seatCategoryNames, subTopicNames, subjectNames, topicNames, venueNames] {
            fold.add(names)
        }
        let events = self.events
        for key in events.keys.sorted() {
            guard let event = events[key] else { continue }
            fold.add(key)
            fold.add(event.id)
            fold.add(event.name)
            fold.add(event.about)
            fold.add(event.logo)
            fold.add(event.subjectCode)
            fold.add(event.subtitle)
            fold.add(event.subTopicIds)
            fold.add(event.topicIds)
        }
        for performance in performances {
            fold.add(performance.id)
            fold.add(performance.eventId)
            fold.add(performance.logo)
            fold.add(performance.name)
            fold.add(performance.seatMapImage)
            fold.add(performance.start)
            fold.add(performance.venueCode)
            for price in performance.prices {
                fold.add(price.amount)
                fold.add(price.audienceSubCategoryId)
                fold.add(price.seatCategoryId)
            }
            for category in performance.seatCategories {
                fold.add(category.seatCategoryId)
                for area in category.areas {
                    fold.add(area.areaId)
                    fold.add(area.blockIds)
                }
            }
        }
        let topics = topicSubTopics
        for key in topics.keys.sorted() { fold.add(key); fold.add(topics[key] ?? []) }
        return fold.value
    }
}

// MARK: - citm_catalog.json, models

final class CitmCatalog: JSONModel, CitmCatalogFields, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.areaNames([String: String].self)
        p.audienceSubCategoryNames([String: String].self)
        p.blockNames([String: String].self)
        p.events([String: CitmEvent].self)
        p.performances([CitmPerformance].self)
        p.seatCategoryNames([String: String].self)
        p.subTopicNames([String: String].self)
        p.subjectNames([String: String].self)
        p.topicNames([String: String].self)
        p.topicSubTopics([String: [Int]].self)
        p.venueNames([String: String].self)
    }
}

final class CitmEvent: JSONModel, CitmEventFields, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.about(String?.self, jsonPath: "description")
        p.id(Int.self)
        p.logo(String?.self)
        p.name(String.self)
        p.subTopicIds([Int].self)
        p.subjectCode(String?.self)
        p.subtitle(String?.self)
        p.topicIds([Int].self)
    }
}

final class CitmPerformance: JSONModel, CitmPerformanceFields, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.eventId(Int.self)
        p.id(Int.self)
        p.logo(String?.self)
        p.name(String?.self)
        p.prices([CitmPrice].self)
        p.seatCategories([CitmSeatCategory].self)
        p.seatMapImage(String?.self)
        p.start(Int.self)
        p.venueCode(String.self)
    }
}

final class CitmPrice: JSONModel, CitmPriceFields, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.amount(Int.self)
        p.audienceSubCategoryId(Int.self)
        p.seatCategoryId(Int.self)
    }
}

final class CitmSeatCategory: JSONModel, CitmSeatCategoryFields, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.areas([CitmArea].self)
        p.seatCategoryId(Int.self)
    }
}

final class CitmArea: JSONModel, CitmAreaFields, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.areaId(Int.self)
        p.blockIds([Int].self)
    }
}

// MARK: - citm_catalog.json, structs

struct CitmCatalogStruct: Decodable, CitmCatalogFields {
    struct Event: Decodable, CitmEventFields {
        var about: String?
        var id: Int
        var logo: String?
        var name: String
        var subTopicIds: [Int]
        var subjectCode: String?
        var subtitle: String?
        var topicIds: [Int]

        enum CodingKeys: String, CodingKey {
            case about = "description"
            case id, logo, name, subTopicIds, subjectCode, subtitle, topicIds
        }
    }

    struct Performance: Decodable, CitmPerformanceFields {
        struct Price: Decodable, CitmPriceFields {
            var amount: Int
            var audienceSubCategoryId: Int
            var seatCategoryId: Int
        }

        struct SeatCategory: Decodable, CitmSeatCategoryFields {
            struct Area: Decodable, CitmAreaFields {
                var areaId: Int
                var blockIds: [Int]
            }

            var areas: [Area]
            var seatCategoryId: Int
        }

        var eventId: Int
        var id: Int
        var logo: String?
        var name: String?
        var prices: [Price]
        var seatCategories: [SeatCategory]
        var seatMapImage: String?
        var start: Int
        var venueCode: String
    }

    var areaNames: [String: String]
    var audienceSubCategoryNames: [String: String]
    var blockNames: [String: String]
    var events: [String: Event]
    var performances: [Performance]
    var seatCategoryNames: [String: String]
    var subTopicNames: [String: String]
    var subjectNames: [String: String]
    var topicNames: [String: String]
    var topicSubTopics: [String: [Int]]
    var venueNames: [String: String]

    static func decode(_ data: Data) throws -> CitmCatalogStruct {
        try JSONDecoder().decode(CitmCatalogStruct.self, from: data)
    }
}

// MARK: - canada.json

final class CanadaCollection: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.type(String.self)
        p.features([CanadaFeature].self)
    }

    var checksum: Int {
        var fold = Fold()
        fold.add(type)
        for feature in features {
            fold.add(feature.type)
            fold.add(feature.name)
            fold.add(feature.geometryType)
            for ring in feature.coordinates {
                fold.add(ring.count)
                for point in ring {
                    for coordinate in point { fold.add(coordinate) }
                }
            }
        }
        return fold.value
    }
}

final class CanadaFeature: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.type(String.self)
        p.name(String.self, jsonPath: "properties.name")
        p.geometryType(String.self, jsonPath: "geometry.type")
        p.coordinates([[[Double]]].self, jsonPath: "geometry.coordinates")
    }
}

struct CanadaCollectionStruct: Decodable {
    struct Feature: Decodable {
        struct Properties: Decodable { var name: String }
        struct Geometry: Decodable {
            var type: String
            var coordinates: [[[Double]]]
        }

        var type: String
        var properties: Properties
        var geometry: Geometry
    }

    var type: String
    var features: [Feature]

    static func decode(_ data: Data) throws -> CanadaCollectionStruct {
        try JSONDecoder().decode(CanadaCollectionStruct.self, from: data)
    }

    var checksum: Int {
        var fold = Fold()
        fold.add(type)
        for feature in features {
            fold.add(feature.type)
            fold.add(feature.properties.name)
            fold.add(feature.geometry.type)
            for ring in feature.geometry.coordinates {
                fold.add(ring.count)
                for point in ring {
                    for coordinate in point { fold.add(coordinate) }
                }
            }
        }
        return fold.value
    }
}

// MARK: - numbers.json, what both sides read

/// numbers.json is an array of numbers, which no model fits: both sides read it as a program
/// reads such a document, ours through the document's nodes, Foundation's as `[Double]`.
enum NumberList {
    static func checksum(of bytes: [UInt8]) throws -> Int {
        let document = try JSONDocument(bytes: bytes)
        var fold = Fold()
        for node in document.root.elements {
            guard let number = node.numberValue else { return -1 }
            fold.add(number.doubleValue)
        }
        return fold.value
    }

    static func decodedChecksum(of data: Data) throws -> Int {
        var fold = Fold()
        for double in try JSONDecoder().decode([Double].self, from: data) { fold.add(double) }
        return fold.value
    }
}
