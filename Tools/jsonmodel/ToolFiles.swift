import Foundation
import JSONModelKit

/// Reading the files commands are given.
enum ToolFiles {
    /// A file that could not be read, named in the message.
    struct ReadError: Error, CustomStringConvertible {
        let path: String
        var description: String { "cannot read \(path): no such file or not readable" }
    }

    /// The contents of the file at `path`, or of standard input for `-`.
    static func read(_ path: String) throws(ReadError) -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let data = try? Data(contentsOf: URL(fileURLWithPath: path))
        else { throw ReadError(path: path) }
        return data
    }

    /// Why `loadSchemaModel` failed, as the message to print.
    struct SchemaModelError: Error, CustomStringConvertible {
        let description: String
    }

    /// A fresh registry holding the schema at `schemaPath`, which must declare `modelName`.
    ///
    /// - Throws: A message naming the unreadable file, the schema's error, or the models the
    ///   schema declares when `modelName` is not one of them.
    static func loadSchemaModel(_ schemaPath: String, model modelName: String) throws(SchemaModelError) -> ModelRegistry {
        let registry = ModelRegistry()
        let schema: ModelSchema
        do {
            schema = try ModelSchema(data: try read(schemaPath))
            try registry.register(schema)
        } catch let error as ReadError {
            throw SchemaModelError(description: "\(error)")
        } catch {
            throw SchemaModelError(description: "\(schemaPath): \(error)")
        }
        guard registry.schemaMetadata(named: modelName) != nil else {
            let known = schema.models.map(\.name).joined(separator: ", ")
            throw SchemaModelError(
                description: "\(schemaPath) declares no model '\(modelName)' (it declares: \(known.isEmpty ? "none" : known))")
        }
        return registry
    }
}
