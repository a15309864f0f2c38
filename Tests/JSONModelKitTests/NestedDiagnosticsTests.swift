import Foundation
import Testing
@testable import JSONModelKit

final class NestedDiagnosticsLine: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.sku(String.self)
        p.qty(Int.self)
    }
}

final class NestedDiagnosticsCustomer: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
        p.age(Int.self)
        p.best(NestedDiagnosticsLine?.self, jsonPath: "favourite.line")
    }
}

final class NestedDiagnosticsOrder: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.number(Int.self)
        p.customer(NestedDiagnosticsCustomer.self)
        p.lines([NestedDiagnosticsLine].self)
        p.byCode([String: NestedDiagnosticsLine].self)
    }
}

/// A parent's diagnostics include those of the nested models it has built, with their paths.
@Suite("Nested diagnostics")
struct NestedDiagnosticsTests {
    static let json = #"""
        {"number": "7x", "customer": {"name": "Ann", "age": "old", "favourite": {"line": {"sku": "b", "qty": true}}},
         "lines": [{"sku": "a", "qty": 2.5}, {"sku": "b", "qty": "many"}],
         "byCode": {"k": {"sku": "c", "qty": []}}}
        """#

    @Test(arguments: [false, true])
    func parentShowsChildrenProblemsWithTheirPaths(mutable: Bool) throws {
        let order = try NestedDiagnosticsOrder(json: Self.json, options: ModelOptions(mutable: mutable))
        _ = order.number as Int
        let lines: ModelArray<NestedDiagnosticsLine> = order.lines
        _ = lines[0].qty as Int
        let customer: NestedDiagnosticsCustomer = order.customer
        _ = customer.age as Int
        let best: NestedDiagnosticsLine? = customer.best
        _ = best?.qty as Int?
        let byCode: ModelDictionary<NestedDiagnosticsLine> = order.byCode
        _ = byCode["k"]?.qty as Int?

        // The child keeps its own, with its own paths.
        #expect(lines[0].jsonModel.diagnostics.map(\.path.description) == ["qty"])
        // The parent: its own first, then its children's, in declaration order, with full paths.
        #expect(order.jsonModel.diagnostics.map(\.path.description) == [
            "number", "customer.age", "customer.favourite.line.qty", "lines[0].qty", "byCode.k.qty",
        ])
        #expect(order.jsonModel.diagnostics[3].model == "NestedDiagnosticsLine")
        #expect(order.jsonModel.diagnostics[3].kind == .lossy)
        // The second line was never read: its problem is for validate() to find.
        #expect(!order.jsonModel.diagnostics.contains { $0.path.description == "lines[1].qty" })

        let full = order.jsonModel.fullDescription
        #expect(full.contains("\n  lines[0].qty: 2.5 rounded to 3 to fit Int (NestedDiagnosticsLine.qty, lossy)"))
        #expect(full.contains("\n  customer.age: expected Int"))
    }

    @Test func gatheringBuildsNothing() throws {
        let order = try NestedDiagnosticsOrder(json: Self.json)
        let lines: ModelArray<NestedDiagnosticsLine> = order.lines
        #expect(order.jsonModel.diagnostics.isEmpty)
        #expect(!lines.isElementBuilt(at: 0))
        #expect(order.cachedPropertyCount == 1)
    }

    @Test func validateStillListsEachProblemOnce() throws {
        let order = try NestedDiagnosticsOrder(json: Self.json)
        let lines: ModelArray<NestedDiagnosticsLine> = order.lines
        _ = lines[0].qty as Int
        do {
            try order.jsonModel.validate()
            Issue.record("validation passed")
        } catch {
            let paths = error.diagnostics.map(\.path.description)
            #expect(paths.filter { $0 == "lines[0].qty" }.count == 1)
            #expect(paths.contains("lines[1].qty"))
        }
    }
}
