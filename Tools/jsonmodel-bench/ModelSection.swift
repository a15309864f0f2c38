import Foundation
import JSONModelKit

/// Models: lazy `JSONModel`s over a parsed document against `JSONDecoder` into
/// `Codable` structs with exactly the same fields, on the statuses of the
/// twitter documents.
///
/// Four measurements, with their targets:
/// (a) parse and create the models, nothing read (≥ 3× faster than decoding);
/// (b) parse, create, and read every declared property once (≥ 6× faster);
/// (c) a second, cached read of one property against a stored-property read
///     of the struct (at most 8× slower);
/// (d) the same cached read through the member the JSONModelAccessors plugin generates
///     against a read by name, `model[property: "retweetCount"]`, both inlined at the
///     call site (at most 10% slower: the member adds nothing; it passes the property's
///     place among the declarations, which saves the by-name lookup, so it is faster).
struct ModelSection: BenchSection {
    let name = "model"
    let summary = "JSONModel over JSONDocument vs JSONDecoder into Codable structs (twitter statuses)"

    /// The passes over every model per timed run of (c) and (d), so that even one run of the
    /// struct's reads (plain stored properties) dwarfs the cost of reading the clock (a system
    /// call for the CPU clock, a fraction of a microsecond).
    let readPasses = 1000

    /// When set to `profile`, the section runs only our side of (b) on the first twitter file,
    /// `JSONMODEL_BENCH_PROFILE_RUNS` times (default 1000), and exits: for perf and valgrind.
    static let profileVariable = "JSONMODEL_BENCH_MODEL_CHILD"

    func run(files: [BenchFile], benchmark: Benchmark) -> String {
        if ProcessInfo.processInfo.environment[Self.profileVariable] == "profile",
            let file = files.first(where: { $0.name.hasPrefix("twitter") })
        {
            let runs = ProcessInfo.processInfo.environment["JSONMODEL_BENCH_PROFILE_RUNS"].flatMap { Int($0) } ?? 1000
            var checksum = 0
            for _ in 0..<max(1, runs) {
                checksum &+= (try? TwitterStatus.models(from: file.bytes).reduce(0) { $0 &+ $1.checksum }) ?? -1
            }
            print("model-checksum \(checksum)")
            exit(0)
        }
        var table = TextTable([
            .left("file"), .left("measurement"), .right("JSONModelKit"), .right("Codable"),
            .right("ratio"), .right("middle half"), .right("target"), .left("result"),
        ])
        var problems: [String] = []

        for file in files {
            guard file.name.hasPrefix("twitter") else {
                problems.append("\(file.name): skipped, the model section reads twitter statuses only")
                continue
            }
            measure(file, benchmark: benchmark, into: &table, problems: &problems)
        }

        var output = """
            Both sides start from the file in memory: ours from [UInt8], Foundation's from Data.
              JSONModelKit: JSONDocument(bytes:), then TwitterStatus(node:) per element of "statuses"
              Codable:      JSONDecoder().decode(StatusSubset.Page.self, from:), same 14 fields
              (a) parse + create        nothing read; nested user models are created on first read.
                                        Lazy against eager: JSONDecoder converts all 14 fields of
                                        every status, ours none, so this shows what laziness saves
                                        when nothing is read
              (b) + read every property each of the 10 status and 4 user properties read once: both
                                        sides end with every field converted, the fair comparison
              (c) cached read           ns per read of retweetCount, \(readPasses) passes over the
                                        models after a first read, vs the struct's stored property
              (d) typed / by name       the reads of (c) through the generated member (first column)
                                        vs model[property: "retweetCount"] (second column)
            The two sides run in alternating pairs; times are medians, and the ratio is the median of
            the pairs' ratios (steadier on a shared machine than a ratio of medians); "middle half" is the
            range of the pairs' ratios from the lower to the upper quartile.
            (a), (b): time of one document, ratio = Codable / ours (times faster).
            (c): ns per read, ratio = ours / Codable (times slower).
            (d): ns per read, ratio = typed / by name (at most 1.10x: the member adds nothing).


            """
        output += table.rendered()
        for problem in problems {
            output += "  note: \(problem)\n"
        }
        return output
    }

    private func measure(
        _ file: BenchFile, benchmark: Benchmark, into table: inout TextTable, problems: inout [String]
    ) {
        // Both sides must see the same values, or the timings compare nothing.
        do {
            let ours = try TwitterStatus.models(from: file.bytes).map(StatusSubset.init(model:))
            let theirs = try StatusSubset.decode(file.data)
            guard ours == theirs else {
                let index = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(ours.count, theirs.count)
                problems.append("\(file.name): the models and the structs differ (status \(index)); not measured")
                return
            }
        } catch {
            problems.append("\(file.name): could not read the statuses: \(error)")
            return
        }

        // (a) Parse and create, nothing read.
        let create = attempt(&problems, file, "create models and decode structs") {
            try benchmark.measurePair(name: "\(file.name) (a)", bytes: file.bytes.count) {
                try TwitterStatus.models(from: file.bytes)
            } theirs: {
                try StatusSubset.decode(file.data)
            }
        }
        table.append([file.name, "(a) parse + create, lazy vs eager"] + timeRow(create, atLeast: 3))

        // (b) Parse, create, and read every declared property once.
        let read = attempt(&problems, file, "create and read models, decode and read structs") {
            try benchmark.measurePair(name: "\(file.name) (b)", bytes: file.bytes.count) {
                try TwitterStatus.models(from: file.bytes).reduce(0) { $0 &+ $1.checksum }
            } theirs: {
                try StatusSubset.decode(file.data).reduce(0) { $0 &+ $1.checksum }
            }
        }
        table.append([file.name, "(b) + read every property, like work"] + timeRow(read, atLeast: 6))

        // (c) A cached read against a stored-property read.
        guard let models = try? TwitterStatus.models(from: file.bytes), !models.isEmpty,
            let structs = try? StatusSubset.decode(file.data)
        else { return }
        for model in models {
            blackHole(model.retweetCount)
        }
        let reads = readPasses * models.count
        let cachedRead = attempt(&problems, file, "cached and stored reads") {
            try benchmark.measurePair(name: "\(file.name) (c)", bytes: 0) {
                var sum = 0
                for _ in 0..<readPasses {
                    for model in opaque(models) {
                        sum &+= model.retweetCount
                    }
                }
                return sum
            } theirs: {
                var sum = 0
                for _ in 0..<readPasses {
                    for status in opaque(structs) {
                        sum &+= status.retweetCount
                    }
                }
                return sum
            }
        }
        table.append([file.name, "(c) cached read"] + readRow(cachedRead, reads: reads))

        // (d) The cached read of (c) through the generated member against the same read by name.
        let typedRead = attempt(&problems, file, "typed and by-name reads") {
            try benchmark.measurePair(name: "\(file.name) (d)", bytes: 0) {
                var sum = 0
                for _ in 0..<readPasses {
                    for model in opaque(models) {
                        sum &+= model.retweetCount
                    }
                }
                return sum
            } theirs: {
                var sum = 0
                for _ in 0..<readPasses {
                    for model in opaque(models) {
                        let count: Int = model[property: "retweetCount"]
                        sum &+= count
                    }
                }
                return sum
            }
        }
        table.append([file.name, "(d) typed / by name"] + noSlowerRow(typedRead, reads: reads))
    }

    /// Cells for a paired time measurement whose target is a speed-up of at least `target`.
    private func timeRow(_ pair: PairedTiming?, atLeast target: Double) -> [String] {
        guard let pair, pair.ratio.isFinite else { return ["-", "-", "-", "-", "≥ \(Format.ratio(target))", "-"] }
        return [
            Format.seconds(pair.ours), Format.seconds(pair.theirs), Format.ratio(pair.ratio),
            Format.spread(pair.ratioQuartiles), "≥ \(Format.ratio(target))", pair.ratio >= target ? "PASS" : "MISS",
        ]
    }

    /// Cells for a paired per-read measurement whose target is a slow-down of at most 8×.
    private func readRow(_ pair: PairedTiming?, reads: Int) -> [String] {
        let target = 8.0
        guard let pair, pair.ratio > 0 else { return ["-", "-", "-", "-", "≤ \(Format.ratio(target))", "-"] }
        let slowDown = pair.inverted
        return [
            perRead(pair.ours, reads: reads), perRead(pair.theirs, reads: reads), Format.ratio(slowDown.ratio),
            Format.spread(slowDown.ratioQuartiles), "≤ \(Format.ratio(target))", slowDown.ratio <= target ? "PASS" : "MISS",
        ]
    }

    /// Cells for two paired per-read measurements where the first should cost no more than the
    /// second: the ratio of the first to the second at most 1.10.
    private func noSlowerRow(_ pair: PairedTiming?, reads: Int) -> [String] {
        let target = 1.1
        guard let pair, pair.ratio > 0 else { return ["-", "-", "-", "-", "≤ \(Format.ratio(target))", "-"] }
        let typedOverByName = pair.inverted
        return [
            perRead(pair.ours, reads: reads), perRead(pair.theirs, reads: reads), Format.ratio(typedOverByName.ratio),
            Format.spread(typedOverByName.ratioQuartiles), "≤ \(Format.ratio(target))",
            typedOverByName.ratio <= target ? "PASS" : "MISS",
        ]
    }

    /// Nanoseconds per read, for a run of `reads` reads that took `seconds`.
    private func perRead(_ seconds: Double, reads: Int) -> String {
        Format.decimal(seconds / Double(reads) * 1e9, digits: 2) + " ns"
    }
}

/// Returns its argument through a call the optimizer cannot see into, so a
/// loop over it cannot be hoisted out of the loop around it.
@inline(never) @_optimize(none)
private func opaque<T>(_ value: T) -> T {
    value
}

// MARK: - The models

/// A status of twitter.json as a model: the fields of ``StatusSubset``.
final class TwitterStatus: JSONModel, @unchecked Sendable {
    // @unchecked Sendable: restates JSONModel's; no stored properties of its own.
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int64.self)
        p.text(String.self)
        p.createdAt(String.self, jsonPath: "created_at")
        p.source(String.self)
        p.inReplyToStatusID(Int64?.self, jsonPath: "in_reply_to_status_id")
        p.user(TwitterUser.self)
        p.retweetCount(Int.self, jsonPath: "retweet_count")
        p.favoriteCount(Int.self, jsonPath: "favorite_count")
        p.favorited(Bool.self)
        p.language(String?.self, jsonPath: "lang")
    }

    /// Parses a search page and creates one model per status; nothing is read.
    static func models(from bytes: [UInt8]) throws -> [TwitterStatus] {
        let document = try JSONDocument(bytes: bytes)
        guard let statuses = document.root["statuses"] else { return [] }
        var models: [TwitterStatus] = []
        models.reserveCapacity(statuses.count)
        for node in statuses.elements {
            models.append(try TwitterStatus(json: node))
        }
        return models
    }

    /// Reads every declared property once, the user's included, and folds them
    /// into a number the same way as ``StatusSubset/checksum``.
    var checksum: Int {
        let id = self.id
        let text = self.text
        let createdAt = self.createdAt
        let source = self.source
        let inReplyToStatusID = self.inReplyToStatusID
        let user = self.user
        let userID = user.id
        let name = user.name
        let screenName = user.screenName
        let followersCount = user.followersCount
        let retweetCount = self.retweetCount
        let favoriteCount = self.favoriteCount
        let favorited = self.favorited
        let language = self.language
        return StatusSubset.fold(
            id, text, createdAt, source, inReplyToStatusID, userID, name, screenName, followersCount,
            retweetCount, favoriteCount, favorited, language)
    }
}

/// The author of a ``TwitterStatus``.
final class TwitterUser: JSONModel, @unchecked Sendable {
    // @unchecked Sendable: restates JSONModel's; no stored properties of its own.
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int64.self)
        p.name(String.self)
        p.screenName(String.self, jsonPath: "screen_name")
        p.followersCount(Int.self, jsonPath: "followers_count")
    }
}

// MARK: - The structs

/// A status decoded by `JSONDecoder`: the same fields as ``TwitterStatus``, a
/// subset of the full ``Status`` of `CodableModels.swift`.
struct StatusSubset: Codable, Sendable, Equatable {
    var id: Int64
    var text: String
    var createdAt: String
    var source: String
    var inReplyToStatusID: Int64?
    var user: User
    var retweetCount: Int
    var favoriteCount: Int
    var favorited: Bool
    var language: String?

    enum CodingKeys: String, CodingKey {
        case id, text
        case createdAt = "created_at"
        case source
        case inReplyToStatusID = "in_reply_to_status_id"
        case user
        case retweetCount = "retweet_count"
        case favoriteCount = "favorite_count"
        case favorited
        case language = "lang"
    }

    /// The author: the same fields as ``TwitterUser``.
    struct User: Codable, Sendable, Equatable {
        var id: Int64
        var name: String
        var screenName: String
        var followersCount: Int

        enum CodingKeys: String, CodingKey {
            case id, name
            case screenName = "screen_name"
            case followersCount = "followers_count"
        }
    }

    /// The search page, decoded only for its statuses.
    struct Page: Codable, Sendable {
        var statuses: [StatusSubset]
    }

    /// Decodes a search page with a fresh `JSONDecoder` and returns its statuses.
    static func decode(_ data: Data) throws -> [StatusSubset] {
        try JSONDecoder().decode(Page.self, from: data).statuses
    }

    /// Copies every property of a model, to check both sides read the same values.
    init(model: TwitterStatus) {
        let user = model.user
        self.init(
            id: model.id, text: model.text, createdAt: model.createdAt, source: model.source,
            inReplyToStatusID: model.inReplyToStatusID,
            user: User(id: user.id, name: user.name, screenName: user.screenName, followersCount: user.followersCount),
            retweetCount: model.retweetCount, favoriteCount: model.favoriteCount, favorited: model.favorited,
            language: model.language)
    }

    init(
        id: Int64, text: String, createdAt: String, source: String, inReplyToStatusID: Int64?, user: User,
        retweetCount: Int, favoriteCount: Int, favorited: Bool, language: String?
    ) {
        self.id = id
        self.text = text
        self.createdAt = createdAt
        self.source = source
        self.inReplyToStatusID = inReplyToStatusID
        self.user = user
        self.retweetCount = retweetCount
        self.favoriteCount = favoriteCount
        self.favorited = favorited
        self.language = language
    }

    /// Touches every field once, folding them into a number.
    var checksum: Int {
        Self.fold(
            id, text, createdAt, source, inReplyToStatusID, user.id, user.name, user.screenName, user.followersCount,
            retweetCount, favoriteCount, favorited, language)
    }

    /// Folds the values of one status into a number; strings count their UTF-8 bytes.
    @inline(__always)
    static func fold(
        _ id: Int64, _ text: String, _ createdAt: String, _ source: String, _ inReplyToStatusID: Int64?,
        _ userID: Int64, _ name: String, _ screenName: String, _ followersCount: Int,
        _ retweetCount: Int, _ favoriteCount: Int, _ favorited: Bool, _ language: String?
    ) -> Int {
        var sum = Int(truncatingIfNeeded: id) &+ Int(truncatingIfNeeded: userID)
        sum &+= Int(truncatingIfNeeded: inReplyToStatusID ?? 0)
        sum &+= text.utf8.count &+ createdAt.utf8.count &+ source.utf8.count
        sum &+= name.utf8.count &+ screenName.utf8.count &+ (language?.utf8.count ?? 0)
        sum &+= followersCount &+ retweetCount &+ favoriteCount &+ (favorited ? 1 : 0)
        return sum
    }
}
