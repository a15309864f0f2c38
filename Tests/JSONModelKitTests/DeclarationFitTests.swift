import Foundation
import Testing
@testable import JSONModelKit

private struct FitMeta: Codable, Sendable, Equatable {
    var city: String
}

private final class FitGroupOfCodable: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.meta(FitMeta.self, default: FitMeta(city: ""), group: true)
        p.metas([FitMeta].self, jsonPath: "edges", embedPath: "node")
    }
}

private final class FitAddress: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String?.self)
    }
}

private final class FitGroupWithPath: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.address(FitAddress.self, jsonPath: "address", group: true)
        p.other(FitAddress.self, anyOf: ["a", "b"], group: true)
    }
}

private final class FitOptions: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.born(String.self, dateFormat: "dd/MM/yyyy")
        p.level(Int.self, enumValues: ["1", "2"])
        p.owner(String?.self, inverse: "pets")
        p.days([Date].self, dateFormat: "dd/MM/yyyy")
        p.kinds([String: String?].self, enumValues: ["a"])
    }
}

private final class FitAnyOfWriters: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int?.self, anyOf: ["id", "legacy_id"])
        p.legacyID(Int?.self, jsonPath: "legacy_id")
    }
}

private final class FitAnyOfReadOnly: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int?.self, anyOf: ["id", "legacy_id"])
        p.legacyID(Int?.self, jsonPath: "legacy_id", readOnly: true)
    }
}

private final class FitHugeIndex: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.x(Int?.self, jsonPath: "items[99999999999999999999]")
    }
}

/// Declarations whose options do not fit their type are problems, never options ignored.
@Suite("Declarations: options that fit")
struct DeclarationFitTests {
    private func problems(_ type: JSONModel.Type) -> [String] {
        do {
            try type.validateDeclarations()
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func groupAndEmbedPathNeedModelsForTypesOfTheUsersToo() {
        #expect(problems(FitGroupOfCodable.self) == [
            "FitGroupOfCodable.meta: a property group must have a model type, not FitMeta",
            "FitGroupOfCodable.metas: embedPath needs an array of models, not Array<FitMeta>",
        ])
    }

    @Test func aGroupTakesNoPathOfItsOwn() {
        #expect(problems(FitGroupWithPath.self) == [
            "FitGroupWithPath.address: a property group reads its parent's own object, so it takes no jsonPath or anyOf",
            "FitGroupWithPath.other: a property group reads its parent's own object, so it takes no jsonPath or anyOf",
        ])
    }

    @Test func dateFormatEnumValuesAndInverseNeedTheirTypes() {
        #expect(problems(FitOptions.self) == [
            "FitOptions.born: dateFormat needs a Date property, not String",
            "FitOptions.level: enumValues needs a String property, not Int",
            "FitOptions.owner: inverse needs a model property, not String?",
        ])
    }

    @Test func everyPathOfAnyOfCountsAsWritten() throws {
        #expect(problems(FitAnyOfWriters.self) == [
            "FitAnyOfWriters.legacyID: 'id' and 'legacyID' both write JSON path legacy_id; mark one readOnly",
        ])
        #expect(problems(FitAnyOfReadOnly.self) == [])
        let model = try FitAnyOfReadOnly(json: #"{"legacy_id": 7}"#)
        #expect(model.id as Int? == 7)
        #expect(model.legacyID as Int? == 7)
    }

    @Test func anIndexPastIntIsAnIndexOutOfRange() {
        #expect(JSONPath("items[99999999999999999999]").segments == [.key("items"), .index(Int.max)])
        #expect(JSONPath("items[-99999999999999999999]").segments == [.key("items"), .index(Int.min)])
        #expect(problems(FitHugeIndex.self).count == 1)
    }
}

private final class FitColored: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.color(Int.self, converter: .using(.hexColor))
        p.colors([Int].self, converter: .using(.hexColor))
        p.named(Int?.self, converter: "hexColor")
    }
}

@Suite("Converters: writes they cannot make")
struct UnwritableConverterValueTests {
    @Test func aColourOutsideTheRangeIsRefusedNotWrittenAsAnother() throws {
        let model = try FitColored(json: ##"{"color": "#ff8800", "colors": ["#000000"]}"##, options: .mutable)
        for value in [0x1FF_8800, -1] {
            #expect(throws: JSONModelError.self) { try model.jsonModel.set(value, forProperty: "color") }
            #expect(throws: JSONModelError.self) { try model.jsonModel.set([0, value], forProperty: "colors") }
        }
        #expect(throws: JSONModelError.self) { try model.jsonModel.set(0x1FF_8800, forProperty: "named") }
        #expect(model.color as Int == 0xFF8800)
        try model.jsonModel.set(0xFFFFFF, forProperty: "color")
        #expect(model.jsonModel.json()["color"] == "#ffffff")
    }
}
