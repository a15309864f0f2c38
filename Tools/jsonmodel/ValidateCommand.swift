import Foundation
import JSONModelKit

/// `jsonmodel validate --schema S.json --model NAME FILE`: every value that does not convert, with its path.
enum ValidateCommand: Command {
    static let name = "validate"
    static let abstract = "Check a JSON file against a schema model; print every problem with its path."
    static let spec = ArgumentSpec(flags: ["strict"], options: ["schema", "model"])
    static let exitStatuses = "0 no problems; 1 a problem or FILE not JSON; 2 unreadable file, bad schema, unknown model"
    static let usageLine = "USAGE: jsonmodel validate [--strict] --schema <schema.json> --model <name> <file>"
    static let usage = """
        OVERVIEW: \(abstract)

        Registers the models of the schema file, reads FILE as the model NAME and converts
        every property at once, nested models and array elements included. Prints one line
        per value that did not convert cleanly (wrong type, lossy, out of range, invalid
        text) as 'path: message (Model.property, kind)', then a summary line. A FILE that
        holds an array checks each element; paths then start with its index ([2].price).
        A key that is missing is not a problem, it reads as the property's default, unless
        the schema requires it ("required", or "requireNonOptionals" on its model).

        With --strict, values are held to their declared types as Codable holds them: a
        number where a String is declared, a numeric string for a number, "yes" or 1 for a
        Bool are problems, and so is a missing or null value of a non-optional property
        without a declared default. Keys the schema does not declare are not problems.

        JSON Lines (a FILE ending in .jsonl or .ndjson, one object per line) and standard
        input are read one element at a time, in memory bounded by the largest element,
        and each problem is printed as it is found; paths start with the element's index.
        Standard input may hold an array, JSON Lines, or objects one after another. While
        a long input is read, a progress line is shown on standard error if it is a terminal.

        \(usageLine)

        ARGUMENTS:
          <file>            The JSON to check: an object, an array of objects, or JSON Lines
                            (.jsonl, .ndjson); '-' reads standard input.

        OPTIONS:
          --schema <file>   The schema ({"models": [...]}) declaring the model.
          --model <name>    The model to read the file as.
          --strict          Lenient conversions and missing non-optionals are problems too.
          -h, --help        Show this help.

        OUTPUT: problems and the summary go to standard output; errors that stop the
        check (unreadable files, a schema that does not load, an unknown model) go to
        standard error.

        EXIT STATUS: 0 when nothing is wrong; 1 when any value did not convert, or FILE is
        not valid JSON (reported as '$: invalid JSON at line L, column C: ...', and as
        'invalid JSON in element E at line L, column C: ...' for streamed input) or not
        an object or array of objects; 2 for a wrong command line, a FILE or schema that
        cannot be read, a schema that does not load, or a model the schema does not declare.
        """

    static func run(_ arguments: Arguments) -> ExitStatus {
        let input: ToolFiles.ModelInput
        switch ToolFiles.modelInput(arguments) {
        case .success(let value): input = value
        case .failure(.usage(let message)): return usageError(message)
        case .failure(.load(let message)): return setupError(message)
        }
        let (registry, modelName, path) = (input.registry, input.modelName, input.path)
        let strict = arguments.has("strict")

        if ToolFiles.isStreamed(path) {
            return runStreamed(path: path, model: modelName, registry: registry, strict: strict)
        }
        let data: Data
        do {
            data = try ToolFiles.read(path)
        } catch {
            return setupError("\(error)")
        }

        let document: JSONDocument
        do {
            document = try JSONDocument(data: data)
        } catch {
            Console.out("$: invalid JSON at line \(error.line), column \(error.column): \(parseMessage(error))")
            Console.out("\(path): not valid JSON")
            return .failure
        }

        var problems: [String] = []
        var checked = 0
        let root = document.root
        switch root.kind {
        case .object:
            checked = 1
            problems = diagnostics(of: root.value, model: modelName, registry: registry, prefix: .root, strict: strict)
        case .array:
            for (index, element) in root.elements.enumerated() {
                guard element.kind == .object else {
                    problems.append("[\(index)]: expected an object (\(modelName)), found \(element.kind.nameWithArticle)")
                    continue
                }
                checked += 1
                problems += diagnostics(
                    of: element.value, model: modelName, registry: registry, prefix: [.index(index)], strict: strict)
            }
        default:
            problems.append("$: expected an object (\(modelName)) or an array of objects, found \(root.kind.nameWithArticle)")
        }

        for problem in problems { Console.out(problem) }
        let objects = root.kind == .array ? " in \(checked) \(modelName) object\(checked == 1 ? "" : "s")" : ""
        if problems.isEmpty {
            Console.out("\(path): valid\(objects.isEmpty ? " \(modelName)" : objects)")
            return .success
        }
        Console.out("\(path): \(problems.count) problem\(problems.count == 1 ? "" : "s")\(objects)")
        return .failure
    }

    /// Checks the elements of JSON Lines or standard input one at a time, printing each problem
    /// as it is found, so that memory stays bounded by the largest element.
    private static func runStreamed(path: String, model modelName: String, registry: ModelRegistry, strict: Bool)
        -> ExitStatus
    {
        let reader: JSONStreamReader
        do {
            reader = try ToolFiles.streamReader(path)
        } catch {
            return setupError("\(error)")
        }
        let progress = StreamProgress()
        var problems = 0
        var checked = 0
        do {
            while let element = try reader.read() {
                let index = reader.count - 1
                var found: [String]
                if element.kind == .object {
                    checked += 1
                    found = diagnostics(
                        of: element.value, model: modelName, registry: registry, prefix: [.index(index)], strict: strict)
                } else {
                    found = ["[\(index)]: expected an object (\(modelName)), found \(element.kind.nameWithArticle)"]
                }
                if !found.isEmpty {
                    progress.clear()
                    problems += found.count
                    for problem in found { Console.out(problem) }
                }
                progress.update(elements: reader.count, bytes: reader.bytesRead)
            }
        } catch {
            progress.clear()
            if case .readFailed(let reason) = error.kind { return setupError("cannot read \(path): \(reason)") }
            // Not a value's problem, so no path: the error names the element itself.
            Console.out(error.toolMessage)
            Console.out("\(path): not valid JSON")
            return .failure
        }
        progress.clear()
        let objects = " in \(checked) \(modelName) object\(checked == 1 ? "" : "s")"
        if problems == 0 {
            Console.out("\(path): valid\(objects)")
            return .success
        }
        Console.out("\(path): \(problems) problem\(problems == 1 ? "" : "s")\(objects)")
        return .failure
    }

    /// Every diagnostic of one object read as `model`, its path put after `prefix`.
    private static func diagnostics(
        of value: JSONValue, model: String, registry: ModelRegistry, prefix: JSONPath, strict: Bool
    ) -> [String] {
        let instance: JSONModel
        do {
            instance = try registry.makeModel(named: model, json: value)
        } catch {
            return ["\(prefix.isEmpty ? "$" : prefix.description): \(error)"]
        }
        do {
            try instance.jsonModel.validate(strict: strict)
            return []
        } catch {
            return error.diagnostics.map { diagnostic in
                ModelDiagnostic(
                    kind: diagnostic.kind, path: prefix.appending(contentsOf: diagnostic.path),
                    property: diagnostic.property, model: diagnostic.model, message: diagnostic.message
                ).description
            }
        }
    }

    /// "JSON parse error at line L, column C (byte B): message\n  near: …" → "message (byte B)".
    private static func parseMessage(_ error: JSONParseError) -> String {
        let firstLine = error.description.split(separator: "\n").first.map(String.init) ?? error.description
        guard let marker = firstLine.range(of: "): ") else { return firstLine }
        return String(firstLine[marker.upperBound...]) + " (byte \(error.offset))"
    }


    private static func usageError(_ message: String) -> ExitStatus {
        Console.error("jsonmodel validate: \(message)\n\(usageLine)\nRun 'jsonmodel validate --help' for more.")
        return .usage
    }

    /// A problem that stops the check before FILE is read: status 2.
    private static func setupError(_ message: String) -> ExitStatus {
        Console.error("jsonmodel validate: \(message)")
        return .usage
    }
}
