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

        JSON Lines (a FILE ending in .jsonl or .ndjson) and standard input are read one
        element at a time, each described in turn (a blank line between two full
        descriptions), in memory bounded by the largest element; elements that are not
        objects are listed as such too. Standard input may hold an array, JSON Lines, or
        objects one after another. While a long input is read, a
        progress line is shown on standard error if it is a terminal.

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
        let input: ToolFiles.ModelInput
        switch ToolFiles.modelInput(arguments) {
        case .success(let value): input = value
        case .failure(.usage(let message)): return usageError(message)
        case .failure(.load(let message)): return failure(message)
        }
        let (registry, modelName, path) = (input.registry, input.modelName, input.path)

        if ToolFiles.isStreamed(path) {
            return runStreamed(path: path, model: modelName, registry: registry, short: arguments.has("short"))
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
                let model = try registry.makeModel(named: modelName, json: root)
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
            guard element.kind == .object, let model = try? registry.makeModel(named: modelName, json: element) else {
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
        if short { return model.debugDescription }
        // Describing reads nothing into the model, so it has no diagnostics yet; validation
        // then converts everything and lists every problem, nested ones with their full path.
        var text = model.jsonModel.fullDescription
        do {
            try model.jsonModel.validate()
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
        // An element that is not an object is listed, as in an array read whole, and the ones
        // after it are described: the status says so at the end.
        var notObjects = 0
        do {
            while let element = try reader.read() {
                let index = reader.count - 1
                progress.clear()
                let separator = index == 0 || short ? "" : "\n"
                guard element.kind == .object, let model = try? registry.makeModel(named: modelName, json: element.value) else {
                    notObjects += 1
                    Console.out(separator + "[\(index)]: expected an object (\(modelName)), found \(element.kind.nameWithArticle)")
                    continue
                }
                Console.out(separator + describe(model, short: short))
                progress.update(elements: reader.count, bytes: reader.bytesRead)
            }
        } catch {
            progress.clear()
            if case .readFailed(let reason) = error.kind { return failure("cannot read \(path): \(reason)") }
            return failure("\(path): \(error.toolMessage)")
        }
        progress.clear()
        guard notObjects == 0 else {
            let count = reader.count
            return failure("\(path): \(notObjects) of \(count) elements \(notObjects == 1 ? "is not an object" : "are not objects")")
        }
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
