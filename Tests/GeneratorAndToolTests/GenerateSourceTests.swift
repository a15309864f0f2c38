import Foundation
import Testing
import JSONModelInference
@testable import JSONModelKit
import JSONModelKitTestSupport

/// A sample under `Fixtures/Generate/` and what `jsonmodel generate` makes of it: the Swift source
/// checked in under `Tests/TypedModelTests/Generated/` and the schema beside the sample.
///
/// The Swift files are compiled into the TypedModelTests target, which applies the
/// JSONModelAccessors plugin, and its tests read the samples through those classes' typed
/// members; these tests check that the files are what the generator prints.
struct GenerateFixture: Sendable, CustomTestStringConvertible {
    /// The sample's file name in `Fixtures/Generate/`.
    let sample: String
    /// `--name`.
    let name: String
    /// `--prefix`.
    let prefix: String

    var sampleURL: URL { GenerateFixtures.folder.appendingPathComponent(sample) }
    var swiftURL: URL { GenerateFixtures.generatedFolder.appendingPathComponent(name + ".swift") }
    var schemaURL: URL { GenerateFixtures.folder.appendingPathComponent(name + ".schema.json") }
    var testDescription: String { sample }

    func infer() throws -> InferredSchema {
        try ModelInference.infer(
            from: Data(contentsOf: sampleURL), rootName: name, options: .init(modelNamePrefix: prefix))
    }

    /// The sample's objects that the root model reads: itself, the elements of its array, or the
    /// values of a top-level dictionary.
    func objects() throws -> [JSONObject] {
        let value = try JSONDocument(data: Data(contentsOf: sampleURL)).root.value
        switch value {
        case .object(let object):
            guard try infer().topLevel == .dictionary else { return [object] }
            return object.values.compactMap(\.objectValue)
        case .array(let elements): return elements.compactMap(\.objectValue)
        default: return []
        }
    }
}

enum GenerateFixtures {
    /// Set to 1 to rewrite `Tests/TypedModelTests/Generated/*.swift` and `Fixtures/Generate/*.schema.json`
    /// from the generator.
    static let recordVariable = "RECORD_GENERATED"

    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let folder = testsFolder.appendingPathComponent("Fixtures/Generate")
    /// In the TypedModelTests target, whose plugin gives the classes their typed members.
    static let generatedFolder = SharedData.packageRoot.appendingPathComponent("Tests/TypedModelTests/Generated")

    static let all: [GenerateFixture] = [
        GenerateFixture(sample: "shop-orders.json", name: "ShopOrder", prefix: "Shop"),
        GenerateFixture(sample: "odd-keys.json", name: "OddRecord", prefix: "Odd"),
        GenerateFixture(sample: "api-feed.json", name: "FeedPage", prefix: "Feed"),
        GenerateFixture(sample: "org-archive.json", name: "Org", prefix: "Org"),
        // Without a prefix, nested models are named by their keys alone: library type names
        // (KeyStyle, JSON, ModelOptions) and names a property of the parent has (_3d) are taken.
        GenerateFixture(sample: "names-without-prefix.json", name: "Listing", prefix: ""),
    ]

    /// Checks `actual` against the file at `url` byte for byte, or records it (``Snapshot``).
    static func expect(_ actual: String, equalsFileAt url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        Snapshot.expect(actual, matchesFileAt: url, recordVariable: recordVariable, sourceLocation: sourceLocation)
    }
}

/// Proof that generated models work: the Swift source equals the files compiled into
/// TypedModelTests (whose tests read the samples through them), and the schemas register and
/// read the samples back.
@Suite("Generated models")
struct GenerateSourceTests {
    @Test(arguments: GenerateFixtures.all)
    func swiftSourceEqualsTheCompiledFile(fixture: GenerateFixture) throws {
        GenerateFixtures.expect(try fixture.infer().swiftSource, equalsFileAt: fixture.swiftURL)
    }

    @Test func theSourceDeclaresPlainClassesAndNamesThePlugin() throws {
        let source = try GenerateFixtures.all[0].infer().swiftSource
        let lines = source.split(separator: "\n")
        #expect(lines[1] == "// For typed members, compile it in a target with the JSONModelAccessors plugin (or run `jsonmodel accessors`).")
        #expect(source.contains("\nfinal class ShopOrder: JSONModel, @unchecked Sendable {\n"))
        #expect(!source.contains("DynamicMembers"))
    }

    @Test(arguments: GenerateFixtures.all)
    func schemaEqualsTheCheckedInFile(fixture: GenerateFixture) throws {
        GenerateFixtures.expect(try fixture.infer().schemaText, equalsFileAt: fixture.schemaURL)
    }

    @Test(arguments: GenerateFixtures.all)
    func schemaRegistersAndReadsTheSampleBack(fixture: GenerateFixture) throws {
        let inferred = try fixture.infer()
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: inferred.schemaText))
        let root = try #require(inferred.models.first)
        for (index, object) in try fixture.objects().enumerated() {
            let model = try registry.makeModel(named: root.name, json: JSONValue.object(object))
            GeneratedRoundTrip.expectReadsBack(model, from: object, as: root, in: inferred, context: "\(fixture.sample)[\(index)]")
        }
    }
}

/// Compares what a model reads with the JSON it was read from, property by property.
enum GeneratedRoundTrip {
    /// Checks every property of `model` (declared as `inferredModel`) against `object`: the
    /// value read, turned back into JSON, equals the sample's value (dates compared as
    /// instants, since a date is written in UTC and its declared format); the model's JSON equals
    /// `object`; and validating records no diagnostic.
    static func expectReadsBack(
        _ model: JSONModel, from object: JSONObject, as inferredModel: InferredModel, in schema: InferredSchema,
        context: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for property in inferredModel.properties {
            let original = object[property.key] ?? .null
            guard let read = model.jsonModel.jsonValue(forProperty: property.name) else {
                Issue.record("\(context): \(model.jsonModel.modelName) has no property \(property.name)", sourceLocation: sourceLocation)
                continue
            }
            #expect(normalized(read, as: property.type, in: schema) == normalized(original, as: property.type, in: schema),
                    "\(context).\(property.name): read \(read), sample \(original)", sourceLocation: sourceLocation)
        }
        #expect(model.jsonModel.json() == .object(object), "\(context): output differs from the input", sourceLocation: sourceLocation)
        do {
            try model.jsonModel.validate()
        } catch {
            Issue.record("\(context): \(error)", sourceLocation: sourceLocation)
        }
    }

    /// `json` with every date (by the inferred type) replaced by its instant in milliseconds.
    static func normalized(_ json: JSONValue, as type: InferredType, in schema: InferredSchema) -> JSONValue {
        switch type {
        case .optional(let wrapped):
            return json.isNull ? .null : normalized(json, as: wrapped, in: schema)
        case .date(let format):
            var date: Date?
            if let text = json.stringValue {
                date = format.dateTryingFallbacks(from: text)
            } else if let number = json.doubleValue {
                date = Date(timeIntervalSince1970: number / (format == .millisecondsSince1970 ? 1000 : 1))
            }
            guard let date else { return json }
            return JSONValue(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        case .array(let element):
            guard let items = json.arrayValue else { return json }
            return .array(items.map { normalized($0, as: element, in: schema) })
        case .dictionary(let value):
            guard let object = json.objectValue else { return json }
            return .object(JSONObject(object.map { (key: $0.key, value: normalized($0.value, as: value, in: schema)) }))
        case .model(let name):
            guard var object = json.objectValue, let model = schema.model(named: name) else { return json }
            for property in model.properties {
                if let value = object[property.key] {
                    _ = object.updateValue(normalized(value, as: property.type, in: schema), forKey: property.key)
                }
            }
            return .object(object)
        default:
            return json
        }
    }
}
