import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitFoundation
import JSONModelKitTestSupport

// MARK: - Fixture models

final class DescribedAddress: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String.self)
        p.zip(String?.self, jsonPath: "postal_code")
    }
}

final class DescribedUser: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.firstName(String.self, jsonPath: "first_name")
        p.nickname(String?.self)
        p.age(Int.self, default: 18)
        p.score(Double.self)
        p.active(Bool.self)
        p.address(DescribedAddress.self)
        p.addresses([DescribedAddress].self)
        p.tags([String].self)
        p.counts([String: Int].self)
        p.matrix([[Int?]].self)
        p.homepage(URL?.self)
        p.extra(JSONValue?.self)
    }
}

enum DescribedStatus: String, Sendable {
    case active, closed
}

/// Optionals of a user's type, alone and in collections.
final class DescribedAccount: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.status(DescribedStatus?.self)
        p.history([DescribedStatus?].self)
    }
}

/// A model whose property has its own class, so descriptions can go as deep as the JSON does.
final class DescribedNode: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
        p.child(DescribedNode?.self)
    }
}

final class DescribedTag: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.label(String.self)
    }
}

final class DescribedOrder: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.number(String.self)
        p.lines([DescribedLine].self, inverse: "order")
    }
}

final class DescribedLine: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.sku(String.self)
        p.qty(Int.self, default: 1)
    }
}

@Suite("Descriptions")
struct DescriptionTests {
    static let richJSON = #"""
        {
          "first_name": "Zoë \"Z\" Łukasiewicz",
          "nickname": null,
          "age": 31,
          "score": 2.5,
          "active": true,
          "address": {"city": "Rome", "postal_code": "00184", "floor": 3},
          "addresses": [{"city": "Oslo"}, {"city": "Kyōto", "postal_code": null}],
          "tags": ["a\tb", "line\nbreak", "back\\slash", "bell\u0007", "🇮🇹 flag"],
          "counts": {"b": 2, "a": 1, "c": 3},
          "matrix": [[1, null], [], [3]],
          "homepage": "https://example.org/~ann",
          "extra": {"z": [1, 2], "a": null},
          "legacy_id": 12345678901234567890,
          "meta": {"source": "import"}
        }
        """#

    // MARK: description

    @Test func oneLineShowsOnlyPropertiesThatDifferFromDefaultsInDeclarationOrder() throws {
        let user = try DescribedUser(json: #"{"first_name": "Ann", "age": 31, "addresses": [{"city": "Rome"}, {"city": "Oslo"}]}"#)
        #expect(user.debugDescription == #"DescribedUser(firstName: "Ann", age: 31, addresses: [2 items])"#)
        #expect("\(user)" == user.debugDescription)
        // A value equal to its default is left out, even when present in the JSON.
        let plain = try DescribedUser(json: #"{"first_name": "Bo", "age": 18.0, "score": 0, "tags": [], "address": {}}"#)
        #expect(plain.debugDescription == #"DescribedUser(firstName: "Bo")"#)
        #expect(try DescribedUser(json: "{}").debugDescription == "DescribedUser()")
    }

    @Test func oneLineShowsNestedModelsAndCollections() throws {
        let user = try DescribedUser(json: Self.richJSON)
        #expect(user.debugDescription == #"""
            DescribedUser(firstName: "Zoë \"Z\" Łukasiewicz", age: 31, score: 2.5, active: true, \#
            address: DescribedAddress(city: "Rome", zip: "00184"), addresses: [2 items], tags: [5 items], \#
            counts: [3 entries], matrix: [3 items], homepage: URL(https://example.org/~ann), extra: {"z":[1,2],"a":null})
            """#)
    }

    @Test func longStringsAreCutAtEightyCharacters() throws {
        let long = String(repeating: "é", count: 100)
        let user = try DescribedUser(json: JSONValue.object(["first_name": .string(long)]))
        #expect(user.debugDescription == "DescribedUser(firstName: \"" + String(repeating: "é", count: 80) + "…\")")
        let exact = String(repeating: "x", count: 80)
        let fits = try DescribedUser(json: JSONValue.object(["first_name": .string(exact)]))
        #expect(fits.debugDescription == "DescribedUser(firstName: \"\(exact)\")")
    }

    /// A character may hold any number of Unicode scalars: a string also ends at eight times its
    /// limit in scalars, so one `e` with ten thousand accents cannot make a line of any length.
    @Test func aCharacterOfManyScalarsCannotStretchALine() throws {
        let heavy = "e" + String(repeating: "\u{301}", count: 10_000)
        #expect(heavy.count == 1)
        let user = try DescribedUser(json: JSONValue.object(["first_name": .string(heavy)]))
        #expect(user.debugDescription.unicodeScalars.count <= 100)
        #expect(user.debugDescription.hasSuffix("firstName: \"…\")"))
        #expect(user.jsonModel.fullDescription.unicodeScalars.count <= 9_000)
        // Text of a few scalars a character is cut by characters, as before.
        let accented = String(repeating: "e\u{301}", count: 100)
        let cut = try DescribedUser(json: JSONValue.object(["first_name": .string(accented)]))
        #expect(cut.debugDescription.contains(String(repeating: "e\u{301}", count: 80) + "…"))
    }

    /// A diagnostic quoting a value or a key from the input stays on one line: a line break in
    /// the input started what read as a log line of its own.
    @Test func aDiagnosticStaysOnOneLine() throws {
        let user = try DescribedUser(json: #"{"age": "1\n  legacy_id: 7", "counts": {"a\u2028b": "x"}}"#)
        _ = user.age as Int
        _ = user.counts as [String: Int]
        let diagnostics = user.jsonModel.diagnostics
        #expect(diagnostics.count == 2)
        for diagnostic in diagnostics {
            #expect(!TextEscapes.breaksLines(diagnostic.description), "\(diagnostic.description)")
        }
        #expect(diagnostics.map(\.description).contains { $0.contains(#""1\n  legacy_id: 7""#) })
        let lines = user.jsonModel.fullDescription.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("  legacy_id") })
        #expect(lines.contains { $0.contains("counts.a\\u{2028}b") })
    }

    /// An optional of the user's own type shows its value, as the type alone does: it showed
    /// `Optional(JSONModelKitTests.DescribedStatus.active)`.
    @Test func anOptionalOfTheUsersTypeShowsItsValue() throws {
        let account = try DescribedAccount(json: #"{"status": "active", "history": ["closed", null, "active"]}"#)
        #expect(account.debugDescription == "DescribedAccount(status: active, history: [3 items])")
        let full = account.jsonModel.fullDescription
        #expect(!full.contains("Optional("), "\(full)")
        #expect(full.contains("status: active") && full.contains("closed") && full.contains("nil"), "\(full)")
    }

    @Test func theWholeLineIsCappedAtFiveHundredCharactersAtAPropertyBoundary() throws {
        let registry = ModelRegistry()
        let names = (0..<10).map { "field\($0)" }
        let properties = names.map { #"{"name": "\#($0)", "type": "String"}"# }.joined(separator: ", ")
        try registry.register(ModelSchema(json: #"{"models": [{"name": "Wide", "properties": [\#(properties)]}]}"#))
        var object = JSONObject()
        for name in names { object[name] = .string(String(repeating: "w", count: 200)) }
        let wide = try registry.makeModel(named: "Wide", json: JSONValue.object(object))
        let line = wide.debugDescription
        // Five properties of 94 characters fit; the rest are counted, none is cut inside.
        #expect(line.count <= 500)
        #expect(line.hasSuffix("…\", … 5 more)"))
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix("Wide(field0: \"" + String(repeating: "w", count: 80) + "…\", field1: "))
        var limits = DescriptionLimits.default
        limits.maxLineLength = 40
        #expect(wide.jsonModel.description(limits: limits) == "Wide(… 10 more)")
    }

    @Test func escapesAndUnicodeInOneLine() throws {
        let text = "q\" b\\ n\n t\t r\r nul\u{0} esc\u{1B} del\u{7F} ls\u{2028} é 👩‍👩‍👧 🇮🇹"
        let tag = try DescribedTag(json: JSONValue.object(["label": .string(text)]))
        #expect(tag.debugDescription == #"""
            DescribedTag(label: "q\" b\\ n\n t\t r\r nul\0 esc\u{1B} del\u{7F} ls\u{2028} é 👩‍👩‍👧 🇮🇹")
            """#)
        // Cutting counts characters, so a flag or family emoji is never split.
        let flags = try DescribedTag(json: JSONValue.object(["label": .string(String(repeating: "🇮🇹", count: 90))]))
        #expect(flags.debugDescription == "DescribedTag(label: \"" + String(repeating: "🇮🇹", count: 80) + "…\")")
    }

    @Test func nestedModelsInOneLineStopAtThreeLevels() throws {
        let node = try DescribedNode(json: Self.chain(depth: 6))
        #expect(node.debugDescription == #"""
            DescribedNode(name: "n0", child: DescribedNode(name: "n1", child: DescribedNode(name: "n2", \#
            child: DescribedNode(name: "n3", child: DescribedNode(…)))))
            """#)
    }

    @Test func printAndDebuggersShowTheOneLine() throws {
        let address = try DescribedAddress(json: #"{"city": "Rome"}"#)
        #expect(address.debugDescription == #"DescribedAddress(city: "Rome")"#)
        #expect(String(reflecting: address) == address.debugDescription)
        #expect(String(describing: address) == address.debugDescription)
        #expect(address.jsonModel.description(limits: .default) == address.debugDescription)
    }

    // MARK: fullDescription

    @Test func fullDescriptionOfARichModel() throws {
        let user = try DescribedUser(json: Self.richJSON)
        Snapshot.expect(user.jsonModel.fullDescription, named: "rich")
    }

    @Test func fullDescriptionShowsChangesAndDiagnostics() throws {
        let user = try DescribedUser(json: #"{"first_name": "Ann", "age": "old", "tags": ["a", 5, ["x"]], "zzz": 1}"#, options: .mutable)
        #expect(user.age == 18)
        #expect(user.tags == ["a", "5"])
        user.age = 31
        user.nickname = "Annie"
        let address: DescribedAddress = user.address
        address.city = "Rome"
        Snapshot.expect(user.jsonModel.fullDescription, named: "changes-and-diagnostics")
        #expect(user.debugDescription == #"DescribedUser(firstName: "Ann", nickname: "Annie", age: 31, address: DescribedAddress(city: "Rome"), tags: [2 items])"#)
    }

    @Test func emptyCollectionsAndNils() throws {
        let user = try DescribedUser(json: #"{"first_name": "", "addresses": [], "counts": {}, "matrix": [[]], "homepage": null}"#)
        Snapshot.expect(user.jsonModel.fullDescription, named: "empty-and-nil")
        let tag = try DescribedTag(json: #"{"label": "solo"}"#)
        #expect(tag.jsonModel.fullDescription == #"DescribedTag(label: "solo")"#)
    }

    @Test func tenThousandElementsShowTheFirstHundred() throws {
        let tags = (0..<10_000).map { JSONValue.string("t\($0)") }
        let addresses = (0..<10_000).map { JSONValue.object(["city": .string("c\($0)")]) }
        let user = try DescribedUser(json: JSONValue.object(["tags": .array(tags), "addresses": .array(addresses)]))
        #expect(user.debugDescription == "DescribedUser(addresses: [10,000 items], tags: [10,000 items])")
        let full = user.jsonModel.fullDescription
        Snapshot.expect(full, named: "ten-thousand")
        #expect(full.contains("    [99]: \"t99\",\n    … 9,900 more\n  ],"))
        #expect(!full.contains("[100]"))
        var limits = DescriptionLimits.default
        limits.maxItems = 2
        #expect(user.jsonModel.fullDescription(limits: limits).contains("    [1]: \"t1\",\n    … 9,998 more\n  ],"))
    }

    @Test func depthIsLimited() throws {
        let node = try DescribedNode(json: Self.chain(depth: 20))
        let full = node.jsonModel.fullDescription
        Snapshot.expect(full, named: "depth-limit")
        #expect(full.contains("child: DescribedNode(…)"))
        #expect(!full.contains("n13"))
        var limits = DescriptionLimits.default
        limits.maxDepth = 2
        #expect(node.jsonModel.fullDescription(limits: limits) == #"""
            DescribedNode(
              name: "n0",
              child: DescribedNode(
                name: "n1",
                child: DescribedNode(…)
              )
            )
            """#)
    }

    @Test func aModelMetAgainInsideItselfIsMarked() throws {
        // JSON trees have no cycles; inverse relationships can. The writer marks
        // any model already being written.
        let node = try DescribedNode(json: Self.chain(depth: 2))
        var writer = DescriptionWriter(limits: .default)
        writer.ancestors = [ObjectIdentifier(node)]
        var full = ""
        writer.writeFull(model: node, to: &full, indent: 0)
        #expect(full == "↻ DescribedNode")
        var line = CappedText(limit: 500)
        writer.writeLine(model: node, to: &line)
        #expect(line.result == "↻ DescribedNode")
    }

    @Test func cyclesThroughInverseRelationshipsAreMarked() throws {
        let order = try DescribedOrder(json: #"{"number": "A1", "lines": [{"sku": "x"}, {"sku": "y", "qty": 2}]}"#)
        // From the order down, each line refers back to the order being written.
        Snapshot.expect(order.jsonModel.fullDescription, named: "inverse-from-parent")
        #expect(order.debugDescription == #"DescribedOrder(number: "A1", lines: [2 items])"#)
        // From a line up: its order, whose lines include this very line.
        let lines: ModelArray<DescribedLine> = order.lines
        let first = lines[0]
        #expect(first.jsonModel.inverse("order", as: DescribedOrder.self) === order)
        let full = first.jsonModel.fullDescription
        Snapshot.expect(full, named: "inverse-from-child")
        #expect(full.contains("[0]: ↻ DescribedLine"))
        #expect(full.contains("order (inverse): ↻ DescribedOrder"))
        #expect(first.debugDescription == #"DescribedLine(sku: "x")"#)
        #expect(!lines.isElementBuilt(at: 1))
    }

    @Test func schemaModelsUseTheirSchemaName() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"""
            {"models": [
              {"name": "Invoice", "properties": [
                {"name": "number", "type": "String"},
                {"name": "total", "type": "Decimal"},
                {"name": "lines", "type": "[Line]"},
                {"name": "parent", "type": "Invoice?"}]},
              {"name": "Line", "properties": [{"name": "sku", "type": "String"}, {"name": "qty", "type": "Int", "default": 1}]}
            ]}
            """#))
        let invoice = try registry.makeModel(named: "Invoice", json: [
            "number": "A-1", "total": "12.50", "lines": [["sku": "x"], ["sku": "y", "qty": 3]],
            "parent": ["number": "A-0"],
        ] as JSONValue)
        #expect(invoice.debugDescription == #"Invoice(number: "A-1", total: 12.5, lines: [2 items], parent: Invoice(number: "A-0"))"#)
        Snapshot.expect(invoice.jsonModel.fullDescription, named: "schema-model")
    }

    // MARK: Side effects and threads

    @Test func describingChangesNoReadAndRecordsNoDiagnostic() throws {
        let user = try DescribedUser(json: #"{"first_name": "Ann", "age": "old", "tags": [1, null], "address": 5}"#)
        _ = user.debugDescription
        _ = user.debugDescription
        let before = user.jsonModel.fullDescription
        var dumped = ""
        dump(user, to: &dumped)
        #expect(user.jsonModel.diagnostics.isEmpty)
        #expect(user.cachedPropertyCount == 0)
        #expect(!before.contains("diagnostics:"))
        // Reads still convert and record as if nothing had been described.
        #expect(user.age == 18)
        #expect(user.tags == ["1"])
        let address: DescribedAddress = user.address
        #expect(address.city == "")
        #expect(user.jsonModel.diagnostics.count == 3)
        let after = user.jsonModel.fullDescription
        #expect(after.hasPrefix(before.components(separatedBy: "\ndiagnostics:")[0]))
        #expect(after.contains("diagnostics:\n  age: expected"))
        _ = user.debugDescription
        #expect(user.jsonModel.diagnostics.count == 3)
        #expect(user.age == 18)
    }

    @Test func describingFromEightThreadsGivesTheSameText() throws {
        let user = try DescribedUser(json: Self.richJSON)
        let expectedLine = user.debugDescription
        let expectedFull = user.jsonModel.fullDescription
        #expect(user.cachedPropertyCount == 0)
        let results = TextCollector()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            var texts: [String] = []
            for round in 0..<50 {
                if (round + index) % 3 == 0 { _ = user.age as Int }  // some threads fill the cache meanwhile
                texts.append(user.debugDescription)
                texts.append(user.jsonModel.fullDescription)
                texts.append(user.debugDescription)
            }
            results.append(texts)
        }
        let all = results.texts
        #expect(all.count == 8 * 150)
        #expect(all.allSatisfy { $0 == expectedLine || $0 == expectedFull || $0 == user.debugDescription })
        #expect(all.filter { $0 == expectedFull }.count == 400)
        #expect(user.jsonModel.diagnostics.isEmpty)
    }

    // MARK: Lazy model arrays

    @Test func lazyModelArraysDescribeThemselvesWithoutBuildingElements() throws {
        let tags = try DescribedTag.array(from: [["label": "a"], ["label": "b"], ["label": "c"]] as JSONValue)
        _ = tags[1]
        #expect(tags.lineDescription == "ModelArray<DescribedTag>(count: 3, built: 1)")
        #expect("\(tags)" == "ModelArray<DescribedTag>(count: 3, built: 1)")
        #expect(tags.fullDescription == #"""
            ModelArray<DescribedTag>(count: 3, built: 1) [
              [0]: DescribedTag(label: "a"),
              [1]: DescribedTag(label: "b"),
              [2]: DescribedTag(label: "c")
            ]
            """#)
        #expect(!tags.isElementBuilt(at: 0) && tags.isElementBuilt(at: 1) && !tags.isElementBuilt(at: 2))
        var limits = DescriptionLimits.default
        limits.maxItems = 1
        #expect(tags.fullDescription(limits: limits).hasSuffix("  [0]: DescribedTag(label: \"a\"),\n  … 2 more\n]"))
        let empty = try DescribedTag.array(from: [] as JSONValue)
        #expect(empty.fullDescription == "ModelArray<DescribedTag>(count: 0, built: 0) []")
    }

    @Test func modelArrayPropertiesShowAsArraysAndStayLazy() throws {
        let user = try DescribedUser(json: #"{"addresses": [{"city": "Oslo"}, {"city": "Pisa"}, 7]}"#)
        let lazy: ModelArray<DescribedAddress> = user.addresses
        #expect(user.debugDescription == "DescribedUser(addresses: [2 items])")
        let full = user.jsonModel.fullDescription
        #expect(full.contains("  addresses: [\n    [0]: DescribedAddress(\n      city: \"Oslo\","))
        #expect(!lazy.isElementBuilt(at: 0) && !lazy.isElementBuilt(at: 1))
        // The element left out was recorded when the property was read, not by describing.
        #expect(full.contains("\ndiagnostics:\n  addresses[2]: "))
        #expect(user.jsonModel.diagnostics.count == 1)
    }

    // MARK: Mirror

    @Test func dumpShowsDeclaredPropertiesAsChildren() throws {
        let address = try DescribedAddress(json: #"{"city": "Rome", "floor": 3}"#)
        let mirror = Mirror(reflecting: address)
        #expect(mirror.children.map(\.label) == ["city", "zip"])
        #expect(mirror.displayStyle == .class)
        var text = ""
        dump(address, to: &text)
        #expect(text == """
            ▿ DescribedAddress(city: "Rome") #0
              - city: "Rome"
              - zip: nil

            """)
        let user = try DescribedUser(json: #"{"first_name": "Ann", "addresses": [{"city": "Oslo"}]}"#)
        var userText = ""
        dump(user, to: &userText)
        #expect(userText.contains("  ▿ addresses: 1 element\n    ▿ DescribedAddress(city: \"Oslo\") #"))
        #expect(userText.contains("  - firstName: \"Ann\""))
    }

    // MARK: Helpers

    /// `{"name": "n0", "child": {"name": "n1", "child": …}}`, `depth` objects deep.
    static func chain(depth: Int) -> JSONValue {
        var value = JSONValue.object(["name": .string("n\(depth - 1)")])
        for level in stride(from: depth - 2, through: 0, by: -1) {
            value = .object(["name": .string("n\(level)"), "child": value])
        }
        return value
    }
}

/// Collects texts from many threads.
final class TextCollector: Sendable {
    private let storage = Locked<[String]>([])

    func append(_ texts: [String]) {
        storage.withLock { $0 += texts }
    }

    var texts: [String] { storage.withLock { $0 } }
}
