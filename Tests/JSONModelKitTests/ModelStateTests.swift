import Foundation
import Testing
@testable import JSONModelKit
@testable import JSONModelKitCore

final class StatefulItem: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
        p.name(String?.self)
        p.child(StatefulItem?.self)
    }
}

/// A model's locked state (diagnostics, the mutation overlay, relationships) is made on first
/// use: an immutable model keeps its word in a shared table, only once it made one, and a
/// mutable model keeps it after its own empty slots. Neither takes a field of the model.
@Suite("Model state")
struct ModelStateTests {
    @Test func aNodeTakesTwelveBytesAndTheJSONAModelHoldsToo() {
        #expect(MemoryLayout<JSONNode>.size == 12)
        #expect(MemoryLayout<JSONInput>.size == 12)
    }

    /// Tests run in parallel, so each looks for its own models' words only. (A model freed here
    /// could in principle have its address reused by another test's at once; the checks right
    /// after the frees make that unlikely enough.)
    @Test func anImmutableModelMakesItsStateOnlyForADiagnosticAndFreesIt() throws {
        var badID = ObjectIdentifier(StatefulItem.self)
        do {
            let good = try StatefulItem(json: #"{"id": 1, "name": "a", "child": {"id": 2}}"#)
            let id: Int = good.id
            let name: String? = good.name
            let child: StatefulItem? = good.child
            #expect(id == 1 && name == "a" && child?.id == 2)
            #expect(good.jsonModel.diagnostics.isEmpty)
            let made = (good.state.isMade, child!.state.isMade)
            #expect(made == (false, false))
            #expect(good.stateWord(making: false) == nil)
            #expect(!ImmutableModelStates.hasWord(ObjectIdentifier(good)))

            let bad = try StatefulItem(json: #"{"id": "one"}"#)
            let id0: Int = bad.id  // not a number: the default, and a diagnostic
            #expect(id0 == 0)
            #expect(bad.jsonModel.diagnostics.count == 1)
            #expect(bad.state.isMade)
            badID = ObjectIdentifier(bad)
            #expect(ImmutableModelStates.hasWord(badID))
            #expect(bad.stateWord(making: false)?.load(ordering: .acquiring) != 0)
            // Read again: the diagnostic stays one.
            let again: Int = bad.id
            #expect(again == 0)
            #expect(bad.jsonModel.diagnostics.count == 1)
        }
        #expect(!ImmutableModelStates.hasWord(badID))
    }

    @Test func aMutableModelKeepsItsStateAfterItsSlots() throws {
        do {
            let model = try StatefulItem(json: #"{"id": 1, "child": {"id": 2}}"#, options: .mutable)
            #expect(!model.state.isMade)
            model.id = 5
            let id: Int = model.id
            #expect(id == 5)
            #expect(model.state.isMade)
            let count = model.metadata.properties.count
            #expect(model.stateWord(making: false) == model.readSlots.base + count)
            // The slots stay empty: a mutable model reads through its state.
            #expect((0..<count).allSatisfy { (model.readSlots.base + $0).load(ordering: .acquiring) == CacheSlots.empty })
            let child: StatefulItem? = model.child
            #expect(child?.parentLink?.parent === model)
            child?.id = 3
            #expect(model.jsonModel.json()["child"] == ["id": 3])
            #expect(!ImmutableModelStates.hasWord(ObjectIdentifier(model)))
        }
    }

    /// Many threads record the first diagnostics of the same immutable models at once: each
    /// model makes one state, keeps every diagnostic once, and frees its word with itself.
    @Test func concurrentFirstDiagnosticsMakeOneStateStress() async throws {
        var identities: [ObjectIdentifier] = []
        do {
            let models = try (0..<50).map { _ in try StatefulItem(json: #"{"id": "x", "name": {"a": 1}}"#) }
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        for model in models {
                            let id: Int = model.id
                            let name: String? = model.name
                            precondition(id == 0 && name == nil)
                            _ = model.jsonModel.diagnostics
                        }
                    }
                }
            }
            for model in models {
                #expect(model.jsonModel.diagnostics.count == 2)
            }
            #expect(models.allSatisfy { $0.state.isMade })
            identities = models.map(ObjectIdentifier.init)
            #expect(identities.allSatisfy(ImmutableModelStates.hasWord))
        }
        #expect(!identities.contains(where: ImmutableModelStates.hasWord))
    }
}
