import Foundation
import Testing
@testable import JSONModelKitCore
import JSONModelKitTestSupport

@Suite("JSONValue")
struct JSONValueTests {
    @Test func literals() {
        let value: JSONValue = ["n": nil, "b": true, "i": -3, "d": 0.25, "s": "x", "a": [1, "two"], "o": ["k": false]]
        #expect(value["n"] == .null)
        #expect(value["b"] == .bool(true))
        #expect(value["i"] == .number(JSONNumber(-3)))
        #expect(value["d"]?.numberValue?.text == "0.25")
        #expect(value["s"] == .string("x"))
        #expect(value["a"] == .array([.number(JSONNumber(1)), .string("two")]))
        #expect(value["o"]?.objectValue?.keys == ["k"])
        #expect(value.objectValue?.keys == ["n", "b", "i", "d", "s", "a", "o"])
        #expect(JSONValue(UInt64.max).numberValue?.text == "18446744073709551615")
        #expect(JSONValue(Double.nan) == .null)
        #expect(JSONValue(1.5) == 1.5)
    }

    @Test func accessors() {
        let value: JSONValue = ["n": nil, "b": true, "i": 100, "big": .number(JSONNumber(UInt64.max)), "f": 2.5, "s": "x"]
        #expect(value["n"]?.isNull == true)
        #expect(value["b"]?.isNull == false)
        #expect(value["b"]?.boolValue == true)
        #expect(value["i"]?.boolValue == nil)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["i"]?.stringValue == nil)
        #expect(value["i"]?.intValue == 100)
        #expect(value["i"]?.int64Value == 100)
        #expect(value["i"]?.uint64Value == 100)
        #expect(value["i"]?.doubleValue == 100)
        #expect(value["big"]?.intValue == nil)
        #expect(value["big"]?.uint64Value == UInt64.max)
        #expect(value["f"]?.intValue == nil)
        #expect(value["f"]?.doubleValue == 2.5)
        #expect(value["s"]?.doubleValue == nil)
        #expect(value["s"]?.numberValue == nil)
        #expect(value.arrayValue == nil)
        #expect(JSONValue.array([1]).arrayValue == [1])
        #expect(value.objectValue?.count == 6)
        #expect(JSONValue.string("x").objectValue == nil)
    }

    @Test func readingSubscripts() {
        let value: JSONValue = ["items": [["id": 1], ["id": 2, "tags": ["a"]]], "a.b": "dotted"]
        #expect(value["items"]?[1]?["id"] == 2)
        #expect(value[JSONPath("items.1.id")] == nil)  // indices need brackets
        #expect(value["items[1].id"] == nil)  // a String subscript is one key
        #expect(value[JSONPath("items[1].id")] == 2)
        #expect(value[JSONPath("items[1].tags[0]")] == "a")
        #expect(value["a.b"] == "dotted")
        #expect(value[JSONPath(#"["a.b"]"#)] == "dotted")
        #expect(value[["items", 5]] == nil)
        #expect(value[["items", -1]] == nil)
        #expect(value[JSONPath("items[0].id.x")] == nil)
        #expect(value[JSONPath.root] == value)
        #expect(value[0] == nil)
        #expect(JSONValue.array([1, 2])[1] == 2)
        #expect(JSONValue.array([1, 2])[2] == nil)
        #expect(JSONValue.string("s")["k"] == nil)
    }

    @Test func settingByKeyAndPathCreatesLevels() {
        var value: JSONValue = nil
        value["id"] = 7
        #expect(value == ["id": 7])
        value[JSONPath("address.city")] = "Oslo"
        #expect(value.jsonString() == #"{"id":7,"address":{"city":"Oslo"}}"#)
        value[JSONPath("address.zip")] = "0150"
        value[JSONPath("list[2]")] = true
        #expect(value["list"] == [nil, nil, true])
        value[JSONPath("list[3].deep")] = 1
        #expect(value["list"] == [nil, nil, true, ["deep": 1]])
        value[JSONPath("list[0]")] = "first"
        #expect(value[JSONPath("list[0]")] == "first")
        value[JSONPath("list[0]")] = nil
        #expect(value["list"] == [nil, true, ["deep": 1]])
        value[JSONPath("list[-1]")] = 5
        #expect(value["list"]?.arrayValue?.count == 3)
        value["address"] = nil
        #expect(value["address"] == nil)
        value[JSONPath("missing.levels")] = nil
        #expect(value["missing"] == nil)
        value[JSONPath("id.inner")] = 1  // a number on the way is never replaced: nothing changes
        #expect(value["id"] == 7)
        value[JSONPath.root] = [1, 2]
        #expect(value == [1, 2])
        value[5] = 6
        #expect(value == [1, 2, nil, nil, nil, 6])
        value[0] = nil
        #expect(value == [2, nil, nil, nil, 6])
        value[JSONPath.root] = nil
        #expect(value == .null)
    }

    @Test func settingKeepsDuplicatePolicy() {
        var value = JSONValue.object(JSONObject([(key: "a", value: 1), (key: "b", value: 2), (key: "a", value: 3)]))
        value["a"] = 4
        #expect(value.jsonString() == #"{"b":2,"a":4}"#)
    }

    @Test func numbersCompareByValue() {
        let a: JSONValue = [1, 1.0, ["x": 100]]
        let b = JSONValue.array([
            .number(JSONNumber(text: "1e0")!), .number(JSONNumber(text: "10e-1")!),
            ["x": .number(JSONNumber(text: "1.00e2")!)],
        ])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(JSONValue.number(JSONNumber(text: "-0")!) == 0)
        #expect(
            JSONValue.number(JSONNumber(text: "9007199254740993")!)
                != JSONValue.number(JSONNumber(text: "9007199254740992")!))
    }

    @Test func equalityAndHashing() {
        let a: JSONValue = ["a": 1, "b": [true, nil, "s"], "c": ["d": 2, "e": 3]]
        let b: JSONValue = ["c": ["e": 3, "d": 2], "b": [true, nil, "s"], "a": 1]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        #expect(a != ["a": 1, "b": [nil, true, "s"], "c": ["d": 2, "e": 3]])
        #expect(a != ["a": 1, "b": [true, nil, "s"], "c": ["d": 2, "e": 4]])
        #expect(a != ["a": 1, "b": [true, nil, "s"], "c": ["d": 2]])
        #expect(JSONValue.null != false)
        #expect(JSONValue.bool(false) != 0)
        #expect(JSONValue.string("1") != 1)
        #expect(JSONValue.array([]) != JSONValue.object([:]))
        #expect(JSONValue.array([[]]) != JSONValue.array([[:]]))
        // Swapping values between keys changes the hash input even though the
        // multiset of values is the same.
        let x: JSONValue = ["a": 1, "b": 2]
        let y: JSONValue = ["a": 2, "b": 1]
        #expect(x != y)
        let set: Set<JSONValue> = [x, y, ["b": 2, "a": 1], [1, 2], [2, 1]]
        #expect(set.count == 4)
    }

    @Test func description() {
        let value: JSONValue = ["a": [1, true, nil], "b": "q\""]
        #expect(value.description == #"{"a":[1,true,null],"b":"q\""}"#)
        #expect("\(JSONValue.number(JSONNumber(text: "1.50")!))" == "1.50")
    }

    @Test func deepValuesOnASmallStack() {
        let depth = 100_000
        let results = onSmallStackThread { () -> [Bool] in
            var a = JSONValue.null
            var b = JSONValue.null
            var c = JSONValue.null
            for level in 0..<depth {
                a = .array([a])
                b = .array([b])
                c = level == depth / 2 ? .array([c, 1]) : .array([c])
            }
            var objects1 = JSONValue.number(JSONNumber(1))
            var objects2 = JSONValue.number(JSONNumber(text: "1.0")!)
            for _ in 0..<depth {
                objects1 = ["k": objects1, "z": 0]
                objects2 = ["z": 0, "k": objects2]
            }
            let checks = [
                a == b, a != c, a.hashValue == b.hashValue, a.hashValue != c.hashValue,
                objects1 == objects2, objects1.hashValue == objects2.hashValue,
                a.jsonBytes().count == 2 * depth + 4,
                a[JSONPath(Array(repeating: .index(0), count: depth))] == .null,
            ]
            return checks
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    // MARK: Codable

    @Test func codableRoundTrip() throws {
        let value: JSONValue = [
            "null": nil, "true": true, "false": false, "int": -42, "big": .number(JSONNumber(UInt64.max)),
            "min": .number(JSONNumber(Int64.min)), "double": 0.1, "exp": 1e300, "string": "héllo \"x\"\n",
            "array": [1, [2, [3, []]], [:]], "object": ["nested": ["deep": [nil]]],
        ]
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(decoded == value)
        #expect(decoded["big"]?.uint64Value == UInt64.max)
        #expect(decoded["min"]?.int64Value == Int64.min)
        #expect(decoded["true"] == true)
        #expect(decoded["int"] == -42)
        #expect(decoded["double"]?.doubleValue == 0.1)
    }

    @Test func codableInsideOtherTypes() throws {
        struct Envelope: Codable, Equatable {
            var id: Int
            var payload: JSONValue
        }
        let envelope = Envelope(id: 1, payload: ["list": [1, "a", nil, false], "n": 2.5])
        let data = try JSONEncoder().encode(envelope)
        #expect(try JSONDecoder().decode(Envelope.self, from: data) == envelope)
        let fromText = try JSONDecoder().decode(
            JSONValue.self, from: Data(#"{"a":[1,2.5,"x",true,null,{"b":{}}],"c":1.0}"#.utf8))
        #expect(fromText == ["a": [1, 2.5, "x", true, nil, ["b": [:]]], "c": 1])
    }

    @Test func codableWritesEachKeyOnce() throws {
        let value = JSONValue.object(JSONObject([(key: "a", value: 1), (key: "a", value: 2)]))
        let data = try JSONEncoder().encode(value)
        #expect(String(decoding: data, as: UTF8.self) == #"{"a":2}"#)
    }

    // MARK: Any

    @Test func fromJSONSerialization() throws {
        let text = #"{"b":[true,1,0,false,1.5,-7,12345678901234567890,null,"s"],"o":{"k":{}},"e":[]}"#
        let any = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let value = try JSONValue(any: any)
        #expect(
            value == [
                "b": [true, 1, 0, false, 1.5, -7, .number(JSONNumber(text: "12345678901234567890")!), nil, "s"],
                "o": ["k": [:]], "e": [],
            ])
        #expect(value["b"]?[0] == .bool(true))
        #expect(value["b"]?[1] == .number(JSONNumber(1)))
        #expect(value["b"]?[3] == .bool(false))
        #expect(value["b"]?[2] == .number(JSONNumber(0)))
    }

    @Test func fromSwiftValues() throws {
        let none: Int? = nil
        let some: Int? = 5
        let input: [String: Any] = [
            "bool": true, "int": 1, "i8": Int8(-8), "i16": Int16(16), "i32": Int32(-32), "i64": Int64.min,
            "u": UInt(1), "u8": UInt8(8), "u16": UInt16(16), "u32": UInt32(32), "u64": UInt64.max,
            "double": 0.1, "float": Float(0.5), "decimal": Decimal(string: "123.456")!, "string": "s",
            "none": none as Any, "some": some as Any, "null": NSNull(), "nsarray": NSArray(array: [1, "x"]),
            "nsdict": NSDictionary(dictionary: ["k": 1]), "nested": [[1, 2], ["a": [true]]] as [Any],
            "json": JSONValue.array([1]),
        ]
        let value = try JSONValue(any: input)
        #expect(value["bool"] == true)
        #expect(value["int"] == 1)
        #expect(value["i8"] == -8)
        #expect(value["i16"] == 16)
        #expect(value["i32"] == -32)
        #expect(value["i64"]?.int64Value == Int64.min)
        #expect(value["u"] == 1)
        #expect(value["u8"] == 8)
        #expect(value["u16"] == 16)
        #expect(value["u32"] == 32)
        #expect(value["u64"]?.uint64Value == UInt64.max)
        #expect(value["double"]?.numberValue?.text == "0.1")
        #expect(value["float"] == 0.5)
        #expect(value["decimal"]?.numberValue?.text == "123.456")
        #expect(value["string"] == "s")
        #expect(value["none"] == .null)
        #expect(value["some"] == 5)
        #expect(value["null"] == .null)
        #expect(value["nsarray"] == [1, "x"])
        #expect(value["nsdict"] == ["k": 1])
        #expect(value["nested"] == [[1, 2], ["a": [true]]])
        #expect(value["json"] == [1])
        #expect(try JSONValue(any: NSNumber(value: true)) == true)
        #expect(try JSONValue(any: NSNumber(value: 1)) == 1)
        #expect(try JSONValue(any: NSNumber(value: UInt64.max)) == .number(JSONNumber(UInt64.max)))
        #expect(try JSONValue(any: NSNumber(value: 2.5)) == 2.5)
    }

    @Test func unsupportedAnyTypes() {
        struct Custom {}
        #expect {
            try JSONValue(any: Date())
        } throws: { error in
            let error = error as? JSONValueConversionError
            return error?.typeName == "Date" && error?.path.isEmpty == true
        }
        #expect {
            try JSONValue(any: ["a": [1, Custom()]] as [String: Any])
        } throws: { error in
            guard let error = error as? JSONValueConversionError else { return false }
            return error.typeName == "Custom" && error.path == "a[1]" && error.description.contains("Custom")
                && error.description.contains("a[1]")
        }
        #expect(throws: JSONValueConversionError.self) { try JSONValue(any: Double.nan) }
        #expect(throws: JSONValueConversionError.self) { try JSONValue(any: [Float.infinity]) }
        #expect(throws: JSONValueConversionError.self) { try JSONValue(any: [1: "int key"]) }
        #expect(throws: JSONValueConversionError.self) { try JSONValue(any: NSDictionary(dictionary: [1: 2])) }
        #expect(throws: JSONValueConversionError.self) { try JSONValue(any: Decimal.nan) }
        #expect(throws: JSONValueConversionError.self) { try JSONValue(any: URL(string: "https://x.org")!) }
    }

    @Test func parsingConvenience() throws {
        let value = try JSONValue(json: #"{"a":[1,2.50,"x"],"b":null}"#)
        #expect(value == ["a": [1, 2.5, "x"], "b": nil])
        #expect(value["a"]?[1]?.numberValue?.text == "2.50")
        let fromData = try JSONValue(json: Data("[true]".utf8))
        #expect(fromData == [true])
        #expect(throws: JSONParseError.self) { try JSONValue(json: "[1,]") }
    }
}
