import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// Red-team item 12: a nested model that its parent no longer holds must not write through.
///
/// The rule (JSONModel+Mutation.swift): a nested model of a mutable parent writes through while
/// the parent's JSON at its path is the JSON it was read from or last wrote. Once the parent's
/// value there changes another way, the nested model is detached: it keeps its own JSON and its
/// later writes stay its own.
@Suite("Detached children")
struct DetachedChildTests {
    final class Home: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.city(String?.self)
            p.zip(String?.self, jsonPath: "postal_code")
            p.geo(Geo?.self)
        }
    }

    final class Geo: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.lat(Double?.self)
        }
    }

    final class Spot: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.floor(Int?.self)
        }
    }

    final class Resident: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.name(String?.self)
            p.home(Home.self)
            p.second(Home?.self)
            p.homes([Home].self)
            p.homeCity(String?.self, jsonPath: "home.city")
            p.spot(Spot.self, group: true)
        }
    }

    final class Phone: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.number(String?.self)
        }
    }

    final class PhoneBook: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.primary(Phone?.self, jsonPath: "phones[0]")
        }
    }

    final class PhoneOwner: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.book(PhoneBook.self)
            p.phones([Phone].self, jsonPath: "book.phones")
        }
    }

    static let json = #"""
        {"name": "Ann", "home": {"city": "Rome", "postal_code": "00118", "geo": {"lat": 41.9}},
         "second": {"city": "Bari"}, "homes": [{"city": "A"}, {"city": "B"}], "floor": 2}
        """#

    @Test func aReplacedChildNoLongerWritesThrough() throws {
        let resident = try Resident(json: Self.json, options: .mutable)
        let old: Home = resident.home
        resident.home = try Home(json: #"{"city": "Oslo"}"#)
        old.zip = "00100"
        #expect(resident.jsonModel.json()["home"] == ["city": "Oslo"])
        #expect((resident.home as Home).city as String? == "Oslo")
        // Its writes stay its own.
        #expect(old.zip as String? == "00100")
        #expect(old.city as String? == "Rome")
        #expect(old.jsonModel.json() == ["city": "Rome", "postal_code": "00100", "geo": ["lat": 41.9]])
    }

    @Test func aRemovedChildNoLongerWritesThrough() throws {
        let resident = try Resident(json: Self.json, options: .mutable)
        let old: Home? = resident.second
        resident.second = nil as Home?
        old!.city = "Lecce"
        #expect(resident.jsonModel.json()["second"] == nil)
        #expect(old!.city as String? == "Lecce")
    }

    @Test func aGrandchildOfAReplacedChildStaysWithIt() throws {
        let resident = try Resident(json: Self.json, options: .mutable)
        let home: Home = resident.home
        let geo: Geo? = home.geo
        resident.home = try Home(json: #"{"city": "Oslo"}"#)
        geo!.lat = 59.9  // reaches the old home, which keeps it
        #expect(resident.jsonModel.json()["home"] == ["city": "Oslo"])
        #expect(home.jsonModel.json()["geo"] == ["lat": 59.9])
    }

    @Test func anElementOfAReplacedArrayNoLongerWritesThrough() throws {
        let resident = try Resident(json: Self.json, options: .mutable)
        let homes: [Home] = resident.homes
        resident.homes = [try Home(json: #"{"city": "C"}"#)]
        homes[0].city = "Z"
        homes[1].city = "Y"
        #expect(resident.jsonModel.json()["homes"] == [["city": "C"]])
        #expect(homes[0].city as String? == "Z")
    }

    @Test func aChildWhoseObjectChangedThroughAnotherPropertyIsDetached() throws {
        let resident = try Resident(json: Self.json, options: .mutable)
        let home: Home = resident.home
        resident.homeCity = "Milan"
        home.zip = "20100"  // would put "Rome" back if it still wrote its whole object through
        #expect(resident.jsonModel.json()["home"] == ["city": "Milan", "postal_code": "00118", "geo": ["lat": 41.9]])
        #expect(resident.homeCity as String? == "Milan")
    }

    @Test func mergesAndClearingDetachOnlyTheChildrenTheyChange() throws {
        let resident = try Resident(json: Self.json, options: .mutable)
        let home: Home = resident.home
        let second: Home? = resident.second
        try resident.jsonModel.update(with: ["second": ["city": "Lecce"], "name": "Bea"])
        home.city = "Turin"      // the merge left home alone: still linked
        second!.city = "Foggia"  // the merge changed second: detached
        #expect(resident.jsonModel.json()["home"]?["city"] == "Turin")
        #expect(resident.jsonModel.json()["second"] == ["city": "Lecce"])

        resident.jsonModel.clearMutations()
        home.zip = "10100"       // the clear put the original home back: detached
        let original = try JSONDocument(data: Data(Self.json.utf8)).root.value
        #expect(resident.jsonModel.json() == original)
    }

    @Test func untouchedChildrenKeepWritingThrough() throws {
        let resident = try Resident(json: Self.json, options: .mutable)
        let home: Home = resident.home
        let homes: [Home] = resident.homes
        let spot: Spot = resident.spot
        resident.name = "Bea"
        resident.second = nil as Home?
        homes[1].city = "D"
        home.city = "Naples"
        home.city = "Palermo"
        spot.floor = 3
        homes[0].city = "E"
        #expect(resident.jsonModel.json() == [
            "name": "Bea", "home": ["city": "Palermo", "postal_code": "00118", "geo": ["lat": 41.9]],
            "homes": [["city": "E"], ["city": "D"]], "floor": 3,
        ])
        // Writing a child's own value back over it changes nothing, so it stays linked.
        resident.home = home
        home.zip = "90100"
        #expect(resident.jsonModel.json()["home"]?["postal_code"] == "90100")
    }

    @Test(.timeLimit(.minutes(10))) func writingEveryElementOfALargeArrayStaysLinear() throws {
        let count = 20_000
        let homes = (0..<count).map { #"{"city": "c\#($0)"}"# }.joined(separator: ",")
        let resident = try Resident(json: #"{"homes": [\#(homes)]}"#, options: .mutable)
        let elements: [Home] = resident.homes
        for (index, home) in elements.enumerated() { home.zip = "\(index)" }
        let written = try #require(resident.jsonModel.json()["homes"]?.arrayValue)
        #expect(written.count == count)
        #expect(written[count - 1]["city"] == .string("c\(count - 1)"))
        #expect(written[count - 1]["postal_code"] == .string("\(count - 1)"))
        try Scaling.expectLinear(from: 2_500, "writing every element of an array of n") { count in
            let homes = (0..<count).map { #"{"city": "c\#($0)"}"# }.joined(separator: ",")
            let resident = try Resident(json: #"{"homes": [\#(homes)]}"#, options: .mutable)
            let elements: [Home] = resident.homes
            for (index, home) in elements.enumerated() { home.zip = "\(index)" }
        }
    }

    /// A nested model read after an unchanged write, and so cached in place of the first one,
    /// is not handed out once the first one's write detaches it.
    @Test func aChildDetachedByAnotherAtItsPathIsNotReadAgain() throws {
        let resident = try Resident(json: Self.json, options: .mutable)
        let home: Home = resident.home
        resident.home = home                   // no change: home stays linked
        #expect((resident.home as Home).city as String? == "Rome")   // a second model, cached
        home.city = "Milan"                    // writes through; the second model is detached
        #expect((resident.home as Home).city as String? == "Milan")
        (resident.home as Home).zip = "20100"  // through the model read now, so it reaches the parent
        #expect(resident.jsonModel.json()["home"] == ["city": "Milan", "postal_code": "20100", "geo": ["lat": 41.9]])
        let third: Home = resident.home
        try resident.jsonModel.update(with: ["name": "Bea"])   // empties the cache, changes no home
        third.zip = "20121"
        #expect((resident.home as Home).zip as String? == "20121")
    }

    /// The model whose write detaches an older one at its path stays the one its parent hands out.
    @Test func theWriterStaysCachedWhenItDetachesAnOlderModel() throws {
        let resident = try Resident(json: Self.json, options: .mutable)
        let older: Home = resident.home
        try resident.jsonModel.update(with: ["name": "Bea"])  // empties the cache; older stays linked
        let newer: Home = resident.home
        newer.city = "Turin"                                    // detaches older
        #expect((resident.home as Home) === newer)
        newer.city = "Genoa"
        #expect(resident.jsonModel.json()["home"]?["city"] == "Genoa")
        older.city = "Bari"                                     // detached: its own
        #expect(resident.jsonModel.json()["home"]?["city"] == "Genoa")
    }

    /// Removing an element through a nested model tells the models above the whole array: the
    /// models of the elements that moved stop writing through there too.
    @Test func elementsThatMovedUnderANestedModelsRemovalAreDetached() throws {
        let owner = try PhoneOwner(
            json: #"{"book": {"phones": [{"number": "1"}, {"number": "2"}, {"number": "3"}]}}"#, options: .mutable)
        let phones: [Phone] = owner.phones
        let second = phones[1]
        (owner.book as PhoneBook).primary = nil as Phone?
        second.number = "22"
        #expect(owner.jsonModel.json() == ["book": ["phones": [["number": "2"], ["number": "3"]]]])
        #expect((owner.phones as [Phone]).map { $0.number as String? } == ["2", "3"])
    }

    @Test func aNewerChildAtTheSamePathTakesOver() throws {
        let resident = try Resident(json: Self.json, options: .mutable)
        let first: Home = resident.home
        resident.homeCity = "Milan"     // detaches `first`, empties the cache
        let second: Home = resident.home
        #expect(second !== first)
        second.zip = "20121"
        first.zip = "00000"
        #expect(resident.jsonModel.json()["home"] == ["city": "Milan", "postal_code": "20121", "geo": ["lat": 41.9]])
    }
}
