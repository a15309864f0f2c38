/// What a command accepts: the `--flag` names and the `--option value` names.
///
/// `--help` is always accepted as a flag.
struct ArgumentSpec: Sendable {
    var flags: Set<String> = []
    var options: Set<String> = []
}

/// A command line split into positional arguments, flags and options.
///
/// ```swift
/// let arguments = try Arguments(["a.json", "--max-depth", "64", "--quiet"],
///                               spec: ArgumentSpec(flags: ["quiet"], options: ["max-depth"]))
/// arguments.positionals       // ["a.json"]
/// arguments.has("quiet")      // true
/// arguments["max-depth"]      // "64"
/// ```
///
/// Options take their value from the next argument or after `=`
/// (`--max-depth=64`); an option given twice keeps the last value. A lone `--`
/// ends the flags: everything after it is positional, and so is `-`.
struct Arguments: Sendable, Equatable {
    var positionals: [String] = []
    var flags: Set<String> = []
    var options: [String: String] = [:]

    /// Parses `arguments` (the command name already removed) against `spec`.
    ///
    /// - Throws: `ArgumentError` for an unknown name, a missing option value,
    ///   or a value given to a flag.
    init(_ arguments: [String], spec: ArgumentSpec) throws(ArgumentError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                positionals += remaining
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            if argument == "-h" {
                flags.insert("help")
                continue
            }
            guard argument.hasPrefix("--") else { throw .unknownName(argument) }

            let body = argument.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }

            if name == "help" || spec.flags.contains(name) {
                guard inlineValue == nil else { throw .unexpectedValue(flag: name) }
                flags.insert(name)
            } else if spec.options.contains(name) {
                if let inlineValue {
                    options[name] = inlineValue
                } else if let next = remaining.first, !next.hasPrefix("--") {
                    // `--name --schema` is a missing value, not a name "--schema"; a value
                    // that starts with two dashes is given as `--name=--value`.
                    remaining.removeFirst()
                    options[name] = next
                } else {
                    throw .missingValue(option: name)
                }
            } else {
                throw .unknownName(argument)
            }
        }
    }

    /// Whether `--name` was given.
    func has(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// The value of `--name value`, or nil when absent.
    subscript(option: String) -> String? {
        options[option]
    }

    /// The value of `--name value` as an integer, or `defaultValue` when absent.
    ///
    /// - Throws: `ArgumentError.invalidValue` when present but not an integer in `range`.
    func integer(_ option: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(ArgumentError) -> Int {
        guard let text = options[option] else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw .invalidValue(option: option, value: text, expected: "an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// `--schema S --model NAME FILE`, as `validate` and `describe` take them.
    ///
    /// - Throws: `ArgumentError.missing` for a missing part, or
    ///   `ArgumentError.tooMany` for more than one file.
    func schemaModelAndFile() throws(ArgumentError) -> (schema: String, model: String, file: String) {
        guard let schema = options["schema"] else { throw .missing("--schema <schema.json>") }
        guard let model = options["model"] else { throw .missing("--model <name>") }
        guard let file = positionals.first else { throw .missing("<file>") }
        guard positionals.count == 1 else { throw .tooMany("<file>") }
        return (schema, model, file)
    }
}

/// A command line that does not fit its command's `ArgumentSpec`.
enum ArgumentError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownName(String)
    case missingValue(option: String)
    case unexpectedValue(flag: String)
    case invalidValue(option: String, value: String, expected: String)
    case missing(String)
    case tooMany(String)

    var description: String {
        switch self {
        case .unknownName(let name): "unknown option '\(name)'"
        case .missingValue(let option): "option '--\(option)' needs a value"
        case .unexpectedValue(let flag): "flag '--\(flag)' takes no value"
        case .invalidValue(let option, let value, let expected): "invalid value '\(value)' for '--\(option)': expected \(expected)"
        case .missing(let what): "missing \(what)"
        case .tooMany(let what): "give exactly one \(what)"
        }
    }
}
