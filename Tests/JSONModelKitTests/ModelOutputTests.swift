import Foundation
import Testing
@testable import JSONModelKit

@Suite("Model output, equality and Codable")
struct ModelOutputTests {
    let text = #"{"first_name":"Ann","big":12345678901234567890,"price":1.10,"address":{"city":"Paris","secret":"s","other":1}}"#

    @Test func outputKeepsUnknownKeysAndExactNumberText() throws {
        let user = try TestUser(json: text)
        #expect(user.jsonModel.jsonString() == text)
        let mutable = user.jsonModel.mutableCopy()
        mutable.age = 5
        #expect(mutable.jsonModel.jsonString().contains(#""big":12345678901234567890,"price":1.10"#))
        #expect(String(decoding: user.jsonModel.jsonData(), as: UTF8.self) == text)
        #expect(try TestUser(json: user.jsonModel.jsonBytes()) == user)
    }

    @Test func prettyOutput() throws {
        let user = try TestUser(json: #"{"age": 1, "tags": []}"#)
        #expect(user.jsonModel.jsonString(format: .prettyPrinted) == "{\n  \"age\": 1,\n  \"tags\": []\n}")
    }

    @Test func onlyDeclared() throws {
        let user = try TestUser(json: text)
        #expect(user.jsonModel.json(options: .onlyDeclared) == ["first_name": "Ann", "address": ["city": "Paris", "secret": "s"]])
    }

    @Test func omitNonSerializedLeavesOutNonSerializedPropertiesInNestedModelsToo() throws {
        let user = try TestUser(json: text)
        let json = user.jsonModel.json(options: .omitNonSerialized)
        #expect(json["address"] == ["city": "Paris", "other": 1])
        #expect(json["big"] != nil)
    }

    @Test func includeNulls() throws {
        let address = try TestAddress(json: #"{"city": "Paris"}"#)
        #expect(address.jsonModel.json(options: .includeNulls) == ["city": "Paris", "postal_code": nil, "secret": nil])
        #expect(address.jsonModel.json(options: [.includeNulls, .omitNonSerialized]) == ["city": "Paris", "postal_code": nil])
        let kept = try TestAddress(json: #"{"city": null}"#)
        #expect(kept.jsonModel.json() == ["city": nil])   // an original null is kept
    }

    @Test func description() throws {
        let address = try TestAddress(json: #"{"city": "Paris"}"#)
        #expect(address.debugDescription == #"TestAddress(city: "Paris")"#)
        #expect("\(address)" == #"TestAddress(city: "Paris")"#)
    }

    @Test func equalityIsSameClassAndEqualJSON() throws {
        let a = try TestAddress(json: #"{"city": "Paris", "postal_code": "1"}"#)
        let b = try TestAddress(json: #"{"postal_code": "1", "city": "Paris"}"#)
        let c = try TestAddress(json: #"{"city": "Rome"}"#)
        let d = try Nested(json: #"{"city": "Paris", "postal_code": "1"}"#)
        #expect(a == b)
        #expect(a != c)
        #expect((a as JSONModel) != (d as JSONModel))
        #expect(Set<JSONModel>([a, b, c, d]).count == 3)
        let changed = a.jsonModel.mutate { $0.city = "Rome" as String? }
        #expect(changed != a)
        #expect(changed.jsonModel.mutate { $0.city = "Paris" as String? } == a)
    }

    struct Envelope: Codable, Equatable {
        var user: TestUser
        var addresses: [TestAddress]
        var note: String
    }

    @Test func codableNestsInsideOtherCodableTypes() throws {
        let envelope = Envelope(
            user: try TestUser(json: #"{"first_name": "Ann", "age": 3, "address": {"city": "X"}}"#),
            addresses: [try TestAddress(json: #"{"city": "Y"}"#)], note: "n")
        let data = try JSONEncoder().encode(envelope)
        let decoded = try JSONDecoder().decode(Envelope.self, from: data)
        #expect(decoded == envelope)
        #expect(decoded.user.firstName == "Ann")
        let city: String? = decoded.user.address.city
        #expect(city == "X")
        #expect(!decoded.user.isMutable)
    }

    @Test func decodingANonObjectFails() {
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode([TestAddress].self, from: Data("[1]".utf8))
        }
    }
}

@Suite("Model creation")
struct ModelCreationTests {
    @Test func fromEveryInput() throws {
        let text = #"{"city": "Paris"}"#
        let expected: JSONValue = ["city": "Paris"]
        #expect(try TestAddress(json: text).jsonModel.json() == expected)
        #expect(try TestAddress(json: Data(text.utf8)).jsonModel.json() == expected)
        #expect(try TestAddress(json: Array(text.utf8)).jsonModel.json() == expected)
        #expect(try TestAddress(json: expected).jsonModel.json() == expected)
        #expect(try TestAddress(json: JSONValue(any: ["city": "Paris"])).jsonModel.json() == expected)
        let document = try JSONDocument(string: #"{"items": [{"city": "Paris"}]}"#)
        let node = document.root["items"]![0]!
        let fromNode = try TestAddress(json: node)
        #expect(fromNode.jsonModel.json() == expected)
        #expect(fromNode.city as String? == "Paris")
    }

    @Test func invalidJSONThrowsTheParseError() throws {
        let missingValue = try #require(throws: JSONModelError.self) { try TestAddress(json: #"{"city": }"#) }
        #expect(missingValue.parseError != nil)
        let empty = try #require(throws: JSONModelError.self) { try TestAddress(json: "") }
        #expect(empty.parseError?.kind == .emptyInput)
        let notUTF8 = try #require(throws: JSONModelError.self) { try TestAddress(json: Data([0xFF]), options: .validating) }
        #expect(notUTF8.parseError != nil)
    }

    @Test(arguments: ["[1]", "5", #""text""#, "null", "true"])
    func nonObjectJSONThrows(json: String) {
        #expect(throws: JSONModelError.self) { try TestAddress(json: json) }
    }

    @Test func nonObjectValuesThrowClearErrors() throws {
        #expect(throws: JSONModelError.notAnObject(model: "TestAddress", found: .array)) {
            try TestAddress(json: [1, 2] as JSONValue)
        }
        let document = try JSONDocument(string: "[1]")
        #expect(throws: JSONModelError.notAnObject(model: "TestAddress", found: .array)) {
            try TestAddress(json: document.root)
        }
        #expect(throws: JSONValueConversionError.self) { try JSONValue(any: ["x": NSObject()]) }
        let error = JSONModelError.notAnObject(model: "TestAddress", found: .number)
        #expect(error.description == "TestAddress needs a JSON object at the top level, found number")
    }
}
