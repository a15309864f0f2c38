import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// A temporary folder of schema files.
struct SchemaFolder {
    let url: URL

    init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodelkit-schemas-\(UUID().uuidString)")
        for (path, text) in files {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

@Suite("Schema loading")
struct SchemaLoadingTests {
    static let shapes = #"""
        {"models": [
          {"name": "Shape", "discriminator": {"jsonPath": "type", "map": {"circle": "Circle", "square": "Square"}},
           "properties": [{"name": "type", "type": "String"}, {"name": "label", "type": "String?"}]}]}
        """#
    /// A base without a discriminator, which may be loaded before any subclass.
    static let plainShape = #"{"models": [{"name": "Shape", "properties": [{"name": "type", "type": "String"}, {"name": "label", "type": "String?"}]}]}"#
    static let kinds = #"""
        {"models": [
          {"name": "Circle", "extends": "Shape", "properties": [{"name": "radius", "type": "Double"}]},
          {"name": "Square", "extends": "Shape", "properties": [{"name": "side", "type": "Double"}]}]}
        """#
    static let drawing = #"""
        {"models": [{"name": "Drawing", "properties": [
          {"name": "shapes", "type": "[Shape]"}, {"name": "createdAt", "type": "Date?", "dateFormat": "yyyy-MM-dd"}]}]}
        """#

    /// Loads a folder expecting failure; returns the problems.
    func problems(loading files: [String: String], into registry: ModelRegistry = ModelRegistry()) throws
        -> (problems: [ModelSchemaError], folder: SchemaFolder)
    {
        let folder = try SchemaFolder(files)
        do {
            try registry.loadSchemas(at: folder.url)
            Issue.record("the folder loaded")
            return ([], folder)
        } catch {
            return (error.problems, folder)
        }
    }

    @Test func loadsAFolderWhoseFilesReferToEachOther() throws {
        let folder = try SchemaFolder([
            "shapes.json": Self.shapes, "more/kinds.json": Self.kinds, "more/drawing.json": Self.drawing,
            "README.md": "not a schema", ".hidden/broken.json": "{",
        ])
        defer { folder.remove() }
        let registry = ModelRegistry()
        let names = try registry.loadSchemas(at: folder.url)
        // In the order of the files' relative paths.
        #expect(names == ["Drawing", "Circle", "Square", "Shape"])
        let drawing = try registry.makeModel(
            named: "Drawing",
            json: ["shapes": [["type": "circle", "radius": 2], ["type": "square", "side": 3], ["type": "blob"]],
                   "createdAt": "2024-02-29"] as JSONValue)
        let shapes = try #require(models(in: drawing.jsonModel.value(forProperty: "shapes")))
        #expect(shapes.map(\.jsonModel.modelName) == ["Circle", "Square", "Shape"])
        let radius: Double = shapes[0].jsonModel.dynamic.radius
        #expect(radius == 2)
        let createdAt: Date? = drawing.jsonModel.dynamic.createdAt
        #expect(createdAt == Date(timeIntervalSince1970: 1_709_164_800))  // 2024-02-29, by the declared pattern
        let circle = try registry.makeModel(named: "Shape", json: ["type": "circle", "radius": 1.5] as JSONValue)
        #expect(circle.jsonModel.modelName == "Circle")
    }

    @Test func loadsOneFile() throws {
        let folder = try SchemaFolder(["shapes.json": Self.plainShape, "kinds.json": Self.kinds])
        defer { folder.remove() }
        let registry = ModelRegistry()
        #expect(try registry.loadSchemas(at: folder.url.appendingPathComponent("shapes.json")) == ["Shape"])
        #expect(registry.schemaMetadata(named: "Shape") != nil)
    }

    @Test func laterFilesUseModelsLoadedBefore() throws {
        let registry = ModelRegistry()
        let first = try SchemaFolder(["shapes.json": Self.plainShape])
        let second = try SchemaFolder(["kinds.json": Self.kinds, "drawing.json": Self.drawing])
        defer { first.remove(); second.remove() }
        try registry.loadSchemas(at: first.url)
        // Circle and Square extend, and Drawing uses, Shape from the earlier load.
        try registry.loadSchemas(at: second.url)
        let square = try registry.makeModel(named: "Square", json: ["type": "square", "side": 4, "label": "a"] as JSONValue)
        let side: Double = square.jsonModel.dynamic.side
        let label: String? = square.jsonModel.dynamic.label
        #expect(label == "a" && side == 4)
    }

    @Test func identicalDefinitionsMayBeLoadedAgain() throws {
        let folder = try SchemaFolder(["shapes.json": Self.shapes, "kinds.json": Self.kinds])
        defer { folder.remove() }
        let registry = ModelRegistry()
        try registry.loadSchemas(at: folder.url)
        let before = try #require(registry.schemaMetadata(named: "Circle"))
        #expect(try registry.loadSchemas(at: folder.url) == ["Circle", "Square", "Shape"])
        // Nothing replaced: the same metadata object.
        #expect(registry.schemaMetadata(named: "Circle") === before)
        // The same holds for register(_:).
        let schema = try ModelSchema(json: Self.plainShape)
        let other = ModelRegistry()
        try other.register(schema)
        try other.register(schema)
        // Shape with a discriminator is another definition than Shape without one.
        #expect(throws: ModelSchemaError("a different model of this name is already registered", model: "Shape")) {
            try registry.register(schema)
        }
    }

    @Test func aDifferentDefinitionOfARegisteredNameIsRefused() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: Self.plainShape))
        let changed = Self.plainShape.replacingOccurrences(of: #""label", "type": "String?""#, with: #""label", "type": "Int?""#)
        let (problems, folder) = try problems(loading: ["shapes.json": changed, "kinds.json": Self.kinds], into: registry)
        defer { folder.remove() }
        #expect(problems == [ModelSchemaError("a different model of this name is already registered", model: "Shape", file: folder.path("shapes.json"))])
        #expect(registry.schemaMetadata(named: "Circle") == nil)
    }

    @Test func aNameTakenByAModelClassIsRefused() throws {
        final class Taken: JSONModel, DynamicMembers, @unchecked Sendable {}
        let registry = ModelRegistry()
        try registry.register(Taken.self, name: "Shape")
        let (problems, folder) = try problems(loading: ["shapes.json": Self.plainShape], into: registry)
        defer { folder.remove() }
        #expect(problems.count == 1)
        #expect(problems.first?.message.hasPrefix("the name is taken by the model class ") == true)
        #expect(problems.first?.model == "Shape")
    }

    @Test func aClassCannotTakeTheNameOfASchemaModel() throws {
        final class Late: JSONModel, DynamicMembers, @unchecked Sendable {}
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"{"models": [{"name": "Invoice", "properties": []}]}"#))
        #expect(throws: ModelSchemaError("the name is taken by a schema model", model: "Invoice")) {
            try registry.register(Late.self, name: "Invoice")
        }
        #expect(registry.modelType(named: "Invoice") == nil)
        #expect(try registry.makeModel(named: "Invoice", json: "{}") is DynamicModel)
    }

    @Test func duplicateNamesInTheBatchAreRefusedNamingBothFiles() throws {
        let other = #"{"models": [{"name": "Shape", "properties": []}, {"name": "Extra", "properties": []}]}"#
        let registry = ModelRegistry()
        let (problems, folder) = try problems(loading: ["a.json": Self.plainShape, "b.json": other], into: registry)
        defer { folder.remove() }
        #expect(problems == [ModelSchemaError("the model is declared twice (also in \(folder.path("a.json")))",
                                              model: "Shape", file: folder.path("b.json"))])
        #expect(registry.schemaMetadata(named: "Extra") == nil)
        #expect(registry.schemaMetadata(named: "Shape") == nil)
        // Within one schema too.
        #expect(throws: ModelSchemaError("the model is declared twice (also earlier)", model: "A")) {
            try ModelRegistry().register(ModelSchema(json: #"{"models": [{"name": "A"}, {"name": "A"}]}"#))
        }
    }

    @Test func unknownTypesNameFileModelAndProperty() throws {
        let bad = #"""
            {"models": [{"name": "Order", "properties": [
              {"name": "lines", "type": "[Line]"}, {"name": "total", "type": "double"}, {"name": "customer", "type": "Customer?"}]}]}
            """#
        let good = #"{"models": [{"name": "Customer", "properties": [{"name": "name", "type": "String"}]}]}"#
        let registry = ModelRegistry()
        let (problems, folder) = try problems(loading: ["order.json": bad, "customer.json": good], into: registry)
        defer { folder.remove() }
        let file = folder.path("order.json")
        // Customer, from the other file, is known; every other problem is reported.
        #expect(problems == [
            ModelSchemaError("unknown type \"Line\"", model: "Order", property: "lines", file: file),
            ModelSchemaError("unknown type \"double\" (did you mean \"Double\"?)", model: "Order", property: "total", file: file),
        ])
        #expect("\(problems[0])" == "schema error: \(file): Order.lines: unknown type \"Line\"")
        // A bad file registers nothing, not even the good file's models.
        #expect(registry.schemaMetadata(named: "Customer") == nil)
    }

    @Test func typesMayNameRegisteredModelClasses() throws {
        final class Account: JSONModel, DynamicMembers, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) { p.login(String.self) }
        }
        let registry = ModelRegistry()
        try registry.register(Account.self, name: "Account")
        let folder = try SchemaFolder(["team.json": #"{"models": [{"name": "Team", "properties": [{"name": "members", "type": "[Account]"}]}]}"#])
        defer { folder.remove() }
        try registry.loadSchemas(at: folder.url)
        let team = try registry.makeModel(named: "Team", json: ["members": [["login": "ann"]]] as JSONValue)
        let members: ModelArray<Account> = team.jsonModel.dynamic.members
        let login: String = members[0].login
        #expect(login == "ann")
    }

    @Test func cyclesInExtendsAreReportedOnce() throws {
        let a = #"{"models": [{"name": "A", "extends": "B", "properties": []}, {"name": "Self", "extends": "Self"}]}"#
        let b = #"{"models": [{"name": "B", "extends": "C"}, {"name": "C", "extends": "A"}, {"name": "D", "extends": "C"}]}"#
        let (problems, folder) = try problems(loading: ["a.json": a, "b.json": b])
        defer { folder.remove() }
        #expect(problems == [
            ModelSchemaError("\"extends\" forms a cycle: A → B → C → A", model: "A", file: folder.path("a.json")),
            ModelSchemaError("\"extends\" forms a cycle: Self → Self", model: "Self", file: folder.path("a.json")),
        ])
    }

    @Test func extendsMustNameASchemaModel() throws {
        final class Compiled: JSONModel, DynamicMembers, @unchecked Sendable {}
        let registry = ModelRegistry()
        try registry.register(Compiled.self, name: "Compiled")
        let text = #"{"models": [{"name": "A", "extends": "Nobody"}, {"name": "B", "extends": "Compiled"}, {"name": "C", "extends": "A"}]}"#
        let (problems, folder) = try problems(loading: ["x.json": text], into: registry)
        defer { folder.remove() }
        let file = folder.path("x.json")
        #expect(problems == [
            ModelSchemaError("extends unknown model \"Nobody\"", model: "A", file: file),
            ModelSchemaError("extends the model class \"Compiled\"; a schema model can extend only schema models", model: "B", file: file),
        ])
    }

    @Test(arguments: [
        (#"{"name": "x", "type": "Int", "enumValues": ["a"]}"#, "\"enumValues\" needs a String property, not Int"),
        (#"{"name": "x", "type": "[String]?", "dateFormat": "iso8601"}"#, "\"dateFormat\" needs a Date property, not [String]?"),
        (#"{"name": "x", "type": "Int", "inverse": "owner"}"#, "\"inverse\" needs a model property, not Int"),
        (#"{"name": "x", "type": "Int", "default": "many"}"#, "the default \"many\" is not a valid Int"),
        (#"{"name": "x", "type": "Date", "dateFormat": "yyyy-MM-dd'"}"#, "date pattern"),
        (#"{"name": "x", "type": "Int", "group": true}"#, "a property group must have a model type"),
        (#"{"name": "x", "type": "Int", "embedPath": "a.b"}"#, "embedPath needs an array of models"),
    ])
    func badOptionsAreReported(_ property: String, _ message: String) throws {
        let text = #"{"models": [{"name": "Thing", "properties": [\#(property)]}]}"#
        let (problems, folder) = try problems(loading: ["thing.json": text])
        defer { folder.remove() }
        #expect(problems.count == 1, "\(problems)")
        let problem = try #require(problems.first)
        #expect(problem.message.contains(message), "\(problem)")
        #expect(problem.model == "Thing" && problem.property == "x" && problem.file == folder.path("thing.json"))
    }

    @Test func badFilesAreReportedTogetherAndNothingIsChecked() throws {
        let (problems, folder) = try problems(loading: [
            "a.json": #"{"models": [{"name": "A", "properties": [{"name": "x", "type": "Int", "colour": 1}]}]}"#,
            "b.json": #"{"models": [{"name": "B""#,
            "c.json": #"{"models": [{"name": "C", "properties": [{"name": "y", "type": "Nope"}]}]}"#,
        ])
        defer { folder.remove() }
        // Form errors of every file first; types are checked only once every file reads.
        #expect(problems.map(\.file) == [folder.path("a.json"), folder.path("b.json")])
        #expect(problems[0].message == "unknown option \"colour\"" && problems[0].model == "A" && problems[0].property == "x")
        #expect(problems[1].message.hasPrefix("invalid JSON"))
    }

    @Test func discriminatorsMustNameSchemaModels() throws {
        let text = #"{"models": [{"name": "Pet", "discriminator": {"jsonPath": "kind", "map": {"cat": "Cat", "dog": "Dgo"}}}, {"name": "Cat", "extends": "Pet"}]}"#
        let (problems, folder) = try problems(loading: ["pets.json": text])
        defer { folder.remove() }
        #expect(problems == [ModelSchemaError("the discriminator names unknown model \"Dgo\"", model: "Pet", file: folder.path("pets.json"))])
    }

    @Test func inheritedProblemsAreReportedOnTheModelThatDeclaresThem() throws {
        let text = #"{"models": [{"name": "Base", "properties": [{"name": "n", "type": "Int", "default": "x"}]}, {"name": "Child", "extends": "Base"}]}"#
        let (problems, folder) = try problems(loading: ["m.json": text])
        defer { folder.remove() }
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.model == "Base" && problems.first?.property == "n")
        // An unknown type in a base with two subclasses: once, on the base.
        let types = #"{"models": [{"name": "Base", "properties": [{"name": "n", "type": "Nope"}]}, {"name": "A", "extends": "Base"}, {"name": "B", "extends": "Base"}]}"#
        let (typeProblems, typeFolder) = try self.problems(loading: ["m.json": types])
        defer { typeFolder.remove() }
        #expect(typeProblems == [ModelSchemaError("unknown type \"Nope\"", model: "Base", property: "n", file: typeFolder.path("m.json"))])
    }

    @Test func aPropertyNamedLikeAMemberOfJSONModelIsRefused() throws {
        let schema = try ModelSchema(json: ["models": [["name": "Switch", "properties": [
            ["name": "label", "type": "String"], ["name": "jsonModel", "type": "Bool"]]]]] as JSONValue)
        let registry = ModelRegistry()
        #expect(throws: ModelSchemaError(
            #"'jsonModel' is a member of JSONModel; name the property otherwise and keep the key with jsonPath: "jsonModel""#,
            model: "Switch", property: "jsonModel")
        ) {
            try registry.register(schema)
        }
        #expect(registry.schemaMetadata(named: "Switch") == nil)
    }

    @Test func aFileWithMemberNamesNamesFileModelAndProperty() throws {
        let text = #"""
            {"models": [
              {"name": "Article", "properties": [{"name": "debugDescription", "type": "String"}, {"name": "title", "type": "String"}]},
              {"name": "Digest", "extends": "Article", "properties": [{"name": "hash", "type": "String", "jsonPath": "sha"}]}]}
            """#
        let (problems, folder) = try problems(loading: ["articles.json": text])
        defer { folder.remove() }
        let file = folder.path("articles.json")
        // The inherited `debugDescription` is reported once, on the model that declares it.
        #expect(problems == [
            ModelSchemaError(
                #"'debugDescription' is a member of JSONModel; name the property otherwise and keep the key with jsonPath: "debugDescription""#,
                model: "Article", property: "debugDescription", file: file),
            ModelSchemaError("'hash' is a member of JSONModel; name the property otherwise", model: "Digest", property: "hash", file: file),
        ])
        #expect("\(problems[0])".hasPrefix("schema error: \(file): Article.debugDescription: 'debugDescription' is a member of JSONModel"))
    }

    @Test func theKeyOfAMemberNameIsReadUnderAnotherName() throws {
        let folder = try SchemaFolder(["article.json": #"""
            {"models": [{"name": "Article", "properties": [{"name": "summary", "type": "String", "jsonPath": "description"}]}]}
            """#])
        defer { folder.remove() }
        let registry = ModelRegistry()
        try registry.loadSchemas(at: folder.url)
        let article = try registry.makeModel(named: "Article", json: ["description": "Short"] as JSONValue)
        let summary: String = article.jsonModel.dynamic.summary
        #expect(summary == "Short")
        #expect(article.debugDescription.hasPrefix("Article("))
    }

    @Test func missingPathsAndEmptyFolders() throws {
        let registry = ModelRegistry()
        let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        #expect(throws: SchemaLoadingError(problems: [ModelSchemaError("no such file or folder", file: nowhere.path)])) {
            try registry.loadSchemas(at: nowhere)
        }
        let empty = try SchemaFolder(["notes.txt": "hello"])
        defer { empty.remove() }
        #expect(throws: SchemaLoadingError(problems: [ModelSchemaError("the folder holds no .json schema files", file: empty.url.path)])) {
            try registry.loadSchemas(at: empty.url)
        }
    }

    @Test func theErrorListsEveryProblem() throws {
        let error = SchemaLoadingError(problems: [
            ModelSchemaError("unknown type \"Line\"", model: "Order", property: "lines", file: "order.json"),
            ModelSchemaError("extends unknown model \"X\"", model: "A", file: "a.json"),
        ])
        #expect("\(error)" == """
            cannot load the schemas (2 problems; nothing was registered):
              schema error: order.json: Order.lines: unknown type "Line"
              schema error: a.json: A: extends unknown model "X"
            """)
    }

    @Test func loadsTheSpecSchemas() throws {
        // Specs/schemas holds schema files used by the Specs cases; each loads on its own.
        let folder = SharedData.packageRoot.appendingPathComponent("Specs/schemas")
        for name in SharedData.files(in: folder) {
            let registry = ModelRegistry()
            #expect(throws: Never.self, "\(name.lastPathComponent)") { try registry.loadSchemas(at: name) }
        }
    }
}
