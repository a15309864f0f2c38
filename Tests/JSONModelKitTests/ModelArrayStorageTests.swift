import Foundation
import Testing
@testable import JSONModelKit

final class FirstReadSeat: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.row(Int.self)
        p.label(String?.self)
    }
}

final class FirstReadHall: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.seats([FirstReadSeat].self)
        p.spare([FirstReadSeat]?.self)
        p.wrapped([FirstReadSeat].self, embedPath: "node")
        p.linked([FirstReadSeat].self, inverse: "hall")
        p.byName([String: FirstReadSeat].self)
    }
}

/// An array of models under one key of an immutable model, its elements all objects, is read
/// without a conversion context, into a storage that keeps no details: these tests hold that it
/// reads what the general path reads, and that every other array still takes that path.
@Suite("Arrays of models: storage and first read")
struct ModelArrayStorageTests {
    @Test func plainDeclarationsHaveAFirstReadAndOthersDoNot() {
        let properties = FirstReadHall.modelMetadata.properties
        func hasFirstRead(_ name: String) -> Bool { properties.first { $0.name == name }!.scalarFirstRead != nil }
        #expect(hasFirstRead("seats"))
        #expect(hasFirstRead("spare"))
        #expect(!hasFirstRead("wrapped"))  // elements inside a wrapper
        #expect(!hasFirstRead("linked"))  // children refer back to their parent
        #expect(!hasFirstRead("byName"))
    }

    /// Every array of models, plain or not, knows its array type and its storage's class, found
    /// once with the metadata, so that a read as the Swift array looks up no type at run time;
    /// an optional array, a dictionary and an array of numbers have neither.
    @Test func lazyArraysKnowTheirTypesAndStorageClass() {
        let properties = FirstReadHall.modelMetadata.properties + InlineArrays.modelMetadata.properties
        func property(_ name: String) -> PropertyMetadata { properties.first { $0.name == name }! }
        for name in ["seats", "wrapped", "linked"] {
            #expect(property(name).lazyArrayType == ModelArray<FirstReadSeat>.self, "\(name)")
            #expect(property(name).lazyArrayStorageClass == ModelArrayBase<FirstReadSeat>.self, "\(name)")
        }
        #expect(property("seats").builtArrayFirstRead != nil)
        #expect(property("wrapped").builtArrayFirstRead == nil)  // no first read: elements in a wrapper
        for name in ["spare", "byName", "ints"] {
            #expect(property(name).lazyArrayType == nil, "\(name)")
            #expect(property(name).lazyArrayStorageClass == nil, "\(name)")
        }
    }

    /// Every read of an array of models as its Swift array gives the elements, after a read as
    /// the lazy array or as the Swift array, on immutable and mutable models, plain declarations
    /// or not.
    @Test func readsAsTheSwiftArrayGiveTheElements() throws {
        let json = #"{"seats": [{"row": 1}, {"row": 2}], "wrapped": [{"node": {"row": 3}}], "linked": [{"row": 4}]}"#
        for options in [ModelOptions(), .mutable] {
            let hall = try FirstReadHall(json: json, options: options)
            for _ in 0..<2 {
                let seats: [FirstReadSeat] = hall.seats
                let wrapped: [FirstReadSeat] = hall.wrapped
                let linked: [FirstReadSeat] = hall.linked
                #expect(seats.map { $0.row as Int } == [1, 2])
                #expect(wrapped.map { $0.row as Int } == [3])
                #expect(linked.map { $0.row as Int } == [4])
                let lazy: ModelArray<FirstReadSeat> = hall.seats
                #expect(lazy[1] === seats[1])
            }
        }
    }

    /// A duplicate key that is not an object leaves its key out; one that is an object after it
    /// puts the key back, with that object: the last duplicate wins, whatever came between.
    @Test func aKeyLeftOutAndGivenAgainByALaterDuplicate() throws {
        let cases: [(json: String, rows: [String: Int], order: [String], leftOut: Int)] = [
            (#"{"a": {"row": 1}, "a": 1, "a": {"row": 2}}"#, ["a": 2], ["a"], 1),
            (#"{"a": {"row": 1}, "b": {"row": 5}, "a": null, "a": {"row": 2}, "c": {"row": 6}}"#,
             ["a": 2, "b": 5, "c": 6], ["b", "a", "c"], 1),
            (#"{"a": {"row": 1}, "a": 1, "a": {"row": 2}, "a": "x", "a": {"row": 3}}"#, ["a": 3], ["a"], 2),
            (#"{"a": {"row": 1}, "a": 1}"#, [:], [], 1),
            (#"{"a": 1, "a": {"row": 2}, "b": [], "b": {"row": 7}}"#, ["a": 2, "b": 7], ["a", "b"], 2),
        ]
        for (json, rows, order, leftOut) in cases {
            let lazy = try ModelDictionary<FirstReadSeat>(json: json)
            #expect(lazy.keys == order, "\(json)")
            #expect(lazy.count == rows.count, "\(json)")
            for (key, row) in rows { #expect(lazy[key].map { $0.row as Int } == row, "\(json) [\(key)]") }
            #expect(lazy.diagnostics.count == leftOut, "\(json)")
            // Through a property, and as the Swift dictionary.
            let hall = try FirstReadHall(json: #"{"byName": \#(json)}"#)
            let swift: [String: FirstReadSeat] = hall.byName
            #expect(swift.mapValues { $0.row as Int } == rows, "\(json)")
        }
    }

    /// A dictionary of models read as a Swift dictionary holds the lazy dictionary's instances,
    /// the same dictionary on every read, and behaves as any `[String: Item]`: it is changed
    /// as the caller's own value, cast, compared and freed like one.
    @Test func aDictionaryOfModelsReadAsASwiftDictionary() throws {
        let json = #"{"byName": {"b": {"row": 2}, "a": {"row": 1}, "c": {"row": 3}, "a": {"row": 4}}}"#
        weak var weakSeat: FirstReadSeat?
        do {
            let hall = try FirstReadHall(json: json)
            let lazy: ModelDictionary<FirstReadSeat> = hall.byName
            let swift: [String: FirstReadSeat] = hall.byName
            #expect(swift.count == 3)
            #expect(swift.mapValues { $0.row as Int } == ["a": 4, "b": 2, "c": 3])  // the last duplicate wins
            for key in ["a", "b", "c"] { #expect(swift[key] === lazy[key]) }
            let again: [String: FirstReadSeat] = hall.byName
            #expect(again.keys.sorted() == ["a", "b", "c"] && again.allSatisfy { swift[$0.key] === $0.value })

            // A value of its own: changing it changes neither the model nor the next read.
            var changed = swift
            changed["d"] = try FirstReadSeat(json: #"{"row": 5}"#)
            changed["a"] = nil
            #expect(changed.keys.sorted() == ["b", "c", "d"])
            let afterChange: [String: FirstReadSeat] = hall.byName
            #expect(afterChange.keys.sorted() == ["a", "b", "c"])

            // Casts see a dictionary of the declared type.
            let any: Any = swift
            #expect(any is [String: FirstReadSeat])
            let models = any as? [String: JSONModel]
            #expect(models?.count == 3 && models?["b"] === swift["b"])
            #expect(type(of: swift) == [String: FirstReadSeat].self)
            weakSeat = swift["c"]
        }
        #expect(weakSeat == nil)
    }

    /// Mutable models read through the general path only: each JSON reads the same there.
    @Test(arguments: [
        #"{"seats": [{"row": 1}, {"row": 2, "label": "b"}]}"#,
        #"{"seats": []}"#,
        #"{"seats": [{"row": 1}, 3, null, [], {"row": 4}]}"#,  // three left out, a diagnostic each
        #"{"seats": {"row": 1}}"#,  // an object where an array belongs
        #"{"seats": null, "spare": null}"#,
        #"{}"#,
        #"{"seats": "x", "spare": 7}"#,
        #"{"seats": [[{"row": 1}]], "spare": [{"row": 5}, {"row": "x"}]}"#,
    ])
    func theFirstReadReadsWhatTheGeneralPathReads(_ json: String) throws {
        let immutable = try FirstReadHall(json: json)
        let mutable = try FirstReadHall(json: json, options: .mutable)
        func rows(_ seats: [FirstReadSeat]?) -> [Int]? {
            seats.map { seats in seats.map { seat -> Int in seat.row } }
        }
        let seats: [FirstReadSeat] = immutable.seats
        let mutableSeats: [FirstReadSeat] = mutable.seats
        #expect(rows(seats) == rows(mutableSeats))
        let spare: [FirstReadSeat]? = immutable.spare
        let mutableSpare: [FirstReadSeat]? = mutable.spare
        #expect(rows(spare) == rows(mutableSpare))
        #expect(immutable.jsonModel.diagnostics.map(\.path) == mutable.jsonModel.diagnostics.map(\.path))
        #expect(immutable.jsonModel.diagnostics.map(\.message) == mutable.jsonModel.diagnostics.map(\.message))
        #expect(immutable.jsonModel.json() == mutable.jsonModel.json())
        #expect(immutable.jsonModel.fullDescription == mutable.jsonModel.fullDescription)
    }

    @Test func aPlainArrayKeepsNoDetailsAndOthersDo() throws {
        let plain = try FirstReadHall(json: #"{"seats": [{"row": 1}, {"row": 2}]}"#)
        let seats: ModelArray<FirstReadSeat> = plain.seats
        #expect(seats.base.keepsNoDetails)
        #expect(seats.count == 2)
        #expect(!seats.isElementBuilt(at: 0))  // still lazy: built when read
        let second: FirstReadSeat = seats[1]
        #expect(second.row as Int == 2)
        #expect(seats.isElementBuilt(at: 1))

        let leftOut = try FirstReadHall(json: #"{"seats": [{"row": 1}, 2]}"#)
        let kept: ModelArray<FirstReadSeat> = leftOut.seats
        #expect(!kept.base.keepsNoDetails)
        #expect(kept.diagnostics.count == 1)
        #expect(kept.jsonIndex(of: 0) == 0)

        let wrapped = try FirstReadHall(json: #"{"wrapped": [{"node": {"row": 1}}]}"#)
        let inside: ModelArray<FirstReadSeat> = wrapped.wrapped
        #expect(!inside.base.keepsNoDetails)
        #expect(inside[0].row as Int == 1)

        let mutable = try FirstReadHall(json: #"{"seats": [{"row": 1}]}"#, options: .mutable)
        let mutableSeats: ModelArray<FirstReadSeat> = mutable.seats
        #expect(!mutableSeats.base.keepsNoDetails)
    }

    /// Reading the array as a Swift array, as a lazy array, and as a lazy array of `JSONModel`
    /// gives the same element instances, whichever is read first.
    @Test func everyReadingOfTheArrayGivesTheSameElements() throws {
        let hall = try FirstReadHall(json: #"{"seats": [{"row": 1}, {"row": 2}, {"row": 3}]}"#)
        let lazy: ModelArray<FirstReadSeat> = hall.seats
        let first = lazy[0]
        let swift: [FirstReadSeat] = hall.seats
        let untyped: ModelArray<JSONModel> = hall.seats
        #expect(swift.count == 3)
        #expect(swift[0] === first)
        for index in 0..<3 { #expect(untyped[index] === swift[index]) }
        let again: [FirstReadSeat] = hall.seats
        #expect(zip(again, swift).allSatisfy { $0 === $1 })
    }

    /// A first read as the declared Swift array builds every element then, with no places
    /// beside them; a first read as the lazy array stays lazy. Either way every later reading
    /// gives the same instances.
    @Test func aFirstReadAsTheSwiftArrayBuildsEveryElement() throws {
        let json = #"{"seats": [{"row": 1}, {"row": 2}, {"row": 3}]}"#
        let hall = try FirstReadHall(json: json)
        let swift: [FirstReadSeat] = hall.seats
        let lazy: ModelArray<FirstReadSeat> = hall.seats
        #expect(lazy.base.wasBuiltWhenRead)
        #expect(lazy.base.keepsNoDetails)
        #expect((0..<3).allSatisfy { lazy.isElementBuilt(at: $0) })
        #expect((0..<3).allSatisfy { lazy[$0] === swift[$0] })
        let untyped: ModelArray<JSONModel> = hall.seats
        #expect((0..<3).allSatisfy { untyped[$0] === swift[$0] })
        let again: [FirstReadSeat] = hall.seats
        #expect(zip(again, swift).allSatisfy { $0 === $1 })
        #expect(hall.jsonModel.json() == (try JSONValue(json: json)))
        #expect(lazy.fullDescription.hasPrefix("ModelArray<FirstReadSeat>(count: 3, built: 3)"))

        let lazyFirst = try FirstReadHall(json: json)
        let lazySeats: ModelArray<FirstReadSeat> = lazyFirst.seats
        #expect(!lazySeats.base.wasBuiltWhenRead)
        #expect(!lazySeats.isElementBuilt(at: 0))
        let thenSwift: [FirstReadSeat] = lazyFirst.seats
        #expect((0..<3).allSatisfy { lazySeats[$0] === thenSwift[$0] })

        // A first read by name, or as an optional, is not one as the Swift array.
        let byName = try FirstReadHall(json: json)
        _ = byName.jsonModel.value(forProperty: "seats")
        let afterName: ModelArray<FirstReadSeat> = byName.seats
        #expect(!afterName.base.wasBuiltWhenRead)
        let optional = try FirstReadHall(json: #"{"spare": [{"row": 1}]}"#)
        let spare: [FirstReadSeat]? = optional.spare
        #expect(spare?.count == 1)
        let spareLazy: ModelArray<FirstReadSeat>? = optional.spare
        #expect(spareLazy?.base.wasBuiltWhenRead == false)
    }

    /// The Swift array a read gives is the caller's value: changing it changes neither the model
    /// nor the next read; a mutable model's changed array reads as changed.
    @Test func theSwiftArrayIsAValueOfItsOwn() throws {
        let hall = try FirstReadHall(json: #"{"seats": [{"row": 1}, {"row": 2}]}"#)
        var seats: [FirstReadSeat] = hall.seats
        let extra = try FirstReadSeat(json: #"{"row": 9}"#)
        seats.append(extra)
        seats.removeFirst()
        seats.append(contentsOf: [extra, extra])
        #expect(seats.map { $0.row as Int } == [2, 9, 9, 9])
        let again: [FirstReadSeat] = hall.seats
        #expect(again.map { $0.row as Int } == [1, 2])
        #expect(again[1] === seats[0])

        let mutable = try FirstReadHall(json: #"{"seats": [{"row": 1}]}"#, options: .mutable)
        var lazy: ModelArray<FirstReadSeat> = mutable.seats
        lazy.append(extra)
        mutable.seats = lazy
        let changed: [FirstReadSeat] = mutable.seats
        #expect(changed.map { $0.row as Int } == [1, 9])
        let changedAgain: [FirstReadSeat] = mutable.seats
        #expect(changedAgain.map { $0.row as Int } == [1, 9])
        #expect(changedAgain[0] === changed[0])
    }

    /// Elements built in any order by racing threads are one instance each, on both sides of
    /// the size up to which an array's places are allocated with it (``BuiltModels/eagerLimit``).
    @Test(arguments: [0, 1, BuiltModels.eagerLimit, BuiltModels.eagerLimit + 1, 200])
    func racingBuildsGiveOneInstancePerElement(_ count: Int) async throws {
        let json = #"{"seats": ["# + (0..<count).map { #"{"row": \#($0)}"# }.joined(separator: ",") + "]}"
        for round in 0..<20 {
            let hall = try FirstReadHall(json: json)
            let seats: ModelArray<FirstReadSeat> = hall.seats
            #expect(seats.count == count)
            let seen = await withTaskGroup(of: [ObjectIdentifier].self) { group in
                for task in 0..<4 {
                    group.addTask {
                        // Each task visits the elements in its own order, then reads them in order.
                        var order = Array(0..<count)
                        if task % 2 == 1 { order.reverse() }
                        if task >= 2 { order = order.filter { $0 % 2 == round % 2 } + order.filter { $0 % 2 != round % 2 } }
                        for index in order { _ = seats[index] }
                        return (0..<count).map { ObjectIdentifier(seats[$0]) }
                    }
                }
                return await group.reduce(into: [[ObjectIdentifier]]()) { $0.append($1) }
            }
            #expect(Set(seen).count == 1)
            let rows: [Int] = (0..<count).map { seats[$0].row }
            #expect(rows == Array(0..<count))
        }
    }

    /// Threads racing to the first read of the same arrays all get one array, and so one
    /// instance of each element.
    @Test func concurrentFirstReadsGiveOneInstancePerElement() async throws {
        let json = #"{"seats": [{"row": 1}, {"row": 2}, {"row": 3}, {"row": 4}]}"#
        for _ in 0..<50 {
            let halls = try (0..<20).map { _ in try FirstReadHall(json: json) }
            let seen = await withTaskGroup(of: [ObjectIdentifier].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        halls.flatMap { hall in
                            let seats: [FirstReadSeat] = hall.seats
                            return seats.map { ObjectIdentifier($0) }
                        }
                    }
                }
                return await group.reduce(into: [[ObjectIdentifier]]()) { $0.append($1) }
            }
            #expect(Set(seen).count == 1)
            #expect(seen[0].count == 80)
        }
    }
}
