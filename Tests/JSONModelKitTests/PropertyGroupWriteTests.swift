import Foundation
import Testing
@testable import JSONModelKit

final class GroupContact: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.email(String?.self)
        p.phone(String?.self)
        p.home(GroupHome?.self)
    }
}

final class GroupHome: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String?.self)
    }
}

final class GroupPrefs: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.unit(String?.self)
    }
}

final class GroupProfile: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.company(String?.self)
    }
}

/// Three writable groups over one object, as WrapModel's customer example declares them.
final class GroupCustomer: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(String?.self)
        p.contact(GroupContact.self, group: true)
        p.prefs(GroupPrefs.self, group: true)
        p.profile(GroupProfile.self, group: true)
    }
}

final class GroupInner: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.x(Int?.self)
    }
}

final class GroupMiddle: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.y(Int?.self)
        p.inner(GroupInner.self, group: true)
    }
}

final class GroupOuter: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String?.self)
        p.middle(GroupMiddle.self, group: true)
    }
}

final class GroupFirstPhone: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.first(String?.self, jsonPath: "phones[0]")
    }
}

final class GroupPhones: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.phones([String].self)
        p.firstPhone(GroupFirstPhone.self, group: true)
    }
}

final class GroupAge: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.age(Int?.self)
    }
}

final class GroupAged: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String?.self)
        p.aged(GroupAge.self, group: true)
    }
}

@Suite("Property group writes")
struct PropertyGroupWriteTests {
    static let json = #"""
        {"id": "c1", "email": "a@x", "phone": "1", "home": {"city": "Rome"}, "unit": "cm", "company": "Acme", "other": true}
        """#

    @Test func severalWritableGroupsAreValidDeclarations() throws {
        try GroupCustomer.validateDeclarations()
    }

    @Test func eachGroupWritesItsKeysIntoTheParentsObject() throws {
        let customer = try GroupCustomer(json: Self.json, options: .mutable)
        let contact: GroupContact = customer.contact
        let prefs: GroupPrefs = customer.prefs
        contact.email = "b@x"
        prefs.unit = "in"
        (customer.profile as GroupProfile).company = "Initech"
        customer.id = "c2"
        contact.phone = "2"  // held from before the other writes: starts from the parent's object now
        #expect(customer.jsonModel.json() == [
            "id": "c2", "email": "b@x", "phone": "2", "home": ["city": "Rome"], "unit": "in",
            "company": "Initech", "other": true,
        ])
        #expect((customer.prefs as GroupPrefs).unit == "in")
        #expect((customer.contact as GroupContact).email == "b@x")
        #expect(prefs.unit == "in")
    }

    /// A group held from before reads what its parent holds now: after the parent's own write,
    /// a merge, and a write through another group or through the parent's fresh read of the
    /// group, its reads, output, copies and comparisons are the parent's object, not the one it
    /// held. A group in a group reads its outer model's writes too.
    @Test func aHeldGroupReadsWhatItsParentHoldsNow() throws {
        let customer = try GroupCustomer(json: Self.json, options: .mutable)
        let contact: GroupContact = customer.contact
        #expect(contact.email == "a@x")
        try customer.jsonModel.update(with: ["email": "z@x"] as JSONValue)
        #expect(contact.email == "z@x")
        #expect(contact.jsonModel.json()["email"] == "z@x")
        (customer.contact as GroupContact).phone = "9"
        #expect(contact.phone == "9")
        customer.id = "c2"
        #expect(contact.jsonModel.copy().jsonModel.json()["id"] == "c2")
        #expect(contact.jsonModel.json() == customer.jsonModel.json())
        contact.email = "w@x"
        #expect(customer.jsonModel.json()["email"] == "w@x" && customer.jsonModel.json()["phone"] == "9")

        let outer = try GroupOuter(json: #"{"name": "Ann", "x": 1}"#, options: .mutable)
        let middle: GroupMiddle = outer.middle
        let inner: GroupInner = middle.inner
        #expect(inner.x == 1)
        try outer.jsonModel.update(with: ["x": 5] as JSONValue)
        #expect(inner.x == 5)
        // A whole group written into a group: the value is written, not the object it replaces.
        outer.name = "Bob"
        try middle.jsonModel.set(["x": 7] as JSONValue, forProperty: "inner")
        #expect(outer.jsonModel.json() == ["name": "Bob", "x": 7])
        #expect((middle.inner as GroupInner).x == 7)
    }

    /// A group's write starts from what its parent holds at that moment, however the parent got
    /// there: writes through a group in a group keep the outer model's writes, and a write
    /// after the parent dropped its writes does not bring them back.
    @Test func aGroupWritesFromWhatItsParentHoldsNow() throws {
        let outer = try GroupOuter(json: #"{"name": "Ann"}"#, options: .mutable)
        let middle: GroupMiddle = outer.middle
        let inner: GroupInner = middle.inner
        outer.name = "Bob"
        inner.x = 1
        #expect(outer.jsonModel.json() == ["name": "Bob", "x": 1])
        middle.y = 2
        #expect(outer.jsonModel.json() == ["name": "Bob", "x": 1, "y": 2])

        let customer = try GroupCustomer(json: Self.json, options: .mutable)
        customer.id = "c2"
        let contact: GroupContact = customer.contact
        customer.jsonModel.clearMutations()
        contact.email = "b@x"
        #expect(customer.jsonModel.json()["id"] == "c1")
        #expect(customer.jsonModel.json()["email"] == "b@x")
    }

    /// Clearing a group's writes returns the group's own keys to the JSON it was read from;
    /// the parent's other keys, and other groups', keep their writes.
    @Test func clearingAGroupsWritesLeavesTheOtherKeysAlone() throws {
        let customer = try GroupCustomer(json: Self.json, options: .mutable)
        let contact: GroupContact = customer.contact
        contact.email = "b@x"
        contact.phone = String?.none
        customer.id = "c2"
        (customer.prefs as GroupPrefs).unit = "in"
        contact.jsonModel.clearMutations()
        #expect(customer.jsonModel.json() == [
            "id": "c2", "email": "a@x", "phone": "1", "home": ["city": "Rome"], "unit": "in",
            "company": "Acme", "other": true,
        ])
        #expect(contact.email as String? == "a@x")
        #expect((customer.prefs as GroupPrefs).unit as String? == "in")
        // The group, and the parent, go on writing from there.
        contact.email = "c@x"
        #expect(customer.jsonModel.json()["email"] == "c@x")
        #expect(customer.jsonModel.json()["id"] == "c2")
        // A group in a group: only the inner group's key goes back.
        let outer = try GroupOuter(json: #"{"name": "Ann", "x": 1, "y": 2}"#, options: .mutable)
        let middle: GroupMiddle = outer.middle
        let inner: GroupInner = middle.inner
        inner.x = 5
        middle.y = 6
        outer.name = "Bob"
        inner.jsonModel.clearMutations()
        #expect(outer.jsonModel.json() == ["name": "Bob", "x": 1, "y": 6])
    }

    /// Clearing a group that wrote nothing changes nothing.
    @Test func clearingAnUntouchedGroupWritesNothing() throws {
        let customer = try GroupCustomer(json: Self.json, options: .mutable)
        let contact: GroupContact = customer.contact
        contact.jsonModel.clearMutations()
        #expect(!customer.jsonModel.hasMutations)
        customer.id = "c2"
        contact.jsonModel.clearMutations()
        #expect(customer.jsonModel.json()["id"] == "c2")
    }

    /// An array element the group's original lacks is left where it is: removing it would
    /// move the elements after it, which are not the group's.
    @Test func clearingAGroupLeavesElementsItsOriginalLacks() throws {
        let model = try GroupPhones(json: #"{"phones": []}"#, options: .mutable)
        let group: GroupFirstPhone = model.firstPhone
        group.first = "1"
        model.phones = ["1", "2"] as [String]
        group.jsonModel.clearMutations()
        #expect(model.jsonModel.json() == ["phones": ["1", "2"]])
    }

    /// A group held across a write of its parent, and the group read since, both see each
    /// other's writes through the parent.
    @Test func aGroupReadAgainSeesTheWritesOfOneHeldBefore() throws {
        let customer = try GroupCustomer(json: Self.json, options: .mutable)
        let held: GroupContact = customer.contact
        customer.id = "c2"  // empties the parent's cache: the next read makes another group
        #expect((customer.contact as GroupContact).email as String? == "a@x")
        held.email = "b@x"
        #expect((customer.contact as GroupContact).email as String? == "b@x")
        (customer.contact as GroupContact).phone = "9"
        #expect(customer.jsonModel.json()["email"] == "b@x")
        #expect(customer.jsonModel.json()["phone"] == "9")
        #expect(customer.jsonModel.json()["id"] == "c2")
    }

    /// A write through a group keeps the JSON type of the value its parent holds now.
    @Test func aGroupWriteKeepsTheTypeThatItsParentHoldsNow() throws {
        let model = try GroupAged(json: #"{"name": "Ann", "age": "31"}"#, options: .mutable)
        let group: GroupAge = model.aged
        try model.jsonModel.update(with: ["age": 31])
        group.age = 40
        #expect(model.jsonModel.json() == ["name": "Ann", "age": 40])
    }

    @Test func aNestedModelOfAGroupKeepsTheOtherGroupsWrites() throws {
        let customer = try GroupCustomer(json: Self.json, options: .mutable)
        let contact: GroupContact = customer.contact
        let home: GroupHome = (contact.home as GroupHome?)!
        (customer.prefs as GroupPrefs).unit = "in"
        home.city = "Oslo"
        #expect(customer.jsonModel.json() == [
            "id": "c1", "email": "a@x", "phone": "1", "home": ["city": "Oslo"], "unit": "in",
            "company": "Acme", "other": true,
        ])
    }
}
