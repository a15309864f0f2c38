import Foundation
import JSONModelKit

/// Reading the files commands are given.
enum ToolFiles {
    /// A file that could not be read, named in the message.
    struct ReadError: Error, CustomStringConvertible {
        let path: String
        var reason = "no such file or not readable"
        var description: String { "cannot read \(path): \(reason)" }
    }

    /// The contents of the file at `path`, or of standard input for `-`; a pipe or device
    /// (`/dev/stdin`, a named pipe) is read to its end, up to a document's 4 GiB.
    static func read(_ path: String) throws(ReadError) -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        do {
            if let bytes = try UnmappableFile.read(path: path) { return Data(bytes) }
        } catch let error as JSONParseError where error.kind == .documentTooLarge {
            throw ReadError(path: path, reason: "larger than 4 GiB")
        } catch {
            throw ReadError(path: path, reason: "\(error)")
        }
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
    /// What `describe` and `validate` start from: `--schema S --model NAME FILE` read, and the
    /// schema loaded into a registry of its own.
    struct ModelInput {
        let registry: ModelRegistry
        let modelName: String
        let path: String
    }

    /// Why ``modelInput(_:)`` failed: a wrong command line, or a schema or model that does not load.
    enum ModelInputFailure: Error {
        case usage(String)
        case load(String)
    }

    /// Reads the schema, model and file arguments and loads the schema.
    static func modelInput(_ arguments: Arguments) -> Result<ModelInput, ModelInputFailure> {
        let schemaPath: String, modelName: String, path: String
        do {
            (schemaPath, modelName, path) = try arguments.schemaModelAndFile()
        } catch {
            return .failure(.usage("\(error)"))
        }
        do {
            let registry = try loadSchemaModel(schemaPath, model: modelName)
            return .success(ModelInput(registry: registry, modelName: modelName, path: path))
        } catch {
            return .failure(.load("\(error)"))
        }
    }

    static func loadSchemaModel(_ schemaPath: String, model modelName: String) throws(SchemaModelError) -> ModelRegistry {
        let registry = ModelRegistry()
        let schema: ModelSchema
        do {
            schema = try ModelSchema(json: try read(schemaPath))
            try registry.register(schema)
        } catch let error as ReadError {
            throw SchemaModelError(description: "\(error)")
        } catch {
            throw SchemaModelError(description: "\(schemaPath): \(error)")
        }
        guard schema.models.contains(where: { $0.name == modelName }) else {
            let known = schema.models.map(\.name).joined(separator: ", ")
            throw SchemaModelError(
                description: "\(schemaPath) declares no model '\(modelName)' (it declares: \(known.isEmpty ? "none" : known))")
        }
        return registry
    }
}

// MARK: - Streamed input

extension ToolFiles {
    /// Whether `path` is read one element at a time: standard input (`-`), or JSON Lines
    /// (`.jsonl`, `.ndjson`).
    static func isStreamed(_ path: String) -> Bool {
        // In any case, as the library matches the names (`EVENTS.JSONL`).
        let name = path.lowercased()
        return path == "-" || name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson")
    }

    /// A reader of the elements of `path`: JSON Lines for a `.jsonl` or `.ndjson` file; for
    /// standard input, an array when it starts with `[`, otherwise values one after another
    /// (JSON Lines, or a single object over several lines).
    static func streamReader(_ path: String) throws(ReadError) -> JSONStreamReader {
        if path == "-" { return JSONStreamReader(fileDescriptor: 0) }
        do {
            return try JSONStreamReader(contentsOfFile: path, options: JSONStreamOptions(format: .lines))
        } catch {
            throw ReadError(path: path)
        }
    }
}

/// A progress line on standard error while a long input is read, when standard error is a
/// terminal: the elements and megabytes read so far, redrawn in place.
final class StreamProgress {
    private let enabled: Bool
    private let start = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?
    private var shown = false
    private var calls = 0

    init() {
        enabled = isatty(STDERR_FILENO) != 0
    }

    /// Redraws the line, at most a few times a second and only after the first second.
    func update(elements: Int, bytes: Int) {
        guard enabled else { return }
        calls += 1
        guard calls % 256 == 0 else { return }
        let now = ContinuousClock.now
        guard now - start > .seconds(1) else { return }
        if let lastDrawn, now - lastDrawn < .milliseconds(200) { return }
        lastDrawn = now
        shown = true
        let megabytes = Double(bytes) / 1_048_576
        let text = "\r\(elements) elements, \((megabytes * 10).rounded() / 10) MB read\u{1B}[K"
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Erases the line before anything else is written.
    func clear() {
        guard shown else { return }
        shown = false
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}

extension JSONStreamError {
    /// "invalid JSON in element E at line L, column C: message (byte B)", for the commands.
    var toolMessage: String {
        "invalid JSON in element \(element) at line \(line), column \(column): \(kind.message) (byte \(offset))"
    }
}
