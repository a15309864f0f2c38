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
        if arguments.has("short") {
            Console.out(model.description)
            return .success
        }
        // Describing reads nothing into the model, so it has no diagnostics yet; validation
        // then converts everything and lists every problem, nested ones with their full path.
        var text = model.fullDescription
        do {
            try model.validate()
        } catch {
            text += "\nproblems:"
            for diagnostic in error.diagnostics { text += "\n  \(diagnostic)" }
        }
        Console.out(text)
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
