import Foundation
import Testing
@testable import JSONModelKit

final class CutLogAddress: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.street(String.self)
        p.city(String.self)
        p.region(String.self)
        p.postcode(String.self)
        p.country(String.self)
    }
}

final class CutLogOrder: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.note1(String.self)
        p.note2(String.self)
        p.note3(String.self)
        p.note4(String.self)
        p.shippingAddress(CutLogAddress.self)
        p.a1(Int.self)
        p.a2(Int.self)
        p.a3(Int.self)
        p.a4(Int.self)
        p.a5(Int.self)
        p.a6(Int.self)
        p.a7(Int.self)
        p.a8(Int.self)
        p.a9(Int.self)
        p.a10(Int.self)
        p.a11(Int.self)
        p.a12(Int.self)
    }
}

/// The one-line description stops at a property boundary and counts what it left out;
/// `debugDescription` shows every property.
@Suite("Description cuts")
struct DescriptionCutTests {
    static func json(noteLength: Int) -> String {
        let note = String(repeating: "n", count: noteLength)
        let street = String(repeating: "s", count: 70)
        let numbers = (1...12).map { "\"a\($0)\": \($0)" }.joined(separator: ", ")
        return """
            {"note1": "\(note)", "note2": "\(note)", "note3": "\(note)", "note4": "\(note)",
             "shippingAddress": {"street": "\(street)", "city": "\(street)", "region": "\(street)",
               "postcode": "\(street)", "country": "\(street)"},
             \(numbers)}
            """
    }

    @Test func aLongLineStopsAtAPropertyAndCountsTheRest() throws {
        let order = try CutLogOrder(json: Self.json(noteLength: 70))
        let line = order.debugDescription
        #expect(line.count <= 500)
        // Four notes of 70 characters, then the address cut inside the room it had.
        let street = String(repeating: "s", count: 70)
        #expect(line.contains(#"shippingAddress: CutLogAddress(street: "\#(street)", "#))
        #expect(line.contains(" more), "))
        // Nothing is cut inside a value: every quoted string is whole.
        #expect(!line.contains("…\""))
        #expect(line.hasSuffix(" more)"))
        let counted = try #require(line.split(separator: "… ").last?.split(separator: " ").first.flatMap { Int($0) })
        let shown = (1...12).filter { line.contains("a\($0): \($0)") }.count
        #expect(shown + counted == 12)
    }

    @Test func theCountKeepsItsRoom() throws {
        for length in stride(from: 60, through: 80, by: 1) {
            let order = try CutLogOrder(json: Self.json(noteLength: length))
            let line = order.debugDescription
            #expect(line.count <= 500, "note length \(length)")
            #expect(line.hasSuffix(" more)") || line.hasSuffix("a12: 12)"), "note length \(length)")
        }
        var limits = DescriptionLimits.default
        limits.maxLineLength = 16
        let order = try CutLogOrder(json: Self.json(noteLength: 70))
        let short = order.jsonModel.description(limits: limits)
        #expect(short.count <= 16 && short.hasPrefix("CutLogOrder("))
        limits.maxLineLength = 30
        #expect(order.jsonModel.description(limits: limits) == "CutLogOrder(… 17 more)")
    }
}
