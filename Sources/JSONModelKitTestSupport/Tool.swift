import Foundation
import Testing

/// Runs the built `jsonmodel` binary (shared by the tool test files).
package enum Tool {
    package struct Output {
        package var status: Int32
        package var standardOutput: String
        package var standardError: String
    }

    /// The environment variable that overrides where the binary is looked for.
    package static let environmentVariable = "JSONMODEL_TOOL"

    /// Places the binary may be: the products folder holding the test bundle
    /// (the bundle is a folder on Apple platforms, an executable on Linux), then
    /// the default debug folder of this package.
    package static func candidates() -> [URL] {
        var folders: [URL] = []
        for bundleURL in [Bundle.main.bundleURL, Bundle(for: BundleToken.self).bundleURL] {
            folders.append(bundleURL.pathExtension == "xctest" ? bundleURL.deletingLastPathComponent() : bundleURL)
        }
        if let executable = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        folders.append(SharedData.packageRoot.appendingPathComponent(".build/debug"))

        var urls: [URL] = []
        if let override = ProcessInfo.processInfo.environment[environmentVariable] {
            urls.append(URL(fileURLWithPath: override))
        }
        urls += folders.map { $0.appendingPathComponent("jsonmodel") }
        return urls
    }

    /// The first candidate that is an executable file.
    package static var binary: URL? {
        candidates().first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the tool with `arguments`, or records an issue and returns nil when
    /// the binary was not built.
    package static func run(
        _ arguments: [String], standardInput input: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Output? {
        guard let binary else {
            let looked = candidates().map(\.path).joined(separator: "\n  ")
            Issue.record("jsonmodel binary not found; build it with `swift build` (or set \(environmentVariable)). Looked in:\n  \(looked)",
                         sourceLocation: sourceLocation)
            return nil
        }
        // Output goes to files, not pipes, so a chatty child cannot block on a full pipe.
        let standardOutput = try TemporaryFile(contents: "")
        let standardError = try TemporaryFile(contents: "")
        defer {
            standardOutput.remove()
            standardError.remove()
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let inputFile = try input.map { try TemporaryFile(contents: $0) }
        defer { inputFile?.remove() }
        if let inputFile {
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputFile.path))
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let outputHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: standardOutput.path))
        let errorHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: standardError.path))
        defer {
            try? outputHandle.close()
            try? errorHandle.close()
        }
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        try process.run()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            standardOutput: try standardOutput.read(),
            standardError: try standardError.read())
    }
}

private final class BundleToken {}

/// A file in the temporary folder with a unique name.
package struct TemporaryFile {
    package let path: String

    package init(contents: String) throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("jsonmodel-tool-test-\(UUID().uuidString).json").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
    }

    package func read() throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
