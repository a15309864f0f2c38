import Foundation
import Testing
@testable import JSONModelKit

/// A Codable wrapper around lazy model collections, as an app's response type would be.
private struct ShapeFeed: Codable {
    var shapes: ModelArray<PolyShape>
    var byName: ModelDictionary<PolyShape>?
}

@Suite("Model collections through Codable")
struct ModelCollectionCodableTests {
    let shapesJSON = #"[{"type": "circle", "radius": 1}, {"type": "square", "side": 2}, {"type": "other"}]"#

    @Test func aModelArrayDecodesPolymorphically() throws {
        let shapes = try JSONDecoder().decode(ModelArray<PolyShape>.self, from: Data(shapesJSON.utf8))
        #expect(shapes.count == 3)
        #expect(!shapes.isElementBuilt(at: 0))  // still lazy
        #expect(shapes[0] is PolyCircle)
        #expect(shapes[1] is PolySquare)
        #expect(className(shapes[2]) == "PolyShape")
        #expect((shapes[0] as? PolyCircle)?.radius as Double? == 1)
    }

    @Test func aPlainArrayDecodesEveryElementAsTheBaseClass() throws {
        // Documented: `init(from:)` cannot return a subclass, so `[PolyShape]` loses polymorphism.
        let shapes = try JSONDecoder().decode([PolyShape].self, from: Data(shapesJSON.utf8))
        #expect(shapes.map(className) == ["PolyShape", "PolyShape", "PolyShape"])
        #expect(shapes[0].kind as String == "circle")  // the JSON is all there
    }

    @Test func aModelDictionaryDecodesPolymorphically() throws {
        let json = #"{"a": {"type": "square", "side": 3}, "b": {"type": "circle", "ring": true, "inner": 1}}"#
        let shapes = try JSONDecoder().decode(ModelDictionary<PolyShape>.self, from: Data(json.utf8))
        #expect(shapes.keys.sorted() == ["a", "b"])  // in the order the decoder gives
        #expect(shapes["a"] is PolySquare)
        #expect(shapes["b"] is PolyRing)
        #expect(shapes["c"] == nil)
    }

    @Test func nestedInsideACodableTypeAndEncodedBack() throws {
        let json = #"{"shapes": \#(shapesJSON), "byName": {"x": {"type": "circle", "radius": 5}}}"#
        let feed = try JSONDecoder().decode(ShapeFeed.self, from: Data(json.utf8))
        #expect(feed.shapes[1] is PolySquare)
        #expect(feed.byName?["x"] is PolyCircle)
        let encoded = try JSONEncoder().encode(feed)
        let again = try JSONDecoder().decode(ShapeFeed.self, from: encoded)
        #expect(again.shapes == feed.shapes)
        #expect(again.byName == feed.byName)
        #expect(again.shapes.json() == (try JSONValue(json: shapesJSON)))
    }

    @Test func elementsThatAreNotObjectsAreLeftOutWithADiagnostic() throws {
        let json = #"[{"type": "circle"}, null, 3, "x", {"type": "square"}]"#
        let shapes = try JSONDecoder().decode(ModelArray<PolyShape>.self, from: Data(json.utf8))
        #expect(shapes.count == 2)
        #expect(shapes[1] is PolySquare)
        #expect(shapes.diagnostics.count == 3)
        #expect(shapes.jsonIndex(of: 1) == 4)
        let members = #"{"a": [], "b": {"type": "square"}}"#
        let dictionary = try JSONDecoder().decode(ModelDictionary<PolyShape>.self, from: Data(members.utf8))
        #expect(dictionary.keys == ["b"])
        #expect(dictionary.diagnostics.count == 1)
    }

    @Test func theWrongTopLevelThrowsATypeMismatch() {
        for json in [#"{"a": 1}"#, "3", "null", #""shapes""#] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(ModelArray<PolyShape>.self, from: Data(json.utf8))
            }
        }
        for json in ["[]", "3", "null"] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(ModelDictionary<PolyShape>.self, from: Data(json.utf8))
            }
        }
        // A field of the wrong type inside a wrapper names its path.
        do {
            _ = try JSONDecoder().decode(ShapeFeed.self, from: Data(#"{"shapes": {"a": 1}}"#.utf8))
            Issue.record("expected a DecodingError")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["shapes"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func invalidJSONThrowsTheDecodersError() {
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(ModelArray<PolyShape>.self, from: Data("[{".utf8))
        }
    }

    @Test func emptyCollectionsRoundTrip() throws {
        let empty = try JSONDecoder().decode(ModelArray<PolyShape>.self, from: Data("[]".utf8))
        #expect(empty.isEmpty)
        #expect(String(decoding: try JSONEncoder().encode(empty), as: UTF8.self) == "[]")
        let none = try JSONDecoder().decode(ModelDictionary<PolyShape>.self, from: Data("{}".utf8))
        #expect(none.count == 0)
        #expect(String(decoding: try JSONEncoder().encode(none), as: UTF8.self) == "{}")
    }
}
