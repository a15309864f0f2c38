import Foundation
import Testing
@testable import JSONModelKit

final class MergeUser: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
        p.age(Int.self)
        p.tags([String].self)
        p.address(MergeAddress.self)
    }
}

final class MergeAddress: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String.self)
        p.zip(String?.self)
    }
}

@Suite("Merge")
struct MergeTests {
    static let json = #"{"name": "Ann", "age": 30, "tags": ["a", "b"], "address": {"city": "Rome", "zip": "00100"}, "x": 1}"#

    @Test func mergingReturnsANewImmutableModel() throws {
        let user = try MergeUser(json: Self.json)
        let merged = try user.jsonModel.merging(["age": 31, "tags": ["c"], "address": ["city": "Milan"]])
        #expect(!merged.isMutable && merged !== user)
        #expect(merged.age == 31 && merged.name == "Ann")
        #expect(merged.tags == ["c"])  // arrays are replaced
        #expect(merged.address.city == "Milan")
        #expect((merged.address as MergeAddress).zip == "00100")  // nested models merge
        #expect(merged.jsonModel.json()["x"] == 1)
        #expect(user.age == 30)
    }

    @Test func nullRemovesAndNonObjectsAreRefused() throws {
        let user = try MergeUser(json: Self.json)
        let merged = try user.jsonModel.merging(["address": ["zip": nil], "x": nil])
        #expect((merged.address as MergeAddress).zip == nil)
        #expect(merged.jsonModel.json()["x"] == nil)
        #expect(throws: JSONModelError.mergePatchNotAnObject(model: "MergeUser", found: .array)) {
            try user.jsonModel.merging([1, 2])
        }
    }

    /// A patch that gives a key twice is merged as it reads: the last member's value, so an
    /// earlier `null` does not remove what a later object merges into, and an earlier object
    /// does not merge what a later `null` removes.
    @Test func aPatchGivingAKeyTwiceMergesItsLastMember() throws {
        let user = try MergeUser(json: Self.json, options: .mutable)
        try user.jsonModel.update(with: JSONDocument(string: #"{"address": null, "address": {"zip": "20100"}}"#).root.value)
        #expect(user.jsonModel.json()["address"] == ["city": "Rome", "zip": "20100"])
        try user.jsonModel.update(with: JSONDocument(string: #"{"x": {"a": 1}, "x": null, "age": 1, "age": 2}"#).root.value)
        #expect(user.jsonModel.json()["x"] == nil)
        #expect(user.age == 2)
    }

    @Test func updateChangesAMutableModelInPlace() throws {
        let user = try MergeUser(json: Self.json, options: .mutable)
        let address: MergeAddress = user.address
        #expect(address.city == "Rome")
        try user.jsonModel.update(with: ["address": ["city": "Turin"], "age": 40])
        #expect(user.age == 40)
        #expect(user.address.city == "Turin")
        #expect(user.jsonModel.json()["address"] == ["city": "Turin", "zip": "00100"])
        let immutable = try MergeUser(json: Self.json)
        #expect(throws: JSONModelError.self) { try immutable.jsonModel.update(with: ["age": 1]) }
    }

    @Test func updateOfANestedModelWritesThroughToItsParent() throws {
        let user = try MergeUser(json: Self.json, options: .mutable)
        let address: MergeAddress = user.address
        try address.jsonModel.update(with: ["zip": "10100"])
        #expect(user.jsonModel.json()["address"] == ["city": "Rome", "zip": "10100"])
    }
}
