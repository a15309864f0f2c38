import Testing
@testable import JSONModelKitCore
import JSONModelKitTestSupport

/// `JSONArray`, the storage of `JSONValue.array`: `Array`'s behaviour (checked against an
/// `Array` doing the same), copy on write, and release without recursion.
@Suite("JSONArray")
struct JSONArrayTests {
    @Test func readsLikeAnArray() {
        let value: JSONValue = [1, "two", [3], ["four": 4], nil]
        guard case .array(let elements) = value else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == 5 && !elements.isEmpty)
        #expect(elements[1] == "two" && elements.first == 1 && elements.last == .null)
        #expect(Array(elements) == value.arrayValue)
        #expect(elements.elements == [1, "two", [3], ["four": 4], nil])
        #expect(elements.map(\.isNull) == [false, false, false, false, true])
        #expect(JSONValue.array([1, 2]) == [1, 2])
        #expect(JSONArray().isEmpty && JSONArray().elements.isEmpty)
        #expect(elements.description == #"[1,"two",[3],{"four":4},null]"#)
        #expect(JSONArray([1, 1.0]) == JSONArray([1.0, 1]))
        #expect(JSONArray([1, 1.0]).hashValue == JSONArray([1.0, 1]).hashValue)
    }

    /// Random changes, each made to a `JSONArray` and to a `[JSONValue]`, with copies taken
    /// along the way that must not change.
    @Test(arguments: [1, 2, 3])
    func randomOperationsMatchArray(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var array = JSONArray()
        var reference: [JSONValue] = []
        var snapshots: [(JSONArray, [JSONValue])] = []
        for step in 0..<2000 {
            let value: JSONValue = generator.chance(0.2) ? [JSONValue(step), ["k": JSONValue(step)]] : JSONValue(step)
            switch generator.next(below: 9) {
            case 0, 1:
                array.append(value)
                reference.append(value)
            case 2:
                let position = generator.next(below: reference.count + 1)
                array.insert(value, at: position)
                reference.insert(value, at: position)
            case 3 where !reference.isEmpty:
                let position = generator.next(below: reference.count)
                #expect(array.remove(at: position) == reference.remove(at: position))
            case 4 where !reference.isEmpty:
                let position = generator.next(below: reference.count)
                array[position] = value
                reference[position] = value
            case 5:
                let lower = generator.next(below: reference.count + 1)
                let upper = lower + generator.next(below: reference.count - lower + 1)
                let replacement = (0..<generator.next(below: 4)).map { JSONValue(step * 10 + $0) }
                array.replaceSubrange(lower..<upper, with: replacement)
                reference.replaceSubrange(lower..<upper, with: replacement)
            case 6 where !reference.isEmpty:
                // In place, through the enum: the nested value changes without copying the array.
                let position = generator.next(below: reference.count)
                var whole = JSONValue.array(array)
                array = JSONArray()
                whole[position] = ["changed": JSONValue(step)]
                guard case .array(let changed) = whole else { return }
                array = changed
                reference[position] = ["changed": JSONValue(step)]
            case 7:
                snapshots.append((array, reference))
            default:
                if generator.chance(0.05) {
                    array.removeAll(keepingCapacity: generator.chance(0.5))
                    reference.removeAll()
                } else if !reference.isEmpty {
                    #expect(array.removeLast() == reference.removeLast())
                }
            }
            #expect(array.count == reference.count)
        }
        #expect(array.elements == reference)
        for (copy, expected) in snapshots {
            #expect(copy.elements == expected)
        }
    }

    /// A copy is independent: writing one leaves the other as it was, at every level.
    @Test func copiesAreIndependent() {
        var original: JSONValue = [[1, 2], ["a": [3]]]
        let copy = original
        original[JSONPath("[0][1]")] = "x"
        original[JSONPath("[1].a[0]")] = nil
        #expect(copy == [[1, 2], ["a": [3]]])
        #expect(original == [[1, "x"], ["a": []]])
        guard case .array(var elements) = copy else { return }
        let before = elements
        elements.append(4)
        elements[0] = nil
        #expect(JSONValue.array(before) == copy)
        #expect(JSONValue.array(elements) == [nil, ["a": [3]], 4])
    }
}
