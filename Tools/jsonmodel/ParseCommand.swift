import Foundation
import JSONModelKit

/// `jsonmodel parse FILE...`: validates files and reports size, values, depth and parse speed.
enum ParseCommand: Command {
    static let name = "parse"
    static let abstract = "Validate JSON files and report size, values, depth and parse speed."
    static let spec = ArgumentSpec(
        flags: ["allow-trailing-commas", "allow-comments", "no-timing"],
        options: ["max-depth"])
    static let usage = """
        OVERVIEW: \(abstract)

        Prints one line per file: path, size, value count, maximum depth and parse
        speed in MB/s (10^6 bytes per second; small files are parsed several times).
        An invalid or unreadable file gets a line on standard error with the reason,
        and for invalid JSON the line and column of the fault.

        USAGE: jsonmodel parse [options] <file>...

        ARGUMENTS:
          <file>                     JSON files to validate; '-' reads standard input.

        OPTIONS:
          --max-depth <n>            Deepest nesting accepted (default 512).
          --allow-trailing-commas    Accept a comma before ']' or '}'.
          --allow-comments           Accept // and /* */ comments.
          --no-timing                Parse each file once and leave out the speed.
          -h, --help                 Show this help.

        EXIT STATUS: 0 when every file is valid JSON, 1 when any file is invalid or
        unreadable, 2 for a wrong command line.
        """

    /// Files smaller than this are timed over repeated parses.
    static let minimumTimedSeconds = 0.05

    static func run(_ arguments: Arguments) -> ExitStatus {
        guard !arguments.positionals.isEmpty else {
            Console.error("jsonmodel parse: missing <file>\n\n\(usage)")
            return .usage
        }
        let options: JSONParseOptions
        do {
            options = JSONParseOptions(
                maxDepth: try arguments.integer("max-depth", default: 512, in: 0...100_000),
                allowsTrailingCommas: arguments.has("allow-trailing-commas"),
                allowsComments: arguments.has("allow-comments"))
        } catch {
            Console.error("jsonmodel parse: \(error)")
            return .usage
        }
        let timing = !arguments.has("no-timing")

        let pathWidth = arguments.positionals.map(\.count).max() ?? 0
        var status = ExitStatus.success
        for path in arguments.positionals {
            let label = path + String(repeating: " ", count: pathWidth - path.count)
            let bytes: [UInt8]
            do {
                bytes = try read(path)
            } catch {
                Console.error("\(label)  error: cannot read: \(error.localizedDescription)")
                status = .failure
                continue
            }
            switch parse(bytes, options: options, timing: timing) {
            case .success(let report):
                var line = "\(label)  \(pad(report.size, 11)) bytes  \(pad(report.values, 9)) values  depth \(pad(report.depth, 3))"
                if let rate = report.megabytesPerSecond {
                    line += "  \(pad(String(format: "%.1f", rate), 8)) MB/s"
                }
                Console.out(line)
            case .failure(let error):
                // The description spans two lines (message, excerpt); keep one line per file.
                let oneLine = error.description.split(separator: "\n")
                    .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
                Console.error("\(label)  error: \(oneLine)")
                status = .failure
            }
        }
        return status
    }

    /// What `parse` reports for a valid file.
    struct Report {
        var size: Int
        var values: Int
        var depth: Int
        var megabytesPerSecond: Double?
    }

    /// Parses `bytes`, then, when timing, parses again until at least
    /// `minimumTimedSeconds` have passed and reports the mean speed.
    static func parse(_ bytes: [UInt8], options: JSONParseOptions, timing: Bool) -> Result<Report, JSONParseError> {
        let clock = ContinuousClock()
        let start = clock.now
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: bytes, options: options)
        } catch {
            return .failure(error)
        }
        var elapsed = clock.now - start
        var report = Report(size: document.byteCount, values: document.valueCount, depth: document.depth)
        guard timing else { return .success(report) }

        // The first parse is a cold one; if it was quick, time a batch of warm ones instead.
        var parses = 1
        if elapsed.seconds < minimumTimedSeconds {
            let batchStart = clock.now
            parses = 0
            repeat {
                withExtendedLifetime(try? JSONDocument(bytes: bytes, options: options)) {}
                parses += 1
                elapsed = clock.now - batchStart
            } while elapsed.seconds < minimumTimedSeconds
        }
        let seconds = elapsed.seconds / Double(parses)
        report.megabytesPerSecond = seconds > 0 ? Double(bytes.count) / seconds / 1_000_000 : nil
        return .success(report)
    }

    /// The contents of the file at `path`, or of standard input for `-`.
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" {
            return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        }
        // A pipe or device (`/dev/stdin`, a named pipe) is read to its end.
        if let bytes = try UnmappableFile.read(path: path) { return bytes }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private static func pad(_ value: some CustomStringConvertible, _ width: Int) -> String {
        let text = value.description
        return String(repeating: " ", count: max(width - text.count, 0)) + text
    }
}

extension Duration {
    /// The duration as a floating-point number of seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
