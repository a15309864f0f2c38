import Foundation
import Testing
@testable import JSONModelKit

/// Paths from third-party schemas (red-team items 5 and 6): a declared path may not name the
/// root, hold a negative index or an index beyond ``JSONPath/maximumIndex``; writes through
/// `JSONValue` never pad an array with more than that many nulls.
@Suite("Path limits")
struct PathLimitTests {
    final class HugeIndex: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.last(Int?.self, jsonPath: "a[9223372036854775807]")
        }
    }

    final class FarIndex: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.far(Int?.self, jsonPath: "a[1000000000]")
            p.justOver(Int?.self, anyOf: ["b", "a[10001]"])
            p.negative(Int?.self, jsonPath: "a[-1]")
            p.listed(Int?.self, jsonPath: ["a", -2])
            p.rooted(Int?.self, jsonPath: "$")
            p.empty(Int?.self, jsonPath: "")
            p.rootAlternative(Int?.self, anyOf: ["c", .root])
            p.items([Item].self, embedPath: "node[-1]")
        }
    }

    final class Item: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.id(Int.self)
        }
    }

    final class AtTheLimit: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.last(Int?.self, jsonPath: "a[10000]")
        }
    }

    @Test func anIndexBeyondTheLimitIsADeclarationProblem() {
        #expect {
            try HugeIndex.validateDeclarations()
        } throws: { error in
            let problems = (error as? ModelDeclarationError)?.problems ?? []
            return problems.count == 1 && problems[0].model == "HugeIndex" && problems[0].property == "last"
                && problems[0].message.contains("9223372036854775807") && problems[0].message.contains("10000")
        }
    }

    @Test func everyBadPathIsReportedWithItsProperty() throws {
        let error = try #require(throws: ModelDeclarationError.self) { try FarIndex.validateDeclarations() }
        let byProperty = Dictionary(error.problems.map { ($0.property, $0.message) }, uniquingKeysWith: { $1 })
        #expect(Set(byProperty.keys) == ["far", "justOver", "negative", "listed", "rooted", "empty", "rootAlternative", "items"])
        #expect(byProperty["far"]?.contains("beyond the largest index") == true, "\(byProperty)")
        #expect(byProperty["justOver"]?.contains("a[10001]") == true, "\(byProperty)")
        #expect(byProperty["negative"]?.contains("negative index") == true, "\(byProperty)")
        #expect(byProperty["listed"]?.contains("negative index") == true, "\(byProperty)")
        #expect(byProperty["rooted"]?.contains("names the root") == true, "\(byProperty)")
        #expect(byProperty["empty"]?.contains("names the root") == true, "\(byProperty)")
        #expect(byProperty["rootAlternative"]?.contains("names the root") == true, "\(byProperty)")
        #expect(byProperty["items"]?.contains("embedPath") == true, "\(byProperty)")
    }

    @Test func theLimitItselfIsAllowedAndWritesPadOnlyThatFar() throws {
        try AtTheLimit.validateDeclarations()
        let model = try AtTheLimit(json: #"{"a": [1]}"#, options: .mutable)
        model.last = 7
        let array = try #require(model.jsonModel.json()["a"]?.arrayValue)
        #expect(array.count == JSONPath.maximumIndex + 1)
        #expect(array.last == 7)
        #expect(model.last as Int? == 7)
    }

    @Test(arguments: [
        (#""a[9223372036854775807]""#, "beyond the largest index"),
        (#""a[10001]""#, "beyond the largest index"),
        (#"["a", 1000000000]"#, "beyond the largest index"),
        (#""a[-1]""#, "negative index"),
        (#""a.b[-3].c""#, "negative index"),
        (#""$""#, "names the root"),
    ])
    func schemaPathsAreCheckedAtLoad(path: String, expected: String) throws {
        for option in ["jsonPath", "anyOf"] {
            let value = option == "anyOf" ? "[\"other\", \(path)]" : path
            let schema = try ModelSchema(json: #"""
                {"models": [{"name": "Paths", "properties": [{"name": "x", "type": "Int?", "\#(option)": \#(value)}]}]}
                """#)
            #expect("\(option): \(path)") {
                try ModelRegistry().register(schema)
            } throws: { error in
                let error = error as? ModelSchemaError
                return error?.model == "Paths" && error?.property == "x" && error?.message.contains(expected) == true
            }
        }
    }

    @Test func schemaFilesWithABadPathDoNotLoad() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pathlimits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"""
            {"models": [{"name": "Rooted", "properties": [{"name": "all", "type": "Int", "jsonPath": "$"}]}]}
            """#.utf8).write(to: folder.appendingPathComponent("rooted.json"))
        let registry = ModelRegistry()
        #expect {
            try registry.loadSchemas(at: folder)
        } throws: { error in
            let problems = (error as? SchemaLoadingError)?.problems ?? []
            return problems.count == 1 && problems[0].model == "Rooted" && problems[0].property == "all"
                && problems[0].message.contains("names the root")
        }
        #expect(registry.schemaMetadata(named: "Rooted") == nil)
    }

    // MARK: - Writes through JSONValue

    @Test func aHugeIndexThroughTheSubscriptChangesNothing() {
        var value: JSONValue = ["a": [1], "b": true]
        value[JSONPath("a[9223372036854775807]")] = 2
        value[JSONPath("a[1000000000]")] = 2
        value[JSONPath("c[1000000000].d")] = 2
        value[JSONPath("a[-1]")] = 2
        value[["a", 0, "x"]] = nil
        #expect(value == ["a": [1], "b": true])
        var array: JSONValue = [1]
        array[1_000_000_000] = 2
        array[Int.max] = 2
        array[-1] = 2
        #expect(array == [1])
    }

    @Test func theThrowingFormSaysWhy() throws {
        var value: JSONValue = ["a": [1]]
        #expect(throws: JSONPathError.self) { try value.setValue(2, at: "a[9223372036854775807]") }
        do {
            try value.setValue(2, at: "a[1000000000]")
            Issue.record("expected an error")
        } catch let error as JSONPathError {
            #expect(error.path == "a[1000000000]")
            #expect(error.description.contains("999999999 nulls"), "\(error)")
            #expect(error.description.contains("10000"), "\(error)")
        }
        do {
            try value.setValue(2, at: "a[-1]")
            Issue.record("expected an error")
        } catch let error as JSONPathError {
            #expect(error.description.contains("negative index"), "\(error)")
        }
        #expect(value == ["a": [1]])
        try value.setValue(2, at: "a[3]")
        #expect(value == ["a": [1, nil, nil, 2]])
        try value.setValue(nil, at: "a[1]")
        #expect(value == ["a": [1, nil, 2]])
        try value.setValue(nil, at: "a[5000000000]")  // removing what is not there changes nothing
        try value.setValue("root", at: .root)
        #expect(value == "root")
    }

    @Test func paddingIsBoundedFromTheEndOfTheArray() throws {
        var value: JSONValue = .array(Array(repeating: 0, count: 20_000))
        try value.setValue(1, at: JSONPath([.index(20_000 + JSONPath.maximumIndex)]))
        #expect(value.arrayValue?.count == 20_001 + JSONPath.maximumIndex)
        #expect(throws: JSONPathError.self) {
            try value.setValue(1, at: JSONPath([.index(value.arrayValue!.count + JSONPath.maximumIndex + 1)]))
        }
        var fresh: JSONValue = nil
        #expect(throws: JSONPathError.self) { try fresh.setValue(1, at: JSONPath([.index(JSONPath.maximumIndex + 1)])) }
        #expect(fresh == nil)
        try fresh.setValue(1, at: JSONPath([.key("x"), .index(JSONPath.maximumIndex)]))
        #expect(fresh["x"]?.arrayValue?.count == JSONPath.maximumIndex + 1)
    }

    @Test func aPathNamingTheRootCannotTakeOverTheModel() throws {
        // A property group's path is the root; it still works.
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"""
            {"models": [
              {"name": "Place", "properties": [{"name": "city", "type": "String?"}]},
              {"name": "Person", "properties": [
                {"name": "name", "type": "String?"},
                {"name": "place", "type": "Place", "group": true}]}]}
            """#))
        let person = try registry.makeModel(named: "Person", json: ["name": "Ann", "city": "Rome"] as JSONValue, options: .mutable)
        try person.jsonModel.set("Bob", forProperty: "name")
        let place = try #require(person.jsonModel.value(forProperty: "place") as? JSONModel)
        try place.jsonModel.set("Oslo", forProperty: "city")
        #expect(person.jsonModel.json() == ["name": "Bob", "city": "Oslo"])
    }
}
