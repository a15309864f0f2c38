import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitFoundation

final class CollItem: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
        p.name(String?.self)
    }
}

final class CollOrder: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.number(String?.self)
        p.items([CollItem].self)
        p.optionalItems([CollItem]?.self, jsonPath: "optional_items")
        p.byKey([String: CollItem].self, jsonPath: "by_key")
        p.edges([CollItem].self, embedPath: "node")
        p.deep([CollItem].self, embedPath: "node.info")
    }
}

@Suite("Collections")
struct CollectionTests {
    static let itemsJSON = #"[{"id": 1, "name": "a"}, {"id": 2}, {"id": 3, "name": "c"}]"#

    @Test func createsWithoutBuildingAndKeepsInstances() throws {
        let items = try CollItem.array(from: Data(Self.itemsJSON.utf8))
        #expect(items.count == 3)
        #expect(!items.isElementBuilt(at: 0) && !items.isElementBuilt(at: 2))
        let second = items[1]
        #expect(items.isElementBuilt(at: 1) && !items.isElementBuilt(at: 0))
        #expect(items[1] === second)
        #expect(second.id == 2)
        #expect(items.map(\.id) as [Int] == [1, 2, 3])
        let copy = items
        #expect(copy[1] === second)
    }

    @Test func fromEveryKindOfInput() throws {
        let fromValue = try CollItem.array(from: JSONValue.array([["id": 7], ["id": 8]]))
        #expect(fromValue.map { $0.id as Int } == [7, 8])
        let fromAny = try CollItem.array(from: JSONValue(any: [["id": 9] as [String: Any]] as [Any]))
        #expect(fromAny[0].id == 9)
        let node = try JSONDocument(string: Self.itemsJSON).root
        #expect(try CollItem.array(from: node).count == 3)
        #expect(throws: JSONModelError.notAnArray(model: "CollItem", found: .object)) {
            try CollItem.array(from: JSONValue.object(["id": 1]))
        }
        #expect(throws: (any Error).self) { try CollItem.array(from: Data("[1,".utf8)) }
    }

    @Test func nonObjectElementsAreLeftOutWithADiagnostic() throws {
        let items = try CollItem.array(from: Data(#"[{"id": 1}, null, 5, "x", [], {"id": 2}]"#.utf8))
        #expect(items.count == 2)
        #expect(items.map { $0.id as Int } == [1, 2])
        #expect(items.jsonIndex(of: 1) == 5)
        #expect(items.diagnostics.count == 4)
        #expect(items.diagnostics[0].path == JSONPath([.index(1)]))
        let owned = try CollItem.array(from: JSONValue.array([1, ["id": 3]]))
        #expect(owned.count == 1 && owned[0].id == 3 && owned.jsonIndex(of: 0) == 1)
        let order = try CollOrder(json: #"{"items": [{"id": 1}, true]}"#)
        #expect((order.items as [CollItem]).count == 1)
        #expect(order.jsonModel.diagnostics.count == 1)
        #expect(order.jsonModel.diagnostics[0].path == JSONPath([.key("items"), .index(1)]))
    }

    /// Output options reach the models inside the elements of an array read through an embed
    /// path: each is shaped as a model and put back in its element, which with `onlyDeclared`
    /// keeps only the embed path. (The elements were output as `{}` before, their models lost.)
    @Test func outputOptionsShapeTheModelsInsideEmbeddedElements() throws {
        let json = #"{"edges": [{"node": {"id": 1, "name": "a", "extra": 5}, "cursor": "c1"}, {"bad": 1}],"#
            + #" "deep": [{"node": {"info": {"id": 2, "x": 0}, "y": 1}}], "other": true}"#
        let order = try CollOrder(json: json)
        let declared = order.jsonModel.json(options: .onlyDeclared)
        #expect(declared["edges"] == [["node": ["id": 1, "name": "a"]], ["bad": 1]])
        #expect(declared["deep"] == [["node": ["info": ["id": 2]]]])
        #expect(declared["other"] == nil)
        let again = try CollOrder(json: declared.jsonString())
        #expect((again.edges as [CollItem]).map { $0.id as Int } == [1])
        #expect((again.deep as [CollItem]).map { $0.id as Int } == [2])
        // Other options keep each element and shape the model inside it.
        let nulls = order.jsonModel.json(options: .includeNulls)
        #expect(nulls["edges"] == [["node": ["id": 1, "name": "a", "extra": 5], "cursor": "c1"], ["bad": 1]])
        #expect(nulls["deep"] == [["node": ["info": ["id": 2, "x": 0, "name": .null], "y": 1]]])
        // Models that compare declared properties only tell such arrays apart.
        #expect(try CollOrder(json: #"{"edges": [{"node": {"id": 1}}]}"#).jsonModel.json(options: .onlyDeclared)
            != CollOrder(json: #"{"edges": [{"node": {"id": 2}}]}"#).jsonModel.json(options: .onlyDeclared))
    }

    @Test func concurrentReadsGetOneInstancePerElement() async throws {
        let json = "[" + (0..<2000).map { #"{"id": \#($0)}"# }.joined(separator: ",") + "]"
        let items = try CollItem.array(from: Data(json.utf8))
        let results = await withTaskGroup(of: [ObjectIdentifier?].self) { group in
            for task in 0..<8 {
                group.addTask {
                    // Each task walks the array from a different start, so first reads collide.
                    var ids = [ObjectIdentifier?](repeating: nil, count: items.count)
                    for offset in 0..<items.count {
                        let index = (offset + task * 250) % items.count
                        ids[index] = ObjectIdentifier(items[index])
                    }
                    return ids
                }
            }
            var all: [[ObjectIdentifier?]] = []
            for await result in group { all.append(result) }
            return all
        }
        let canonical = (0..<items.count).map { Optional(ObjectIdentifier(items[$0])) }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == canonical })
        #expect(items[1999].id == 1999)
    }

    @Test func changesShowInOutput() throws {
        var items = try CollItem.array(from: Data(Self.itemsJSON.utf8))
        let kept = items[0]
        let added = CollItem()
        added.id = 4
        items.append(added)
        items.remove(at: 1)
        items.insert(try CollItem(json: ["id": 0] as JSONValue), at: 0)
        items[1] = try CollItem(json: ["id": 10] as JSONValue)
        #expect(items.map { $0.id as Int } == [0, 10, 3, 4])
        #expect(items.json() == [["id": 0], ["id": 10], ["id": 3, "name": "c"], ["id": 4]])
        #expect(!items.contains { $0 === kept })
        let original = try CollItem.array(from: Data(Self.itemsJSON.utf8))
        #expect(original.count == 3)
    }

    @Test func arrayPropertiesAreLazyAndWritable() throws {
        let order = try CollOrder(json: #"{"items": [{"id": 1}, {"id": 2}], "x": 1}"#, options: .mutable)
        let lazy: ModelArray<CollItem> = order.items
        #expect(!lazy.isElementBuilt(at: 0))
        let first = lazy[0]
        let again: ModelArray<CollItem> = order.items
        #expect(again[0] === first)
        let swiftArray: [CollItem] = order.items
        #expect(swiftArray[0] === first)
        // An element of a mutable model writes through to it.
        first.name = "one"
        #expect(order.jsonModel.json() == ["items": [["id": 1, "name": "one"], ["id": 2]], "x": 1])
        // Writing a changed array back.
        var changed: ModelArray<CollItem> = order.items
        changed.append(try CollItem(json: ["id": 3] as JSONValue))
        order.items = changed
        #expect(order.jsonModel.json() == ["items": [["id": 1, "name": "one"], ["id": 2], ["id": 3]], "x": 1])
        // A Swift array is accepted too.
        order.items = [try CollItem(json: ["id": 9] as JSONValue)]
        #expect(order.jsonModel.json() == ["items": [["id": 9]], "x": 1])
        let optional: [CollItem]? = order.optionalItems
        #expect(optional == nil)
        order.optionalItems = [try CollItem(json: ["id": 5] as JSONValue)]
        #expect((order.optionalItems as [CollItem]?)?.first?.id == 5)
    }

    @Test func describingADictionaryOfModelsBuildsNone() throws {
        let order = try CollOrder(json: #"{"by_key": {"a": {"id": 1, "x": 2}, "c": {"id": 3}}}"#)
        let lazy: ModelDictionary<CollItem> = order.byKey
        let full = order.jsonModel.fullDescription
        #expect(full.contains("id: 1") && full.contains("id: 3"), "\(full)")
        #expect(full.contains("by_key.a.x: 2"), "\(full)")
        _ = "\(order)"
        #expect(!lazy.isValueBuilt("a") && !lazy.isValueBuilt("c"))
        let a = try #require(lazy["a"])
        #expect(lazy.isValueBuilt("a") && lazy.valueForDescription("a") === a)
    }

    @Test func dictionariesOfModelsAreLazy() throws {
        let order = try CollOrder(json: #"{"by_key": {"a": {"id": 1}, "b": 2, "c": {"id": 3}}}"#, options: .mutable)
        let lazy: ModelDictionary<CollItem> = order.byKey
        #expect(lazy.keys == ["a", "c"])
        #expect(order.jsonModel.diagnostics.count == 1)
        let a = try #require(lazy["a"])
        #expect(lazy["a"] === a && lazy["b"] == nil)
        let swift: [String: CollItem] = order.byKey
        #expect(swift["a"] === a && swift["c"]?.id == 3)
        var changed = lazy
        changed["d"] = try CollItem(json: ["id": 4] as JSONValue)
        changed["a"] = nil
        order.byKey = changed
        #expect(order.jsonModel.json() == ["by_key": ["c": ["id": 3], "d": ["id": 4]]])
        let standalone = try ModelDictionary<CollItem>(json: Data(#"{"x": {"id": 1}}"#.utf8))
        #expect(standalone["x"]?.id == 1 && standalone.count == 1)
    }

    @Test func embeddedArraysReadAndWrapAgain() throws {
        let order = try CollOrder(json: #"""
            {"edges": [{"node": {"id": 1}, "cursor": "a"}, {"other": 1}, {"node": {"id": 2}}],
             "deep": [{"node": {"info": {"id": 5}}}, {"node": {}}]}
            """#, options: .mutable)
        let edges: [CollItem] = order.edges
        #expect(edges.map { $0.id as Int } == [1, 2])
        let deep: [CollItem] = order.deep
        #expect(deep.map { $0.id as Int } == [5])
        #expect(order.jsonModel.diagnostics.count == 2)
        edges[1].name = "two"
        #expect(order.jsonModel.json()["edges"] == [["node": ["id": 1], "cursor": "a"], ["other": 1], ["node": ["id": 2, "name": "two"]]])
        var changed: ModelArray<CollItem> = order.edges
        changed.append(try CollItem(json: ["id": 3] as JSONValue))
        order.edges = changed
        #expect(order.jsonModel.json()["edges"] == [["node": ["id": 1], "cursor": "a"], ["node": ["id": 2, "name": "two"]], ["node": ["id": 3]]])
        order.deep = [try CollItem(json: ["id": 6] as JSONValue)]
        #expect(order.jsonModel.json()["deep"] == [["node": ["info": ["id": 6]]]])
    }

    /// Written back as models, reordered, filtered or as read, an embedded array keeps each
    /// element's wrapper: the models came from it. A model new to the array gets a wrapper of
    /// its own, as before.
    @Test func embeddedElementsWrittenBackAsModelsKeepTheirWrappers() throws {
        let order = try CollOrder(json: #"""
            {"edges": [{"node": {"id": 1}, "cursor": "a"}, {"node": {"id": 2}, "cursor": "b"}]}
            """#, options: .mutable)
        let edges: [CollItem] = order.edges
        order.edges = Array(edges.reversed())
        #expect(order.jsonModel.json()["edges"] == [["node": ["id": 2], "cursor": "b"], ["node": ["id": 1], "cursor": "a"]])
        let again: [CollItem] = order.edges
        again[0].name = "two"
        order.edges = again.filter { $0.id as Int == 2 } + [try CollItem(json: ["id": 3] as JSONValue)]
        #expect(order.jsonModel.json()["edges"] == [["node": ["id": 2, "name": "two"], "cursor": "b"], ["node": ["id": 3]]])
        let asRead: [CollItem] = order.edges
        order.edges = asRead
        #expect(order.jsonModel.json()["edges"] == [["node": ["id": 2, "name": "two"], "cursor": "b"], ["node": ["id": 3]]])
    }

    /// An element of a lazy collection first built after its owner's JSON at its place changed
    /// reads the JSON it was read from, and does not write through: the place holds other JSON
    /// now, which the write would replace.
    @Test func anElementBuiltAfterItsPlaceChangedDoesNotWriteThrough() throws {
        let order = try CollOrder(json: #"{"items": [{"id": 1}, {"id": 2}], "by_key": {"a": {"id": 5}}}"#, options: .mutable)
        var items: ModelArray<CollItem> = order.items
        items.insert(try CollItem(json: ["id": 9] as JSONValue), at: 0)
        order.items = items
        items[1].name = "late"  // built now; its place, items[0], holds {"id": 9}
        #expect(items[1].name == "late" && items[1].id == 1)
        #expect(order.jsonModel.json()["items"] == [["id": 9], ["id": 1], ["id": 2]])

        let byKey: ModelDictionary<CollItem> = order.byKey
        order.byKey = ModelDictionary<CollItem>()
        let held = try #require(byKey["a"])
        held.name = "gone"
        #expect(held.name == "gone")
        #expect(order.jsonModel.json()["by_key"] == [:])

        // Built while its place is unchanged, an element writes through as before.
        let fresh: ModelArray<CollItem> = order.items
        fresh[2].name = "kept"
        #expect(order.jsonModel.json()["items"] == [["id": 9], ["id": 1], ["id": 2, "name": "kept"]])
    }

    @Test func embedPathOnANonArrayIsADeclarationProblem() {
        final class Bad: JSONModel, DynamicMembers, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) { p.x(Int.self, embedPath: "node") }
        }
        #expect(throws: ModelDeclarationError.self) { try Bad.validateDeclarations() }
    }

    @Test func validationReachesIntoLazyArrays() throws {
        let error = try #require(throws: JSONModelError.self) {
            try CollOrder(json: #"{"items": [{"id": "x"}]}"#, options: .validating)
        }
        #expect(error.validationError?.diagnostics.map(\.path) == ["items[0].id"])
        #expect(throws: Never.self) { try CollOrder(json: #"{"items": [{"id": 1}]}"#, options: .validating) }
    }
}

@Suite("Tape storage")
struct TapeStorageTests {
    /// Two bytes per value, more tape words than a tape starts with: a small document's
    /// temporary buffer (one word per four bytes), a larger one's own storage (the same), and
    /// past 1 MiB (one word per eight bytes, grown twice). Each reads every value, and its tape
    /// is cut to its size.
    @Test(arguments: [2_000, 10_000, 600_000])
    func denseInputGrowsItsTapeAndStaysCorrect(count: Int) throws {
        let text = "[" + (0..<count).map { String($0 % 10) }.joined(separator: ",") + "]"
        let document = try JSONDocument(string: text)
        #expect(document.root.count == count)
        #expect(document.root[count - 1]?.intValue == (count - 1) % 10)
        #expect(document.root.elements.enumerated().allSatisfy { $0.element.intValue == $0.offset % 10 })
        #expect(document.tapeByteCount == (count + 1) * 8)
    }

    @Test func sparseInputFitsTheTapeItStartsWith() throws {
        let sparse = try JSONDocument(string: #"{"a": "a long string value with no escapes", "b": [true, null]}"#)
        #expect(sparse.root["b"]?[1]?.isNull == true)
        #expect(sparse.root["a"]?.stringValue == "a long string value with no escapes")
    }
}
