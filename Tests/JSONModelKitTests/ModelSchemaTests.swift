import Foundation
import Testing
@testable import JSONModelKit

@Suite("Model schemas")
struct ModelSchemaTests {
    @Test func parsesTypes() throws {
        #expect(try ModelSchema.TypeName(parsing: "Int") == .named("Int"))
        #expect(try ModelSchema.TypeName(parsing: "[String: [Order?]]?") == .optional(.dictionary(.array(.optional(.named("Order"))))))
        #expect(try ModelSchema.TypeName(parsing: " [ Int ] ") == .array(.named("Int")))
        for bad in ["", "[Int", "[Int: Int]", "Int??x", "1Int", "[]", "Int Int", String(repeating: "[", count: 100) + "Int" + String(repeating: "]", count: 100)] {
            #expect(throws: ModelSchemaError.self, "\(bad)") { try ModelSchema.TypeName(parsing: bad) }
        }
    }

    @Test func readsEveryOption() throws {
        let schema = try ModelSchema(json: """
            {"models": [{"name": "Shape", "discriminator": {"jsonPath": "type", "map": {"circle": "Circle"}},
              "properties": [{"name": "id", "type": "Int64", "anyOf": ["id", "objectId"], "default": 0,
                              "serialize": false, "readOnly": true, "dateFormat": "iso8601", "converter": "hex",
                              "enumValues": ["a"], "embedPath": "node.info", "inverse": "owner", "group": true,
                              "jsonPath": ["a.b", 0]}]},
             {"name": "Circle", "extends": "Shape", "properties": [{"name": "radius", "type": "Double"}]}]}
            """)
        #expect(schema.models.map(\.name) == ["Shape", "Circle"])
        let id = schema.models[0].properties[0]
        #expect(id.paths == [JSONPath([.key("a.b"), .index(0)]), JSONPath(parsing: "id"), JSONPath(parsing: "objectId")])
        #expect(id.defaultValue == 0)
        #expect(!id.serialize && id.readOnly && id.group)
        #expect(id.enumValues == ["a"] && id.converter == "hex" && id.inverse == "owner")
        #expect(id.embedPath == JSONPath(parsing: "node.info"))
        #expect(schema.models[0].discriminator?.map == ["circle": "Circle"])
        #expect(schema.models[1].extends == "Shape")
    }

    @Test(arguments: [
        (#"[]"#, "must be a JSON object"),
        (#"{"models": 1}"#, "needs \"models\""),
        (#"{"models": [], "extra": 1}"#, "unknown key \"extra\""),
        (#"{"models": [{"properties": []}]}"#, "needs a \"name\""),
        (#"{"models": [{"name": "A", "properties": [{"name": "x"}]}]}"#, "A.x: needs a \"type\""),
        (#"{"models": [{"name": "A", "properties": [{"name": "x", "type": "[Int"}]}]}"#, "is not a type"),
        (#"{"models": [{"name": "A", "properties": [{"name": "x", "type": "Int", "colour": 1}]}]}"#, "unknown option \"colour\""),
        (#"{"models": [{"name": "A", "properties": [{"name": "x", "type": "Int", "serialize": "no"}]}]}"#, "must be true or false"),
        (#"{"models": [{"name": "A", "properties": [{"name": "x", "type": "Int", "anyOf": []}]}]}"#, "non-empty list"),
        (#"{"models": [{"name": "A", "properties": [{"name": "x", "type": "Int", "jsonPath": [1.5]}]}]}"#, "segments must be"),
        (#"{"models": [{"name": "A", "properties": [{"name": "x", "type": "Int", "#,  "invalid JSON"),
    ])
    func rejectsBadSchemas(_ text: String, _ message: String) {
        do {
            _ = try ModelSchema(json: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}
