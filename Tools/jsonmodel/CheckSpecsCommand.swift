import Foundation
import JSONModelKit
import JSONModelSpecs

/// `jsonmodel check-specs DIR...`: runs conformance cases written as data.
enum CheckSpecsCommand: Command {
    static let name = "check-specs"
    static let abstract = "Run the conformance cases (Specs format) in folders or files."
    static let spec = ArgumentSpec(flags: ["verbose"], options: [])
    static let usage = """
        OVERVIEW: \(abstract)

        Runs every case file (*.json) under each folder, in path order. A case declares
        a schema, an input, and the reads, writes, output and diagnostics it expects;
        files holding only {"models": ...} are schemas that cases refer to. Prints one
        line per failed expectation (file, case, expected vs actual) and a final line
        'N passed, M failed'.

        USAGE: jsonmodel check-specs [--verbose] <folder-or-file>...

        OPTIONS:
          --verbose       Also print a line for each case that passes.
          -h, --help      Show this help.

        EXIT STATUS: 0 when every case passes, 1 when any fails, a folder has no
        cases or a file is not a case, 2 for a wrong command line or a folder or file that does not exist.
        """

    static func run(_ arguments: Arguments) -> ExitStatus {
        guard !arguments.positionals.isEmpty else {
            Console.error("jsonmodel check-specs: missing <folder-or-file>\n\n\(usage)")
            return .usage
        }
        var results: [SpecRunner.Result] = []
        /// Whether a folder held no case, or a file was not one.
        var missing = false
        for path in arguments.positionals {
            let url = URL(fileURLWithPath: path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                // An input that cannot be read stops the check, as in every other command.
                Console.error("jsonmodel check-specs: no such file or folder: \(path)")
                return .usage
            }
            if isDirectory.boolValue {
                let found = SpecRunner.run(directory: url)
                if found.isEmpty {
                    Console.error("jsonmodel check-specs: no cases in \(path)")
                    missing = true
                }
                results += found.map { SpecRunner.Result(file: path + "/" + $0.file, name: $0.name, failures: $0.failures) }
            } else if let result = SpecRunner.run(file: url, displayName: path) {
                results.append(result)
            } else {
                Console.error("jsonmodel check-specs: \(path) is not a case (a schema, say)")
                missing = true
            }
        }
        for result in results where !result.passed || arguments.has("verbose") {
            Console.out(result.description)
        }
        let failed = results.filter { !$0.passed }.count
        Console.out("\(results.count - failed) passed, \(failed) failed")
        return failed == 0 && !missing && !results.isEmpty ? .success : .failure
    }
}
