import AccessorGeneration
import Foundation
import JSONModelKitTestSupport

/// Typechecks a client file against model files and the members `AccessorGenerator` writes
/// for them, with the toolchain's `swiftc` and the `JSONModelKit` module of this build: what
/// the compiler says to a target that applies the JSONModelAccessors plugin.
///
/// ```swift
/// let result = try Typechecker.typecheck(client: "MisspelledProperty.swift")
/// #expect(result.errors.map(\.message) == ["value of type 'User' has no member 'logn'"])
/// ```
///
/// The files are read from the `CompileFail` folder beside this target's sources (excluded
/// from the target), and each client is typechecked by its own `swiftc` process, so that its
/// errors are its own.
enum Typechecker {
    /// The folder of model and client files.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // TypedModelTests
        .appendingPathComponent("CompileFail")

    /// Whether the toolchain's `swiftc` was found; prints why not.
    ///
    /// Only a missing toolchain skips the tests: a build without the `JSONModelKit` module
    /// where it is expected fails them.
    static let available: Bool = {
        if case .failure(let reason) = BuildProducts.current, reason.isToolchainMissing {
            print("note: compile-fail tests skipped: \(reason)")
            return false
        }
        return true
    }()

    /// A message of the compiler's first line, `file:line:column: severity: message`.
    struct Diagnostic: Equatable, CustomStringConvertible {
        let file: String
        let line: Int
        let column: Int
        let severity: String
        let message: String

        var description: String { "\(file):\(line):\(column): \(severity): \(message)" }

        /// The diagnostic a line of the compiler's output starts, or nil for the lines that
        /// quote the source under it.
        init?(line text: Substring) {
            let parts = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0].hasSuffix(".swift"), let line = Int(parts[1]), let column = Int(parts[2])
            else { return nil }
            let rest = parts[3].drop { $0 == " " }
            guard let separator = rest.firstRange(of: ": ") else { return nil }
            let severity = String(rest[..<separator.lowerBound])
            guard ["error", "warning", "note", "remark"].contains(severity) else { return nil }
            self.init(
                file: String(parts[0]), line: line, column: column, severity: severity,
                message: String(rest[separator.upperBound...]))
        }

        init(file: String, line: Int, column: Int, severity: String, message: String) {
            (self.file, self.line, self.column, self.severity, self.message) = (file, line, column, severity, message)
        }
    }

    /// What `swiftc -typecheck` said.
    struct Output {
        /// The exit status: 0 when the files typecheck.
        let status: Int32
        /// Everything it wrote to standard error, source excerpts included.
        let output: String
        let diagnostics: [Diagnostic]

        var errors: [Diagnostic] { diagnostics.filter { $0.severity == "error" } }
    }

    /// Why a file could not be typechecked (not a compiler error: those are in ``Output``).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The text of a file of the fixtures folder.
    static func text(of name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    /// Where `fragment` first occurs in `name`: its 1-based line and columns, and the line's text.
    static func position(of fragment: String, in name: String) throws -> (line: Int, columns: ClosedRange<Int>, text: String) {
        let lines = try text(of: name).split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if let range = line.firstRange(of: fragment) {
                let start = line.distance(from: line.startIndex, to: range.lowerBound) + 1
                return (index + 1, start...(start + fragment.count - 1), String(line))
            }
        }
        throw Failure(description: "no \"\(fragment)\" in \(name)")
    }

    /// The members `AccessorGenerator` writes for the model files, under their own names.
    static func accessors(for models: [String]) throws -> AccessorGenerator.Output {
        try AccessorGenerator.generate(files: models.map { name in (path: name, text: try text(of: name)) })
    }

    /// Typechecks `client` with `models` and their generated members, in a folder of their own.
    ///
    /// - Throws: ``Failure`` when the build, the files or `swiftc` cannot be used, or the
    ///   generator reports an error for the models.
    static func typecheck(client: String, models: [String] = ["Models.swift"]) throws -> Output {
        let build = try BuildProducts.current.get()
        let swiftc = try build.tool("swiftc")
        let generated = try accessors(for: models)
        guard !generated.hasErrors else {
            throw Failure(description: "the generator refused the models: \(generated.diagnostics)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodelkit-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in models + [client] {
            try text(of: name).write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let accessorFile = "JSONModelAccessors.swift"
        try generated.source.write(to: folder.appendingPathComponent(accessorFile), atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = swiftc
        process.currentDirectoryURL = folder
        process.arguments = ["-typecheck", "-swift-version", "6"] + build.importFlags + models + [accessorFile, client]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { throw Failure(description: "cannot run \(swiftc.path): \(error)") }
        // Read before waiting, so that a full pipe cannot block the compiler.
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let diagnostics = output.split(separator: "\n").compactMap { Diagnostic(line: $0) }
        return Output(status: process.terminationStatus, output: output, diagnostics: diagnostics)
    }
}
