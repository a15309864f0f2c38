#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("SchemaLoading needs the C library: no Glibc, Musl or Darwin module here")
#endif
import JSONModelKitCore

// Loading schema files and folders, all or none.
//
// Every file is read and every model checked against the whole batch and the registry
// before anything is stored; one lock-protected store then adds all the new models at once.
// `register(_ schema:)` goes through the same checks with a batch of one schema. This file reads
// the files; the checks are in SchemaBatch+Checking.swift.

extension ModelRegistry {
    /// Loads a schema file, or every schema file in a folder, all or none.
    ///
    /// A folder is searched recursively for files ending in `.json` (hidden files and folders
    /// are skipped), in the order of their relative paths. All the files form one batch: a
    /// model may use or extend a model of another file of the batch, or one registered before.
    /// Everything is checked before anything is registered, and every problem found is
    /// reported, each with its file, model and property:
    ///
    /// - a file that cannot be read, is not JSON, or is not a schema (unknown keys and
    ///   options, options of the wrong JSON type, bad paths, bad type expressions);
    /// - a type nested more than 32 levels (each `[T]`, `[String: T]` and `?` is one) or with
    ///   nested optionals (`Int??`);
    /// - a path naming the root (`"$"`), holding a negative index or one above
    ///   10,000; a date pattern with a field too wide (`yyyyy`, `ddd`);
    /// - a type name that is neither built in nor a model of the batch, a registered schema
    ///   model or a registered model class;
    /// - `extends` naming an unknown model or a compiled class, forming a cycle, or giving a
    ///   model more than 16 ancestors (reported once per chain, at the first model past the
    ///   limit);
    /// - a model name declared twice in the batch, taken by a registered model class or by
    ///   a registered schema model with a different definition, or a built-in type's name
    ///   (`Int`, `String`, `Date`, …), which a property type could never refer to;
    /// - a property named like a member of ``JSONModel`` (``JSONModel/reservedPropertyNames``:
    ///   `jsonModel`, `hash`, …); name it otherwise and keep the key with `"jsonPath"`;
    /// - options that do not suit their property (`required` on an optional, `enumValues` on a non-`String`,
    ///   `dateFormat` on a non-`Date`, `inverse` on a non-model, an invalid date pattern, a
    ///   default that does not convert, two writable properties on one JSON path, …); the
    ///   default of a type holding models must hold objects where the models are (`{}` for
    ///   `Customer?`, `[{}]` for `[Line]`; `5` or `[1]` is refused);
    /// - discriminators naming unknown models or compiled classes, mapping a tag to a model
    ///   that does not extend the discriminating one (directly or through a chain), or mapping
    ///   one text spelled two ways (`"\u00e9"` and `"e\u0301"`), which compare equal as tags;
    /// - property groups that hold their own model again (`"group": true` on `Node.same: Node`,
    ///   or through other groups, inherited ones and the models their discriminators pick): a
    ///   group reads its parent's own object, so these would nest without end (reported once
    ///   per cycle, `A.b → B.a → A`).
    ///
    /// Checking and building take time linear in the schema (each model's inherited
    /// properties counted), and so does reporting: every problem is found with table lookups.
    ///
    /// Loading a model again with an identical definition is allowed and changes nothing, so
    /// loading the same folder twice succeeds. A converter name (`"converter": "cents"`) is
    /// not checked: converters may be registered later, and a name that is still unknown
    /// when a value is read gives the property's default with a diagnostic.
    ///
    /// ```swift
    /// let names = try ModelRegistry.shared.loadSchemas(at: URL(fileURLWithPath: "schemas"))
    /// let invoice = try ModelRegistry.shared.makeModel(named: "Invoice", json: data)
    /// ```
    ///
    /// - Parameter url: A schema file, or a folder of them.
    /// - Returns: The names of the models the files declare, in file order (including those
    ///   that were already registered identically).
    /// - Throws: ``SchemaLoadingError`` listing every problem; nothing was registered.
    @discardableResult
    public func loadSchemas(at url: URL) throws(SchemaLoadingError) -> [String] {
        let batch = try SchemaBatch(contentsOf: url)
        try batch.register(in: self)
        return batch.entries.map(\.model.name)
    }
}

/// Why schema files could not be loaded: every problem found, each naming its file, model
/// and property where known. Nothing was registered.
public struct SchemaLoadingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every problem, in file order.
    public var problems: [ModelSchemaError]

    package init(problems: [ModelSchemaError]) {
        self.problems = problems
    }

    /// One line per problem, after a summary line.
    public var description: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return "cannot load the schemas (\(count); nothing was registered):\n"
            + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}

/// Schema models from one or more sources, checked together and registered all at once.
struct SchemaBatch: Sendable {
    /// One model and the file it came from (nil for schemas built in memory).
    struct Entry: Sendable {
        var model: ModelSchema.Model
        var file: String?
    }

    /// The models, in source order.
    var entries: [Entry]

    init(models: [Entry]) {
        self.entries = models
    }

    /// Reads a schema file or a folder of them.
    ///
    /// - Throws: Every file that cannot be read or is not a schema; then nothing else is checked.
    init(contentsOf url: URL) throws(SchemaLoadingError) {
        let files = try Self.schemaFiles(at: url)
        var entries: [Entry] = []
        var problems: [ModelSchemaError] = []
        for file in files {
            do {
                let data = try Data(contentsOf: file)
                let schema = try ModelSchema(json: data)
                entries += schema.models.map { Entry(model: $0, file: file.path) }
            } catch var error as ModelSchemaError {
                error.file = file.path
                problems.append(error)
            } catch {
                problems.append(ModelSchemaError("cannot read the file: \(Self.describe(error))", file: file.path))
            }
        }
        if !problems.isEmpty { throw SchemaLoadingError(problems: problems) }
        self.entries = entries
    }

    /// The `.json` files at `url`: the file itself, or those under the folder, recursively,
    /// sorted by path, hidden ones left out.
    static func schemaFiles(at url: URL) throws(SchemaLoadingError) -> [URL] {
        guard let isFolder = Self.isFolder(url.path) else {
            throw SchemaLoadingError(problems: [ModelSchemaError("no such file or folder", file: url.path)])
        }
        guard isFolder else { return [url] }
        let paths: [String]
        do {
            paths = try FileManager.default.subpathsOfDirectory(atPath: url.path)
        } catch {
            throw SchemaLoadingError(problems: [ModelSchemaError("cannot list the folder: \(Self.describe(error))", file: url.path)])
        }
        let files = paths
            .filter { path in path.hasSuffix(".json") && !path.split(separator: "/").contains { $0.hasPrefix(".") } }
            .sorted()
            .map { url.appendingPathComponent($0) }
        if files.isEmpty {
            throw SchemaLoadingError(problems: [ModelSchemaError("the folder holds no .json schema files", file: url.path)])
        }
        return files
    }

    /// Whether `path` names a folder, symbolic links followed; nil when nothing is there.
    static func isFolder(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// A short reason for an error reading files.
    static func describe(_ error: any Error) -> String {
        if let error = error as? CocoaError {
            switch error.code {
            case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
            case .fileReadNoPermission: return "permission denied"
            default: return "file system error \(error.code.rawValue)"
            }
        }
        return String(describing: error)
    }

}
