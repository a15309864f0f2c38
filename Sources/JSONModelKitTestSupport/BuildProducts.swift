import Foundation

/// The build that made this test program and the toolchain that built it, located from the
/// running program: `/proc/self/exe` gives the products folder, and the Swift runtime it mapped
/// (`<usr>/lib/swift/linux/libswiftCore.so`) gives the toolchain (`<usr>/bin`).
///
/// The test targets share it through this target (test targets cannot share sources). Tests
/// that compile against the built module or run a toolchain tool start here, and are
/// skipped with the printed reason when something is missing; ``Unavailable/isToolchainMissing``
/// tells a missing toolchain, a reason to skip, from a build laid out unexpectedly.
package struct BuildProducts: Sendable {
    /// The folder of the test program, where SwiftPM puts every product of the build
    /// (`.build/x86_64-unknown-linux-gnu/debug`).
    package let folder: URL
    /// The build's folder of modules (holds `JSONModelKit.swiftmodule`).
    package let modules: URL
    /// The toolchain's folder of programs (holds `swiftc` and `swift-symbolgraph-extract`).
    package let toolchain: URL

    /// The options that let a compiler or `swift-symbolgraph-extract` import the build's
    /// modules: the folder of Swift modules, and the module maps SwiftPM made for the C targets
    /// `JSONModelKitAtomics` and `JSONModelKitUTF8`, which `JSONModelKitCore` imports.
    package var importFlags: [String] {
        ["-I", modules.path] + ["JSONModelKitAtomics", "JSONModelKitUTF8"].flatMap { target in
            ["-Xcc", "-fmodule-map-file=" + folder.appendingPathComponent("\(target).build/module.modulemap").path]
        }
    }

    /// Why the build or the toolchain could not be located.
    package struct Unavailable: Error, CustomStringConvertible {
        package let description: String
        /// Whether the toolchain (or one of its programs) is what is missing, rather than the build.
        package let isToolchainMissing: Bool

        package init(description: String, isToolchainMissing: Bool = false) {
            self.description = description
            self.isToolchainMissing = isToolchainMissing
        }
    }

    /// The build and toolchain of this program, located once.
    package static let current: Result<BuildProducts, Unavailable> = Result { () throws(Unavailable) in try locate() }

    /// Whether the toolchain was located, for the trait of a test that compiles against the
    /// build: false, printing why, where it cannot be (elsewhere than Linux, or no `swiftc`). A
    /// build laid out unexpectedly leaves it true, so that the test runs and fails saying so.
    package static let hasToolchain: Bool = {
        if case .failure(let reason) = current, reason.isToolchainMissing {
            print("note: tests that compile against the build are skipped: \(reason)")
            return false
        }
        return true
    }()

    /// The toolchain program named `name`, when the toolchain has it.
    package func tool(_ name: String) throws(Unavailable) -> URL {
        let url = toolchain.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw Unavailable(description: "no \(name) at \(url.path)", isToolchainMissing: true)
        }
        return url
    }

    /// Runs `program` (one of the toolchain's, or one a test built) with `arguments`; returns
    /// its exit status and its standard output and error, together.
    package static func run(_ program: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    private static func locate() throws(Unavailable) -> BuildProducts {
        #if os(Linux)
        let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let folder = program.deletingLastPathComponent()
        let modules = folder.appendingPathComponent("Modules")
        // Read to the end: /proc files report a size of zero.
        let maps = String(decoding: FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        guard let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libswiftCore.so") }),
            let path = line.split(separator: " ").last
        else {
            throw Unavailable(description: "the Swift runtime is not a shared library in this program", isToolchainMissing: true)
        }
        let toolchain = URL(fileURLWithPath: String(path)).deletingLastPathComponent()  // linux
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()  // usr
            .appendingPathComponent("bin")
        let products = BuildProducts(folder: folder, modules: modules, toolchain: toolchain)
        _ = try products.tool("swiftc")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("JSONModelKit.swiftmodule").path) else {
            throw Unavailable(description: "no JSONModelKit.swiftmodule in \(modules.path)")
        }
        return products
        #else
        throw Unavailable(description: "the build is located from /proc on Linux only", isToolchainMissing: true)
        #endif
    }
}
