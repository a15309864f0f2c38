import Foundation
import Testing
@testable import JSONModelKit

/// Compares by its declared properties only.
final class DeclaredOnlyTag: JSONModel, DynamicMembers, @unchecked Sendable {
    override class var comparesDeclaredPropertiesOnly: Bool { true }
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
        p.color(String?.self, jsonPath: "style.color")
        p.child(DeclaredOnlyTag?.self)
    }
}

/// Inherits the choice.
final class DeclaredOnlySubTag: DeclaredOnlyTagBase, DynamicMembers, @unchecked Sendable {}

class DeclaredOnlyTagBase: JSONModel, @unchecked Sendable {
    override class var comparesDeclaredPropertiesOnly: Bool { true }
    override class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
}

/// The default rule: the whole JSON.
final class WholeJSONTag: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
}

@Suite("Consistency of the API")
struct ConsistencyTests {
    // MARK: Strings everywhere

    @Test func makeAndArrayTakeAString() throws {
        let shape = try PolyShape.make(json: #"{"type": "circle", "radius": 2}"#)
        #expect(shape is PolyCircle)
        let viaMetatype: PolyShape.Type = PolyShape.self
        #expect(try viaMetatype.make(json: Array(#"{"type": "square"}"#.utf8)) is PolySquare)
        let shapes = try PolyShape.array(from: #"[{"type": "circle"}, {"type": "square"}, 3]"#)
        #expect(shapes.count == 2)
        #expect(shapes[1] is PolySquare)
        #expect(shapes.diagnostics.count == 1)
        let byName = try ModelDictionary<PolyShape>(json: #"{"a": {"type": "circle"}}"#)
        #expect(byName["a"] is PolyCircle)
        let mutable = try PolyShape.make(json: #"{"type": "x"}"#, options: .mutable)
        #expect(mutable.isMutable)
    }

    @Test func stringsWithBadInputThrow() throws {
        let cutShort = try #require(throws: JSONModelError.self) { try PolyShape.make(json: #"{"type": "#) }
        #expect(cutShort.parseError != nil)
        #expect(throws: JSONModelError.notAnObject(model: "PolyShape", found: .array)) { try PolyShape.make(json: "[1]") }
        let badArray = try #require(throws: JSONModelError.self) { try PolyShape.array(from: "[{]") }
        #expect(badArray.parseError != nil)
        #expect(throws: JSONModelError.notAnArray(model: "PolyShape", found: .object)) {
            try PolyShape.array(from: #"{"type": "circle"}"#)
        }
        #expect(throws: JSONModelError.notAnObject(model: "[String: PolyShape]", found: .array)) {
            try ModelDictionary<PolyShape>(json: "[]")
        }
        let empty = try #require(throws: JSONModelError.self) { try ModelDictionary<PolyShape>(json: "") }
        #expect(empty.parseError?.kind == .emptyInput)
    }

    // MARK: Schema collections read as JSONModel collections

    static let schema = #"""
        {"models": [
          {"name": "Basket", "properties": [
            {"name": "items", "type": "[Item]"},
            {"name": "byCode", "type": "[String: Item]"},
            {"name": "maybe", "type": "[Item]?"}]},
          {"name": "Item", "properties": [{"name": "code", "type": "String"}]}]}
        """#

    @Test func schemaCollectionsReadAsEveryJSONModelCollection() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: Self.schema))
        let json = #"{"items": [{"code": "a"}, 7, {"code": "b"}], "byCode": {"x": {"code": "x"}, "y": {"code": "y"}, "z": 1}}"#
        let basket = try registry.makeModel(named: "Basket", json: Data(json.utf8)) as! DynamicModel

        let array: [JSONModel] = basket.items
        let lazy: ModelArray<JSONModel> = basket.items
        let optionalLazy: ModelArray<JSONModel>? = basket.items
        #expect(array.count == 2)
        #expect(lazy.count == 2)
        #expect(optionalLazy?.count == 2)
        #expect(lazy[0] === array[0])  // the same instances
        #expect(lazy[1].jsonModel.modelName == "Item")
        #expect((lazy[1] as? DynamicModel)?.code as String? == "b")

        let dictionary: [String: JSONModel] = basket.byCode
        let lazyDictionary: ModelDictionary<JSONModel> = basket.byCode
        let optionalDictionary: ModelDictionary<JSONModel>? = basket.byCode
        #expect(dictionary.keys.sorted() == ["x", "y"])
        #expect(lazyDictionary.keys == ["x", "y"])
        #expect(optionalDictionary?.count == 2)
        #expect(lazyDictionary["y"] === dictionary["y"])
        #expect(basket.jsonModel.diagnostics.count == 2)  // 7 and 1 left out

        // Through `dynamic`, on a reference typed JSONModel, likewise.
        let model: JSONModel = basket
        let viaDynamic: ModelArray<JSONModel> = model.jsonModel.dynamic.items
        #expect(viaDynamic.count == 2)
        let viaDynamicDictionary: ModelDictionary<JSONModel> = model.jsonModel.dynamic.byCode
        #expect(viaDynamicDictionary.count == 2)
        // A missing optional collection reads nil whichever way it is read.
        let none: ModelArray<JSONModel>? = basket.maybe
        #expect(none == nil)
    }

    @Test func aJSONModelCollectionCanBeWrittenBack() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: Self.schema))
        let basket = try registry.makeModel(named: "Basket", json: Data(#"{"items": [{"code": "a"}, {"code": "b"}]}"#.utf8), options: .mutable)
        var items: ModelArray<JSONModel> = (basket as! DynamicModel).items
        items.removeFirst()
        try basket.jsonModel.set(items, forProperty: "items")
        #expect(basket.jsonModel.json()["items"] == [["code": "b"]])
        // An array does not fit a dictionary property.
        let stranger = try registry.makeModel(named: "Basket", json: Data("{}".utf8))
        #expect(throws: (any Error).self) { try basket.jsonModel.set(ModelArray<JSONModel>([stranger]), forProperty: "byCode") }
    }

    @Test func compiledCollectionsReadAsJSONModelCollectionsToo() throws {
        let drawing = try PolyDrawing(json: #"{"shapes": [{"type": "circle"}], "named": {"s": {"type": "square"}}}"#)
        let shapes: ModelArray<JSONModel> = drawing.shapes
        #expect(shapes[0] is PolyCircle)
        let named: ModelDictionary<JSONModel> = drawing.named
        #expect(named["s"] is PolySquare)
    }

    // MARK: JSONView

    @Test func jsonViewIntValueReadsIntegralNumbers() throws {
        let document = try JSONDocument(string: #"{"a": 1.0, "b": 1e2, "c": 2.5, "d": "1", "e": 1e30, "f": -0.0}"#)
        let views = [JSONView(.node(document.root)), JSONView(.value(document.root.value))]
        for view in views {
            #expect(view["a"]?.intValue == 1)
            #expect(view["b"]?.intValue == 100)
            #expect(view["c"]?.intValue == nil)
            #expect(view["d"]?.intValue == nil)
            #expect(view["e"]?.intValue == nil)
            #expect(view["f"]?.intValue == 0)
            #expect(view["missing"]?.intValue == nil)
        }
    }

    // MARK: Equality over declared properties

    @Test func equalityOverDeclaredPropertiesIgnoresOtherKeys() throws {
        let a = try DeclaredOnlyTag(json: #"{"name": "a", "seen": 1, "style": {"color": "red", "font": "x"}}"#)
        let b = try DeclaredOnlyTag(json: #"{"style": {"color": "red"}, "name": "a"}"#)
        let c = try DeclaredOnlyTag(json: #"{"name": "a", "style": {"color": "blue"}}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b, c]).count == 2)
        #expect(a != c)
        // Nested models compare the same way.
        let nestedA = try DeclaredOnlyTag(json: #"{"name": "p", "child": {"name": "a", "extra": true}}"#)
        let nestedB = try DeclaredOnlyTag(json: #"{"name": "p", "child": {"name": "a"}}"#)
        #expect(nestedA == nestedB)
        // Subclasses inherit the choice.
        #expect(try DeclaredOnlySubTag(json: #"{"name": "a", "x": 1}"#) == DeclaredOnlySubTag(json: #"{"name": "a"}"#))
        #expect(DeclaredOnlySubTag.comparesDeclaredPropertiesOnly)
    }

    /// Arrays and dictionaries of models compare their elements as models compare.
    @Test func collectionsCompareTheirModelsAsModelsCompare() throws {
        let a = try DeclaredOnlyTag.array(from: #"[{"name": "a", "x": 1}]"#)
        let b = try DeclaredOnlyTag.array(from: #"[{"name": "a", "x": 2}]"#)
        let c = try DeclaredOnlyTag.array(from: #"[{"name": "b"}]"#)
        #expect(a == b)
        #expect(a != c)
        let d = try ModelDictionary<DeclaredOnlyTag>(json: #"{"k": {"name": "a", "x": 1}}"#)
        let e = try ModelDictionary<DeclaredOnlyTag>(json: #"{"k": {"name": "a", "x": 2}}"#)
        let f = try ModelDictionary<DeclaredOnlyTag>(json: #"{"j": {"name": "a"}}"#)
        #expect(d == e)
        #expect(d != f)
        // Same JSON, other classes: not equal, as the models are not.
        let whole = ModelArray<JSONModel>([try WholeJSONTag(json: #"{"name": "a"}"#)])
        let declared = ModelArray<JSONModel>([try DeclaredOnlyTag(json: #"{"name": "a"}"#)])
        #expect(whole != declared)
        // An index outside the array has no JSON index, whether or not elements were left out.
        #expect(a.jsonIndex(of: 0) == 0)
        #expect(a.jsonIndex(of: 7) == nil)
        #expect(a.jsonIndex(of: -1) == nil)
        #expect(try DeclaredOnlyTag.array(from: #"[1, {"name": "a"}]"#).jsonIndex(of: 1) == nil)
    }

    @Test func theDefaultStillComparesTheWholeJSON() throws {
        let a = try WholeJSONTag(json: #"{"name": "a", "seen": 1}"#)
        let b = try WholeJSONTag(json: #"{"name": "a"}"#)
        #expect(a != b)
        // Different classes never compare equal, whatever their JSON.
        #expect(try DeclaredOnlyTag(json: #"{"name": "a"}"#) as JSONModel != WholeJSONTag(json: #"{"name": "a"}"#))
        #expect(!WholeJSONTag.comparesDeclaredPropertiesOnly)
    }

    @Test func writesAndUnconvertibleValuesCount() throws {
        let a = try DeclaredOnlyTag(json: #"{"name": "a", "x": 1}"#, options: .mutable)
        let b = try DeclaredOnlyTag(json: #"{"name": "a"}"#)
        #expect(a == b)
        a.name = "b"
        #expect(a != b)
        // A declared property with the wrong type compares by its JSON, as it is.
        let wrong = try DeclaredOnlyTag(json: #"{"name": 5}"#)
        #expect(wrong != b)
        #expect(wrong == (try DeclaredOnlyTag(json: #"{"name": 5, "y": 0}"#)))
    }

    @Test func schemaModelsChooseEqualityOverDeclaredProperties() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"""
            {"models": [
              {"name": "Tag", "compareDeclaredPropertiesOnly": true, "properties": [{"name": "name", "type": "String"}]},
              {"name": "Label", "extends": "Tag", "properties": []},
              {"name": "Other", "compareDeclaredPropertiesOnly": true, "properties": [{"name": "name", "type": "String"}]},
              {"name": "Whole", "properties": [{"name": "name", "type": "String"}]}]}
            """#))
        func make(_ name: String, _ json: String) throws -> JSONModel {
            try registry.makeModel(named: name, json: Data(json.utf8))
        }
        #expect(try make("Tag", #"{"name": "a", "x": 1}"#) == make("Tag", #"{"name": "a"}"#))
        #expect(try make("Label", #"{"name": "a", "x": 1}"#) == make("Label", #"{"name": "a"}"#))
        #expect(try make("Tag", #"{"name": "a"}"#) != make("Other", #"{"name": "a"}"#))
        #expect(try make("Whole", #"{"name": "a", "x": 1}"#) != make("Whole", #"{"name": "a"}"#))
        // Two schema models are never equal, whichever rule each has, and either way round: one
        // comparing declared properties and one comparing the whole JSON, or two of one rule.
        let tag = try make("Tag", #"{"name": "a"}"#)
        let whole = try make("Whole", #"{"name": "a"}"#)
        let wholeToo = try registry.makeModel(named: "Whole", json: Data(#"{"name": "a"}"#.utf8))
        #expect(tag != whole && whole != tag)
        #expect(whole == wholeToo && wholeToo == whole && whole.hashValue == wholeToo.hashValue)
        let other = try make("Other", #"{"name": "a"}"#)
        #expect(other != tag && tag != other)
        #expect(throws: ModelSchemaError.self) {
            try ModelSchema(json: #"{"models": [{"name": "T", "compareDeclaredPropertiesOnly": "yes", "properties": []}]}"#)
        }
    }
}
