import Foundation
import PackagePlugin

/// Generates typed members for the model classes of the target it is applied to.
///
/// ```swift
/// .target(
///     name: "Models",
///     dependencies: ["JSONModelKit"],
///     plugins: [.plugin(name: "JSONModelAccessors", package: "JSONModelKit")])
/// ```
///
/// Before each build that changed a Swift file of the target, `jsonmodel-accessors` reads
/// all of them and writes one file of extensions, compiled with the target. Its errors and
/// warnings point at the lines of the registration blocks. In an Xcode project, the plugin
/// is added to an app target's Run Build Tool Plug-ins phase and does the same.
@main
struct JSONModelAccessors: BuildToolPlugin {
    /// The command for a target of a package: its Swift files in, one file of members out.
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return [
            try Self.command(
                for: target.name, sources: target.sourceFiles(withSuffix: "swift").map(\.url),
                in: context.pluginWorkDirectoryURL, tool: context.tool(named:))
        ]
    }

    /// The one command both kinds of target get: runs `jsonmodel-accessors` on `sources`
    /// and writes `JSONModelAccessors.swift` in `directory`, the plugin's work directory.
    private static func command(
        for targetName: String, sources: [URL], in directory: URL,
        tool: (String) throws -> PluginContext.Tool
    ) throws -> Command {
        let output = directory.appending(path: "JSONModelAccessors.swift")
        return .buildCommand(
            displayName: "Generating typed model members for \(targetName)",
            executable: try tool("jsonmodel-accessors").url,
            arguments: ["--output", output.path] + sources.map(\.path),
            inputFiles: sources,
            outputFiles: [output])
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension JSONModelAccessors: XcodeBuildToolPlugin {
    /// The command for a target of an Xcode project: the Swift files among its inputs.
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let sources = target.inputFiles.map(\.url).filter { $0.pathExtension == "swift" }
        return [
            try Self.command(
                for: target.displayName, sources: sources,
                in: context.pluginWorkDirectoryURL, tool: context.tool(named:))
        ]
    }
}
#endif
