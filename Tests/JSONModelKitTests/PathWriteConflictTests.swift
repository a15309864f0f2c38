import Foundation
import Testing
@testable import JSONModelKit
@testable import JSONModelKitCore

final class DeepWriter: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.y(String?.self, jsonPath: "x.y")
        p.first(String?.self, jsonPath: "list[0]")
    }
}

final class DeepWriterPlace: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String?.self, jsonPath: "address.city")
    }
}

final class DeepWriterGrouped: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.place(DeepWriterPlace.self, group: true)
    }
}

@Suite("Writes through a value of the wrong kind")
struct PathWriteConflictTests {
    @Test(arguments: [
        #"{"x": "str"}"#, #"{"x": 5}"#, #"{"x": true}"#, #"{"x": [1]}"#,
    ])
    func aModelWriteThroughAScalarThrowsAndChangesNothing(input: String) throws {
        let model = try DeepWriter(json: input, options: .mutable)
        let before = model.jsonModel.json()
        #expect(throws: JSONModelError.self) { try model.jsonModel.set("made", forProperty: "y") }
        #expect(model.jsonModel.json() == before)
        #expect(!model.jsonModel.hasMutations)
    }

    @Test func anIndexIntoAnObjectThrows() throws {
        let model = try DeepWriter(json: #"{"list": {"a": 1}}"#, options: .mutable)
        #expect(throws: JSONModelError.self) { try model.jsonModel.set("made", forProperty: "first") }
        #expect(model.jsonModel.json() == ["list": ["a": 1]])
    }

    @Test func nullAndMissingLevelsAreStillCreated() throws {
        let model = try DeepWriter(json: #"{"x": null}"#, options: .mutable)
        try model.jsonModel.set("made", forProperty: "y")
        try model.jsonModel.set("one", forProperty: "first")
        #expect(model.jsonModel.json() == ["x": ["y": "made"], "list": ["one"]])
    }

    @Test func setValueThrowsAndTheSubscriptChangesNothing() {
        var value: JSONValue = ["x": "str", "n": [1]]
        #expect(throws: JSONPathError.self) { try value.setValue("made", at: "x.y") }
        #expect(throws: JSONPathError.self) { try value.setValue("made", at: "n.k") }
        #expect(throws: JSONPathError.self) { try value.setValue("made", at: "x[0]") }
        value[JSONPath("x.y")] = "made"
        value["x"]?["y"] = "made"
        #expect(value == ["x": "str", "n": [1]])
        // Removing through a scalar has nothing to remove.
        try? value.setValue(nil, at: "x.y")
        #expect(value == ["x": "str", "n": [1]])
    }

    @Test func aWholeGroupWriteThroughAScalarThrows() throws {
        let model = try DeepWriterGrouped(json: #"{"address": "str"}"#, options: .mutable)
        let place = try DeepWriterPlace(json: #"{"address": {"city": "Rome"}}"#)
        #expect(throws: JSONModelError.self) { try model.jsonModel.set(place, forProperty: "place") }
        #expect(model.jsonModel.json() == ["address": "str"])
    }
}
