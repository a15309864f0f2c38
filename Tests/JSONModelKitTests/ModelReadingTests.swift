import Foundation
import Testing
@testable import JSONModelKit

// MARK: - Fixture models (shared by the Model*Tests files)

final class TestAddress: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String?.self)
        p.zip(String?.self, jsonPath: "postal_code")
        p.secret(String?.self, serialize: false)
    }
}

final class TestUser: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.firstName(String.self, jsonPath: "first_name")
        p.age(Int.self, default: 18)
        p.address(TestAddress.self)
        p.homes([TestAddress].self)
        p.places([String: TestAddress].self)
        p.spouse(TestUser?.self)
        p.id(Int64.self, anyOf: ["id", "objectId", "object_id"])
        p.tags([String].self)
        p.active(Bool.self)
        p.city(String?.self, jsonPath: "address.city", readOnly: true)
        p.nickname(String?.self)
    }
}

/// One optional property of every supported scalar type, each under its own key.
final class Scalars: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.int(Int?.self)
        p.int8(Int8?.self)
        p.int16(Int16?.self)
        p.int32(Int32?.self)
        p.int64(Int64?.self)
        p.uint(UInt?.self)
        p.uint8(UInt8?.self)
        p.uint16(UInt16?.self)
        p.uint32(UInt32?.self)
        p.uint64(UInt64?.self)
        p.double(Double?.self)
        p.float(Float?.self)
        p.bool(Bool?.self)
        p.string(String?.self)
        p.decimal(Decimal?.self)
        p.url(URL?.self)
        p.uuid(UUID?.self)
        p.data(Data?.self)
        p.date(Date?.self)
        p.raw(JSONValue?.self)
        p.ints([Int].self)
        p.optionalInts([Int?].self)
        p.intsByName([String: Int].self)
        p.plainInt(Int.self)
        p.plainString(String.self)
        p.plainBool(Bool.self)
        p.plainDouble(Double.self)
        p.plainDecimal(Decimal.self)
        p.plainData(Data.self)
        p.plainJSON(JSONValue.self)
        p.plainDict([String: String].self)
        p.plainModel(TestAddress.self)
    }
}

extension Optional {
    /// `value == nil`, spelled so `#expect` does not pick the operands apart.
    var isNone: Bool { self == nil }
}

func scalars(_ json: String) throws -> Scalars { try Scalars(json: json) }

// MARK: - Reading

@Suite("Model reading")
struct ModelReadingTests {
    let userJSON = #"""
        {"first_name": "Ann", "age": 30, "id": 7, "active": true, "tags": ["a", "b"],
         "address": {"city": "Paris", "postal_code": "75001"}, "extra": [1, 2],
         "homes": [{"city": "Rome"}, {"city": "Oslo"}], "places": {"work": {"city": "Bern"}}}
        """#

    @Test func typedReads() throws {
        let user = try TestUser(json: userJSON)
        let name: String = user.firstName
        let age: Int = user.age
        let id: Int64 = user.id
        let active: Bool = user.active
        let tags: [String] = user.tags
        #expect(name == "Ann")
        #expect(age == 30)
        #expect(id == 7)
        #expect(active)
        #expect(tags == ["a", "b"])
        #expect(user.jsonModel.diagnostics.isEmpty)
    }

    @Test func typeInferredFromUse() throws {
        let user = try TestUser(json: userJSON)
        let next = user.age + 1
        #expect(next == 31)
        #expect(user.age == 30)
        if user.active {} else { Issue.record("active should be true") }
        let name: String = user.firstName
        #expect(name.hasPrefix("A"))
    }

    @Test func untypedReadsPrint() throws {
        let user = try TestUser(json: userJSON)
        #expect("\(user.age)" == "30")
        #expect("\(user.firstName)" == "Ann")
        #expect("\(user.nickname)" == "nil")
        let value = user.age
        #expect(value.debugDescription == "30")
        #expect(value.value as? Int == 30)
        print(user.age, user.firstName)   // compiles and prints
    }

    @Test func comparingWithNil() throws {
        let user = try TestUser(json: userJSON)
        let isNil = user.nickname == nil
        #expect(isNil)
        let hasName = user.firstName != nil
        #expect(hasName)
        let named = try TestUser(json: #"{"nickname": "Annie"}"#)
        let namedIsNil = named.nickname == nil
        #expect(!namedIsNil)
    }

    @Test func chainedNestedReads() throws {
        let user = try TestUser(json: userJSON)
        let city: String? = user.address.city
        #expect(city == "Paris")
        let zip: String? = user.address.zip
        #expect(zip == "75001")
        let address: TestAddress = user.address
        #expect(address.city as String? == "Paris")
        let spouseCity: String? = user.spouse.city   // nil model chains to nil
        #expect(spouseCity == nil)
    }

    @Test func nestedCollectionsOfModels() throws {
        let user = try TestUser(json: userJSON)
        let homes: [TestAddress] = user.homes
        #expect(homes.map { $0.city as String? } == ["Rome", "Oslo"])
        let places: [String: TestAddress] = user.places
        #expect(places["work"]?.city as String? == "Bern")
        let spouse: TestUser? = user.spouse
        #expect(spouse == nil)
    }

    @Test func cachedModelIsTheSameInstance() throws {
        let user = try TestUser(json: userJSON)
        let first: TestAddress = user.address
        let second: TestAddress = user.address
        #expect(first === second)
    }

    @Test func declaredAndNaturalDefaults() throws {
        let user = try TestUser(json: "{}")
        #expect(user.age == 18)
        #expect(user.firstName == "")
        #expect(user.active == false)
        #expect(user.tags == [String]())
        #expect(user.id == 0 as Int64)
        let address: TestAddress = user.address   // empty model
        #expect(address.jsonModel.json() == [:])
        #expect(user.nickname as String? == nil)
        #expect(user.jsonModel.diagnostics.isEmpty)
    }

    @Test func missingAndNullReadAlike() throws {
        let missing = try TestUser(json: "{}")
        let null = try TestUser(json: #"{"age": null, "first_name": null, "nickname": null, "tags": null}"#)
        #expect(missing.age as Int == null.age)
        #expect(null.age == 18)
        #expect(null.firstName == "")
        #expect(null.nickname as String? == nil)
        #expect(null.tags == [String]())
        #expect(null.jsonModel.diagnostics.isEmpty)
    }

    @Test func alternativesFirstPresentWins() throws {
        #expect(try TestUser(json: #"{"objectId": 5, "object_id": 6}"#).id == 5 as Int64)
        #expect(try TestUser(json: #"{"object_id": 6}"#).id == 6 as Int64)
        #expect(try TestUser(json: #"{"id": null, "object_id": 6}"#).id == 6 as Int64)
        #expect(try TestUser(json: #"{"id": 1, "object_id": 6}"#).id == 1 as Int64)
    }

    @Test func nestedJSONPath() throws {
        let user = try TestUser(json: userJSON)
        #expect(user.city as String? == "Paris")
        let indexed = try PathModel(json: #"{"a": {"b": [10, 20, {"c": "deep"}]}}"#)
        #expect(indexed.second == 20)
        #expect(indexed.deep == "deep")
    }

    @Test func dynamicAPI() throws {
        let user = try TestUser(json: userJSON)
        #expect(user.jsonModel.value(forProperty: "age") as? Int == 30)
        #expect(user.jsonModel.value(forProperty: "nickname") == nil)
        #expect(user.jsonModel.value(forProperty: "nope") == nil)
        #expect(user.jsonModel.jsonValue(forProperty: "age") == 30)
        #expect(user.jsonModel.jsonValue(forProperty: "nickname") == .null)
        #expect(user.jsonModel.jsonValue(forProperty: "address") == ["city": "Paris", "postal_code": "75001"])
        #expect(user.jsonModel.jsonValue(forProperty: "nope") == nil)
        #expect(user.jsonModel.hasProperty("firstName"))
        #expect(!user.jsonModel.hasProperty("first_name"))
        #expect(user.jsonModel.propertyNames.first == "firstName")
        #expect(user.jsonModel.modelName == "TestUser")
    }

    @Test func nothingConvertsAtInit() throws {
        let model = try Scalars(json: #"{"int": "x", "bool": "maybe", "url": 5}"#)
        #expect(model.cachedPropertyCount == 0)
        #expect(model.jsonModel.diagnostics.isEmpty)
        #expect((model.int as Int?).isNone)
        #expect(model.cachedPropertyCount == 1)
        #expect(model.jsonModel.diagnostics.count == 1)
        #expect((model.int as Int?).isNone)   // cached: no second diagnostic
        #expect(model.jsonModel.diagnostics.count == 1)
        #expect((model.bool as Bool?).isNone)
        #expect(model.jsonModel.diagnostics.count == 2)
    }

    @Test func concurrentReadsOfOneImmutableModel() throws {
        let user = try TestUser(json: userJSON)
        let results = Mutex8()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for _ in 0..<200 {
                let age: Int = user.age
                let city: String? = user.address.city
                let homes: [TestAddress] = user.homes
                let address: TestAddress = user.address
                results.record(index, "\(age) \(city ?? "-") \(homes.count) \(ObjectIdentifier(address).hashValue)")
            }
        }
        let seen = results.values
        #expect(seen.count == 1, "every thread saw the same values and the same nested instance: \(seen)")
        #expect(user.jsonModel.diagnostics.isEmpty)
    }
}

final class PathModel: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.second(Int.self, jsonPath: "a.b[1]")
        p.deep(String.self, jsonPath: ["a", "b", 2, "c"])
    }
}

/// Collects strings from many threads.
final class Mutex8: @unchecked Sendable {
    private let lock = NSLock()
    private var set = Set<String>()
    func record(_ thread: Int, _ value: String) {
        lock.lock()
        set.insert(value)
        lock.unlock()
    }
    var values: Set<String> {
        lock.lock()
        defer { lock.unlock() }
        return set
    }
}
