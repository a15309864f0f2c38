import Foundation
import Testing
@testable import JSONModelKit

@Suite("Model mutation")
struct ModelMutationTests {
    @Test func immutableByDefaultAndTheThrowingSetSaysSo() throws {
        let user = try TestUser(json: #"{"age": 30}"#)
        #expect(!user.isMutable)
        #expect(throws: JSONModelError.immutable(model: "TestUser", property: "age")) {
            try user.jsonModel.set(31, forProperty: "age")
        }
        #expect(user.age == 30)
    }

    @Test func mutableCopyWritesAndKeepsTheOriginal() throws {
        let user = try TestUser(json: #"{"age": 30, "unknown": {"x": 1}}"#)
        let copy = user.jsonModel.mutableCopy()
        #expect(copy.isMutable)
        #expect(copy.age == 30)
        copy.age = 31
        #expect(copy.age == 31)
        #expect(copy.jsonModel.json() == ["age": 31, "unknown": ["x": 1]])
        #expect(copy.jsonModel.originalJSON == ["age": 30, "unknown": ["x": 1]])
        #expect(copy.jsonModel.hasMutations)
        #expect(user.age == 30)
        #expect(user.jsonModel.json() == ["age": 30, "unknown": ["x": 1]])
    }

    @Test func mutateReturnsAnImmutableCopyOfTheSameClass() throws {
        let user = try TestUser(json: #"{"age": 30}"#)
        let older = user.jsonModel.mutate { $0.age = 31 }
        #expect(type(of: older) == TestUser.self)
        #expect(!older.isMutable)
        #expect(older.age == 31)
        #expect(user.age == 30)
        #expect(user.jsonModel.copy() === user)
        let mutable = user.jsonModel.mutableCopy()
        let frozen = mutable.jsonModel.copy()
        #expect(!frozen.isMutable && frozen !== mutable)
    }

    @Test func mutableInitializersAndEmptyInit() throws {
        let user = try TestUser(json: #"{"age": 1}"#, options: .mutable)
        user.age = 2
        #expect(user.jsonModel.json() == ["age": 2])
        let empty = TestUser()
        #expect(empty.isMutable)
        empty.firstName = "Ann"
        #expect(empty.jsonModel.json() == ["first_name": "Ann"])
    }

    @Test func writesKeepTheStoredJSONType() throws {
        let user = try TestUser(json: #"{"age": "42", "active": "yes", "first_name": 7, "id": 5}"#, options: .mutable)
        user.age = 43
        user.active = false
        user.firstName = "8"
        user.id = 6
        #expect(user.jsonModel.json() == ["age": "43", "active": "false", "first_name": 8, "id": 6])
        let numeric = try Scalars(json: #"{"bool": 1, "double": "1.5", "date": 0}"#, options: .mutable)
        numeric.bool = false as Bool?
        numeric.double = 2.25 as Double?
        numeric.date = Date(timeIntervalSince1970: 60) as Date?
        #expect(numeric.jsonModel.json() == ["bool": 0, "double": "2.25", "date": 60])
    }

    @Test func writingNilRemovesTheKey() throws {
        let user = try TestUser(json: #"{"nickname": "A", "age": 3}"#, options: .mutable)
        user.nickname = nil as String?
        #expect(user.jsonModel.json() == ["age": 3])
        try user.jsonModel.set(nil, forProperty: "age")
        #expect(user.jsonModel.json() == [:])
        #expect(user.age == 18)
    }

    @Test func nestedPathsCreateMissingLevels() throws {
        let model = try Nested(json: "{}", options: .mutable)
        model.city = "Rome" as String?
        model.second = 5
        #expect(model.jsonModel.json() == ["location": ["city": "Rome"], "a": ["b": [nil, 5]]])
        #expect(model.city as String? == "Rome")
    }

    @Test func alternativesWriteWhereTheValueWasRead() throws {
        let user = try TestUser(json: #"{"object_id": 5}"#, options: .mutable)
        user.id = 9 as Int64
        #expect(user.jsonModel.json() == ["object_id": 9])
        #expect(user.id as Int64 == 9)
    }

    @Test func writingTheDefaultWhereNoKeyExistedWritesNothing() throws {
        let user = try TestUser(json: #"{"first_name": "Ann"}"#, options: .mutable)
        user.age = 18
        user.active = false
        user.tags = [String]()
        #expect(user.jsonModel.json() == ["first_name": "Ann"])
        #expect(!user.jsonModel.hasMutations)
        user.age = 19
        user.age = 18    // the key exists now, so the default is written
        #expect(user.jsonModel.json() == ["first_name": "Ann", "age": 18])
    }

    @Test func writesInvalidateOverlappingCachedProperties() throws {
        let user = try TestUser(json: #"{"address": {"city": "Paris"}}"#, options: .mutable)
        #expect(user.city as String? == "Paris")
        user.address = try TestAddress(json: #"{"city": "Lyon"}"#)
        #expect(user.city as String? == "Lyon")
        let address: TestAddress = user.address
        #expect(address.isMutable)
        #expect(address.city as String? == "Lyon")
    }

    @Test func childrenOfMutableModelsWriteThroughToTheParent() throws {
        let user = try TestUser(
            json: #"{"address": {"city": "Paris"}, "homes": [{"city": "A"}, 3, {"city": "B"}], "places": {"w": {}}}"#, options: .mutable)
        user.address.city = "Rome"
        #expect(user.jsonModel.json()["address"] == ["city": "Rome"])
        #expect(user.city as String? == "Rome")
        let homes: [TestAddress] = user.homes
        homes[1].city = "C"   // the JSON index of the element is 2
        #expect(user.jsonModel.json()["homes"] == [["city": "A"], 3, ["city": "C"]])
        let places: [String: TestAddress] = user.places
        places["w"]!.zip = "9"
        #expect(user.jsonModel.json()["places"] == ["w": ["postal_code": "9"]])
        let grand = try TestUser(json: #"{"spouse": {"address": {}}}"#, options: .mutable)
        let spouse: TestUser? = grand.spouse
        spouse!.address.city = "Deep"
        #expect(grand.jsonModel.json() == ["spouse": ["address": ["city": "Deep"]]])
    }

    /// A mutable child keeps its link to the parent in its locked state, made with it; immutable
    /// models, and mutable ones without a parent, make no state to be read.
    @Test func onlyMutableChildrenHoldALinkToTheirParent() throws {
        let user = try TestUser(json: #"{"address": {"city": "Paris"}, "spouse": {"address": {}}}"#, options: .mutable)
        #expect(user.parentLink == nil)
        let address: TestAddress = user.address
        let made = address.state.isMade
        #expect(made)
        #expect(address.parentLink?.parent === user)
        #expect(address.parentLink?.path == JSONPath([.key("address")]))
        let spouse: TestUser? = user.spouse
        let spouseAddress: TestAddress = spouse!.address
        #expect(spouseAddress.parentLink?.parent === spouse)
        // A write through the grandchild reaches the top, and the links stay what they were.
        spouseAddress.city = "Deep"
        #expect(user.jsonModel.json()["spouse"] == ["address": ["city": "Deep"]])
        #expect(spouseAddress.parentLink?.parent === spouse)

        let frozen = try TestUser(json: #"{"address": {"city": "Paris"}}"#)
        let frozenAddress: TestAddress = frozen.address
        let city: String? = frozenAddress.city
        #expect(city == "Paris")
        #expect(frozenAddress.parentLink == nil)
        let madeFrozen = (frozenAddress.state.isMade, frozen.state.isMade)
        #expect(madeFrozen == (false, false))
        let alone = try TestAddress(json: #"{"city": "Oslo"}"#, options: .mutable)
        #expect(alone.parentLink == nil)
    }

    @Test func missingNestedModelIsCreatedOnWrite() throws {
        let user = try TestUser(json: "{}", options: .mutable)
        user.address.city = "Oslo"
        #expect(user.jsonModel.json() == ["address": ["city": "Oslo"]])
    }

    @Test func childrenOfImmutableModelsAreImmutable() throws {
        let user = try TestUser(json: #"{"address": {"city": "Paris"}}"#)
        let address: TestAddress = user.address
        #expect(!address.isMutable)
        #expect(throws: JSONModelError.self) { try address.jsonModel.set("X", forProperty: "city") }
    }

    @Test func clearMutationsRestoresTheOriginal() throws {
        let user = try TestUser(json: #"{"age": 30}"#, options: .mutable)
        user.age = 40
        user.jsonModel.clearMutations()
        #expect(user.age == 30)
        #expect(!user.jsonModel.hasMutations)
        #expect(user.jsonModel.json() == ["age": 30])
    }

    @Test func dynamicSetConvertsAndReportsErrors() throws {
        let user = try TestUser(json: "{}", options: .mutable)
        try user.jsonModel.set("42", forProperty: "age")
        try user.jsonModel.set(5, forProperty: "id")
        try user.jsonModel.set(JSONValue.array(["x"]), forProperty: "tags")
        try user.jsonModel.set(["city": "Bern"], forProperty: "address")
        #expect(user.age == 42)
        #expect(user.id as Int64 == 5)
        #expect(user.tags as [String] == ["x"])
        #expect(user.jsonModel.json()["address"] == ["city": "Bern"])
        #expect(throws: JSONModelError.typeMismatch(model: "TestUser", property: "age", expected: "Int", found: "String")) {
            try user.jsonModel.set("old", forProperty: "age")
        }
        #expect(throws: JSONModelError.unknownProperty(model: "TestUser", property: "nope")) {
            try user.jsonModel.set(1, forProperty: "nope")
        }
        #expect(throws: JSONModelError.readOnly(model: "TestUser", property: "city")) {
            try user.jsonModel.set("X", forProperty: "city")
        }
    }

    @Test func writesOfEveryTypeRoundTrip() throws {
        let model = Scalars()
        let date = Date(timeIntervalSince1970: 1_525_564_800.5)
        model.int8 = -5 as Int8?
        model.uint64 = UInt64.max as UInt64?
        model.float = 0.1 as Float?
        model.decimal = Decimal(string: "0.10") as Decimal?
        model.url = URL(string: "https://a.b/c") as URL?
        model.uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") as UUID?
        model.data = Data([1, 2, 3]) as Data?
        model.date = date as Date?
        model.raw = ["k": [true]] as JSONValue?
        model.optionalInts = [1, nil]
        model.intsByName = ["b": 2, "a": 1]
        #expect(model.jsonModel.json() == [
            "int8": -5, "uint64": .number(JSONNumber(UInt64.max)), "float": 0.1, "decimal": 0.1,
            "url": "https://a.b/c", "uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "data": "AQID",
            "date": "2018-05-06T00:00:00.500Z", "raw": ["k": [true]], "optionalInts": [1, nil],
            "intsByName": ["a": 1, "b": 2],
        ])
        let copy = model.jsonModel.copy()
        #expect(copy.uint64 as UInt64? == UInt64.max)
        #expect(copy.date as Date? == date)
        #expect(copy.data as Data? == Data([1, 2, 3]))
        #expect(copy.jsonModel.diagnostics.isEmpty)
    }
}

final class Nested: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String?.self, jsonPath: "location.city")
        p.second(Int.self, jsonPath: "a.b[1]")
    }
}
