import Foundation
import Testing
@testable import JSONModelKit

final class RelOrder: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.number(String.self)
        p.lines([RelLine].self, inverse: "order")
        p.customer(RelCustomer?.self, inverse: "order")
        p.address(RelAddress.self, group: true)
    }
}

final class RelWrappedLines: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.lines([RelLine].self, embedPath: "node", inverse: "owner")
    }
}

final class RelGeo: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.lat(Double?.self)
    }
}

final class RelGroupAddress: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.street(String?.self)
        p.note(String?.self, serialize: false)
        p.geo(RelGeo?.self)
    }
}

final class RelPerson: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String?.self)
        p.address(RelGroupAddress.self, group: true)
    }
}

final class RelLine: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.sku(String.self)
    }
}

final class RelCustomer: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
    }
}

final class RelAddress: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.street(String?.self)
        p.city(String?.self)
    }
}

@Suite("Relationships and property groups")
struct RelationshipTests {
    static let json = #"""
        {"number": "A1", "lines": [{"sku": "x"}, {"sku": "y"}], "customer": {"name": "Ann"},
         "street": "Via Roma 1", "city": "Rome"}
        """#

    @Test func childrenReferBackToTheirParent() throws {
        let order = try RelOrder(json: Self.json)
        let lines: ModelArray<RelLine> = order.lines
        #expect(lines[1].jsonModel.inverse("order", as: RelOrder.self) === order)
        let customer: RelCustomer? = order.customer
        #expect(customer?.jsonModel.inverse("order", as: RelOrder.self) === order)
        #expect(customer?.jsonModel.inverse("other", as: RelOrder.self) == nil)
        #expect(customer?.jsonModel.inverse("order", as: RelLine.self) == nil)
    }

    @Test func nothingLeaksAndTheBackReferenceIsWeak() throws {
        weak var weakOrder: RelOrder?
        weak var weakLine: RelLine?
        var line: RelLine?
        do {
            let order = try RelOrder(json: Self.json)
            let lines: ModelArray<RelLine> = order.lines
            let first = lines[0]
            weakOrder = order
            weakLine = first
            line = first
            #expect(first.jsonModel.inverse("order", as: RelOrder.self) === order)
        }
        // The child is alive (held here); the parent is gone, and the back-reference with it.
        #expect(weakOrder == nil)
        #expect(line?.jsonModel.inverse("order", as: RelOrder.self) == nil)
        line = nil
        #expect(weakLine == nil)
    }

    @Test func aToManyGivenASingleObjectReadsAsOneElement() throws {
        let order = try RelOrder(json: #"{"lines": {"sku": "solo"}}"#)
        let lines: [RelLine] = order.lines
        #expect(lines.count == 1 && lines[0].sku == "solo")
        #expect(order.jsonModel.diagnostics.isEmpty)
        let lazy: ModelArray<RelLine> = order.lines
        #expect(lazy.jsonIndex(of: 0) == 0)
    }

    /// The same through an embed path: the one element has JSON index 0 too, and its path
    /// in diagnostics and output is the embed path alone.
    @Test func aToManyGivenASingleWrappedObjectReadsAsOneElement() throws {
        let owner = try RelWrappedLines(json: #"{"lines": {"node": {"sku": "solo"}}}"#)
        let lines: ModelArray<RelLine> = owner.lines
        #expect(lines.count == 1)
        #expect(lines[0].sku == "solo")
        #expect(lines.jsonIndex(of: 0) == 0)
        #expect(lines[0].jsonModel.inverse("owner", as: RelWrappedLines.self) === owner)
        // An array of wrapped objects, one of them missing its wrapper, for comparison.
        let many = try RelWrappedLines(json: #"{"lines": [{"node": {"sku": "a"}}, {"sku": "b"}, {"node": {"sku": "c"}}]}"#)
        let kept: ModelArray<RelLine> = many.lines
        #expect(kept.map { $0.sku as String } == ["a", "c"])
        #expect(kept.jsonIndex(of: 1) == 2)
    }

    /// The one element of a to-many given a single object has the collection's own place: a
    /// write through it keeps the array, so every read gives that element, and later writes
    /// through it still land.
    @Test func writesThroughTheElementOfASingleObjectKeepIt() throws {
        let order = try RelOrder(json: #"{"number": "A1", "lines": {"sku": "x"}}"#, options: .mutable)
        let lines: ModelArray<RelLine> = order.lines
        let line = lines[0]
        line.sku = "y"
        let again: ModelArray<RelLine> = order.lines
        let other = again[0]
        #expect(other === line)
        other.sku = "z"
        line.sku = "w"
        let now: [RelLine] = order.lines
        #expect(now[0].sku == "w")
        #expect(order.jsonModel.json() == ["number": "A1", "lines": ["sku": "w"]])

        let owner = try RelWrappedLines(json: #"{"lines": {"node": {"sku": "a"}, "note": 1}}"#, options: .mutable)
        let wrapped: ModelArray<RelLine> = owner.lines
        let element = wrapped[0]
        element.sku = "b"
        let read: ModelArray<RelLine> = owner.lines
        #expect(read[0] === element)
        element.sku = "c"
        #expect(owner.jsonModel.json() == ["lines": ["node": ["sku": "c"], "note": 1]])
    }

    @Test func groupsReadTheParentsLevel() throws {
        let order = try RelOrder(json: Self.json)
        let address: RelAddress = order.address
        #expect(address.city == "Rome" && address.street == "Via Roma 1")
        #expect((order.address as RelAddress) === address)
    }

    @Test func groupWritesLandInTheParent() throws {
        let order = try RelOrder(json: Self.json, options: .mutable)
        let address: RelAddress = order.address
        address.city = "Milan"
        #expect(order.jsonModel.json()["city"] == "Milan")
        #expect(order.jsonModel.json()["number"] == "A1")
        // A write through the parent in between is not lost by a later group write.
        order.number = "A2"
        address.street = "Corso 2"
        let json = order.jsonModel.json()
        #expect(json["number"] == "A2" && json["street"] == "Corso 2" && json["city"] == "Milan")
        #expect((order.address as RelAddress).street == "Corso 2")
    }

    @Test func groupOutputWithOnlyDeclaredKeepsTheGroupsKeys() throws {
        let order = try RelOrder(json: #"{"number": "A1", "city": "Rome", "junk": 1}"#)
        #expect(order.jsonModel.json(options: .onlyDeclared) == ["number": "A1", "city": "Rome"])
    }

    /// Output options reach a group's properties as they reach the model's own: they are at
    /// the model's level.
    @Test func outputOptionsReachTheGroupsProperties() throws {
        let person = try RelPerson(json: #"{"name": "A", "note": "n", "geo": {"lat": 1, "junk": 2}, "x": 0}"#)
        #expect(person.jsonModel.json(options: .onlyDeclared) == ["name": "A", "note": "n", "geo": ["lat": 1]])
        #expect(person.jsonModel.json(options: .omitNonSerialized) == ["name": "A", "geo": ["lat": 1, "junk": 2], "x": 0])
        #expect(person.jsonModel.json(options: .includeNulls)["street"] == .null)
        #expect(person.jsonModel.json(options: [.onlyDeclared, .omitNonSerialized, .includeNulls])
            == ["name": "A", "street": .null, "geo": ["lat": 1]])
    }

    @Test func aGroupMustBeAModel() {
        final class Bad: JSONModel, DynamicMembers, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) { p.x(Int.self, group: true) }
        }
        #expect(throws: ModelDeclarationError.self) { try Bad.validateDeclarations() }
    }
}
