import Testing
@testable import JSONModelKitCore
import JSONModelKitTestSupport

@Suite("JSONObject")
struct JSONObjectTests {
    @Test func literalKeepsOrder() {
        let object: JSONObject = ["z": 1, "a": 2, "m": 3]
        #expect(object.keys == ["z", "a", "m"])
        #expect(object.values == [1, 2, 3])
        #expect(object.count == 3)
        #expect(!object.isEmpty)
        #expect(JSONObject().isEmpty)
        #expect(object.map(\.key) == ["z", "a", "m"])
    }

    @Test func duplicatesLastWins() {
        var object = JSONObject()
        object.append(key: "a", value: 1)
        object.append(key: "b", value: 2)
        object.append(key: "a", value: 3)
        #expect(object.count == 3)
        #expect(object.keys == ["a", "b", "a"])
        #expect(object["a"] == 3)
        #expect(object.lastIndex(forKey: "a") == 2)
        #expect(object.hasDuplicateKeys)
        #expect(object.effectiveCount == 2)
    }

    @Test func settingReplacesLastAndRemovesEarlierDuplicates() {
        var object = JSONObject([(key: "a", value: 1), (key: "b", value: 2), (key: "a", value: 3)])
        object["a"] = 9
        #expect(object.keys == ["b", "a"])
        #expect(object["a"] == 9)
        #expect(!object.hasDuplicateKeys)
    }

    @Test func settingNewKeyAppends() {
        var object: JSONObject = ["a": 1]
        object["b"] = 2
        object["a"] = 10
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 10)
        #expect(object.updateValue(11, forKey: "a") == 10)
        #expect(object.updateValue(1, forKey: "c") == nil)
        #expect(object.keys == ["a", "b", "c"])
    }

    @Test func settingNilRemovesAllOccurrences() {
        var object = JSONObject([(key: "a", value: 1), (key: "b", value: 2), (key: "a", value: 3)])
        object["a"] = nil
        #expect(object.keys == ["b"])
        #expect(object["a"] == nil)
        var other = JSONObject([(key: "a", value: 1), (key: "a", value: 3)])
        #expect(other.removeValue(forKey: "a") == 3)
        #expect(other.isEmpty)
        #expect(other.removeValue(forKey: "a") == nil)
    }

    @Test func largeObjectLookups() {
        var object = JSONObject()
        for i in 0..<1000 { object.append(key: "k\(i)", value: JSONValue(i)) }
        #expect(object.count == 1000)
        for i in stride(from: 0, to: 1000, by: 37) { #expect(object["k\(i)"] == JSONValue(i)) }
        #expect(object["missing"] == nil)
        object.append(key: "k5", value: "dup")
        #expect(object["k5"] == "dup")
        #expect(object.hasDuplicateKeys)
        object["k5"] = "single"
        #expect(object.keys.filter { $0 == "k5" }.count == 1)
        #expect(object.keys.last == "k5")
        #expect(!object.hasDuplicateKeys)
        object["k0"] = nil
        #expect(object["k0"] == nil)
        #expect(object["k1"] == 1)
        #expect(object["k999"] == 999)
        #expect(object.count == 999)
    }

    @Test func crossingTheIndexThresholdBothWays() {
        var object = JSONObject()
        for i in 0..<20 { object["k\(i)"] = JSONValue(i) }
        for i in 0..<20 { #expect(object["k\(i)"] == JSONValue(i)) }
        for i in 0..<18 { object.removeValue(forKey: "k\(i)") }
        #expect(object.keys == ["k18", "k19"])
        #expect(object["k19"] == 19)
        object.append(key: "k18", value: "again")
        #expect(object["k18"] == "again")
        #expect(object.effectiveCount == 2)
    }

    @Test func equalityIgnoresOrderAndEarlierDuplicates() {
        let a: JSONObject = ["a": 1, "b": 2]
        let b: JSONObject = ["b": 2, "a": 1.0]
        let c = JSONObject([(key: "a", value: 0), (key: "b", value: 2), (key: "a", value: 1)])
        #expect(a == b)
        #expect(a == c)
        #expect(a.hashValue == b.hashValue)
        #expect(a.hashValue == c.hashValue)
        #expect(a != ["a": 1])
        #expect(a != ["a": 1, "b": 3])
        #expect(a != ["a": 1, "c": 2])
        #expect(a != ["a": 1, "b": 2, "c": nil])
        #expect(JSONObject() == JSONObject())
    }

    @Test func largeObjectsEqualInAnyOrder() {
        var forward = JSONObject()
        var backward = JSONObject()
        for i in 0..<100 { forward.append(key: "k\(i)", value: JSONValue(i)) }
        for i in (0..<100).reversed() { backward.append(key: "k\(i)", value: JSONValue(i)) }
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        backward["k50"] = "changed"
        #expect(forward != backward)
    }

    /// Random operations checked against a plain list that applies the
    /// documented policy directly.
    @Test(arguments: [4, 40])
    func randomOperationsMatchReference(keySpace: Int) {
        var generator = SplitMix64(seed: UInt64(keySpace))
        var object = JSONObject()
        var reference: [(key: String, value: JSONValue)] = []
        for step in 0..<3000 {
            let key = "k\(generator.next() % UInt64(keySpace))"
            let value = JSONValue(step)
            switch generator.next() % 4 {
            case 0:
                object.append(key: key, value: value)
                reference.append((key, value))
            case 1:
                object[key] = value
                if let last = reference.lastIndex(where: { $0.key == key }) {
                    reference[last].value = value
                    let kept = reference[last]
                    reference = reference.enumerated().filter { $0.offset >= last || $0.element.key != key }
                        .map(\.element)
                    #expect(reference.last(where: { $0.key == key })?.value == kept.value)
                } else {
                    reference.append((key, value))
                }
            case 2:
                let removed = object.removeValue(forKey: key)
                #expect(removed == reference.last(where: { $0.key == key })?.value)
                reference.removeAll { $0.key == key }
            default:
                #expect(object[key] == reference.last(where: { $0.key == key })?.value)
            }
            #expect(object.keys == reference.map(\.key))
            #expect(object.hasDuplicateKeys == (Set(reference.map(\.key)).count != reference.count))
        }
        for index in 0..<keySpace {
            let key = "k\(index)"
            #expect(object[key] == reference.last(where: { $0.key == key })?.value)
        }
    }
}
