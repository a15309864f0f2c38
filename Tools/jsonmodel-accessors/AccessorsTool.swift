// The generator the JSONModelAccessors build plugin runs:
//   jsonmodel-accessors --output FILE SOURCE.swift…
// Writes the typed members of the sources' model classes to FILE, and prints diagnostics as
// `file:line:column: error: message`, the form build systems show at the line. Exits 1 when
// any is an error, 2 on bad arguments or unreadable files.
//
// An @main type rather than top-level code: builds with --sanitize=fuzzer compile every
// executable of the package graph as a library.

import AccessorGeneration
import Foundation

@main
enum AccessorsTool {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count >= 2, arguments[0] == "--output" else {
            fail("usage: jsonmodel-accessors --output FILE SOURCE.swift…")
        }
        let output = arguments[1]
        arguments.removeFirst(2)

        var files: [(path: String, text: String)] = []
        for path in arguments {
            guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
            files.append((path, String(decoding: data, as: UTF8.self)))
        }
        let result = AccessorGenerator.generate(files: files)
        for diagnostic in result.diagnostics {
            printError(diagnostic.description)
        }
        guard FileManager.default.createFile(atPath: output, contents: Data(result.source.utf8)) else {
            fail("cannot write \(output)")
        }
        exit(result.hasErrors ? 1 : 0)
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func fail(_ message: String) -> Never {
        printError("jsonmodel-accessors: \(message)")
        exit(2)
    }
}
