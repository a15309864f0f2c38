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

final class IndexSlots: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.second(String?.self, jsonPath: "items[1]")
        p.third(String?.self, jsonPath: "items[2]")
        p.hidden(String?.self, jsonPath: "items[0]", serialize: false)
    }
}

final class IndexSlotItem: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String?.self)
    }
}

final class IndexSlotList: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.items([IndexSlotItem].self)
        p.second(IndexSlotItem?.self, jsonPath: "items[1]")
    }
}

/// A property read from an array element, set to nil, makes the element `null`: the elements
/// after it keep their indexes, which other properties and nested models read from.
@Suite("Writing nil at an array index")
struct NilAtAnIndexTests {
    @Test func theOtherElementsKeepTheirPlaces() throws {
        let model = try IndexSlots(json: #"{"items": ["a", "b", "c"]}"#, options: .mutable)
        #expect(model.third as String? == "c")
        try model.jsonModel.set(nil, forProperty: "second")
        #expect(model.second as String? == nil)
        #expect(model.third as String? == "c")
        #expect(model.jsonModel.json() == ["items": ["a", .null, "c"]])
        let copy = model.jsonModel.copy()
        #expect(copy.third as String? == "c" && copy.second as String? == nil)
        // Output that leaves out a property read from an element nulls the element too.
        #expect(model.jsonModel.json(options: .omitNonSerialized) == ["items": [.null, .null, "c"]])
        // Past the end there is nothing to remove, and nothing is added.
        let short = try IndexSlots(json: #"{"items": ["a"]}"#, options: .mutable)
        try short.jsonModel.set(nil, forProperty: "third")
        #expect(short.jsonModel.json() == ["items": ["a"]])
    }

    /// Output with nulls for missing properties adds none through an array index: the array
    /// would be padded with nulls, and other readers of it see different elements.
    @Test func nullsAreNotAddedThroughAnIndex() throws {
        let model = try IndexSlots(json: #"{"items": ["a"], "other": 1}"#)
        #expect(model.jsonModel.json(options: .includeNulls) == ["items": ["a"], "other": 1])
        let missing = try IndexSlots(json: #"{"other": 1}"#)
        #expect(missing.jsonModel.json(options: .includeNulls) == ["other": 1])
    }

    @Test func nestedModelsReadFromLaterElementsStillWriteToThem() throws {
        let list = try IndexSlotList(json: #"{"items": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}"#, options: .mutable)
        let items: [IndexSlotItem] = list.items
        try list.jsonModel.set(nil, forProperty: "second")
        items[2].name = "C"
        #expect(list.jsonModel.json() == ["items": [["name": "a"], .null, ["name": "C"]]])
        #expect(list.second as IndexSlotItem? == nil)
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
