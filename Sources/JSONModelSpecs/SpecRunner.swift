#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKit

/// Runs conformance cases written as data (the `Specs/` format).
///
/// Each case declares a schema, an input, and what reads, writes, output, descriptions and
/// diagnostics must give. Every case runs in a registry of its own, so cases may reuse model
/// names.
///
/// ```swift
/// let results = SpecRunner.run(directory: URL(fileURLWithPath: "Specs"))
/// for failure in results.filter({ !$0.passed }) { print(failure) }
/// ```
public enum SpecRunner {
    /// The outcome of one case.
    public struct Result: Sendable, CustomStringConvertible {
        /// The case file, relative to the folder that was run.
        public let file: String
        /// The case's `name`.
        public let name: String
        /// One line per expectation that did not hold; empty when the case passed.
        public let failures: [String]

        public init(file: String, name: String, failures: [String]) {
            self.file = file
            self.name = name
            self.failures = failures
        }

        public var passed: Bool { failures.isEmpty }

        public var description: String {
            passed ? "PASS \(file): \(name)" : failures.map { "FAIL \(file): \(name): \($0)" }.joined(separator: "\n")
        }
    }

    /// Runs every case in `directory` and its subfolders, in path order.
    ///
    /// Files holding only `{"models": …}` are schemas that cases refer to, not cases.
    public static func run(directory: URL) -> [Result] {
        let root = directory.standardizedFileURL
        let paths = (try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? []
        return paths.filter { $0.hasSuffix(".json") }.sorted().compactMap { relative in
            run(file: root.appendingPathComponent(relative), displayName: relative)
        }
    }

    /// Runs one case file; nil when the file is a schema rather than a case.
    public static func run(file: URL, displayName: String? = nil) -> Result? {
        let display = displayName ?? file.lastPathComponent
        let value: JSONValue
        do {
            value = try JSONDocument(data: try Data(contentsOf: file)).root.value
        } catch {
            return Result(file: display, name: "(unreadable)", failures: ["cannot read case: \(error)"])
        }
        guard let object = value.objectValue else {
            return Result(file: display, name: "(invalid)", failures: ["a case must be a JSON object"])
        }
        if object.keys == ["models"] { return nil }
        return run(case: object, file: display, directory: file.deletingLastPathComponent())
    }

    /// The keys a case may hold, as `Specs/README.md` lists them.
    ///
    /// A key outside this list fails the case: a misspelt or renamed key would otherwise make
    /// its expectation silently go unchecked.
    static let caseKeys: Set<String> = [
        "name", "schema", "schemaFile", "model", "input", "mutable", "error", "strictError", "reads", "diagnostics",
        "description", "fullDescription", "writes", "merge", "readsAfterWrites", "output", "outputOptions",
    ]

    /// The keys of a case's `outputOptions`.
    static let outputOptionKeys: Set<String> = ["includeNulls", "onlyDeclared", "omitNonSerialized"]

    /// Runs one case given as a JSON object.
    public static func run(case object: JSONObject, file: String, directory: URL) -> Result {
        let name = object["name"]?.stringValue ?? "(unnamed)"
        var failures: [String] = []
        func fail(_ message: String) -> Result {
            Result(file: file, name: name, failures: failures + [message])
        }
        let unknown = object.keys.filter { !caseKeys.contains($0) }
        let unknownOptions = (object["outputOptions"]?.objectValue?.keys ?? []).filter { !outputOptionKeys.contains($0) }
        if !unknown.isEmpty || !unknownOptions.isEmpty {
            let named = unknown.map { "\"\($0)\"" } + unknownOptions.map { "\"outputOptions.\($0)\"" }
            return fail("unknown key\(named.count == 1 ? "" : "s") \(named.joined(separator: ", ")) (a case may hold only the keys Specs/README.md lists)")
        }

        // The schema, inline or from a file beside the case.
        let schema: ModelSchema
        do {
            if let inline = object["schema"] {
                schema = try ModelSchema(json: inline)
            } else if let path = object["schemaFile"]?.stringValue {
                let url = directory.appendingPathComponent(path)
                schema = try ModelSchema(json: try Data(contentsOf: url))
            } else {
                return fail("the case has neither \"schema\" nor \"schemaFile\"")
            }
        } catch {
            return fail("schema: \(error)")
        }
        let registry = ModelRegistry()
        do {
            try registry.register(schema)
        } catch {
            return fail("schema: \(error)")
        }
        guard let modelName = object["model"]?.stringValue else { return fail("the case has no \"model\"") }
        let input = object["input"] ?? .object(JSONObject())
        let writes = object["writes"]?.arrayValue ?? []
        let mutable = object["mutable"]?.boolValue ?? (!writes.isEmpty || object["merge"] != nil)

        // Validation runs on an instance of its own, so it does not touch the counted diagnostics.
        for (key, strict) in [("error", false), ("strictError", true)] {
            guard let expected = object[key]?.stringValue else { continue }
            let label = strict ? "a strict validation error" : "a validation error"
            do {
                let checked = try registry.makeModel(named: modelName, json: input)
                try checked.jsonModel.validate(strict: strict)
                failures.append("expected \(label) containing \"\(expected)\", got none")
            } catch {
                let text = "\(error)"
                if !text.contains(expected) {
                    failures.append("expected \(label) containing \"\(expected)\", got \"\(text)\"")
                }
            }
        }

        let model: JSONModel
        do {
            model = try registry.makeModel(named: modelName, json: input, options: ModelOptions(mutable: mutable))
        } catch {
            return fail("cannot create \(modelName): \(error)")
        }
        check(reads: object["reads"], on: model, label: "read", into: &failures)
        if let expected = object["diagnostics"]?.intValue, model.jsonModel.diagnostics.count != expected {
            failures.append(
                "expected \(expected) diagnostics, got \(model.jsonModel.diagnostics.count): \(model.jsonModel.diagnostics.map(\.description))")
        }
        if let expected = object["description"]?.stringValue, model.debugDescription != expected {
            failures.append("description: expected \(expected.debugDescription), got \(model.debugDescription.debugDescription)")
        }
        // A string, or a list of lines (easier to read in a case file).
        if let given = object["fullDescription"],
            let expected = given.stringValue ?? given.arrayValue?.compactMap(\.stringValue).joined(separator: "\n"),
            model.jsonModel.fullDescription != expected
        {
            failures.append("fullDescription: expected \(expected.debugDescription), got \(model.jsonModel.fullDescription.debugDescription)")
        }
        for (index, write) in writes.enumerated() {
            guard let assignments = write.objectValue else {
                failures.append("writes[\(index)] must be an object")
                continue
            }
            for (property, value) in assignments {
                do {
                    try model.jsonModel.set(value, forProperty: property)
                } catch {
                    failures.append("write \(property) = \(value): \(error)")
                }
            }
        }
        // `merge`: a partial object merged in after the writes, by `update(with:)`.
        if let partial = object["merge"] {
            do {
                try model.jsonModel.update(with: partial)
            } catch {
                failures.append("merge \(partial): \(error)")
            }
        }
        check(reads: object["readsAfterWrites"], on: model, label: "read after writes", into: &failures)
        if let expected = object["output"] {
            var options: JSONOutputOptions = []
            let flags = object["outputOptions"]?.objectValue
            if flags?["includeNulls"]?.boolValue == true { options.insert(.includeNulls) }
            if flags?["onlyDeclared"]?.boolValue == true { options.insert(.onlyDeclared) }
            if flags?["omitNonSerialized"]?.boolValue == true { options.insert(.omitNonSerialized) }
            let actual = model.jsonModel.json(options: options)
            if actual != expected {
                failures.append("output: expected \(expected), got \(actual)")
            }
        }
        return Result(file: file, name: name, failures: failures)
    }

    private static func check(reads: JSONValue?, on model: JSONModel, label: String, into failures: inout [String]) {
        guard let reads = reads?.objectValue else { return }
        for (property, expected) in reads {
            guard model.jsonModel.hasProperty(property) else {
                failures.append("\(label) \(property): no such property")
                continue
            }
            let actual = model.jsonModel.jsonValue(forProperty: property) ?? .null
            if actual != expected {
                failures.append("\(label) \(property): expected \(expected), got \(actual)")
            }
        }
    }
}
