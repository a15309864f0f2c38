import Testing

@testable import JSONModelKit
import JSONModelKitCore

/// The tape positions a lazy collection keeps for an array's elements are written on the stack
/// and copied for small arrays, and into the array itself for large ones: both must give every
/// element's position, in order, and say whether every element is an object.
@Suite("Element positions")
struct ElementPositionsTests {
    /// An array of `count` elements, objects except where `other` says, with nested containers
    /// so that positions skip over them.
    static func document(count: Int, other: (Int) -> Bool) throws -> JSONDocument {
        let elements = (0..<count).map { index in
            other(index) ? (index % 2 == 0 ? "[\(index), [true]]" : "\(index)") : #"{"i": \#(index), "a": [{"b": null}]}"#
        }
        return try JSONDocument(string: "[" + elements.joined(separator: ",") + "]")
    }

    @Test(arguments: [0, 1, 2, JSONNode.copiedPositionsLimit - 1, JSONNode.copiedPositionsLimit,
                      JSONNode.copiedPositionsLimit + 1, 3 * JSONNode.copiedPositionsLimit])
    func positionsAreThoseOfTheElementsOnEitherSideOfTheLimit(count: Int) throws {
        for (label, other) in [("objects", { (_: Int) in false }), ("mixed", { (index: Int) in index % 5 == 3 })] {
            let document = try Self.document(count: count, other: other)
            var allObjects = false
            let positions = document.root.elementTapePositions(allObjects: &allObjects)
            let expected = Array(document.root.elements)
            #expect(positions.count == count, "\(label)")
            #expect(positions.map { Int($0) } == expected.map(\.index), "\(label)")
            #expect(allObjects == !(0..<count).contains(where: other), "\(label)")
        }
    }

    @Test func aScalarHasNoElementsAndCountsAsAllObjects() throws {
        let document = try JSONDocument(string: #"{"a": 1}"#)
        var allObjects = false
        #expect(document.root.elementTapePositions(allObjects: &allObjects).isEmpty)
        #expect(allObjects)
    }
}
