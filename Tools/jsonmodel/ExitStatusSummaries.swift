// The exit statuses each command documents in `jsonmodel --help`.

extension Command {
    /// Commands that only succeed or fail on a command line exit 0.
    static var exitStatuses: String { "0" }
}

extension ParseCommand {
    static var exitStatuses: String { "0 every file valid; 1 a file invalid or unreadable" }
}

extension CheckSpecsCommand {
    static var exitStatuses: String { "0 every case passes; 1 a case fails, a folder has none or a file is not one; 2 no such folder or file" }
}

extension DescribeCommand {
    static var exitStatuses: String { "0 described; 1 unknown model, schema error, bad or unreadable file" }
}

extension JSONModelTool {
    /// One line per command, then the status every command shares.
    static var exitStatusSection: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let lines = commands.map { command in
            "  " + command.name + String(repeating: " ", count: width - command.name.count + 2) + command.exitStatuses
        }
        return "EXIT STATUS:\n" + lines.joined(separator: "\n")
            + "\n  every command exits 2 for a wrong command line, and 0 for --help"
    }
}
