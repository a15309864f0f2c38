import Foundation
import Testing
@testable import JSONModelKit
@testable import JSONModelKitCore

/// A model that reads scalar members, to take the member walk over packed and unpacked members.
final class PackedReader: JSONModel, DynamicMembers, @unchecked Sendable {
    static let long255 = String(repeating: "k", count: 255)
    static let long256 = String(repeating: "k", count: 256)

    override class func properties(_ p: PropertyRegistrar) {
        p.a(Int?.self)
        p.b(String?.self)
        p.c(Bool?.self)
        p.d(Double?.self)
        p.long255(Int?.self, jsonPath: JSONPath([.key(PackedReader.long255)]))
        p.long256(Int?.self, jsonPath: JSONPath([.key(PackedReader.long256)]))
        p.z(Int?.self)
    }
}

/// Most members whose value is a scalar take one tape entry for key and value (`TapeEntry`).
/// Every reader of an object must find the same keys and values whether a member is packed or
/// not, and the scanner must pack exactly when the key has no escapes and the lengths fit.
@Suite("Packed members")
struct PackedMemberTests {
    struct Case: CustomStringConvertible {
        /// The key and the value as they stand in the JSON text.
        var key: String
        var value: String
        /// Spaces before and after the colon.
        var before = 0
        var after = 0
        /// What they read as.
        var decodedKey: String
        var expected: JSONValue
        var packed: Bool

        var description: String { "\(key.prefix(20))… (\(key.utf8.count) bytes) : \(value.prefix(20)) (\(before), \(after))" }

        var json: String {
            "{\"\(key)\"" + String(repeating: " ", count: before) + ":" + String(repeating: " ", count: after) + value
                + #", "list": [1, {"x": 2}], "z": 9}"#
        }
    }

    static var cases: [Case] {
        var cases: [Case] = []
        // Every scalar kind packs after a plain key.
        let scalars: [(String, JSONValue)] = [
            ("null", .null), ("true", true), ("false", false), ("0", 0), ("-12", -12), ("3.5e2", .number(JSONNumber(validatedText: "3.5e2"))),
            (#""text""#, "text"), (#""""#, ""), (#""esc\u00e9\n""#, "esc\u{e9}\n"), (#""\ud83d\ude00""#, "\u{1F600}"),
        ]
        for (text, value) in scalars {
            cases.append(Case(key: "k", value: text, decodedKey: "k", expected: value, packed: true))
        }
        // Keys: empty, non-ASCII, and either side of 256 bytes; escaped keys never pack.
        for length in [0, 1, 255, 256, 300] {
            let key = String(repeating: "a", count: length)
            cases.append(Case(key: key, value: "1", decodedKey: key, expected: 1, packed: length < 256))
        }
        cases.append(Case(key: "naïve", value: "1", decodedKey: "naïve", expected: 1, packed: true))
        cases.append(Case(key: #"k\u0041"#, value: "1", decodedKey: "kA", expected: 1, packed: false))
        cases.append(Case(key: #"\"q\""#, value: #""v""#, decodedKey: #""q""#, expected: "v", packed: false))
        // Values either side of 65,536 bytes.
        for length in [65_535, 65_536, 70_000] {
            let text = String(repeating: "s", count: length)
            cases.append(Case(key: "k", value: "\"\(text)\"", decodedKey: "k", expected: .string(text), packed: length < 65_536))
        }
        let digits = "1" + String(repeating: "0", count: 65_535)  // 65,536 digits: too long to pack
        cases.append(Case(key: "k", value: digits, decodedKey: "k", expected: .number(JSONNumber(validatedText: digits)), packed: false))
        // White space between key and value: up to 15 bytes besides the quote and the colon (a
        // string's opening quote counts too).
        for (before, after) in [(0, 1), (1, 1), (15, 0), (0, 15), (8, 7), (8, 8), (0, 16), (20, 20)] {
            cases.append(Case(key: "k", value: "7", before: before, after: after, decodedKey: "k", expected: 7, packed: before + after < 16))
            cases.append(Case(key: "k", value: #""s""#, before: before, after: after, decodedKey: "k", expected: "s", packed: before + after < 15))
        }
        return cases
    }

    @Test(arguments: cases)
    func everyReaderFindsTheKeyAndTheValue(_ test: Case) throws {
        let document = try JSONDocument(string: test.json)
        #expect(document.entry(1).isPackedMember == test.packed)
        // The tape: the object, the member (one entry or two), "list" and its array, 1, the inner
        // object and its packed "x", and the packed "z".
        #expect(document.tapeByteCount == (test.packed ? 8 : 9) * 8)
        let root = document.root
        let list: JSONValue = [1, ["x": 2]]
        #expect(root[test.decodedKey]?.value == test.expected)
        #expect(root["z"]?.intValue == 9)
        #expect(root["list"]?[1]?["x"]?.intValue == 2)
        let members = root.members.map { ($0.key, $0.value.value) }
        #expect(members.map(\.0) == [test.decodedKey, "list", "z"])
        #expect(members.map(\.1) == [test.expected, list, 9])
        let object: JSONValue = .object(JSONObject([(key: test.decodedKey, value: test.expected), (key: "list", value: list), (key: "z", value: 9)]))
        #expect(root.value == object)
        // Written from the tape, keys and values as they stand in the input, sorted or not.
        for options: JSONWriteOptions in [[], [.sortedKeys]] {
            let written = root.jsonString(options: options)
            #expect(try JSONDocument(string: written).root.value == object)
            #expect(written.contains("\"\(test.key)\""))
        }
    }

    /// A model's member walk finds each property where a lookup in the document does, among
    /// packed members, members too long to pack, escaped keys and containers.
    @Test func aModelReadsMembersPackedOrNot() throws {
        let long = String(repeating: "é", count: 40_000)
        let members = [
            #""a": 1"#, #""b" :  "plain""#, #""c":true"#, #""d": 2.5"#, #""\#(PackedReader.long255)": 255"#,
            #""\#(PackedReader.long256)": 256"#, #""z"                    : 26"#, #""\u0062": "escaped b""#,
            #""b": "\#(long)""#, #""list": [{"a": 9}, "x"]"#, #""obj": {"z": 0}"#,
        ]
        var orders: [[String]] = []
        for shift in 0..<members.count {
            let rotated = Array(members[shift...] + members[..<shift])
            orders += [rotated, rotated.reversed()]
        }
        var generator = SystemRandomNumberGenerator()
        for order in orders {
            let json = "{" + order.joined(separator: ",") + "}"
            let document = try JSONDocument(string: json)
            let model = try PackedReader(json: json)
            // Typed reads, through the cache that the walk fills, in an order that starts the walk
            // at a different property each time.
            let root = document.root
            var reads: [() -> Void] = [
                { #expect(model.a as Int? == root["a"]?.intValue, "a in \(json.prefix(200))") },
                { #expect(model.b as String? == root["b"]?.stringValue, "b in \(json.prefix(200))") },
                { #expect(model.c as Bool? == root["c"]?.boolValue, "c in \(json.prefix(200))") },
                { #expect(model.d as Double? == root["d"]?.doubleValue, "d in \(json.prefix(200))") },
                { #expect(model.long255 as Int? == root[PackedReader.long255]?.intValue, "long255") },
                { #expect(model.long256 as Int? == root[PackedReader.long256]?.intValue, "long256") },
                { #expect(model.z as Int? == root["z"]?.intValue, "z in \(json.prefix(200))") },
            ]
            reads.shuffle(using: &generator)
            for read in reads { read() }
            #expect(model.jsonModel.json() == document.root.value)
        }
    }
}
