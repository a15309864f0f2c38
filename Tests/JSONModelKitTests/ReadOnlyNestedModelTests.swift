import Foundation
import Testing
@testable import JSONModelKit

final class LockedAddress: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String?.self)
    }
}

final class LockedPlace: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String?.self)
        p.zip(String?.self)
    }
}

final class LockedUser: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String?.self)
        p.address(LockedAddress.self, readOnly: true)
        p.addresses([LockedAddress].self, readOnly: true)
        p.byName([String: LockedAddress].self, jsonPath: "by_name", readOnly: true)
        p.place(LockedPlace.self, readOnly: true, group: true)
    }
}

@Suite("Read-only nested models")
struct ReadOnlyNestedModelTests {
    static let json = #"""
        {"name": "Ann", "address": {"city": "Rome"}, "addresses": [{"city": "Pisa"}],
         "by_name": {"home": {"city": "Bari"}}, "city": "Lecce", "zip": "73100"}
        """#

    @Test func writesToAReadOnlyModelPropertysChildrenAreRefused() throws {
        let user = try LockedUser(json: Self.json, options: .mutable)
        let before = user.jsonModel.json()
        let address: LockedAddress = user.address
        let addresses: [LockedAddress] = user.addresses
        let byName: [String: LockedAddress] = user.byName
        let place: LockedPlace = user.place
        #expect(throws: JSONModelError.self) { try address.jsonModel.set("changed", forProperty: "city") }
        #expect(throws: JSONModelError.self) { try addresses[0].jsonModel.set("changed", forProperty: "city") }
        #expect(throws: JSONModelError.self) { try byName["home"]!.jsonModel.set("changed", forProperty: "city") }
        #expect(throws: JSONModelError.self) { try place.jsonModel.set("changed", forProperty: "city") }
        #expect(user.jsonModel.json() == before)
        #expect((user.address as LockedAddress).city == "Rome")
        #expect((user.place as LockedPlace).city == "Lecce")
    }

    @Test func otherPropertiesOfTheParentStayWritable() throws {
        let user = try LockedUser(json: Self.json, options: .mutable)
        user.name = "Bo"
        #expect(user.name == "Bo")
        // A copy of the read-only child is the caller's own to change.
        let copy = (user.address as LockedAddress).jsonModel.mutableCopy()
        copy.city = "Oslo"
        #expect(copy.city == "Oslo")
        #expect((user.address as LockedAddress).city == "Rome")
    }
}
