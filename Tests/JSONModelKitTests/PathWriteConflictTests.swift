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

/// A property read from an array element, set to nil, removes the element, and the ones after it
/// move up (as Specs/reliability/nil-through-array-index-removes-the-element.json says): every
/// property read through the array reads again, and nested models read from the elements that
/// moved no longer write to the elements now at their places.
@Suite("Writing nil at an array index")
struct NilAtAnIndexTests {
    @Test func theElementsAfterItMoveUpAndReadAgain() throws {
        let model = try IndexSlots(json: #"{"items": ["a", "b", "c"]}"#, options: .mutable)
        #expect(model.third as String? == "c")  // cached, then moved
        try model.jsonModel.set(nil, forProperty: "second")
        #expect(model.jsonModel.json() == ["items": ["a", "c"]])
        #expect(model.second as String? == "c")
        #expect(model.third as String? == nil)
        let copy = model.jsonModel.copy()
        #expect(copy.second as String? == "c" && copy.third as String? == nil)
        // Past the end there is nothing to remove.
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

    @Test func nestedModelsOfElementsThatMovedNoLongerWriteThrough() throws {
        let list = try IndexSlotList(json: #"{"items": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}"#, options: .mutable)
        let items: [IndexSlotItem] = list.items
        try list.jsonModel.set(nil, forProperty: "second")
        #expect(list.jsonModel.json() == ["items": [["name": "a"], ["name": "c"]]])
        // The model of "c" was at index 2: it no longer writes there (nor where "c" is now).
        items[2].name = "C"
        #expect(list.jsonModel.json() == ["items": [["name": "a"], ["name": "c"]]])
        // The model of "a" did not move, and still writes through.
        items[0].name = "A"
        #expect(list.jsonModel.json() == ["items": [["name": "A"], ["name": "c"]]])
        let again: [IndexSlotItem] = list.items
        #expect(again.map { $0.name as String? } == ["A", "c"])
        #expect((list.second as IndexSlotItem?)?.name as String? == "c")
    }
}

final class BlockedLeaf: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String?.self)
    }
}

final class BlockedPlace: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String?.self)
        p.leaf(BlockedLeaf.self, jsonPath: "sub.leaf")
    }
}

final class BlockedHolder: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.place(BlockedPlace.self, jsonPath: "meta.place")
    }
}

/// A nested model read with its default, because its path runs through a value of another kind,
/// refuses writes, as a write of the parent's at that path is refused: taken, they would read
/// back from the nested model and be missing from the parent's JSON.
@Suite("Writes to a nested model its parent cannot hold")
struct BlockedNestedWriteTests {
    @Test func theWriteIsRefusedAndNothingChanges() throws {
        let holder = try BlockedHolder(json: #"{"meta": "x"}"#, options: .mutable)
        let place: BlockedPlace = holder.place
        #expect(throws: JSONModelError.self) { try place.jsonModel.set("Rome", forProperty: "city") }
        #expect(place.city as String? == nil)
        #expect(holder.jsonModel.json() == ["meta": "x"])
        #expect(throws: JSONModelError.self) { try holder.jsonModel.set(["city": "Rome"] as JSONValue, forProperty: "place") }
        // A level further down: blocked in its own parent, or in its parent's.
        let fine = try BlockedHolder(json: #"{"meta": {"place": {"sub": 3}}}"#, options: .mutable)
        let outer: BlockedPlace = fine.place
        try outer.jsonModel.set("Oslo", forProperty: "city")
        #expect(fine.jsonModel.json() == ["meta": ["place": ["sub": 3, "city": "Oslo"]]])
        let leaf: BlockedLeaf = outer.leaf
        #expect(throws: JSONModelError.self) { try leaf.jsonModel.set("Rome", forProperty: "name") }
        #expect(fine.jsonModel.json() == ["meta": ["place": ["sub": 3, "city": "Oslo"]]])
        let deep: BlockedLeaf = place.leaf  // its parent could hold it; its parent's parent cannot
        #expect(throws: JSONModelError.self) { try deep.jsonModel.set("Rome", forProperty: "name") }
        #expect(holder.jsonModel.json() == ["meta": "x"])
    }

    /// The model's own place holding a scalar (it read its default there) is not replaced by a
    /// write through it either; the parent's own write of the whole property still replaces it.
    @Test func aScalarAtTheModelsOwnPlaceIsNotReplaced() throws {
        for scalar in [#""n/a""#, "5", "true", "[1]"] {
            let holder = try BlockedHolder(json: #"{"meta": {"place": \#(scalar)}}"#, options: .mutable)
            let before = holder.jsonModel.json()
            let place: BlockedPlace = holder.place
            #expect(throws: JSONModelError.self) { try place.jsonModel.set("Rome", forProperty: "city") }
            #expect(holder.jsonModel.json() == before)
            #expect(place.city as String? == nil)
        }
        let holder = try BlockedHolder(json: #"{"meta": {"place": null}}"#, options: .mutable)
        (holder.place as BlockedPlace).city = "Rome"
        #expect(holder.jsonModel.json() == ["meta": ["place": ["city": "Rome"]]])
        let replaced = try BlockedHolder(json: #"{"meta": {"place": "n/a"}}"#, options: .mutable)
        try replaced.jsonModel.set(["city": "Oslo"] as JSONValue, forProperty: "place")
        #expect(replaced.jsonModel.json() == ["meta": ["place": ["city": "Oslo"]]])
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
