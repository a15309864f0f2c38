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
/// warnings point at the lines of the registration blocks.
@main
struct JSONModelAccessors: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let sources = target.sourceFiles(withSuffix: "swift").map(\.url)
        let output = context.pluginWorkDirectoryURL.appending(path: "JSONModelAccessors.swift")
        return [
            .buildCommand(
                displayName: "Generating typed model members for \(target.name)",
                executable: try context.tool(named: "jsonmodel-accessors").url,
                arguments: ["--output", output.path] + sources.map(\.path),
                inputFiles: sources,
                outputFiles: [output])
        ]
    }
}
