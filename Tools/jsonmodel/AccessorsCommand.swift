import AccessorGeneration
import Foundation

/// `jsonmodel accessors FILE...`: the typed members the JSONModelAccessors plugin generates.
enum AccessorsCommand: Command {
    static let name = "accessors"
    static let abstract = "Print the typed model members the JSONModelAccessors plugin generates for Swift files."
    static let spec = ArgumentSpec()
    static let exitStatuses = "0 printed; 1 an error in a registration block; 2 a FILE unreadable"
    static let usageLine = "USAGE: jsonmodel accessors <file>..."
    static let usage = """
        OVERVIEW: \(abstract)

        Reads the Swift files of one target, finds the classes that derive from JSONModel,
        and prints, for each, an extension with a typed computed property per property
        its registration block declares: what the JSONModelAccessors build plugin compiles
        into a target that applies it. For build systems without SwiftPM plugins: write
        the output to a file outside the sources and compile it with them.

          jsonmodel accessors Sources/Models/*.swift > Accessors.swift
          swiftc ... Sources/Models/*.swift Accessors.swift

        Give every file of the target at once: a class may extend a model declared in
        another file. Problems are printed to standard error as
        'file:line:column: error: message' (or 'warning:'), at the declaration's line;
        the members of the other properties are printed all the same.

        \(usageLine)

        ARGUMENTS:
          <file>        Swift source files; '-' reads standard input (named <stdin>).

        OPTIONS:
          -h, --help    Show this help.

        EXIT STATUS: 0 when the members were printed, with or without warnings; 1 when a
        registration block has an error (a name declared twice or taken by JSONModel, a
        type no property can have, readOnly: not a literal, the block under #if) or the
        generator cannot read a file (types or interpolations nested too deep); 2 for a
        wrong command line or a FILE that cannot be read, and then nothing is printed.
        """

    static func run(_ arguments: Arguments) -> ExitStatus {
        guard !arguments.positionals.isEmpty else {
            Console.error("jsonmodel accessors: missing <file>\n\(usageLine)\nRun 'jsonmodel accessors --help' for more.")
            return .usage
        }
        var files: [(path: String, text: String)] = []
        for path in arguments.positionals {
            do {
                let data = try ToolFiles.read(path)
                files.append((path == "-" ? "<stdin>" : path, String(decoding: data, as: UTF8.self)))
            } catch {
                Console.error("jsonmodel accessors: \(error)")
                return .usage
            }
        }
        let result = AccessorGenerator.generate(files: files)
        FileHandle.standardOutput.write(Data(result.source.utf8))
        for diagnostic in result.diagnostics {
            Console.error(diagnostic.description)
        }
        return result.hasErrors ? .failure : .success
    }
}
