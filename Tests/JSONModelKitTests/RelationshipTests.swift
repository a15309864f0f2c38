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

    @Test func aGroupMustBeAModel() {
        final class Bad: JSONModel, DynamicMembers, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) { p.x(Int.self, group: true) }
        }
        #expect(throws: ModelDeclarationError.self) { try Bad.validateDeclarations() }
    }
}
