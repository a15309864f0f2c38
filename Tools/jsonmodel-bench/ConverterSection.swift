import Foundation
import JSONModelKit

/// Converters: URLs, dates, UUIDs and string enums read through models against `JSONDecoder`;
/// date reads against Foundation's parsers; interned enum properties against plain strings over
/// 100,000 models. Synthetic data, but for one row: the URLs of twitter.json when it is given.
struct ConverterSection: BenchSection {
    let name = "converters"
    let summary = "URL, Date, UUID and enum properties vs JSONDecoder; date reads vs Foundation's parsers; interned enums"

    let dateCount = 10_000
    let modelCount = 100_000

    /// When set to a type row's label (`URL`, `URL, twitter.json`, `Date (ISO 8601)`, `UUID`,
    /// `enum (string)`), the section runs only our side of that row,
    /// `JSONMODEL_BENCH_PROFILE_RUNS` times (default 100), and exits: for perf and valgrind.
    static let profileVariable = "JSONMODEL_BENCH_CONVERTER_CHILD"

    func run(files: [BenchFile], benchmark: Benchmark) -> String {
        if let label = ProcessInfo.processInfo.environment[Self.profileVariable] {
            profile(label, files: files)
        }
        var table = TextTable([
            .left("measurement"), .right("ours"), .right("theirs"), .right("ratio"), .right("middle half"),
        ])
        var problems: [String] = []
        let types = measureTypes(files: files, benchmark: benchmark, problems: &problems)
        measureDates(benchmark: benchmark, into: &table, problems: &problems)
        measureEnums(benchmark: benchmark, into: &table)
        var output = """
            Each type: \(typeCount) objects {"v": …} in one array, every `v` read once, like work.
              ours:   Item.array(from:) over the bytes, reading the property of every element.
              theirs: JSONDecoder().decode([Struct].self) (dates: .iso8601), reading the same field.
              Both fold every value into a checksum, which must agree. Target: at least 4x.
            URL: every URL distinct. "URL, twitter.json": the URL strings of that file, as the same
            objects, repeated as the file repeats them; read again and again, as a server reads
            similar payloads, so that the URLs kept from the last run are found (RecentURLs).


            """
        output += types.rendered()
        output += """

            Timed rows are paired races: the two sides run in alternating pairs, the ratio is the median
            of the pairs' ratios (their time / ours), "middle half" their lower to upper quartile.
            Dates: \(dateCount) ISO 8601 strings with milliseconds and an offset, reads per second.
              ours:   DateFormat.iso8601 (one shared, immutable format; a fixed-format parser)
              theirs: one DateFormatter made once and reused (POSIX locale, UTC,
                      "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"), or one Date.ISO8601FormatStyle with fractional
                      seconds, also made once. All three must read the same dates.
            Enums: \(modelCount) models over one document, each reading "s" = "in_progress_for_a_while" (23 bytes).
              ours:   String with enumValues (interned), or a JSONStringEnum; theirs: a plain String property.
              RSS:    growth of resident memory while reading (/proc/self/statm), ratio = theirs / ours.
              ==:     ns to compare every value read with a constant.


            """
        output += table.rendered()
        for problem in problems {
            output += "  note: \(problem)\n"
        }
        return output
    }

    let typeCount = 20_000

    /// Our side of the type row whose label starts with `label`, run again and again; exits.
    private func profile(_ label: String, files: [BenchFile]) -> Never {
        guard let row = typeRows(files: files).first(where: { $0.label.hasPrefix(label) }) else {
            FileHandle.standardError.write(Data("jsonmodel-bench: no converter row \(label)\n".utf8))
            exit(2)
        }
        let runs = ProcessInfo.processInfo.environment["JSONMODEL_BENCH_PROFILE_RUNS"].flatMap { Int($0) } ?? 100
        let bytes = [UInt8](row.data)
        var checksum = 0
        for _ in 0..<max(1, runs) { checksum &+= (try? row.ours(bytes)) ?? -1 }
        print("converter-checksum \(checksum)")
        exit(0)
    }

    /// A type row: its label, its document, our read of it and `JSONDecoder`'s, each returning
    /// a checksum of every value read.
    private typealias TypeRow = (label: String, data: Data, ours: ([UInt8]) throws -> Int, theirs: (Data) throws -> Int)

    /// One row per converted type: every element's property through models against JSONDecoder.
    private func measureTypes(files: [BenchFile], benchmark: Benchmark, problems: inout [String]) -> TextTable {
        var table = TextTable([
            .left("type"), .right("ratio"), .right("middle half"), .right("target"), .left("result"),
        ])
        let target = 4.0
        for (label, data, ours, theirs) in typeRows(files: files) {
            let bytes = [UInt8](data)
            guard let mine = try? ours(bytes), let foundation = try? theirs(data), mine == foundation else {
                problems.append("\(label): the models and JSONDecoder read different values; not measured")
                table.append([label, "-", "-", "≥ \(Format.ratio(target))", "not measured"])
                continue
            }
            guard let race = try? benchmark.measurePair(name: "converters \(label)", bytes: data.count, ours: { try ours(bytes) }, theirs: { try theirs(data) })
            else { continue }
            table.append([
                label, Format.ratio(race.ratio), Format.spread(race.ratioQuartiles), "≥ \(Format.ratio(target))",
                race.ratio >= target ? "PASS" : "MISS",
            ])
        }
        return table
    }

    /// The type rows: every element's property through models, and through `JSONDecoder`.
    private func typeRows(files: [BenchFile]) -> [TypeRow] {
        let statuses = ["new", "in_progress", "done"]
        func document(_ value: (Int) -> String) -> Data {
            Data(("[" + (0..<typeCount).map { #"{"v": "\#(value($0))"}"# }.joined(separator: ",") + "]").utf8)
        }
        let readURLs: ([UInt8]) throws -> Int = { try URLItem.array(from: $0).reduce(0) { $0 &+ ($1.v?.absoluteString.utf8.count ?? -1) } }
        let decodeURLs: (Data) throws -> Int = {
            try JSONDecoder().decode([URLRecord].self, from: $0).reduce(0) { $0 &+ $1.v.absoluteString.utf8.count }
        }
        var documents: [TypeRow] = [
            ("URL", document { "https://media.example.com/users/\($0)/avatar_\($0 % 7).png?size=\($0 % 5)" }, readURLs, decodeURLs)
        ]
        if let twitter = files.first(where: { $0.name.hasPrefix("twitter.json") }), let urls = Self.urls(in: twitter.data) {
            documents.append(("URL, twitter.json (\(urls.count), \(Set(urls).count) distinct)", Data(("[" + urls.map { #"{"v": "\#($0)"}"# }.joined(separator: ",") + "]").utf8), readURLs, decodeURLs))
        }
        documents += [
            (
                "Date (ISO 8601)", document { DateFormat.iso8601.string(from: Date(timeIntervalSince1970: 1_500_000_000 + Double($0) * 7_919)) },
                { try DateItem.array(from: $0).reduce(0) { $0 &+ Int($1.v?.timeIntervalSince1970 ?? -1) } },
                { data in
                    let decoder = JSONDecoder()
                    decoder.dateDecodingStrategy = .iso8601
                    return try decoder.decode([DateRecord].self, from: data).reduce(0) { $0 &+ Int($1.v.timeIntervalSince1970) }
                }
            ),
            (
                "UUID", document { _ in UUID().uuidString },
                { try UUIDItem.array(from: $0).reduce(0) { $0 &+ Int($1.v?.uuid.0 ?? 1) &+ Int($1.v?.uuid.15 ?? 1) } },
                { try JSONDecoder().decode([UUIDRecord].self, from: $0).reduce(0) { $0 &+ Int($1.v.uuid.0) &+ Int($1.v.uuid.15) } }
            ),
            (
                "enum (string)", document { statuses[$0 % 3] },
                { try EnumItem.array(from: $0).reduce(0) { $0 &+ ($1.v == .done ? 1 : 0) } },
                { try JSONDecoder().decode([EnumRecord].self, from: $0).reduce(0) { $0 &+ ($1.v == .done ? 1 : 0) } }
            ),
        ]
        return documents
    }

    /// The strings of `data` (a JSON document) that start with `http://` or `https://` and need
    /// no escapes in JSON, each object's members taken in key order; nil when `data` does not parse.
    static func urls(in data: Data) -> [String]? {
        guard let root = try? JSONSerialization.jsonObject(with: data) else { return nil }
        var urls: [String] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                // Keys in order: a dictionary's own order changes from run to run.
                for key in object.keys.sorted() { walk(object[key]!) }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            } else if let text = value as? String, text.hasPrefix("http://") || text.hasPrefix("https://"),
                !text.contains(where: { $0 == "\"" || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } == true })
            {
                urls.append(text)
            }
        }
        walk(root)
        return urls
    }

    private func measureDates(benchmark: Benchmark, into table: inout TextTable, problems: inout [String]) {
        let texts = (0..<dateCount).map { index in
            let seconds = 1_500_000_000 + index * 7_919
            let date = Date(timeIntervalSince1970: Double(seconds) + 0.123)
            return DateFormat.iso8601WithMilliseconds.string(from: date).replacingOccurrences(of: "Z", with: "+02:00")
        }
        let format = DateFormat.iso8601
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

        // The three must read the same instants (to the millisecond), or the races compare nothing.
        let disagreements = texts.filter { text in
            let dates = [format.date(from: text), formatter.date(from: text), try? style.parse(text)]
            guard let first = dates[0], dates.allSatisfy({ $0 != nil }) else { return true }
            return dates.contains { abs($0!.timeIntervalSince(first)) > 0.0005 }
        }
        if let first = disagreements.first {
            problems.append("dates: the parsers disagree on \(disagreements.count) strings, such as \(first)")
        }

        func read(_ parse: (String) -> Date?) -> Double {
            texts.reduce(0.0) { $0 + (parse($1)?.timeIntervalSince1970 ?? 0) }
        }
        let byFormatter = try? benchmark.measurePair(name: "dates vs shared DateFormatter", bytes: 0) {
            read { format.date(from: $0) }
        } theirs: {
            read { formatter.date(from: $0) }
        }
        let byStyle = try? benchmark.measurePair(name: "dates vs ISO8601FormatStyle", bytes: 0) {
            read { format.date(from: $0) }
        } theirs: {
            read { try? style.parse($0) }
        }
        func rate(_ seconds: Double) -> String { Format.decimal(Double(dateCount) / seconds / 1e6, digits: 2) + " M/s" }
        for (label, race) in [("date reads vs shared DateFormatter", byFormatter), ("date reads vs ISO8601FormatStyle", byStyle)] {
            table.append([
                label, race.map { rate($0.ours) } ?? "-", race.map { rate($0.theirs) } ?? "-",
                race.map { Format.ratio($0.ratio) } ?? "-", race.map { Format.spread($0.ratioQuartiles) } ?? "-",
            ])
        }
    }

    private func measureEnums(benchmark: Benchmark, into table: inout TextTable) {
        var text = #"{"items": ["#
        for index in 0..<modelCount {
            if index > 0 { text += "," }
            text += #"{"s": "in_progress_for_a_while"}"#
        }
        text += "]}"
        guard let document = try? JSONDocument(string: text), let items = document.root["items"] else { return }
        let nodes = Array(items.elements)

        /// Resident memory in bytes (Linux /proc/self/statm), 0 where unavailable.
        func heap() -> Int {
            guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
            let fields = text.split(separator: " ")
            return fields.count > 1 ? (Int(fields[1]) ?? 0) * 4096 : 0
        }
        func read<M: JSONModel, V>(_ type: M.Type, _ value: V.Type) -> (models: [M], values: [V], bytes: Int) {
            let models = nodes.map { try! M.make(json: $0) }
            let before = heap()
            var values: [V] = []
            values.reserveCapacity(models.count)
            for model in models { values.append(model[property: "s"]) }
            return (models, values, heap() - before)
        }
        let plain = read(PlainItem.self, String.self)
        let interned = read(InternedItem.self, String.self)
        let typed = read(TypedItem.self, BenchStatus.self)
        func kb(_ bytes: Int) -> String { Format.decimal(Double(bytes) / 1000, digits: 0) + " KB" }
        // 100,000 heap strings need megabytes; growth below 1 MB means they reused memory an
        // earlier section freed, and resident memory cannot tell the two apart.
        let comparable = plain.bytes >= 1_000_000
        func ratio(_ ours: Int) -> String { comparable ? Format.ratio(Double(plain.bytes) / Double(max(ours, 1))) : "-" }
        table.append(["RSS: String enumValues vs String", kb(interned.bytes), kb(plain.bytes), ratio(interned.bytes)])
        table.append(["RSS: JSONStringEnum vs String", kb(typed.bytes), kb(plain.bytes), ratio(typed.bytes)])
        if !comparable {
            table.append(["  (RSS: reused freed memory; run --section converters alone)", "", "", ""])
        }

        let constant = String("in_progress_for_a_while".utf8.map { Character(Unicode.Scalar($0)) })  // a heap copy
        let internedConstant = interned.models[0].s
        func countPlain() -> Int { plain.values.reduce(0) { $0 + ($1 == constant ? 1 : 0) } }
        let internedEquality = try? benchmark.measurePair(name: "== interned vs plain", bytes: 0) {
            interned.values.reduce(0) { $0 + ($1 == internedConstant ? 1 : 0) }
        } theirs: {
            countPlain()
        }
        let typedEquality = try? benchmark.measurePair(name: "== JSONStringEnum vs plain", bytes: 0) {
            typed.values.reduce(0) { $0 + ($1 == BenchStatus.inProgress ? 1 : 0) }
        } theirs: {
            countPlain()
        }
        func ns(_ seconds: Double) -> String { Format.decimal(seconds / Double(modelCount) * 1e9, digits: 2) + " ns" }
        for (label, race) in [("==: String enumValues vs String", internedEquality), ("==: JSONStringEnum vs String", typedEquality)] {
            table.append([
                label, race.map { ns($0.ours) } ?? "-", race.map { ns($0.theirs) } ?? "-",
                race.map { Format.ratio($0.ratio) } ?? "-", race.map { Format.spread($0.ratioQuartiles) } ?? "-",
            ])
        }
        withExtendedLifetime((plain, interned, typed)) {}
    }
}

final class PlainItem: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.s(String.self)
    }
}

final class InternedItem: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.s(String.self, enumValues: ["new", "in_progress_for_a_while", "done"])
    }
}

struct BenchStatus: JSONStringEnum {
    let value: InternedString
    init(_ value: InternedString) { self.value = value }
    static let inProgress: BenchStatus = "in_progress_for_a_while"
    static let done: BenchStatus = "done"
    static let knownValues: [BenchStatus] = [.inProgress, .done]
}

final class TypedItem: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.s(BenchStatus.self, default: .done)
    }
}

final class URLItem: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.v(URL?.self)
    }
}

final class DateItem: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.v(Date?.self, dateFormat: .iso8601)
    }
}

final class UUIDItem: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.v(UUID?.self)
    }
}

struct ItemStatus: JSONStringEnum {
    let value: InternedString
    init(_ value: InternedString) { self.value = value }
    static let new: ItemStatus = "new"
    static let inProgress: ItemStatus = "in_progress"
    static let done: ItemStatus = "done"
    static let knownValues: [ItemStatus] = [.new, .inProgress, .done]
}

final class EnumItem: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.v(ItemStatus.self, default: .new)
    }
}

struct URLRecord: Decodable { let v: URL }
struct DateRecord: Decodable { let v: Date }
struct UUIDRecord: Decodable { let v: UUID }
struct EnumRecord: Decodable {
    enum Status: String, Decodable { case new, inProgress = "in_progress", done }
    let v: Status
}
