import Foundation
import JSONModelInference
import JSONModelKit

/// `jsonmodel generate FILE --name NAME [--swift | --schema]`: models inferred from sample JSON.
enum GenerateCommand: Command {
    static let name = "generate"
    static let abstract = "Infer models from sample JSON; print them as Swift source or a schema."
    static let spec = ArgumentSpec(flags: ["swift", "schema"], options: ["name", "prefix"])
    static let exitStatuses = "0 printed; 1 FILE not JSON or not an object or array of objects; 2 FILE unreadable"
    static let usageLine = "USAGE: jsonmodel generate <file> --name <name> [--swift | --schema] [--prefix <prefix>]"
    static let usage = """
        OVERVIEW: \(abstract)

        Reads FILE (an object, or an array of objects whose members are merged) and prints
        a JSONModel subclass with its registration block for the top object and for each
        nested one. With --schema it prints the same models in the schema format that
        ModelSchema, ModelRegistry and 'jsonmodel validate' read. The same input always
        gives the same output. The classes get typed members when compiled in a target
        with the JSONModelAccessors plugin, or from 'jsonmodel accessors'.

        A top object whose keys are data (ids, or many names of records of one shape) and
        whose values are all objects is [String: NAME]: model NAME describes its values,
        the Swift source says in a comment to read FILE with ModelDictionary<NAME>, and
        --schema, which cannot declare it, says so in a note on standard error.

        \(usageLine)

        ARGUMENTS:
          <file>              Sample JSON; '-' reads standard input.

        OPTIONS:
          --name <name>       The top model's name, in any style ('order item' gives OrderItem).
          --swift             Print Swift source (the default).
          --schema            Print a schema: {"models": [...]}.
          --prefix <prefix>   Put before every nested model's name (Shop: ShopCustomer).
          -h, --help          Show this help.

        WHAT IT INFERS:
          types       Int, UInt64, Double (up to 15 significant digits), Decimal, Bool, String,
                      nested models, [T]; mixed kinds and keys that were only null give JSON.
                      An object whose keys are all data (ids, years, dates, UUIDs) is [String: T],
                      and so is one with 20 or more names as keys whose values are all objects
                      of one shape (plugins by name, say).
          optionals   from null, and from keys that some array elements lack; dates are always
                      optional (a Date has no natural default).
          dates       ISO 8601, yyyy-MM-dd, yyyy/MM/dd, the JavaScript form, MM/dd/yyyy,
                      dd/MM/yyyy, MM-dd-yyyy, dd-MM-yyyy (month first when both fit); yyyyMMdd
                      and epoch seconds or milliseconds only under a key naming a date
                      (created_at, birth_date, timestamp, ...).
          enums       a string key with 2 to 10 distinct values, each identifier-like (letters,
                      digits, _ - and . from a letter on, or digits only; no / or spaces; 32
                      characters at most) and seen 3 times per value on average, none just once;
                      not an id, a name, free text, a language, a branch or a version.
          names       lowerCamelCase properties from any key style; a model whose keys one
                      style explains (snake_case, kebab-case, SCREAMING_SNAKE_CASE, PascalCase)
                      states that keyStyle, otherwise a key that differs gets a jsonPath; names taken by JSONModel's own members get 'Field'
                      (hashField), names starting with a digit get '_'. Nested models are
                      named from their keys, singular for array elements (line_items: LineItem);
                      a name taken by another shape gets the parent's name first (OrderCustomer).

        EXIT STATUS: 0 when the models were printed; 1 when FILE is not valid JSON (with its
        line and column) or not an object or a non-empty array of objects; 2 for a wrong
        command line or a FILE that cannot be read.
        """

    static func run(_ arguments: Arguments) -> ExitStatus {
        guard let rootName = arguments["name"] else { return usageError("missing --name <name>") }
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            return usageError(arguments.positionals.isEmpty ? "missing <file>" : "give exactly one <file>")
        }
        guard !(arguments.has("swift") && arguments.has("schema")) else {
            return usageError("give either --swift or --schema, not both")
        }
        let options = ModelInference.Options(modelNamePrefix: arguments["prefix"] ?? "")
        // A name the library refuses is a command-line mistake; check it before reading the file.
        do {
            _ = try ModelInference.modelName(for: rootName, options: options)
        } catch {
            return usageError("\(error)")
        }

        let data: Data
        do {
            data = try ToolFiles.read(path)
        } catch {
            Console.error("jsonmodel generate: \(error)")
            return .usage
        }
        let inferred: InferredSchema
        do {
            inferred = try ModelInference.infer(from: data, rootName: rootName, options: options)
        } catch {
            Console.error("jsonmodel generate: \(path == "-" ? "standard input" : path): \(error)")
            return .failure
        }
        // Both renderings end in a newline already.
        FileHandle.standardOutput.write(Data((arguments.has("schema") ? inferred.schemaText : inferred.swiftSource).utf8))
        // The Swift source says how to read a top-level dictionary in a comment; a schema has no
        // place for it.
        if arguments.has("schema"), inferred.topLevel == .dictionary, let type = inferred.topLevelType,
            let root = inferred.models.first
        {
            Console.error(
                "jsonmodel generate: note: the top level is \(type), which a schema cannot declare; read each of its values as \(root.name)")
        }
        return .success
    }

    private static func usageError(_ message: String) -> ExitStatus {
        Console.error("jsonmodel generate: \(message)\n\(usageLine)\nRun 'jsonmodel generate --help' for more.")
        return .usage
    }
}
