import Foundation
import JSONModelKit

/// `jsonmodel describe --schema S.json --model NAME FILE`: prints a model's full description.
enum DescribeCommand: Command {
    static let name = "describe"
    static let abstract = "Print the description of a JSON file read as a schema model."
    static let spec = ArgumentSpec(flags: ["short"], options: ["schema", "model"])
    static let usage = """
        OVERVIEW: \(abstract)

        Registers the models of the schema file, reads FILE (a JSON object) as the model
        NAME, and prints its full description: every property, nested models and arrays
        opened, then the keys no property reads, then under 'problems:' every value
        that did not convert cleanly, with its JSON path (nested models included).
        With --short, prints the one-line description instead.

        JSON Lines (a FILE ending in .jsonl or .ndjson) and standard input are read one
        element at a time, each described in turn (a blank line between two full
        descriptions), in memory bounded by the largest element. Standard input may hold
        an array, JSON Lines, or objects one after another. While a long input is read, a
        progress line is shown on standard error if it is a terminal.

        USAGE: jsonmodel describe --schema <schema.json> --model <name> [--short] <file>

        OPTIONS:
          --schema <file>   The schema ({"models": [...]}) declaring the model.
          --model <name>    The model to read the file as.
          --short           Print the one-line description.
          -h, --help        Show this help.

        EXIT STATUS: 0 on success; 1 for an unreadable or invalid schema, a model the
        schema does not declare, or a file that is not valid JSON or not an object
        (with the line and column of the problem); 2 for a wrong command line.
        """

    static func run(_ arguments: Arguments) -> ExitStatus {
        let schemaPath: String, modelName: String, path: String
        do {
            (schemaPath, modelName, path) = try arguments.schemaModelAndFile()
        } catch {
            return usageError("\(error)")
        }

        let registry: ModelRegistry
        do {
            registry = try ToolFiles.loadSchemaModel(schemaPath, model: modelName)
        } catch {
            return failure("\(error)")
        }

        if ToolFiles.isStreamed(path) {
            return runStreamed(path: path, model: modelName, registry: registry, short: arguments.has("short"))
        }
        let model: JSONModel
        do {
            model = try registry.makeModel(named: modelName, json: try ToolFiles.read(path))
        } catch let error as ToolFiles.ReadError {
            return failure("\(error)")
        } catch let error as JSONParseError {
            return failure("\(path): invalid JSON at line \(error.line), column \(error.column): \(firstLine(of: error))")
        } catch {
            return failure("\(path): \(error)")
        }
        Console.out(describe(model, short: arguments.has("short")))
        return .success
    }

    /// The description of `model`: the one-line one, or the full one and its problems.
    private static func describe(_ model: JSONModel, short: Bool) -> String {
        if short { return model.description }
        // Describing reads nothing into the model, so it has no diagnostics yet; validation
        // then converts everything and lists every problem, nested ones with their full path.
        var text = model.fullDescription
        do {
            try model.validate()
        } catch {
            text += "\nproblems:"
            for diagnostic in error.diagnostics { text += "\n  \(diagnostic)" }
        }
        return text
    }

    /// Describes the elements of JSON Lines or standard input one at a time, a blank line
    /// between two.
    private static func runStreamed(path: String, model modelName: String, registry: ModelRegistry, short: Bool)
        -> ExitStatus
    {
        let reader: JSONStreamReader
        do {
            reader = try ToolFiles.streamReader(path)
        } catch {
            return failure("\(error)")
        }
        let progress = StreamProgress()
        do {
            while let element = try reader.read() {
                let index = reader.count - 1
                let model: JSONModel
                do {
                    model = try registry.makeModel(named: modelName, json: element.value)
                } catch {
                    progress.clear()
                    return failure("\(path): [\(index)]: \(error)")
                }
                progress.clear()
                Console.out((index == 0 || short ? "" : "\n") + describe(model, short: short))
                progress.update(elements: reader.count, bytes: reader.bytesRead)
            }
        } catch {
            progress.clear()
            if case .readFailed(let reason) = error.kind { return failure("cannot read \(path): \(reason)") }
            return failure("\(path): \(error.toolMessage)")
        }
        progress.clear()
        return .success
    }

    private static func firstLine(of error: JSONParseError) -> String {
        let text = error.description
        let line = text.split(separator: "\n").first.map(String.init) ?? text
        // "JSON parse error at line L, column C (byte B): message" → "message (byte B)"
        guard let colon = line.range(of: "): ") else { return line }
        return String(line[colon.upperBound...])
    }

    private static func usageError(_ message: String) -> ExitStatus {
        Console.error("jsonmodel describe: \(message)\n\n\(usage)")
        return .usage
    }

    private static func failure(_ message: String) -> ExitStatus {
        Console.error("jsonmodel describe: \(message)")
        return .failure
    }
}
