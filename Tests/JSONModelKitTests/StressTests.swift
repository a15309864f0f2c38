import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// Many threads on shared objects with wide race windows; run under
/// `swift test --sanitize=thread --filter Stress` to prove the absence of data races.
@Suite("Concurrency stress")
struct StressTests {
    static let threads = 8

    /// Runs `body` on `threads` threads that all start together, `rounds` times each.
    ///
    /// Real threads, not `concurrentPerform`, which runs only as many at once as there are cores.
    static func hammer(rounds: Int = 200, _ body: @escaping @Sendable (_ thread: Int, _ round: Int) -> Void) {
        let ready = SharedWord()
        let finished = DispatchGroup()
        for thread in 0..<threads {
            finished.enter()
            Thread {
                // Wait for every thread, so they race from the first round.
                ready.add(1)
                while ready.count < threads { sched_yield() }
                for round in 0..<rounds { body(thread, round) }
                finished.leave()
            }.start()
        }
        finished.wait()
    }

    final class Item: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.id(Int64.self)
            p.name(String.self)
            p.price(Double.self, jsonPath: "pricing.amount")
            p.tags([String].self)
            p.owner(Owner?.self)
            p.size(Int.self, default: 1)
        }
    }

    final class Owner: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.login(String.self)
        }
    }

    static let itemJSON = #"{"id": 12345678901, "name": "Lamp", "pricing": {"amount": "19.5"}, "tags": ["a", 1, {}], "owner": {"login": "ann"}, "size": 2.5}"#

    @Test func oneImmutableModelFromEightThreads() throws {
        let item = try Item(json: Self.itemJSON)
        Self.hammer { thread, round in
            // Each thread reads in a different order, so first reads race.
            switch (thread + round) % 4 {
            case 0:
                let id: Int64 = item.id
                #expect(id == 12_345_678_901)
            case 1:
                let price: Double = item.price
                #expect(price == 19.5)
            case 2:
                let tags: [String] = item.tags
                #expect(tags == ["a", "1"])
            default:
                let owner: Owner? = item.owner
                let login: String? = owner?.login
                #expect(login == "ann")
            }
            _ = item.jsonModel.json()
            _ = item.jsonModel.diagnostics
        }
        // Two diagnostics (tags[2] and the lossy size) are recorded once, however many threads raced.
        let size: Int = item.size
        #expect(size == 3)
        #expect(item.jsonModel.diagnostics.count == 2)
    }

    @Test func freshModelsOverOneDocument() throws {
        let count = 300
        let text = "[" + (0..<count).map { #"{"id": \#($0), "name": "n\#($0)", "pricing": {"amount": \#($0)}}"# }.joined(separator: ",") + "]"
        let document = try JSONDocument(string: text)
        Self.hammer(rounds: 50) { thread, round in
            let index = (thread * 37 + round * 11) % count
            guard let node = document.root[index], let item = try? Item(json: node) else {
                Issue.record("missing element \(index)")
                return
            }
            let id: Int64 = item.id
            #expect(id == Int64(index))
        }
    }

    /// Eight threads build the elements of one lazy array and one lazy dictionary, and the
    /// nested models of those elements, at once: every thread gets the same instance for each.
    @Test func lazyElementsBuiltConcurrentlyAreOneInstanceEach() throws {
        let count = 200
        let element = { (index: Int) in #"{"id": \#(index), "name": "n\#(index)", "owner": {"login": "o\#(index)"}}"# }
        let arrayText = "[" + (0..<count).map(element).joined(separator: ",") + "]"
        let objectText = "{" + (0..<count).map { #""k\#($0)": "# + element($0) }.joined(separator: ",") + "}"
        for _ in 0..<5 {
            // New collections each time, so the elements are built while the threads race.
            let items = try Item.array(from: Data(arrayText.utf8))
            let byKey = try ModelDictionary<Item>(json: Data(objectText.utf8))
            let seen = Locked<[Int: Set<ObjectIdentifier>]>([:])
            Self.hammer(rounds: 40) { thread, round in
                let index = (thread * 53 + round * 7) % count
                let item = items[index]
                let keyed = byKey["k\(index)"]!
                let owner: Owner? = item.owner
                let login: String? = owner?.login
                let id: Int64 = keyed.id
                #expect(login == "o\(index)")
                #expect(id == Int64(index))
                let identities: Set = [ObjectIdentifier(item), ObjectIdentifier(keyed), ObjectIdentifier(owner!)]
                seen.withLock { $0[index, default: []].formUnion(identities) }
            }
            for (index, identities) in seen.withLock({ $0 }) {
                #expect(identities.count == 3, "element \(index): \(identities.count) instances")
                #expect(items[index] === items[index])
            }
        }
    }

    /// The first read of a model's plain properties walks its object once; the thread that claims
    /// the walk writes every such slot without a compare-and-swap. Eight threads race on each of
    /// many fresh models, each starting with another property, one validating: every value is
    /// right, the nested model (the property whose slot holds the claim) is one instance, and
    /// the one diagnostic is recorded once.
    @Test func firstReadsRaceTheWalkOverTheObject() throws {
        final class Walked: JSONModel, DynamicMembers, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) {
                p.owner(Owner?.self)
                p.id(Int.self)
                p.name(String.self)
                p.ratio(Double.self)
                p.missing(Int.self, default: 4)
                p.odd(Bool.self)
            }
        }
        let count = 400
        let text = "[" + (0..<count).map {
            #"{"odd": "not a Bool", "ratio": \#($0).5, "name": "n\#($0)", "owner": {"login": "o\#($0)"}, "id": \#($0)}"#
        }.joined(separator: ",") + "]"
        let document = try JSONDocument(string: text)
        let models = try (0..<count).map { try Walked(json: document.root[$0]!) }
        let owners = Locked<[Int: Set<ObjectIdentifier>]>([:])
        Self.hammer(rounds: count) { thread, round in
            let model = models[round]
            switch (thread + round) % 6 {
            case 0:
                let owner: Owner? = model.owner
                owners.withLock { _ = $0[round, default: []].insert(ObjectIdentifier(owner!)) }
            case 1: #expect(model.id as Int == round)
            case 2: #expect(model.name as String == "n\(round)")
            case 3: #expect(model.ratio as Double == Double(round) + 0.5)
            case 4: #expect(model.missing as Int == 4)
            default: #expect(throws: ModelValidationError.self) { try model.jsonModel.validate() }
            }
            let login: String? = (model.owner as Owner?)?.login
            #expect(login == "o\(round)")
        }
        for (index, model) in models.enumerated() {
            let owner: Owner? = model.owner
            #expect(owners.withLock { $0[index] } == [ObjectIdentifier(owner!)])
            #expect(model.id as Int == index)
            #expect(model.odd as Bool == false)
            #expect(model.jsonModel.diagnostics.count == 1, "model \(index): \(model.jsonModel.diagnostics)")
        }
    }

    /// A nested model whose member is not an object is made by the general path, not read
    /// inline: threads that race on its first read, one of them trying the inline read first,
    /// all get the one instance the model keeps.
    @Test func aNestedModelMadeByTheGeneralPathIsOneInstance() throws {
        final class Holder: JSONModel, DynamicMembers, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) {
                p.child(Owner.self)
                p.id(Int.self)
            }
        }
        let count = 2_000
        let text = "[" + (0..<count).map { #"{"child": \#($0), "id": \#($0)}"# }.joined(separator: ",") + "]"
        let document = try JSONDocument(string: text)
        let models = try (0..<count).map { try Holder(json: document.root[$0]!) }
        let seen = Locked<[Int: Set<ObjectIdentifier>]>([:])
        Self.hammer(rounds: count) { _, round in
            let child: Owner = models[round].child
            seen.withLock { _ = $0[round, default: []].insert(ObjectIdentifier(child)) }
        }
        var differing = 0
        for (index, model) in models.enumerated() {
            let child: Owner = model.child
            if seen.withLock({ $0[index] }) != [ObjectIdentifier(child)] { differing += 1 }
            #expect(model.id as Int == index)
        }
        #expect(differing == 0, "\(differing) of \(count) models handed out an instance they do not keep")
    }

    @Test func containerIndexesBuiltConcurrently() throws {
        let count = 5_000
        let text = "{" + (0..<count).map { "\"k\($0)\": [\($0)]" }.joined(separator: ",") + ", \"list\": [" + (0..<count).map(String.init).joined(separator: ",") + "]}"
        for _ in 0..<5 {
            // A new document each time, so the lazy indexes are built while threads race.
            let document = try JSONDocument(string: text)
            Self.hammer(rounds: 20) { thread, round in
                let index = (thread * 613 + round * 97) % count
                #expect(document.root["k\(index)"]?[0]?.intValue == index)
                #expect(document.root["list"]?[index]?.intValue == index)
            }
        }
    }

    @Test func metadataBuiltOnceUnderRace() {
        final class Late: JSONModel, DynamicMembers, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) { p.count(Int.self) }
        }
        let seen = Locked<Set<ObjectIdentifier>>([])
        Self.hammer(rounds: 20) { _, _ in
            let metadata = ModelRegistry.shared.metadata(for: Late.self)
            seen.withLock { _ = $0.insert(ObjectIdentifier(metadata)) }
        }
        #expect(seen.withLock { $0.count } == 1)
    }

    @Test func registeringSchemasWhileReading() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"{"models": [{"name": "Base", "properties": [{"name": "n", "type": "Int"}]}]}"#))
        let base = try registry.makeModel(named: "Base", json: ["n": 7] as JSONValue)
        Self.hammer(rounds: 30) { thread, round in
            if thread == 0 {
                let schema = #"{"models": [{"name": "M\#(round)", "properties": [{"name": "n", "type": "Base"}]}]}"#
                #expect(throws: Never.self) { try registry.register(ModelSchema(json: schema)) }
            } else {
                let n: Int = base.jsonModel.dynamic.n
                #expect(n == 7)
                if round > 0, let model = try? registry.makeModel(named: "M\(round - 1)", json: ["n": ["n": 3]] as JSONValue) {
                    #expect(model.jsonModel.jsonValue(forProperty: "n") == ["n": 3])
                }
            }
        }
    }

    @Test func mutableModelsArePerThread() throws {
        let item = try Item(json: Self.itemJSON)
        Self.hammer(rounds: 50) { thread, round in
            let copy = item.jsonModel.mutate { $0.size = thread * 1000 + round }
            let size: Int = copy.size
            #expect(size == thread * 1000 + round)
        }
        let size: Int = item.size
        #expect(size == 3)
    }
}
