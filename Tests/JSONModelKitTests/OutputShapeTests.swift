import Foundation
import Testing
@testable import JSONModelKit

private final class ShapeSpot: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String?.self)
    }
}

private final class ShapeShipment: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.address(ShapeSpot?.self)
        p.city(String?.self, jsonPath: "address.city")
        p.zip(String?.self, jsonPath: "where.zip")
    }
}

private final class ShapeAddress: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.street(String.self)
        p.city(String.self)
    }
}

private final class ShapeResident: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
        p.address(ShapeAddress.self, group: true)
    }
}

private final class ShapeSecret: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.secret(String?.self, jsonPath: "items[0].secret", serialize: false)
    }
}

private final class ShapeHome: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.owner(ShapeResident.self)
    }
}

private final class ShapeStreet: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.street(String?.self)
    }
}

/// Declares a path into a nested model whose class does not declare it.
private final class ShapeOrder: JSONModel, DynamicMembers, @unchecked Sendable {
    override class var comparesDeclaredPropertiesOnly: Bool { true }
    override class func properties(_ p: PropertyRegistrar) {
        p.address(ShapeStreet?.self)
        p.city(String?.self, jsonPath: "address.city")
    }
}

/// A serialized property inside a non-serialized one.
private final class ShapeNote: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.raw(JSONValue?.self, jsonPath: "meta", serialize: false)
        p.title(String?.self, jsonPath: "meta.title")
    }
}

private final class ShapeMetaHolder: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.place(ShapeSpot.self, jsonPath: "meta.place")
    }
}

/// Only a path through a level, no property of the level itself.
private final class ShapeTown: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String?.self, jsonPath: "address.city")
    }
}

/// Output options and descriptions that read back as the model does.
@Suite("Output shapes")
struct OutputShapeTests {
    @Test func includeNullsMakesNoObjectWhereTheJSONHasNone() throws {
        for text in [#"{"address": null}"#, "{}"] {
            let shipment = try ShapeShipment(json: text)
            let output = shipment.jsonModel.json(options: .includeNulls)
            #expect(output["address"] == .null, "\(text)")
            // A missing object no property reads as a value is made, as the specs say.
            #expect(output["where"] == ["zip": nil], "\(text)")
            let back = try ShapeShipment(json: output)
            #expect(back.address as ShapeSpot? == nil, "\(text)")
        }
        // Where the object is there, its missing keys get their nulls.
        let present = try ShapeShipment(json: #"{"address": {}, "where": {}}"#)
        let output = present.jsonModel.json(options: .includeNulls)
        #expect(output == ["address": ["city": nil], "where": ["zip": nil]])
    }

    /// A path this model declares inside a nested model of a class that does not declare it is
    /// output with `onlyDeclared`, and so compared: the nested model's shaping dropped it, and
    /// two orders for Rome and Milan were equal.
    @Test func onlyDeclaredKeepsAPathDeclaredIntoANestedModel() throws {
        let rome = try ShapeOrder(json: #"{"address": {"street": "S", "city": "Rome", "x": 1}, "y": 2}"#)
        let milan = try ShapeOrder(json: #"{"address": {"street": "S", "city": "Milan"}}"#)
        #expect(rome.jsonModel.json(options: .onlyDeclared) == ["address": ["street": "S", "city": "Rome"]])
        #expect(rome.jsonModel.json(options: [.onlyDeclared, .includeNulls]) == ["address": ["street": "S", "city": "Rome"]])
        #expect(rome != milan)
        #expect(rome == (try ShapeOrder(json: #"{"address": {"city": "Rome", "street": "S"}}"#)))
        let back = try ShapeOrder(json: rome.jsonModel.json(options: .onlyDeclared))
        #expect(back.city as String? == "Rome")
    }

    /// A serialized property inside one declared `serialize: false` is output: removing the
    /// outer one's value removed it too, and `includeNulls` then wrote it `null`.
    @Test func omitNonSerializedKeepsASerializedPropertyInsideIt() throws {
        let note = try ShapeNote(json: #"{"meta": {"title": "Hi", "secret": 1}, "x": 2}"#)
        #expect(note.jsonModel.json(options: .omitNonSerialized) == ["meta": ["title": "Hi"], "x": 2])
        #expect(note.jsonModel.json(options: [.omitNonSerialized, .includeNulls]) == ["meta": ["title": "Hi"], "x": 2])
        let untitled = try ShapeNote(json: #"{"meta": {"secret": 1}}"#)
        #expect(untitled.jsonModel.json(options: [.omitNonSerialized, .includeNulls]) == ["meta": ["title": nil]])
    }

    /// `onlyDeclared` with `includeNulls` makes no object through a level the JSON has as
    /// `null` or a scalar, as `includeNulls` alone does not: `onlyDeclared` left that level
    /// out, and the level check looked only at what was left.
    @Test func onlyDeclaredWithNullsMakesNoObjectThroughANullLevel() throws {
        for text in [#"{"address": null}"#, #"{"address": "n/a"}"#] {
            let town = try ShapeTown(json: text)
            #expect(town.jsonModel.json(options: [.onlyDeclared, .includeNulls]) == [:], "\(text)")
        }
        #expect(try ShapeTown(json: "{}").jsonModel.json(options: [.onlyDeclared, .includeNulls]) == ["address": ["city": nil]])
    }

    /// A nested model's `update(with:)` where its parent holds a string at its place is refused,
    /// as its property writes are: it was taken, read back in the nested model, and missing
    /// from the parent's JSON, or replaced the string with an object.
    @Test func aNestedModelsMergeIsRefusedWhereItsParentHoldsAScalar() throws {
        for text in [#"{"meta": "x"}"#, #"{"meta": {"place": "n/a"}}"#] {
            let holder = try ShapeMetaHolder(json: text, options: .mutable)
            let spot: ShapeSpot = holder.place
            #expect(throws: JSONModelError.self) { try spot.jsonModel.set("Rome", forProperty: "city") }
            do {
                try spot.jsonModel.update(with: ["city": "Rome"])
                Issue.record("the merge was taken: \(text)")
            } catch {
                guard case .unwritable(_, let property, let reason) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(property == "update(with:)" && reason.contains("a string"), "\(reason)")
            }
            #expect(holder.jsonModel.json() == (try JSONValue(json: text)), "\(text)")
            #expect(spot.city as String? == nil, "\(text)")
        }
        // Where the parent holds an object, the merge goes through.
        let open = try ShapeShipment(json: #"{"address": {"city": "Oslo"}}"#, options: .mutable)
        let place = try #require(open.address as ShapeSpot?)
        try place.jsonModel.update(with: ["city": "Rome"])
        #expect(open.jsonModel.json() == ["address": ["city": "Rome"]])
    }

    @Test func omitNonSerializedLeavesTheOtherElementsInTheirPlaces() throws {
        let model = try IndexSlots(json: #"{"items": ["a", "b", "c"]}"#)
        let output = model.jsonModel.json(options: .omitNonSerialized)
        #expect(output == ["items": [nil, "b", "c"]])
        let back = try IndexSlots(json: output)
        #expect(back.second as String? == "b")
        #expect(back.third as String? == "c")
        // A key inside an element is removed, as any key is.
        let secret = try ShapeSecret(json: #"{"items": [{"secret": "s", "x": 1}]}"#)
        #expect(secret.jsonModel.json(options: .omitNonSerialized) == ["items": [["x": 1]]])
        // Past the array's end, nothing is padded.
        let short = try IndexSlots(json: #"{"items": []}"#)
        #expect(short.jsonModel.json(options: .omitNonSerialized) == ["items": []])
    }

    @Test func aGroupsKeysAreKnownAndItsChangesAreItsProperties() throws {
        let resident = try ShapeResident(json: #"{"name": "Ann", "street": "Via Roma 1", "city": "Rome", "x": 1}"#, options: .mutable)
        let before = resident.jsonModel.fullDescription
        #expect(before.hasSuffix("\nunknown keys:\n  x: 1"), "\(before)")
        try resident.jsonModel.set("Bo", forProperty: "name")
        let after = resident.jsonModel.fullDescription
        #expect(after.hasSuffix("\nunknown keys:\n  x: 1\nchanged since the original:\n  name: \"Ann\" → \"Bo\""), "\(after)")
    }

    @Test func anUnknownKeyMakesNoLinesOfItsOwn() throws {
        let resident = try ShapeResident(json: #"{"name": "Ann", "street": "s", "city": "c", "x\nunknown keys:\n  admin": true}"#)
        let full = resident.jsonModel.fullDescription
        #expect(full.hasSuffix(#"unknown keys:\#n  "x\nunknown keys:\n  admin": true"#), "\(full)")
        let long = try ShapeResident(json: #"{"name": "Ann", "street": "s", "city": "c", "\#(String(repeating: "k", count: 5_000))": 1}"#)
        #expect(long.jsonModel.fullDescription.count < 2_500)
    }

    @Test func aGroupChangedAtTheDepthLimitIsShownWhole() throws {
        let home = try ShapeHome(json: #"{"owner": {"name": "Ann", "street": "s", "city": "Rome"}}"#, options: .mutable)
        let owner: ShapeResident = home.owner
        let address: ShapeAddress = owner.address
        try address.jsonModel.set("Oslo", forProperty: "city")
        var limits = DescriptionLimits.default
        limits.maxDepth = 1
        let full = home.jsonModel.fullDescription(limits: limits)
        #expect(full.contains("changed since the original:\n  owner.address: ShapeAddress("), "\(full)")
        #expect(home.jsonModel.fullDescription.contains("owner.address.city: \"Rome\" → \"Oslo\""))
    }
}
