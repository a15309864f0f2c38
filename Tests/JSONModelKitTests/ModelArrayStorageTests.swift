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

/// The storage of the common array of models keeps no details: these tests hold which arrays
/// keep them, and that every reading of an array gives the same elements.
@Suite("Arrays of models: storage and first read")
struct ModelArrayStorageTests {
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
}
