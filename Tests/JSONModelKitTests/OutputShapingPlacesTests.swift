import Foundation
import Testing
@testable import JSONModelKit

private final class ShapedCard: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.holder(String?.self)
        p.token(String?.self, serialize: false)
    }
}

private final class ShapedStreet: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.street(String?.self)
    }
}

/// The card is declared after the model whose value holds it, and that model does not declare it.
private final class CardAfterAddress: JSONModel, DynamicMembers, @unchecked Sendable {
    override class var comparesDeclaredPropertiesOnly: Bool { true }
    override class func properties(_ p: PropertyRegistrar) {
        p.address(ShapedStreet?.self)
        p.card(ShapedCard?.self, jsonPath: "address.card")
    }
}

/// The same declarations, the other way round.
private final class CardBeforeAddress: JSONModel, DynamicMembers, @unchecked Sendable {
    override class var comparesDeclaredPropertiesOnly: Bool { true }
    override class func properties(_ p: PropertyRegistrar) {
        p.card(ShapedCard?.self, jsonPath: "address.card")
        p.address(ShapedStreet?.self)
    }
}

private final class ShapedItem: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
    }
}

/// A value declared through an index into an array of models that do not declare it.
private final class LabelledCart: JSONModel, DynamicMembers, @unchecked Sendable {
    override class var comparesDeclaredPropertiesOnly: Bool { true }
    override class func properties(_ p: PropertyRegistrar) {
        p.items([ShapedItem].self)
        p.firstLabel(String?.self, jsonPath: "items[0].label")
        p.firstItem(ShapedItem?.self, jsonPath: "items[0]")
    }
}

/// Output options apply to every model of the output by its own class, wherever its value sits.
@Suite("Output shaping by place")
struct OutputShapingPlacesTests {
    static let text = #"{"address": {"street": "S", "card": {"holder": "Ann", "token": "t0", "x": 1}}}"#
    static let omitted: JSONValue = ["address": ["street": "S", "card": ["holder": "Ann", "x": 1]]]
    static let declared: JSONValue = ["address": ["street": "S", "card": ["holder": "Ann", "token": "t0"]]]

    /// A model inside another model's value keeps its own rules: its `serialize: false` value
    /// stays out, its unknown keys go with `onlyDeclared`, in either order of declaration.
    @Test func aModelInsideAnotherModelsValueIsShapedByItsOwnClass() throws {
        for model in [try CardAfterAddress(json: Self.text) as JSONModel, try CardBeforeAddress(json: Self.text)] {
            let name = String(describing: type(of: model))
            #expect(model.jsonModel.json(options: .omitNonSerialized) == Self.omitted, "\(name)")
            #expect(model.jsonModel.json(options: .onlyDeclared) == Self.declared, "\(name)")
            #expect(
                model.jsonModel.json(options: [.onlyDeclared, .omitNonSerialized])
                    == ["address": ["street": "S", "card": ["holder": "Ann"]]], "\(name)")
        }
    }

    @Test func anUnknownKeyInsideTheInnerModelLeavesRecordsEqual() throws {
        let a = try CardAfterAddress(json: Self.text)
        let b = try CardAfterAddress(json: #"{"address": {"street": "S", "card": {"holder": "Ann", "token": "t0", "x": 2}}}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        let c = try CardAfterAddress(json: #"{"address": {"street": "S", "card": {"holder": "Bo", "token": "t0"}}}"#)
        #expect(a != c)
    }

    /// `items[0].label` is read by the model, so `onlyDeclared` keeps it, and equality sees it.
    @Test func aDeclaredPathThroughAnIndexIsKept() throws {
        let a = try LabelledCart(json: #"{"items": [{"id": 1, "label": "A", "x": 0}, {"id": 2, "y": 1}]}"#)
        let b = try LabelledCart(json: #"{"items": [{"id": 1, "label": "B"}, {"id": 2}]}"#)
        #expect(a.jsonModel.json(options: .onlyDeclared) == ["items": [["id": 1, "label": "A"], ["id": 2]]])
        let back = try LabelledCart(json: a.jsonModel.json(options: .onlyDeclared))
        #expect(back.firstLabel as String? == "A")
        #expect(a != b)
        #expect(Set([a, b]).count == 2)
        // Nothing is padded: an empty array stays empty, a first element that is not an object stays.
        let empty = try LabelledCart(json: #"{"items": []}"#)
        #expect(empty.jsonModel.json(options: .onlyDeclared) == ["items": []])
        let scalar = try LabelledCart(json: #"{"items": [7]}"#)
        #expect(scalar.jsonModel.json(options: .onlyDeclared) == ["items": [7]])
    }
}
