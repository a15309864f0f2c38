import Foundation

// The measuring machinery shared by every section of the benchmark.

/// Keeps a value alive and opaque to the optimizer, so the work that produced it
/// cannot be removed as dead code.
///
/// `@_optimize(none)` stops the compiler from seeing that the body is empty;
/// the same idiom the package-benchmark and swift-benchmark projects use.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Races two closures doing the same job; see ``measurePair(name:bytes:runs:ours:theirs:)``.
///
/// The number of pairs adapts to the cost of the closures: at least
/// `minimumRuns`, and more for fast closures, so that one race takes about
/// `targetSeconds` per side on the chosen clock.
///
/// ```swift
/// let benchmark = Benchmark()
/// let race = try benchmark.measurePair(name: "parse", bytes: bytes.count) {
///     try JSONDocument(bytes: bytes)
/// } theirs: {
///     try JSONSerialization.jsonObject(with: data)
/// }
/// ```
struct Benchmark: Sendable {
    /// The fewest timed pairs a race takes, whatever their cost.
    var minimumRuns: Int = 7
    /// The most timed pairs a race takes, however cheap they are.
    var maximumRuns: Int = 100_000
    /// The time one race aims for per side, warm-up excluded, on `clock`.
    var targetSeconds: Double = 0.3
    /// Prints each measurement to standard error as it finishes.
    var isVerbose: Bool = false
    /// The clock that times a run.
    var clock: BenchClock = .cpu
}

extension Benchmark {
    /// Times two closures doing the same job in alternating runs and returns each one's median
    /// and the ratios `theirs / ours` of the pairs.
    ///
    /// On a shared machine the speed drifts from second to second; a pair's two runs are
    /// moments apart, so their ratio is steadier than the ratio of two medians taken one after
    /// the other. The order within a pair alternates, so neither side always runs warm.
    ///
    /// Runs are timed on `clock`, by default the CPU time of the process. On a busy machine a
    /// long run is interrupted by other processes many times, while a short one often finishes
    /// within one time slice; elapsed time then inflates the ratio of a long side to a short
    /// one, and pairing cannot undo that.
    ///
    /// ```swift
    /// let race = try benchmark.measurePair(name: "parse", bytes: bytes.count) {
    ///     try JSONDocument(bytes: bytes)
    /// } theirs: {
    ///     try JSONSerialization.jsonObject(with: data)
    /// }
    /// print(Format.ratio(race.ratio), Format.spread(race.ratioQuartiles))
    /// ```
    ///
    /// Each run includes releasing what its closure returned, as a caller of the measured API
    /// would pay that too.
    ///
    /// - Parameters:
    ///   - name: A label for verbose output.
    ///   - bytes: The input size, for verbose output in MB/s; 0 for none.
    ///   - runs: A lower bound for the number of timed pairs; the larger of this and
    ///     `minimumRuns` applies.
    ///   - ours: The work of the first side. Its result is passed to `blackHole(_:)`.
    ///   - theirs: The work of the second side, likewise.
    /// - Returns: The medians of both sides and the ratio of every pair.
    /// - Throws: Whatever either closure throws; the measurement stops at the first error.
    /// ``measurePair(name:bytes:runs:ours:theirs:)`` for sections that go on when one pair fails:
    /// the failure is added to `problems` (as "`label` failed: …") and the result is nil.
    func measurePair<A, B>(
        _ label: String, section: String, bytes: Int, problems: inout [String], ours: () throws -> A,
        theirs: () throws -> B
    ) -> PairedTiming? {
        do {
            return try measurePair(name: "\(section) \(label)", bytes: bytes, ours: ours, theirs: theirs)
        } catch {
            problems.append("\(label) failed: \(error)")
            return nil
        }
    }

    /// This configuration for workloads of about a second a run (`JSONDecoder` over the bulk
    /// input): five timed pairs give a steady median.
    var forSlowWorkloads: Benchmark {
        var bench = self
        bench.minimumRuns = min(minimumRuns, 5)
        bench.targetSeconds = min(targetSeconds, 0.3)
        return bench
    }

    func measurePair<A, B>(
        name: String, bytes: Int, runs: Int = 0, ours: () throws -> A, theirs: () throws -> B
    ) throws -> PairedTiming {
        func time<R>(_ body: () throws -> R) rethrows -> Double {
            let start = clock.seconds()
            blackHole(try body())
            return clock.seconds() - start
        }
        // Warm up both, at least twice and a tenth of the target time, for an estimate.
        var warmUpRuns = 0
        var warmUpElapsed = 0.0
        repeat {
            warmUpElapsed += try time(ours) + time(theirs)
            warmUpRuns += 1
        } while warmUpRuns < 2 || warmUpElapsed < targetSeconds / 10
        let estimate = warmUpElapsed / Double(warmUpRuns)
        let wanted = estimate > 0 ? Int((2 * targetSeconds / estimate).rounded(.up)) : maximumRuns
        let runCount = min(max(wanted, minimumRuns, runs), max(maximumRuns, minimumRuns, runs))

        let result = try PairedTiming.alternating(runCount, ours: { try time(ours) }, theirs: { try time(theirs) })
        if isVerbose {
            var line = "  \(name): \(runCount) pairs, medians \(Format.seconds(result.ours)) / \(Format.seconds(result.theirs))"
            if bytes > 0 {
                line += " (\(Format.megabytesPerSecond(bytes: bytes, seconds: result.ours))"
                    + " / \(Format.megabytesPerSecond(bytes: bytes, seconds: result.theirs)) MB/s)"
            }
            line += ", ratio \(Format.ratio(result.ratio)), middle half \(Format.spread(result.ratioQuartiles))\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        return result
    }
}

/// What a paired race found: the median time of each side and the ratio of every pair.
struct PairedTiming: Sendable {
    /// `count` pairs of `ours` and `theirs`, each returning the seconds of one run; the first
    /// of each pair alternates, so that neither side always runs on a cache the other warmed.
    static func alternating<E: Error>(
        _ count: Int, ours: () throws(E) -> Double, theirs: () throws(E) -> Double
    ) throws(E) -> PairedTiming {
        var oursSamples: [Double] = []
        var theirsSamples: [Double] = []
        var ratios: [Double] = []
        for pair in 0..<count {
            let a: Double
            let b: Double
            if pair.isMultiple(of: 2) {
                a = try ours()
                b = try theirs()
            } else {
                b = try theirs()
                a = try ours()
            }
            oursSamples.append(a)
            theirsSamples.append(b)
            if a > 0 { ratios.append(b / a) }
        }
        return PairedTiming(ours: oursSamples.median, theirs: theirsSamples.median, ratios: ratios)
    }

    /// The median seconds of one run of the first side.
    var ours: Double
    /// The median seconds of one run of the second side.
    var theirs: Double
    /// The ratio `theirs / ours` of each timed pair, in the order they ran.
    var ratios: [Double]

    /// The median of the pairs' ratios: above 1 when the first side is faster.
    var ratio: Double { ratios.median }

    /// The lower and upper quartiles of the pairs' ratios: the middle half of the pairs lies in
    /// this range. A wide range means the machine was busy and the ratio is uncertain.
    var ratioQuartiles: ClosedRange<Double> { ratios.quantile(0.25)...ratios.quantile(0.75) }

    /// The same race seen from the second side: medians swapped, every ratio inverted.
    var inverted: PairedTiming {
        PairedTiming(ours: theirs, theirs: ours, ratios: ratios.map { 1 / $0 })
    }
}

/// The clock that times a run.
enum BenchClock: String, Sendable, CaseIterable {
    /// The CPU time of this process, user and system (`CLOCK_PROCESS_CPUTIME_ID`): the work
    /// done, without the time spent waiting for a core while other processes run.
    case cpu
    /// Elapsed time (`CLOCK_MONOTONIC`): what a user waits, waiting for a core included.
    case wall

    /// The current reading in seconds, from an arbitrary origin.
    func seconds() -> Double {
        var time = timespec()
        clock_gettime(self == .cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}

extension Array where Element == Double {
    /// The middle value once sorted; the mean of the two middle values for an
    /// even count; zero when empty.
    var median: Double {
        guard !isEmpty else { return 0 }
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The value below which the fraction `q` of the values lie, interpolating linearly between
    /// the two nearest when it falls between them; zero when empty. `quantile(0.5)` is the median.
    func quantile(_ q: Double) -> Double {
        guard !isEmpty else { return 0 }
        let sorted = self.sorted()
        let position = Swift.min(Swift.max(q, 0), 1) * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }
}

/// Number formatting for the tables, independent of the current locale.
enum Format {
    /// `value` with exactly `digits` fractional digits.
    static func decimal(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "-" }
        return String(format: "%.\(digits)f", value)
    }

    /// Throughput in megabytes (10^6 bytes) per second.
    static func megabytesPerSecond(bytes: Int, seconds: Double) -> String {
        guard seconds > 0 else { return "-" }
        return decimal(Double(bytes) / seconds / 1_000_000, digits: 1)
    }

    /// A ratio such as `2.41x`.
    static func ratio(_ value: Double) -> String {
        value.isFinite ? decimal(value, digits: 2) + "x" : "-"
    }

    /// A range of ratios such as `2.30–2.52x`: the spread of a paired race.
    static func spread(_ range: ClosedRange<Double>) -> String {
        guard range.lowerBound.isFinite, range.upperBound.isFinite else { return "-" }
        return decimal(range.lowerBound, digits: 2) + "–" + decimal(range.upperBound, digits: 2) + "x"
    }

    /// A byte count in the most readable unit: `631.5 KB`, `2.3 MB`.
    static func size(_ bytes: Int) -> String {
        switch bytes {
        case ..<1_000: "\(bytes) B"
        case ..<1_000_000: decimal(Double(bytes) / 1_000, digits: 1) + " KB"
        default: decimal(Double(bytes) / 1_000_000, digits: 1) + " MB"
        }
    }

    /// A duration in ms or µs.
    static func seconds(_ value: Double) -> String {
        value >= 1e-3 ? decimal(value * 1e3, digits: 3) + " ms" : decimal(value * 1e6, digits: 1) + " µs"
    }
}

/// A plain-text table with a header row, aligned columns and a rule.
struct TextTable {
    /// How a column lines up its cells.
    enum Alignment: Sendable { case left, right }

    /// One column: its heading and alignment.
    struct Column: Sendable {
        var heading: String
        var alignment: Alignment

        static func left(_ heading: String) -> Column { Column(heading: heading, alignment: .left) }
        static func right(_ heading: String) -> Column { Column(heading: heading, alignment: .right) }
    }

    var columns: [Column]
    var rows: [[String]] = []

    init(_ columns: [Column]) {
        self.columns = columns
    }

    /// Appends a row; missing trailing cells print as empty.
    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The table, one line per row, each ending with a newline.
    func rendered() -> String {
        var widths = columns.map { $0.heading.count }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = Swift.max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, column) in columns.enumerated() {
                let cell = index < cells.count ? cells[index] : ""
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                parts.append(column.alignment == .left ? cell + padding : padding + cell)
            }
            var text = parts.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text + "\n"
        }
        var output = line(columns.map(\.heading))
        output += line(widths.map { String(repeating: "-", count: $0) })
        for row in rows {
            output += line(row)
        }
        return output
    }
}

/// One input file, loaded once and shared by every measurement.
struct BenchFile: Sendable {
    /// The file name without directories, used as the row label.
    var name: String
    var path: String
    /// The bytes as Foundation reads them.
    var data: Data
    /// The same bytes as JSONModelKit reads them.
    var bytes: [UInt8]

    init(path: String) throws {
        self.path = path
        self.name = URL(fileURLWithPath: path).lastPathComponent
        self.data = try Data(contentsOf: URL(fileURLWithPath: path))
        self.bytes = [UInt8](data)
    }
}

/// Finds the benchmark documents.
enum BenchData {
    /// The environment variable naming a folder of benchmark documents, checked first.
    static let environmentVariable = "JSONMODEL_BENCH_DATA"

    /// The folders searched when no paths are given, nearest first: the one the environment
    /// names; `bench-data` in the current directory; then `bench-data` inside a folder named
    /// `shared`, in the current directory, in the two above it, and beside the package root of
    /// this source file (where CI places the documents).
    static func candidateDirectories(filePath: String = #filePath) -> [String] {
        var candidates: [String] = []
        if let fromEnvironment = ProcessInfo.processInfo.environment[environmentVariable] {
            candidates.append(fromEnvironment)
        }
        var directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardized
        candidates.append(directory.appendingPathComponent("bench-data").path)
        for _ in 0..<3 {
            let shared = directory.appendingPathComponent("shared")
            candidates.append(shared.appendingPathComponent("bench-data").standardized.path)
            directory = directory.deletingLastPathComponent().standardized
        }
        // Tools/jsonmodel-bench/Harness.swift -> the package root is three levels up.
        let packageRoot = URL(fileURLWithPath: filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let besidePackage = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        candidates.append(besidePackage.appendingPathComponent("bench-data").standardized.path)
        var seen: Set<String> = []
        return candidates.filter { seen.insert($0).inserted }
    }

    /// The `.json` files of `directory`, the classic documents first in a
    /// fixed order, then any others by name.
    static func jsonFiles(in directory: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        let preferred = ["twitter.json", "twitterescaped.json", "citm_catalog.json", "canada.json", "numbers.json"]
        let jsonNames = names.filter { $0.hasSuffix(".json") }
        let ordered = preferred.filter(jsonNames.contains) + jsonNames.filter { !preferred.contains($0) }.sorted()
        return ordered.map { URL(fileURLWithPath: directory).appendingPathComponent($0).path }
    }

    /// Expands arguments (files or folders) into file paths; with no
    /// arguments, the first candidate folder holding JSON files.
    ///
    /// - Returns: The paths, or a reason why none were found.
    static func locate(arguments: [String]) -> Result<[String], LocateFailure> {
        if !arguments.isEmpty {
            var paths: [String] = []
            for argument in arguments {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                    return .failure(LocateFailure(reason: "no such file or folder: \(argument)"))
                }
                paths += isDirectory.boolValue ? jsonFiles(in: argument) : [argument]
            }
            return paths.isEmpty
                ? .failure(LocateFailure(reason: "no .json files in \(arguments.joined(separator: ", "))"))
                : .success(paths)
        }
        let candidates = candidateDirectories()
        for directory in candidates {
            let files = jsonFiles(in: directory)
            if !files.isEmpty { return .success(files) }
        }
        let looked = candidates.map { "  \($0)" }.joined(separator: "\n")
        return .failure(LocateFailure(
            reason: "bench data not found; looked for .json files in:\n\(looked)\n"
                + "pass files or a folder as arguments, or set \(environmentVariable)"))
    }

    /// Why no benchmark input was found.
    struct LocateFailure: Error {
        var reason: String
    }
}
