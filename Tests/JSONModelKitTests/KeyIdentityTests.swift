import Foundation
import Testing
@testable import JSONModelKit
@testable import JSONModelKitCore

/// "á" written two ways: `a` followed by U+0301 (combining acute accent), and U+00E1. Swift's
/// `String ==` takes them for one string (canonical equivalence); JSON keys are text, and these
/// are two different keys.
private let decomposed = "a\u{301}"
private let composed = "\u{E1}"

final class AccentedKeys: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.decomposed(Int.self, jsonPath: JSONPath([.key("a\u{301}")]))
        p.composed(Int.self, jsonPath: JSONPath([.key("\u{E1}")]))
        p.keep(Int.self)
    }
}

final class AccentedKeysHolder: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.byKey([String: AccentedKeys].self)
    }
}

/// An object's members in order, each key spelled scalar by scalar: `a<301>=9` for `a` + U+0301.
private func members(_ value: JSONValue?) -> String {
    guard let object = value?.objectValue else { return "not an object" }
    return object.members.map { member in
        let key = member.key.unicodeScalars.map { $0.isASCII ? String($0) : "<\(String($0.value, radix: 16))>" }.joined()
        return "\(key)=\(member.value)"
    }.joined(separator: ",")
}

@Suite("Key identity")
struct KeyIdentityTests {
    static let text = #"{"a\#u{301}": 1, "\#u{E1}": 2, "keep": 3}"#

    @Test func aModelReadsTheTwoSpellingsAsTwoKeys() throws {
        let model = try AccentedKeys(json: Self.text)
        #expect(model.decomposed == 1)
        #expect(model.composed == 2)
    }

    @Test func aDictionaryOfModelsKeepsTheTwoSpellingsApart() throws {
        let text = #"{"a\#u{301}": {"keep": 1}, "\#u{E1}": {"keep": 2}}"#
        var dictionary = try ModelDictionary<AccentedKeys>(json: text)
        #expect(dictionary.count == 2)
        #expect(dictionary[decomposed]?.keep == 1)
        #expect(dictionary[composed]?.keep == 2)
        #expect(members(dictionary.json()) == "a<301>={\"keep\":1},<e1>={\"keep\":2}")
        // As a Swift dictionary, keyed by String, the two are one key: the later one is kept.
        let holder = try AccentedKeysHolder(json: #"{"byKey": \#(text)}"#)
        let bridged: [String: AccentedKeys] = holder.byKey
        #expect(bridged.count == 1)
        #expect(bridged[composed]?.keep == 2)
        let lazy: ModelDictionary<AccentedKeys> = holder.byKey
        #expect(lazy.count == 2)
        // Setting and removing one spelling leaves the other.
        dictionary[composed] = try AccentedKeys(json: #"{"keep": 3}"#)
        dictionary[decomposed] = nil
        #expect(members(dictionary.json()) == "<e1>={\"keep\":3}")
        #expect(dictionary != (try ModelDictionary<AccentedKeys>(json: #"{"a\#u{301}": {"keep": 3}}"#)))
    }

    @Test func aModelWriteChangesOnlyTheKeyItRead() throws {
        let model = try AccentedKeys(json: Self.text, options: .mutable)
        model.decomposed = 9
        #expect(members(model.jsonModel.json()) == "a<301>=9,<e1>=2,keep=3")
        #expect(model.decomposed == 9)
        #expect(model.composed == 2)
        model.composed = 8
        #expect(members(model.jsonModel.json()) == "a<301>=9,<e1>=8,keep=3")
        model.composed = nil as Int?
        #expect(members(model.jsonModel.json()) == "a<301>=9,keep=3")
    }

    @Test func objectSubscriptTellsTheSpellingsApart() {
        var object = JSONObject()
        object.append(key: decomposed, value: 1)
        object.append(key: composed, value: 2)
        object.append(key: "keep", value: 3)
        #expect(object[decomposed] == 1)
        #expect(object[composed] == 2)
        object[decomposed] = 9
        #expect(members(.object(object)) == "a<301>=9,<e1>=2,keep=3")
        object[composed] = nil
        #expect(members(.object(object)) == "a<301>=9,keep=3")
    }

    @Test func indexedObjectTellsTheSpellingsApart() {
        // More than 16 members: lookups go through the key index.
        var object = JSONObject()
        for number in 0..<20 { object.append(key: "k\(number)", value: .number(JSONNumber(number))) }
        object.append(key: decomposed, value: 1)
        object.append(key: composed, value: 2)
        #expect(object[decomposed] == 1)
        #expect(object[composed] == 2)
        #expect(object.count == 22)
        object[composed] = 5
        #expect(object[decomposed] == 1)
        #expect(object.count == 22)
    }

    @Test func valuePathWriteTellsTheSpellingsApart() throws {
        var value = try JSONDocument(string: Self.text).root.value
        value[JSONPath([.key(decomposed)])] = 9
        #expect(members(value) == "a<301>=9,<e1>=2,keep=3")
        try value.setValue(7, at: JSONPath([.key(composed)]))
        #expect(members(value) == "a<301>=9,<e1>=7,keep=3")
    }

    @Test func equalityTellsTheSpellingsApart() {
        let a: JSONValue = .object(JSONObject([(key: decomposed, value: JSONValue(integerLiteral: 1))]))
        let b: JSONValue = .object(JSONObject([(key: composed, value: JSONValue(integerLiteral: 1))]))
        #expect(a != b)
        #expect(JSONPath([.key(decomposed)]) != JSONPath([.key(composed)]))
        #expect(Set([JSONPath.Segment.key(decomposed), .key(composed)]).count == 2)
    }

    @Test func largeDocumentObjectTellsTheSpellingsApart() throws {
        // More than 64 members: node lookups go through the document's index.
        var text = "{"
        for number in 0..<70 { text += #""k\#(number)": \#(number), "# }
        text += #""a\#u{301}": 1, "\#u{E1}": 2}"#
        let document = try JSONDocument(string: text)
        #expect(document.root[decomposed]?.intValue == 1)
        #expect(document.root[composed]?.intValue == 2)
    }
}
