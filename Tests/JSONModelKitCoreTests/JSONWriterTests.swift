import Foundation
import Testing
@testable import JSONModelKitCore
import JSONModelKitTestSupport

@Suite("JSONWriter")
struct JSONWriterTests {
    static let sample: JSONValue = [
        "name": "Ann", "age": 31, "tags": ["a", "b"], "empty": [], "none": [:], "nested": ["x": [1, [2, nil]]],
        "ok": true, "no": false, "ratio": 0.5,
    ]

    @Test func compact() {
        #expect(
            JSONWriterTests.sample.jsonString()
                == #"{"name":"Ann","age":31,"tags":["a","b"],"empty":[],"none":{},"nested":{"x":[1,[2,null]]},"ok":true,"no":false,"ratio":0.5}"#
        )
        #expect(JSONValue.null.jsonString() == "null")
        #expect(JSONValue.string("").jsonString() == #""""#)
        #expect(JSONValue.array([]).jsonString() == "[]")
        #expect(JSONValue.object([:]).jsonString() == "{}")
    }

    @Test func pretty() {
        let expected = """
            {
              "name": "Ann",
              "age": 31,
              "tags": [
                "a",
                "b"
              ],
              "empty": [],
              "none": {},
              "nested": {
                "x": [
                  1,
                  [
                    2,
                    null
                  ]
                ]
              },
              "ok": true,
              "no": false,
              "ratio": 0.5
            }
            """
        #expect(JSONWriterTests.sample.jsonString(options: .prettyPrinted) == expected)
        #expect(JSONValue.array([]).jsonString(options: .prettyPrinted) == "[]")
        #expect(JSONValue.number(JSONNumber(5)).jsonString(options: .prettyPrinted) == "5")
    }

    @Test func sortedKeys() {
        #expect(
            JSONWriterTests.sample.jsonString(options: .sortedKeys)
                == #"{"age":31,"empty":[],"name":"Ann","nested":{"x":[1,[2,null]]},"no":false,"none":{},"ok":true,"ratio":0.5,"tags":["a","b"]}"#
        )
        // Byte-wise UTF-8 order: uppercase before lowercase, ASCII before
        // non-ASCII, a prefix before its extensions.
        let value: JSONValue = ["é": 1, "b": 2, "B": 3, "ab": 4, "a": 5, "😀": 6, "z": 7]
        #expect(value.jsonString(options: .sortedKeys) == #"{"B":3,"a":5,"ab":4,"b":2,"z":7,"é":1,"😀":6}"#)
    }

    @Test func sortedKeysAreStableForDuplicates() {
        let object = JSONObject([(key: "b", value: 1), (key: "a", value: 2), (key: "b", value: 3), (key: "a", value: 4)])
        #expect(JSONValue.object(object).jsonString() == #"{"b":1,"a":2,"b":3,"a":4}"#)
        #expect(JSONValue.object(object).jsonString(options: .sortedKeys) == #"{"a":2,"a":4,"b":1,"b":3}"#)
    }

    @Test func prettyAndSorted() {
        let value: JSONValue = ["b": [:], "a": [1]]
        let expected = """
            {
              "a": [
                1
              ],
              "b": {}
            }
            """
        #expect(value.jsonString(options: [.prettyPrinted, .sortedKeys]) == expected)
    }

    @Test func escapesEveryControlCharacter() {
        let named: [UInt8: String] = [0x08: #"\b"#, 0x09: #"\t"#, 0x0A: #"\n"#, 0x0C: #"\f"#, 0x0D: #"\r"#]
        let hex = Array("0123456789abcdef")
        for byte in UInt8(0)..<0x20 {
            let string = String(UnicodeScalar(byte))
            let expected = named[byte] ?? "\\u00\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
            #expect(JSONValue.string(string).jsonString() == "\"\(expected)\"", "byte \(byte)")
            #expect(JSONValue.string("a\(string)b").jsonString() == "\"a\(expected)b\"", "byte \(byte)")
        }
        #expect(JSONValue.string("\u{1F}").jsonString() == #""\u001f""#)
    }

    @Test func escapesQuoteAndBackslashOnly() {
        #expect(JSONValue.string(#"say "hi" \ / done"#).jsonString() == #""say \"hi\" \\ / done""#)
        #expect(JSONValue.string("\u{7F}").jsonString() == "\"\u{7F}\"")
        #expect(JSONValue.string("\u{2028}\u{2029}").jsonString() == "\"\u{2028}\u{2029}\"")
    }

    @Test func unicodeWrittenAsIs() {
        let text = "héllo wörld 日本語 😀 👩‍👩‍👧"
        let value: JSONValue = [text: .string(text)]
        #expect(value.jsonString() == "{\"\(text)\":\"\(text)\"}")
        #expect(value.jsonBytes() == Array("{\"\(text)\":\"\(text)\"}".utf8))
    }

    @Test func escapedKeys() {
        let value: JSONValue = ["a\"b\n": 1]
        #expect(value.jsonString() == #"{"a\"b\n":1}"#)
    }

    @Test func numbersKeepExactText() throws {
        let texts = ["12345678901234567890", "0.1", "1.0E+2", "-0", "1e-7", "3.14159265358979323846264338327950288"]
        let value = JSONValue.array(try texts.map { .number(try #require(JSONNumber(text: $0))) })
        #expect(value.jsonString() == "[" + texts.joined(separator: ",") + "]")
    }

    @Test func dataAndBytesAgree() {
        let value = JSONWriterTests.sample
        #expect(Array(value.jsonData()) == value.jsonBytes())
        #expect(Array(value.jsonData(options: .prettyPrinted)) == value.jsonBytes(options: .prettyPrinted))
        #expect(value.description == value.jsonString())
    }

    @Test func outputParsesWithJSONSerialization() throws {
        for options: JSONWriteOptions in [[], .prettyPrinted, .sortedKeys, [.prettyPrinted, .sortedKeys]] {
            let data = JSONWriterTests.sample.jsonData(options: options)
            let any = try JSONSerialization.jsonObject(with: data)
            #expect(try JSONValue(any: any) == JSONWriterTests.sample)
        }
    }

    @Test func eventAPI() throws {
        var writer = JSONWriter(options: [])
        writer.beginObject()
        writer.writeKey("a")
        writer.beginArray()
        writer.writeBool(true)
        writer.writeNull()
        writer.writeNumber(JSONNumber(42))
        let numberText: [UInt8] = Array("1.5e3".utf8)
        numberText.withUnsafeBufferPointer { writer.writeNumberText($0) }
        let escaped: [UInt8] = Array(#"x\ny"#.utf8)
        escaped.withUnsafeBufferPointer { writer.writeEscapedString($0) }
        writer.writeString("q\"")
        writer.endArray()
        let key: [UInt8] = Array(#"k\u0041"#.utf8)
        key.withUnsafeBufferPointer { writer.writeEscapedKey($0) }
        writer.beginObject()
        writer.endObject()
        writer.writeKey("f")
        writer.writeBool(false)
        writer.endObject()
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == #"{"a":[true,null,42,1.5e3,"x\ny","q\""],"k\u0041":{},"f":false}"#)
    }

    @Test func eventAPIPretty() {
        var writer = JSONWriter(options: .prettyPrinted)
        writer.beginArray()
        writer.beginObject()
        writer.writeKey("k")
        writer.writeString("v")
        writer.endObject()
        writer.beginArray()
        writer.endArray()
        writer.endArray()
        let expected = """
            [
              {
                "k": "v"
              },
              []
            ]
            """
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
        #expect(JSONWriter.keyPrecedes("B", "a"))
        #expect(JSONWriter.keyPrecedes("z", "é"))
        #expect(!JSONWriter.keyPrecedes("a", "a"))
    }

    @Test func deepValueWritesOnASmallStack() {
        let depth = 100_000
        let result = onSmallStackThread { () -> (Int, Bool, Bool) in
            var arrays = JSONValue.null
            for _ in 0..<depth { arrays = .array([arrays]) }
            var objects = JSONValue.number(JSONNumber(1))
            for _ in 0..<depth { objects = ["k": objects] }
            let compact = arrays.jsonBytes()
            let compactObjects = objects.jsonBytes(options: .sortedKeys)
            let expectedCompact = Array(repeating: UInt8(ascii: "["), count: depth) + Array("null".utf8)
                + Array(repeating: UInt8(ascii: "]"), count: depth)
            // Pretty output grows with the square of the depth, so check it on a
            // shallower value.
            var shallow = JSONValue.null  // 1000 levels: released normally
            for _ in 0..<1000 { shallow = .array([shallow]) }
            let pretty = shallow.jsonBytes(options: .prettyPrinted)
            let objectsLookRight =
                compactObjects.count == depth * 5 + 1 + depth
                && compactObjects.starts(with: Array(#"{"k":{"k":"#.utf8))
            let prettyLooksRight =
                pretty.starts(with: Array("[\n  [\n    [".utf8)) && pretty.count == 1000 * 1000 * 2 + 1000 * 4 + 4
            return (compact.count, compact == expectedCompact, prettyLooksRight && objectsLookRight)
        }
        #expect(result.0 == 2 * depth + 4)
        #expect(result.1)
        #expect(result.2)
    }
}
