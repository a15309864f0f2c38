import Foundation
import JSONModelKit

/// Converters: date reads against Foundation's formatters, and interned enum
/// properties against plain strings over 100,000 models. Synthetic data; the files
/// given to the benchmark are not used.
struct ConverterSection: BenchSection {
    let name = "converters"
    let summary = "date reads vs DateFormatter; interned enum vs plain String over 100k models"

    let dateCount = 10_000
    let modelCount = 100_000

    func run(files: [BenchFile], benchmark: Benchmark) -> String {
        var table = TextTable([.left("measurement"), .right("ours"), .right("theirs"), .right("ratio")])
        measureDates(benchmark: benchmark, into: &table)
        measureEnums(benchmark: benchmark, into: &table)
        return """
            Dates: \(dateCount) ISO 8601 strings with milliseconds and an offset, reads per second.
              ours:   DateFormat.iso8601 (one shared, immutable format; a fixed-format parser)
              theirs: a DateFormatter created per read (POSIX locale, UTC, "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"),
                      then a shared DateFormatter, then Date.ISO8601FormatStyle; ratio = their time / ours.
            Enums: \(modelCount) models over one document, each reading "s" = "in_progress_for_a_while" (23 bytes).
              ours:   String with enumValues (interned), or a JSONStringEnum; theirs: a plain String property.
              RSS:    growth of resident memory while reading (/proc/self/statm), ratio = theirs / ours.
              ==:     ns to compare every value read with a constant, ratio = theirs / ours.


            """ + table.rendered()
    }

    private func measureDates(benchmark: Benchmark, into table: inout TextTable) {
        let texts = (0..<dateCount).map { index in
            let seconds = 1_500_000_000 + index * 7_919
            let date = Date(timeIntervalSince1970: Double(seconds) + 0.123)
            return DateFormat.iso8601WithMilliseconds.string(from: date).replacingOccurrences(of: "Z", with: "+02:00")
        }
        let format = DateFormat.iso8601
        let ours = (try? benchmark.measure(name: "dates ours", bytes: 0) {
            texts.reduce(0.0) { $0 + (format.date(from: $1)?.timeIntervalSince1970 ?? 0) }
        }) ?? .nan
        let perRead = (try? benchmark.measure(name: "dates DateFormatter per read", bytes: 0, runs: 3) {
            texts.reduce(0.0) { sum, text in
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(secondsFromGMT: 0)
                formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"
                return sum + (formatter.date(from: text)?.timeIntervalSince1970 ?? 0)
            }
        }) ?? .nan
        let shared = DateFormatter()
        shared.locale = Locale(identifier: "en_US_POSIX")
        shared.timeZone = TimeZone(secondsFromGMT: 0)
        shared.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"
        let sharedTime = (try? benchmark.measure(name: "dates shared DateFormatter", bytes: 0) {
            texts.reduce(0.0) { $0 + (shared.date(from: $1)?.timeIntervalSince1970 ?? 0) }
        }) ?? .nan
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let styleTime = (try? benchmark.measure(name: "dates ISO8601FormatStyle", bytes: 0) {
            texts.reduce(0.0) { $0 + ((try? style.parse($1))?.timeIntervalSince1970 ?? 0) }
        }) ?? .nan
        func rate(_ seconds: Double) -> String { Format.decimal(Double(dateCount) / seconds / 1e6, digits: 2) + " M/s" }
        table.append(["date reads vs DateFormatter per read", rate(ours), rate(perRead), Format.ratio(perRead / ours)])
        table.append(["date reads vs shared DateFormatter", rate(ours), rate(sharedTime), Format.ratio(sharedTime / ours)])
        table.append(["date reads vs ISO8601FormatStyle", rate(ours), rate(styleTime), Format.ratio(styleTime / ours)])
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
            let models = nodes.map { try! M.make(node: $0) }
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
        let plainEquality = (try? benchmark.measure(name: "== plain", bytes: 0) {
            plain.values.reduce(0) { $0 + ($1 == constant ? 1 : 0) }
        }) ?? .nan
        let internedConstant = interned.models[0].s
        let internedEquality = (try? benchmark.measure(name: "== interned", bytes: 0) {
            interned.values.reduce(0) { $0 + ($1 == internedConstant ? 1 : 0) }
        }) ?? .nan
        let typedEquality = (try? benchmark.measure(name: "== JSONStringEnum", bytes: 0) {
            typed.values.reduce(0) { $0 + ($1 == BenchStatus.inProgress ? 1 : 0) }
        }) ?? .nan
        func ns(_ seconds: Double) -> String { Format.decimal(seconds / Double(modelCount) * 1e9, digits: 2) + " ns" }
        table.append(["==: String enumValues vs String", ns(internedEquality), ns(plainEquality),
                      Format.ratio(plainEquality / internedEquality)])
        table.append(["==: JSONStringEnum vs String", ns(typedEquality), ns(plainEquality),
                      Format.ratio(plainEquality / typedEquality)])
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
