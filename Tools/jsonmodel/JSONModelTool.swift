import Foundation

/// A subcommand of `jsonmodel`. Add one by writing a type in its own file and
/// listing it in `JSONModelTool.commands`.
protocol Command: Sendable {
    /// The word that selects the command: `jsonmodel NAME ...`.
    static var name: String { get }
    /// One line for the command list.
    static var abstract: String { get }
    /// The full help text, printed by `jsonmodel NAME --help`.
    static var usage: String { get }
    /// The flags and options the command accepts besides `--help`.
    static var spec: ArgumentSpec { get }
    /// The exit statuses besides 2 for a wrong command line, for `jsonmodel --help`
    /// (default: "0"; see `ExitStatusSummaries.swift`).
    static var exitStatuses: String { get }
    /// Runs the command and returns the process exit status.
    static func run(_ arguments: Arguments) -> ExitStatus
}

/// The exit statuses of `jsonmodel`.
struct ExitStatus: RawRepresentable, Sendable, Equatable {
    var rawValue: Int32

    /// Everything worked.
    static let success = ExitStatus(rawValue: 0)
    /// The command ran but found a problem: an invalid or unreadable input.
    static let failure = ExitStatus(rawValue: 1)
    /// The command line itself was wrong.
    static let usage = ExitStatus(rawValue: 2)
}

/// Writing to standard output and standard error.
enum Console {
    /// Prints `text` and a newline to standard output.
    static func out(_ text: String = "") {
        print(text)
    }

    /// Writes `text` and a newline to standard error, unbuffered.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

@main
struct JSONModelTool {
    static let commands: [any Command.Type] = [
        DemoCommand.self, ParseCommand.self, CheckSpecsCommand.self, DescribeCommand.self, GenerateCommand.self,
        ValidateCommand.self, AccessorsCommand.self,
    ]

    static var usage: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let list = commands.map { command in
            "  " + command.name + String(repeating: " ", count: width - command.name.count + 2) + command.abstract
        }
        return """
            OVERVIEW: Read, validate and inspect JSON with JSONModelKit.

            USAGE: jsonmodel <subcommand> [options] [arguments]

            SUBCOMMANDS:
            \(list.joined(separator: "\n"))

            \(exitStatusSection)

            Run 'jsonmodel help <subcommand>' or 'jsonmodel <subcommand> --help' for details.
            """
    }

    static func main() {
        let status = dispatch(Array(CommandLine.arguments.dropFirst()))
        // `exit` flushes the buffered standard output.
        exit(status.rawValue)
    }

    /// Selects and runs the subcommand named by the first argument.
    static func dispatch(_ arguments: [String]) -> ExitStatus {
        guard let first = arguments.first else {
            Console.error(usage)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "--help", "-h":
            Console.out(usage)
            return .success
        case "help":
            guard let name = rest.first else {
                Console.out(usage)
                return .success
            }
            guard let command = command(named: name) else {
                Console.error("jsonmodel: unknown subcommand '\(name)'\n\n\(usage)")
                return .usage
            }
            Console.out(command.usage)
            return .success
        default:
            guard let command = command(named: first) else {
                Console.error("jsonmodel: unknown subcommand '\(first)'\n\n\(usage)")
                return .usage
            }
            let parsed: Arguments
            do {
                parsed = try Arguments(rest, spec: command.spec)
            } catch {
                Console.error("jsonmodel \(command.name): \(error)\n\n\(command.usage)")
                return .usage
            }
            if parsed.has("help") {
                Console.out(command.usage)
                return .success
            }
            return command.run(parsed)
        }
    }

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }
}
