import Foundation
import Testing
@testable import JSONModelKit

// Writes through nested models, collections and groups that once went to the wrong place, or
// nowhere: a write reaches the model it belongs to, and never another element's JSON.

final class WriteCaseItem: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String?.self)
        p.note(String?.self)
    }
}

final class WriteCaseShelf: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.label(String?.self)
        p.items([WriteCaseItem].self)
    }
}

final class WriteCasePhone: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.number(String?.self)
    }
}

final class WriteCasePhoneBook: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.primary(WriteCasePhone?.self, jsonPath: "phones[0]")
    }
}

final class WriteCasePhoneOwner: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.book(WriteCasePhoneBook.self)
        p.phones([WriteCasePhone].self, jsonPath: "book.phones")
    }
}

final class WriteCaseGeo: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.lat(Double?.self)
    }
}

final class WriteCaseHome: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String?.self)
        p.geo(WriteCaseGeo?.self)
    }
}

final class WriteCaseResident: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String?.self)
        p.home(WriteCaseHome.self)
    }
}

final class WriteCaseContact: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.email(String?.self)
        p.home(WriteCaseHome?.self)
    }
}

final class WriteCasePerson: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(String?.self)
        p.contact(WriteCaseContact.self, group: true)
    }
}

final class WriteCaseInner: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.x(Int?.self)
    }
}

final class WriteCaseMiddle: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.y(Int?.self)
        p.inner(WriteCaseInner.self, group: true)
    }
}

final class WriteCaseOuter: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String?.self)
        p.middle(WriteCaseMiddle.self, group: true)
    }
}

/// A group whose properties are two places of one array.
final class WriteCaseCodePair: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.first(String?.self, jsonPath: "codes[0]")
        p.second(String?.self, jsonPath: "codes[1]")
    }
}

final class WriteCaseCoded: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.label(String?.self)
        p.pair(WriteCaseCodePair.self, group: true)
    }
}

@Suite("Write paths")
struct WritePathTests {
    // MARK: Helpers that hand back a nested model without keeping the model between

    /// The home of a person's contact group; the group itself is not kept by the caller.
    static func homeOfContact(of person: WriteCasePerson) -> WriteCaseHome {
        let contact: WriteCaseContact = person.contact
        return (contact.home as WriteCaseHome?)!
    }

    /// The inner group of the middle group; the middle group is not kept by the caller.
    static func inner(of outer: WriteCaseOuter) -> WriteCaseInner {
        let middle: WriteCaseMiddle = outer.middle
        return middle.inner
    }

    /// The geo of a resident's home; the home is not kept by the caller.
    static func geo(of resident: WriteCaseResident) -> WriteCaseGeo {
        ((resident.home as WriteCaseHome).geo as WriteCaseGeo?)!
    }

    // MARK: a nested model whose model between it and the top was freed

    /// Any write of the parent empties the cache slot of every group (their path, the root,
    /// overlaps every path), and the group goes: a model read through it, still held, writes
    /// through to the parent all the same.
    @Test func aModelReadThroughAGroupStillWritesThroughAfterTheParentWrites() throws {
        let person = try WriteCasePerson(
            json: #"{"id": "p1", "email": "a@x", "home": {"city": "Rome"}}"#, options: .mutable)
        let home = Self.homeOfContact(of: person)
        person.id = "p2"      // evicts the contact group from the person's cache: it is freed
        home.city = "Oslo"
        #expect(person.jsonModel.json()["home"] == ["city": "Oslo"])
    }

    /// A group in a group, held while the middle group is not: after a merge of the top model it
    /// reads the new value, and its writes reach the top model.
    @Test func aGroupInAGroupFollowsTheTopModelWhenTheMiddleGroupIsGone() throws {
        let outer = try WriteCaseOuter(json: #"{"name": "Ann", "x": 1}"#, options: .mutable)
        let inner = Self.inner(of: outer)
        try outer.jsonModel.update(with: ["x": 5])  // empties the outer cache: the middle group is freed
        #expect(inner.x as Int? == 5)
        inner.x = 7
        #expect(outer.jsonModel.json()["x"] == 7)
    }

    /// A merge that leaves `home` alone keeps it linked (DetachedChildTests), and empties the
    /// cache that kept it alive: `geo`, read through it and held, still writes through.
    @Test func aGrandchildStillWritesThroughAfterAMergeOfAnotherKey() throws {
        let resident = try WriteCaseResident(
            json: #"{"name": "Ann", "home": {"city": "Rome", "geo": {"lat": 41.9}}}"#, options: .mutable)
        let geo = Self.geo(of: resident)
        try resident.jsonModel.update(with: ["name": "Bea"])
        geo.lat = 1.5
        #expect(resident.jsonModel.json()["home"] == ["city": "Rome", "geo": ["lat": 1.5]])
    }

    // MARK: equal elements are taken for one another

    /// Removing the first of two equal elements and writing the array back detaches the removed
    /// model, though the JSON now at its index is equal to its own: its writes land on no
    /// element it is not.
    @Test func aRemovedElementEqualToItsNeighbourNoLongerWritesThrough() throws {
        let shelf = try WriteCaseShelf(
            json: #"{"items": [{"name": "a"}, {"name": "a"}, {"name": "b"}]}"#, options: .mutable)
        let items: [WriteCaseItem] = shelf.items
        let removed = items[0]
        shelf.items = [items[1], items[2]]
        removed.name = "gone"
        #expect(shelf.jsonModel.json()["items"] == [["name": "a"], ["name": "b"]])
    }

    /// Removal through an index path (`phones[0]` = nil): the removed element's model is detached
    /// when the next element is equal to it, and leaves that element alone.
    @Test func anElementRemovedThroughAnIndexPathNoLongerWritesThroughWhenItsNeighbourIsEqual() throws {
        let owner = try WriteCasePhoneOwner(
            json: #"{"book": {"phones": [{"number": "1"}, {"number": "1"}, {"number": "2"}]}}"#, options: .mutable)
        let phones: [WriteCasePhone] = owner.phones
        let removed = phones[0]
        (owner.book as WriteCasePhoneBook).primary = nil as WriteCasePhone?
        removed.number = "7"
        #expect(owner.jsonModel.json() == ["book": ["phones": [["number": "1"], ["number": "2"]]]])
    }

    // MARK: the parent's cached array keeps a detached element

    /// Two models linked at `items[0]` (the first one survives a write that empties the cache
    /// without changing its JSON): the older one's write detaches the newer one, and the parent
    /// drops the cached array that holds it, so it never hands it out again.
    @Test func theParentNeverHandsOutAnElementAnotherElementsWriteDetached() throws {
        let shelf = try WriteCaseShelf(json: #"{"items": [{"name": "a"}]}"#, options: .mutable)
        let items: [WriteCaseItem] = shelf.items
        shelf.items = items + [try WriteCaseItem(json: #"{"name": "n"}"#)]   // items[0] stays linked
        let again: [WriteCaseItem] = shelf.items                              // a second model at items[0]
        #expect(again[0] !== items[0])
        items[0].name = "b"
        #expect(shelf.jsonModel.json()["items"]?[0]?["name"] == "b")
        let now: [WriteCaseItem] = shelf.items
        #expect(now[0].name as String? == "b")
        now[0].note = "n1"
        #expect(shelf.jsonModel.json()["items"]?[0]?["note"] == "n1")
    }

    // MARK: an element of a default collection writes only itself

    /// Writing one element of an array read from a declared default writes the default first:
    /// the other default elements stay, and no null pads the array.
    @Test func writingOneElementOfADefaultArrayKeepsTheOtherElements() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"""
            {"models": [{"name": "WriteCaseLine", "properties": [{"name": "id", "type": "Int"}]},
                        {"name": "WriteCaseOrder", "properties": [
                          {"name": "lines", "type": "[WriteCaseLine]", "default": [{"id": 1}, {"id": 2}]}]}]}
            """#))
        let order = try registry.makeModel(named: "WriteCaseOrder", json: Data("{}".utf8), options: .mutable)
        let lines = try #require(order.jsonModel.value(forProperty: "lines") as? ModelArray<DynamicModel>)
        try lines[1].jsonModel.set(3, forProperty: "id")
        #expect(order.jsonModel.json() == ["lines": [["id": 1], ["id": 3]]])
    }

    // MARK: groups over places of one array

    /// Writing a whole group whose new value lacks both `codes[0]` and `codes[1]` removes the
    /// group's two elements, the later one first: "c", no value of the group's, stays.
    @Test func writingAWholeGroupRemovesOnlyItsOwnElements() throws {
        let model = try WriteCaseCoded(json: #"{"label": "x", "codes": ["a", "b", "c"]}"#, options: .mutable)
        model.pair = try WriteCaseCodePair(json: "{}")
        let codes = model.jsonModel.json()["codes"]?.arrayValue ?? []
        #expect(codes.contains("c"))
        #expect(!codes.contains("b"))
    }

    /// A group removed `codes[0]`: clearing its writes puts "a" back in its place, not over the
    /// elements that moved up.
    @Test func clearingAGroupsRemovalThroughAnIndexPutsTheArrayBack() throws {
        let model = try WriteCaseCoded(json: #"{"label": "x", "codes": ["a", "b", "c"]}"#, options: .mutable)
        let pair: WriteCaseCodePair = model.pair
        pair.first = nil as String?
        #expect(model.jsonModel.json()["codes"] == ["b", "c"])
        pair.jsonModel.clearMutations()
        #expect(model.jsonModel.json()["codes"] == ["a", "b", "c"])
    }

    // MARK: hasMutations

    /// A held group's `hasMutations` answers for the parent's object as it is now, whether or not
    /// the group was read since: the same question, with no write between, gets one answer.
    @Test func aGroupsHasMutationsDoesNotDependOnWhetherItWasRead() throws {
        let person = try WriteCasePerson(json: #"{"id": "p1", "email": "a@x"}"#, options: .mutable)
        let contact: WriteCaseContact = person.contact
        try person.jsonModel.update(with: ["email": "z@x"])
        let asked = contact.jsonModel.hasMutations
        _ = contact.email as String?
        #expect(contact.jsonModel.hasMutations == asked)
    }

    /// Removing a key that is not there writes nothing, as writing the default where no key
    /// exists writes nothing: the model is not taken for written, and its output keeps the
    /// escapes it came with.
    @Test func removingAMissingKeyWritesNothing() throws {
        let item = try WriteCaseItem(json: #"{"name": "caf\u00e9"}"#, options: .mutable)
        item.note = nil as String?
        #expect(!item.jsonModel.hasMutations)
        #expect(!item.jsonModel.jsonString().contains("café"))
    }

    // MARK: a merge patch that is not an object

    /// The error names the patch, which is not an object, not the model's JSON "at the top level".
    @Test func aMergePatchThatIsNotAnObjectIsReportedAsThePatch() throws {
        let item = try WriteCaseItem(json: #"{"name": "a"}"#, options: .mutable)
        var message = ""
        do {
            try item.jsonModel.update(with: [1, 2])
        } catch {
            message = String(describing: error)
        }
        #expect(message.contains("patch"))
        #expect(!message.contains("top level"))
    }
}

/// Orphans: models whose parent is gone, which write through the nearest model above that is
/// alive, as long as the place there still holds what they held.
@Suite("Write paths through a model that is gone")
struct OrphanWritePathTests {
    /// A group whose parent is gone clears only its own keys, as a group does: not the top
    /// model's writes since.
    @Test func clearingAGroupWhoseParentIsGoneKeepsTheTopModelsWrites() throws {
        let outer = try WriteCaseOuter(json: #"{"name": "Ann", "x": 1}"#, options: .mutable)
        let inner = WritePathTests.inner(of: outer)
        try outer.jsonModel.update(with: ["x": 5])
        outer.name = "Bea"
        inner.x = 6
        inner.jsonModel.clearMutations()
        #expect(outer.jsonModel.json() == ["name": "Bea", "x": 1])
    }

    /// A model read through a group that is gone is detached when the top model's JSON at its
    /// place changes: its next write stays its own, and never puts its old object back.
    @Test func aModelUnderAGroupThatIsGoneIsDetachedWhenItsPlaceChanges() throws {
        let person = try WriteCasePerson(json: #"{"id": "p1", "home": {"city": "Rome"}}"#, options: .mutable)
        let home = WritePathTests.homeOfContact(of: person)
        person.id = "p2"
        try person.jsonModel.update(with: ["home": ["city": "Paris", "zip": "75001"]])
        home.city = "Oslo"
        #expect(person.jsonModel.json()["home"] == ["city": "Paris", "zip": "75001"])
        #expect(home.jsonModel.json() == ["city": "Oslo"])
    }

    /// A group whose parent is gone takes the top model's object only when it changed: its
    /// cache, and the models read through it, stay between reads.
    @Test func aGroupWhoseParentIsGoneKeepsItsCacheBetweenReads() throws {
        let outer = try WriteCaseDeepOuter(json: #"{"name": "Ann", "home": {"city": "Rome"}}"#, options: .mutable)
        let inner = Self.inner(of: outer)
        outer.name = "Bea"  // the middle group leaves the outer model's cache and is freed
        let first = inner.home as WriteCaseHome?
        let second = inner.home as WriteCaseHome?
        #expect(first != nil && first === second)
        first?.city = "Oslo"
        #expect(outer.jsonModel.json()["home"] == ["city": "Oslo"])
        second?.city = "Lima"
        #expect(outer.jsonModel.json()["home"] == ["city": "Lima"])
    }

    static func inner(of outer: WriteCaseDeepOuter) -> WriteCaseDeepInner {
        let middle: WriteCaseDeepMiddle = outer.middle
        return middle.inner
    }

    /// `[Item]?` is a collection of models too: a removed element equal to its neighbour is
    /// detached, as for `[Item]`.
    @Test func anOptionalArrayPlacesItsElementsAsAnArrayDoes() throws {
        let shelf = try WriteCaseOptionalShelf(
            json: #"{"items": [{"name": "a"}, {"name": "a"}, {"name": "b"}]}"#, options: .mutable)
        let items: [WriteCaseItem] = try #require(shelf.items)
        let removed = items[0]
        shelf.items = [items[1], items[2]] as [WriteCaseItem]?
        removed.name = "gone"
        #expect(shelf.jsonModel.json()["items"] == [["name": "a"], ["name": "b"]])
    }

    /// A group over a place and a member of a later place removes them in reverse document
    /// order: `entries[1].name` before `entries[0]`, so each removal meets its own element.
    @Test func aWholeGroupWriteRemovesInReverseDocumentOrder() throws {
        let model = try WriteCaseLedger(
            json: #"{"entries": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}"#, options: .mutable)
        model.head = try WriteCaseHead(json: "{}")
        #expect(model.jsonModel.json()["entries"] == [[:], ["name": "c"]])
    }
}

final class WriteCaseOptionalShelf: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.items([WriteCaseItem]?.self)
    }
}

/// A group over an array's first element and the name of its second.
final class WriteCaseHead: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.first(JSONValue?.self, jsonPath: "entries[0]")
        p.secondName(String?.self, jsonPath: "entries[1].name")
    }
}

final class WriteCaseLedger: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.head(WriteCaseHead.self, group: true)
    }
}

final class WriteCaseDeepInner: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.home(WriteCaseHome?.self)
    }
}

final class WriteCaseDeepMiddle: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.inner(WriteCaseDeepInner.self, group: true)
    }
}

final class WriteCaseDeepOuter: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String?.self)
        p.middle(WriteCaseDeepMiddle.self, group: true)
    }
}
