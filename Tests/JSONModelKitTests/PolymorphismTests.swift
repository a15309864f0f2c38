import Foundation
import Testing
@testable import JSONModelKit

class PolyShape: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.kind(String.self, jsonPath: "type")
        p.name(String?.self)
    }

    override class func modelClass(for json: JSONView) -> JSONModel.Type {
        switch json["type"]?.stringValue {
        case "circle": return PolyCircle.self
        case "square": return PolySquare.self
        case "bogus": return PolyUnrelated.self  // not a subclass: ignored
        default: return self
        }
    }
}

class PolyCircle: PolyShape, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.radius(Double.self)
    }

    // A subclass may refine further.
    override class func modelClass(for json: JSONView) -> JSONModel.Type {
        json["ring"]?.boolValue == true ? PolyRing.self : self
    }
}

final class PolyRing: PolyCircle, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.inner(Double.self)
    }
}

final class PolySquare: PolyShape, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.side(Double.self)
    }
}

final class PolyUnrelated: JSONModel, DynamicMembers, @unchecked Sendable {}

final class PolyDrawing: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.main(PolyShape.self)
        p.shapes([PolyShape].self)
        p.named([String: PolyShape].self)
        p.maybe([PolyShape?].self)
    }
}

func className(_ model: JSONModel) -> String { String(describing: type(of: model)) }

@Suite("Polymorphism")
struct PolymorphismTests {
    @Test func topLevelMakePicksTheSubclass() throws {
        let shape = try PolyShape.make(json: Data(#"{"type": "circle", "radius": 2}"#.utf8))
        let circle = try #require(shape as? PolyCircle)
        #expect(circle.radius as Double == 2)
        let node = try JSONDocument(string: #"{"type": "square", "side": 3}"#).root
        #expect(try PolyShape.make(json: node) is PolySquare)
        #expect(try className(PolyShape.make(json: ["type": "triangle"] as JSONValue)) == "PolyShape")
    }

    @Test func unknownOrUnrelatedAnswersGiveTheBaseClass() throws {
        #expect(try className(PolyShape.make(json: ["type": "hexagon"] as JSONValue)) == "PolyShape")
        #expect(try className(PolyShape.make(json: ["type": "bogus"] as JSONValue)) == "PolyShape")
        #expect(try className(PolyShape.make(json: [:] as JSONValue)) == "PolyShape")
    }

    @Test func aSubclassRefinesFurther() throws {
        let shape = try PolyShape.make(json: ["type": "circle", "ring": true, "inner": 1] as JSONValue)
        let ring = try #require(shape as? PolyRing)
        #expect(ring.inner as Double == 1)
    }

    @Test func nestedArraysDictionariesAndOptionals() throws {
        let drawing = try PolyDrawing(json: #"""
            {"main": {"type": "square", "side": 1},
             "shapes": [{"type": "circle", "radius": 1}, {"type": "square", "side": 2}, {"type": "other"}],
             "named": {"a": {"type": "circle"}, "b": {"type": "square"}},
             "maybe": [{"type": "square"}, null]}
            """#)
        #expect((drawing.main as PolyShape) is PolySquare)
        let shapes: [PolyShape] = drawing.shapes
        #expect(shapes.map { String(describing: type(of: $0)) } == ["PolyCircle", "PolySquare", "PolyShape"])
        let lazy: ModelArray<PolyShape> = drawing.shapes
        #expect(lazy[0] is PolyCircle)
        let named: [String: PolyShape] = drawing.named
        #expect(named["a"] is PolyCircle && named["b"] is PolySquare)
        let maybe: [PolyShape?] = drawing.maybe
        #expect(maybe.count == 2 && maybe[0] is PolySquare && maybe[1] == nil)
    }

    @Test func copiesKeepTheSubclass() throws {
        let shape = try PolyShape.make(json: ["type": "circle", "radius": 1] as JSONValue)
        let mutable = shape.jsonModel.mutableCopy()
        #expect(mutable is PolyCircle)
        let changed = shape.jsonModel.mutate { $0.name = "c" }
        #expect(changed is PolyCircle)
        #expect(changed.jsonModel.copy() is PolyCircle)
        // A copy refines downward when its JSON now calls for a subclass.
        let ring = try shape.jsonModel.merging(["ring": true])
        #expect(ring is PolyRing)
    }

    @Test func lazyArraysArePolymorphicPerElement() throws {
        let shapes = try PolyShape.array(from: Data(#"[{"type": "circle"}, {"type": "square"}, {}]"#.utf8))
        #expect(shapes[0] is PolyCircle)
        #expect(shapes[1] is PolySquare)
        #expect(className(shapes[2]) == "PolyShape")
    }

    @Test func schemaDiscriminatorPicksTheModelAndUnknownGivesTheBase() throws {
        let registry = ModelRegistry()
        try registry.register(
            ModelSchema(
                json: [
                    "models": [
                        [
                            "name": "Animal", "discriminator": ["jsonPath": "kind", "map": ["dog": "Dog", "cat": "Cat"]],
                            "properties": [["name": "name", "type": "String"]],
                        ],
                        ["name": "Dog", "extends": "Animal", "properties": [["name": "barks", "type": "Bool"]]],
                        ["name": "Cat", "extends": "Animal", "properties": [["name": "lives", "type": "Int"]]],
                        ["name": "Zoo", "properties": [["name": "animals", "type": "[Animal]"], ["name": "star", "type": "Animal"]]],
                    ]
                ] as JSONValue))
        let dog = try registry.makeModel(named: "Animal", json: ["kind": "dog", "name": "Rex", "barks": true] as JSONValue)
        #expect(dog.jsonModel.modelName == "Dog")
        #expect(dog.jsonModel.value(forProperty: "barks") as? Bool == true)
        let unknown = try registry.makeModel(named: "Animal", json: ["kind": "cow"] as JSONValue)
        #expect(unknown.jsonModel.modelName == "Animal")
        let zoo = try registry.makeModel(
            named: "Zoo", json: ["animals": [["kind": "cat", "lives": 9], ["kind": "emu"]], "star": ["kind": "dog"]] as JSONValue)
        let animals = try #require(zoo.jsonModel.value(forProperty: "animals") as? ModelArray<DynamicModel>)
        #expect(animals.map(\.jsonModel.modelName) == ["Cat", "Animal"])
        #expect((zoo.jsonModel.value(forProperty: "star") as? JSONModel)?.jsonModel.modelName == "Dog")
        #expect(animals[0].jsonModel.value(forProperty: "lives") as? Int == 9)
        #expect(animals[0].jsonModel.mutableCopy().jsonModel.modelName == "Cat")
    }
}
