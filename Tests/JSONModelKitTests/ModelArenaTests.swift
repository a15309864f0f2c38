import Foundation
import Testing
@testable import JSONModelKit
@testable import JSONModelKitCore
import JSONModelKitTestSupport

/// The caches of immutable models read from a large document live in the document's arena
/// (`DocumentArena`), which frees them with itself; everything else keeps them on the heap.
@Suite("Model caches in the document's arena")
struct ModelArenaTests {
    final class Entry: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.id(Int.self)
            p.name(String.self)
            p.tags([String].self)
            p.owner(Owner?.self)
        }
    }

    final class Owner: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.login(String.self)
        }
    }

    static func text(count: Int) -> String {
        "[" + (0..<count).map { #"{"id": \#($0), "name": "n\#($0)", "tags": ["t\#($0)"], "owner": {"login": "o\#($0)"}}"# }
            .joined(separator: ",") + "]"
    }

    static func check(_ entry: Entry, _ index: Int) -> Bool {
        let id: Int = entry.id
        let name: String = entry.name
        let tags: [String] = entry.tags
        let owner: Owner? = entry.owner
        let login: String? = owner?.login
        return id == index && name == "n\(index)" && tags == ["t\(index)"] && login == "o\(index)"
    }

    @Test func immutableModelsOfALargeDocumentUseIt() throws {
        let entries = try Entry.array(from: Data(Self.text(count: 1_000).utf8))
        #expect(entries[3].slotsInArena)
        #expect(Self.check(entries[3], 3))
        // Nested models too: they read the same document.
        let owner: Owner? = entries[3].owner
        #expect(try #require(owner).slotsInArena)
    }

    @Test func otherModelsUseTheHeap() throws {
        let small = try Entry.array(from: Data(Self.text(count: 3).utf8))
        #expect(!small[0].slotsInArena)
        let mutable = try Entry.array(from: Data(Self.text(count: 1_000).utf8), options: .mutable)
        #expect(!mutable[0].slotsInArena)
        #expect(Self.check(mutable[0], 0))
        let fromValue = try Entry(json: JSONValue.object(["id": 1, "name": "n1", "tags": ["t1"], "owner": ["login": "o1"]]))
        #expect(!fromValue.slotsInArena)
        #expect(Self.check(fromValue, 1))
    }

    /// Models made again and again over one document take from its arena until the budget is
    /// spent, then from the heap: the document does not grow without end, and the models read
    /// the same either way.
    @Test func modelsMadeAgainAndAgainStopAtTheBudget() throws {
        let document = try JSONDocument(string: Self.text(count: 200))
        let node = try #require(document.root[7])
        var inArena = 0
        var rounds = 0
        var kept: [Entry] = []
        while rounds < 1_000_000 {
            let entry = try Entry(json: node)
            rounds += 1
            guard entry.slotsInArena else {
                kept.append(entry)
                break
            }
            inArena += 1
            if inArena % 97 == 0 { kept.append(entry) }
        }
        let slotBytes = (Entry.modelMetadata.properties.count + (Entry.modelMetadata.inlineBytes + 7) / 8) * 8
        #expect(inArena * slotBytes <= JSONDocument.arenaBudget(tapeWords: document.tape.count))
        #expect(rounds < 1_000_000)
        #expect(kept.allSatisfy { Self.check($0, 7) })
    }

    /// A model with more properties than the arena's first chunk has room for (700 slots are
    /// 5,600 bytes, the first chunk 4 KiB) gets its cache in a chunk that holds it: every
    /// property reads back its own value, and the models made after it too.
    @Test func aModelWiderThanAChunkGetsRoomForItsCache() throws {
        let count = 700
        let properties = (0..<count).map { #"{"name": "wideProperty\#($0)", "type": "Int"}"# }.joined(separator: ",")
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"{"models": [{"name": "Wide", "properties": [\#(properties)]}]}"#))
        // More than 16 KiB of JSON, so that the document has an arena.
        let object = "{" + (0..<count).map { #""wideProperty\#($0)": \#($0 * 1_000_003)"# }.joined(separator: ", ") + "}"
        let data = Data(object.utf8)
        #expect(data.count > 16 << 10)
        // Three models over one document: the first takes the arena's first chunk, the others
        // what the budget (four times the tape) leaves, then the heap.
        let document = try JSONDocument(data: data)
        let models = try (0..<3).map { _ in try registry.makeModel(named: "Wide", json: document.root) as! DynamicModel }
        #expect(models[0].slotsInArena)
        for model in models {
            let wrong = (0..<count).filter { (model[dynamicMember: "wideProperty\($0)"] as Int) != $0 * 1_000_003 }
            #expect(wrong.isEmpty, "properties read back wrong: \(wrong.prefix(5))")
        }
    }

    /// A model read from a lazy array outlives the array and every other reference to its
    /// document: it holds the document, and with it the arena its cache is in.
    @Test func aModelOutlivesItsArray() throws {
        var entries: ModelArray<Entry>? = try Entry.array(from: Data(Self.text(count: 1_000).utf8))
        let kept = entries![500]
        #expect(kept.slotsInArena)
        entries = nil
        #expect(Self.check(kept, 500))
    }
}

@Suite("Model arena stress", .timeLimit(.minutes(5)))
struct ModelArenaStressTests {
    /// Eight threads build and read the elements of lazy arrays over large documents at once,
    /// and make models over one element until its document's budget is spent: every value is
    /// right, whichever thread took the memory.
    @Test func threadsBuildModelsOverOneDocument() throws {
        let count = 2_000
        let data = Data(ModelArenaTests.text(count: count).utf8)
        for _ in 0..<3 {
            let entries = try ModelArenaTests.Entry.array(from: data)
            let document = try JSONDocument(data: data)
            let wrong = SharedWord()
            StressTests.hammer(rounds: 400) { thread, round in
                let index = (thread * 131 + round * 17) % count
                if !ModelArenaTests.check(entries[index], index) { wrong.add(1) }
                if let node = document.root[index], let fresh = try? ModelArenaTests.Entry(json: node) {
                    if !ModelArenaTests.check(fresh, index) { wrong.add(1) }
                } else {
                    wrong.add(1)
                }
            }
            #expect(wrong.count == 0)
        }
    }
}
