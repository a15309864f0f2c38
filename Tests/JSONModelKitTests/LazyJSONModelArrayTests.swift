import Foundation
import Testing
@testable import JSONModelKit

/// Reading an array property as `ModelArray<JSONModel>`, as code that knows no model class does.
@Suite("ModelArray<JSONModel> reads lazily")
struct LazyJSONModelArrayTests {
    static let schema = #"""
        {"models": [
          {"name": "Pen", "properties": [{"name": "animals", "type": "[Animal]"}]},
          {"name": "Animal", "discriminator": {"jsonPath": "kind", "map": {"dog": "Dog"}},
           "properties": [{"name": "name", "type": "String"}]},
          {"name": "Dog", "extends": "Animal", "properties": [{"name": "barks", "type": "Bool"}]}]}
        """#

    static func builtCount(_ array: ModelArray<JSONModel>) -> Int {
        array.indices.filter { array.isElementBuilt(at: $0) }.count
    }

    @Test func aSchemaModelsArrayBuildsAnElementWhenItIsRead() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: Self.schema))
        let json = #"{"animals": [{"name": "Tom"}, {"kind": "dog", "name": "Rex", "barks": true}, {"name": "Kit"}]}"#
        let pen = try registry.makeModel(named: "Pen", json: Data(json.utf8)) as! DynamicModel

        let animals: ModelArray<JSONModel> = pen.animals
        #expect(animals.count == 3)
        #expect(Self.builtCount(animals) == 0)

        let rex = animals[1]
        #expect(Self.builtCount(animals) == 1)
        #expect(animals.isElementBuilt(at: 1))
        #expect(rex.jsonModel.modelName == "Dog")
        #expect((rex as? DynamicModel)?.barks as Bool? == true)
        #expect(animals[1] === rex)

        // Every other way of reading the property gives the same instance.
        let again: ModelArray<JSONModel> = pen.animals
        #expect(again[1] === rex)
        #expect(Self.builtCount(again) == 1)
        let array: [JSONModel] = pen.animals
        #expect(array[1] === rex)
        #expect(array[0].jsonModel.modelName == "Animal")
        #expect(again[0] === array[0])
    }

    @Test func aCompiledModelsArrayBuildsAnElementWhenItIsRead() throws {
        let drawing = try PolyDrawing(json: #"{"shapes": [{"type": "square", "side": 2}, {"type": "circle", "radius": 1}]}"#)
        let shapes: ModelArray<JSONModel> = drawing.shapes
        #expect(shapes.count == 2)
        #expect(Self.builtCount(shapes) == 0)

        let circle = shapes[1]
        #expect(circle is PolyCircle)
        #expect(Self.builtCount(shapes) == 1)
        #expect(!shapes.isElementBuilt(at: 0))
        let typed: ModelArray<PolyShape> = drawing.shapes
        #expect(typed[1] === circle)
        #expect(!typed.isElementBuilt(at: 0))
        // Built through the typed array, seen built through the other.
        let square = typed[0]
        #expect(shapes.isElementBuilt(at: 0))
        #expect(shapes[0] === square)
        #expect(square is PolySquare)
    }

    @Test func aLazyJSONModelArrayWrittenBackKeepsItsElementsUnbuilt() throws {
        let drawing = try PolyDrawing(
            json: #"{"shapes": [{"type": "square", "side": 2}, {"type": "circle", "radius": 1}]}"#, options: .mutable)
        var shapes: ModelArray<JSONModel> = drawing.shapes
        #expect(shapes.json() == [["type": "square", "side": 2], ["type": "circle", "radius": 1]])
        #expect(Self.builtCount(shapes) == 0)
        shapes.removeFirst()
        try drawing.jsonModel.set(shapes, forProperty: "shapes")
        #expect(drawing.jsonModel.json()["shapes"] == [["type": "circle", "radius": 1]])
        let typed: ModelArray<PolyShape> = drawing.shapes
        #expect(typed[0] is PolyCircle)
    }
}
