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

        A FILE holding an array describes each element in turn, headed by its index
        ([2]:), or one line per element with --short ([2] Order(...)); elements that
        are not objects are listed as such.

        USAGE: jsonmodel describe --schema <schema.json> --model <name> [--short] <file>

        OPTIONS:
          --schema <file>   The schema ({"models": [...]}) declaring the model.
          --model <name>    The model to read the file as.
          --short           Print the one-line description.
          -h, --help        Show this help.

        EXIT STATUS: 0 on success; 1 for an unreadable or invalid schema, a model the
        schema does not declare, a file that is not valid JSON (with the line and column
        of the problem), or whose top level is neither an object nor an array of
        objects, or an array with an element that is not an object (after describing
        the others); 2 for a wrong command line.
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

        let document: JSONDocument
        do {
            document = try JSONDocument(data: try ToolFiles.read(path))
        } catch let error as ToolFiles.ReadError {
            return failure("\(error)")
        } catch let error as JSONParseError {
            return failure("\(path): invalid JSON at line \(error.line), column \(error.column): \(firstLine(of: error))")
        } catch {
            return failure("\(path): \(error)")
        }
        let root = document.root
        guard root.kind == .array else {
            do {
                let model = try registry.makeModel(named: modelName, node: root)
                Console.out(describe(model, short: arguments.has("short")))
                return .success
            } catch {
                return failure("\(path): \(error)")
            }
        }
        // An array: each element in turn, as `validate` checks them.
        let short = arguments.has("short")
        var sections: [String] = []
        var notObjects = 0
        for (index, element) in root.elements.enumerated() {
            guard element.kind == .object, let model = try? registry.makeModel(named: modelName, node: element) else {
                notObjects += 1
                sections.append("[\(index)]: expected an object (\(modelName)), found \(element.kind.nameWithArticle)")
                continue
            }
            sections.append(short ? "[\(index)] \(describe(model, short: true))" : "[\(index)]:\n\(describe(model, short: false))")
        }
        if !sections.isEmpty { Console.out(sections.joined(separator: short ? "\n" : "\n\n")) }
        guard notObjects == 0 else {
            let count = root.count
            return failure("\(path): \(notObjects) of \(count) elements \(notObjects == 1 ? "is not an object" : "are not objects")")
        }
        return .success
    }

    /// The one-line description, or the full one followed by the problems validation finds.
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
