import Foundation
import Testing
@testable import JSONModelKit

/// Races the other stress suites leave out, on 8 real threads released together: a lazy
/// array whose elements are built while threads race, a lazy array property of one immutable
/// model, and descriptions written while other threads fill the cache. Run under
/// `swift test --sanitize=thread --filter Stress` (`.ci/run` does).
@Suite("Reliability stress")
struct ReliabilityStressTests {
    class Shape: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.kind(String.self)
            p.size(Int.self)
            p.tags([String].self)
        }

        override class func modelClass(for json: JSONView) -> JSONModel.Type {
            json["kind"]?.stringValue == "circle" ? Circle.self : self
        }
    }

    final class Circle: Shape, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.radius(Double.self)
        }
    }

    final class Drawing: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.title(String.self)
            p.shapes([Shape].self)
            p.byName([String: Shape].self)
        }
    }

    static let count = 400

    static let shapesJSON: String = "[" + (0..<count).map { index in
        index % 3 == 0
            ? #"{"kind": "circle", "size": \#(index), "radius": \#(index).5, "tags": ["c"]}"#
            : #"{"kind": "square", "size": \#(index), "tags": ["s", \#(index)]}"#
    }.joined(separator: ",") + "]"

    @Test func lazyArrayElementsBuiltOnceUnderRace() throws {
        let shapes = try Shape.array(from: Array(Self.shapesJSON.utf8))
        let seen = Locked<[Int: ObjectIdentifier]>([:])
        StressTests.hammer(rounds: 100) { thread, round in
            // Threads walk the array from different places, so first builds collide.
            let index = (thread * 53 + round * 7) % Self.count
            let shape = shapes[index]
            let size: Int = shape.size
            #expect(size == index)
            #expect((shape is Circle) == (index % 3 == 0))
            let identity = ObjectIdentifier(shape)
            seen.withLock { seen in
                if let earlier = seen[index] {
                    #expect(earlier == identity, "element \(index) was built twice")
                } else {
                    seen[index] = identity
                }
            }
        }
        for index in seen.withLock({ Array($0.keys) }) { #expect(shapes.isElementBuilt(at: index)) }
    }

    @Test func lazyArrayPropertyOfOneImmutableModel() throws {
        let names = (0..<Self.count).map { #""n\#($0)": {"kind": "square", "size": \#($0)}"# }.joined(separator: ",")
        let drawing = try Drawing(json: #"{"title": "t", "shapes": \#(Self.shapesJSON), "byName": {\#(names)}}"#)
        StressTests.hammer(rounds: 100) { thread, round in
            let index = (thread * 31 + round * 13) % Self.count
            if (thread + round) % 2 == 0 {
                let shapes: ModelArray<Shape> = drawing.shapes
                let size: Int = shapes[index].size
                #expect(size == index)
            } else {
                let byName: ModelDictionary<Shape> = drawing.byName
                let size: Int? = byName["n\(index)"]?.size
                #expect(size == index)
            }
        }
        let first: ModelArray<Shape> = drawing.shapes
        let second: ModelArray<Shape> = drawing.shapes
        #expect(first[0] === second[0])
    }

    @Test func descriptionsWhileTheCacheFills() throws {
        let shapes = try Shape.array(from: Array(Self.shapesJSON.utf8))
        let drawing = try Drawing(json: #"{"title": "t", "shapes": \#(Self.shapesJSON), "byName": {}}"#)
        StressTests.hammer(rounds: 40) { thread, round in
            let index = (thread * 17 + round) % Self.count
            switch (thread + round) % 4 {
            case 0: #expect(index == 0 || shapes[index].debugDescription.contains("size: \(index)"))
            case 1: #expect(index == 0 || shapes[index].jsonModel.fullDescription.contains("size: \(index)"))
            case 2: _ = shapes[index].size as Int
            default:
                _ = drawing.debugDescription
                #expect(drawing.debugDescription.hasPrefix("Drawing("))
            }
        }
        // Describing recorded nothing and cached nothing the reads did not.
        #expect(drawing.jsonModel.diagnostics.isEmpty)
    }
}
