import Foundation
import Testing
@testable import JSONModelKit

/// A type that writes one nested object in two steps, asking for its container twice.
private struct TwoStepMeta: Codable, Sendable, Equatable {
    var a: Int
    var b: Int

    private enum Keys: String, CodingKey { case meta, list }
    private enum MetaKeys: String, CodingKey { case a, b }

    init(a: Int, b: Int) {
        self.a = a
        self.b = b
    }

    init(from decoder: any Decoder) throws {
        let meta = try decoder.container(keyedBy: Keys.self).nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        a = try meta.decode(Int.self, forKey: .a)
        b = try meta.decode(Int.self, forKey: .b)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var first = container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        try first.encode(a, forKey: .a)
        var second = container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        try second.encode(b, forKey: .b)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try list.encode(a)
        var more = container.nestedUnkeyedContainer(forKey: .list)
        try more.encode(b)
    }
}

/// A type that catches what its members throw and goes on.
private struct Forgiving: Encodable {
    private enum Keys: String, CodingKey { case kept, bad }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: Keys.self)
        try object.encode(2, forKey: .kept)
        try? object.encode(Double.infinity, forKey: .kept)
    }
}

private struct RawHolder: Codable, Sendable, Equatable {
    var extra: JSONValue
}

private struct ScoreTable: Codable, Sendable, Equatable {
    var scores: [String: Int]
}

/// Pairs whose elements must be even, checked by the type itself.
private struct EvenPairs: Codable, Sendable, Equatable {
    var pairs: [Int]

    private enum Keys: String, CodingKey { case pairs }

    init(from decoder: any Decoder) throws {
        var list = try decoder.container(keyedBy: Keys.self).nestedUnkeyedContainer(forKey: .pairs)
        var pairs: [Int] = []
        while !list.isAtEnd {
            let value = try list.decode(Int.self)
            if value % 2 != 0 {
                throw DecodingError.dataCorruptedError(in: list, debugDescription: "\(value) is odd")
            }
            pairs.append(value)
        }
        self.pairs = pairs
    }
}

private final class CodableBridgeModel: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.optionalMetas([CodableMeta?].self)
        p.optionalByName([String: CodableMeta?].self)
        p.byName([String: CodableMeta].self)
        p.raw(RawHolder?.self)
        p.table(ScoreTable?.self)
        p.twoStep(TwoStepMeta?.self)
        p.even(EvenPairs?.self)
    }
}

private struct Envelope: Codable {
    var user: CodableHolder
}

/// What the coders of Codable property types do that Foundation's do too.
@Suite("Codable bridge")
struct CodableBridgeTests {
    @Test func aNestedContainerAskedForAgainAddsToTheSameObjectOrArray() throws {
        let json = try JSONValueEncoder.encode(TwoStepMeta(a: 1, b: 2))
        #expect(json == ["meta": ["a": 1, "b": 2], "list": [1, 2]])
        #expect(try JSONInputDecoder.decode(TwoStepMeta.self, from: .value(json)) == TwoStepMeta(a: 1, b: 2))
    }

    @Test func aValueThatThrowsLeavesNothingBehind() throws {
        // As JSONEncoder: no null for the element that threw, and the key keeps its value.
        let unkeyed = try JSONValueEncoder.encode(Forgiving())
        #expect(unkeyed == ["kept": 2])
        let list = try JSONValueEncoder.encode(ForgivingList())
        #expect(list == [1])
    }

    private struct ForgivingList: Encodable {
        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            try? list.encode(Double.nan)
            try list.encode(1)
        }
    }

    @Test func anOptionalElementThatDoesNotDecodeReadsAsNilInItsPlace() throws {
        let model = try CodableBridgeModel(json: #"""
            {"optionalMetas": [{"title": "a", "tags": []}, {"title": 5, "tags": []}, {"title": "c", "tags": []}],
             "optionalByName": {"x": {"title": 5, "tags": []}, "y": {"title": "y", "tags": []}}}
            """#)
        let metas: [CodableMeta?] = model.optionalMetas
        #expect(metas.map { $0?.title } == ["a", nil, "c"])
        let byName: [String: CodableMeta?] = model.optionalByName
        #expect(byName.count == 2)
        #expect(byName["x"] == .some(nil))
        #expect(byName["y"]??.title == "y")
        #expect(model.jsonModel.diagnostics.map(\.path.description).sorted() == ["optionalByName.x.title", "optionalMetas[1].title"])
    }

    @Test func ofAKeyGivenTwiceTheLastMemberDecidesEvenWhenItFails() throws {
        let model = try CodableBridgeModel(json: #"{"byName": {"k": {"title": "a", "tags": []}, "k": 5}}"#)
        let byName: [String: CodableMeta] = model.byName
        #expect(byName["k"] == nil)
        #expect(model.jsonModel.diagnostics.count == 1)
    }

    /// A type that keeps every key its container lists, with the value under it.
    private struct KeyLister: Decodable {
        let pairs: [(String, Int)]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: JSONValueCodingKey.self)
            pairs = try container.allKeys.map { ($0.stringValue, try container.decode(Int.self, forKey: $0)) }
        }
    }

    @Test func allKeysNamesAKeyGivenTwiceOnce() throws {
        let listed = try JSONInputDecoder.decode(KeyLister.self, from: .node(try JSONDocument(string: #"{"a": 1, "b": 3, "a": 2}"#).root))
        #expect(listed.pairs.map(\.0) == ["a", "b"])
        #expect(listed.pairs.map(\.1) == [2, 3])
    }

    @Test func aJSONValueInsideACodableValueKeepsItsNumbersAsSpelled() throws {
        for number in ["1e400", "12345678901234567890123", "0.1000000000000000055511151231257827"] {
            let model = try CodableBridgeModel(json: #"{"raw": {"extra": [\#(number)]}}"#, options: .mutable)
            let raw = try #require(model.raw as RawHolder?, "\(number)")
            #expect(raw.extra[0]?.numberValue?.description == number)
            #expect(model.jsonModel.diagnostics.isEmpty, "\(number)")
            // Written back, it is the same text.
            try model.jsonModel.set(raw, forProperty: "raw")
            #expect(model.jsonModel.jsonString().contains(number), "\(number)")
        }
    }

    @Test func aModelInsideACodableValueKeepsItsJSON() throws {
        let text = #"{"user": {"count": 12345678901234567890123, "other": 1e400}}"#
        let envelope = try JSONInputDecoder.decode(Envelope.self, from: .node(try JSONDocument(string: text).root))
        #expect(envelope.user.jsonModel.json()["count"]?.numberValue?.description == "12345678901234567890123")
        let written = try JSONValueEncoder.encode(envelope)
        #expect(written["user"]?["other"]?.numberValue?.description == "1e400")
    }

    @Test func aModelFromSomethingElseThanAnObjectIsADecodingErrorAtItsPath() throws {
        #expect {
            try JSONDecoder().decode(Envelope.self, from: Data(#"{"user": 5}"#.utf8))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["user"]
        }
        #expect {
            try JSONInputDecoder.decode(Envelope.self, from: .value(["user": [1]]))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["user"]
        }
    }

    @Test func anIndexTheStandardLibraryNamesIsAnIndexInADiagnosticsPath() throws {
        let model = try CodableBridgeModel(json: #"{"even": {"pairs": [2, 3]}}"#)
        let even: EvenPairs? = model.even
        #expect(even == nil)
        // The container's current index, past the element read, as `dataCorruptedError(in:)` takes it.
        #expect(model.jsonModel.diagnostics.map(\.path.description) == ["even.pairs[2]"])
    }

    @Test func aDictionarysNumericKeyIsAKeyInADiagnosticsPath() throws {
        let model = try CodableBridgeModel(json: #"{"table": {"scores": {"007": "x"}}}"#)
        let table: ScoreTable? = model.table
        #expect(table == nil)
        #expect(model.jsonModel.diagnostics.map(\.path) == [JSONPath([.key("table"), .key("scores"), .key("007")])])
    }
}
