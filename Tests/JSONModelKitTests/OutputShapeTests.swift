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
