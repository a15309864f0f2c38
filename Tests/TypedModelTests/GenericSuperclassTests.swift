import Foundation
import JSONModelKit
import Testing

/// A page of results, generic over the model of its items, with a member type its subclasses'
/// properties name.
class ResultPage<Item: JSONModel>: JSONModel, @unchecked Sendable {
    final class Cursor: JSONModel, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.next(String?.self)
        }
    }

    override class func properties(_ p: PropertyRegistrar) {
        p.total(Int.self)
        p.cursor(Cursor?.self)
    }
}

final class Contributor: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.login(String.self)
    }
}

final class ContributorPage: ResultPage<Contributor>, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.previous(Cursor?.self)
        p.contributors([Contributor].self, default: [])
    }
}

@Suite("Subclasses of a generic model")
struct GenericSuperclassTests {
    /// The generated members of the subclass name the superclass's member type through the
    /// subclass, and read what the JSON holds.
    @Test func readsItsOwnAndInheritedPropertiesThroughTypedMembers() throws {
        let page = try ContributorPage(
            json: #"{"total": 2, "cursor": {"next": "c2"}, "previous": {"next": "c0"}, "contributors": [{"login": "ann"}, {"login": "bo"}]}"#)
        #expect(page.total == 2)
        #expect(page.cursor?.next == "c2")
        #expect(page.previous?.next == "c0")
        #expect(page.contributors.map(\.login) == ["ann", "bo"])
        let edited = page.jsonModel.mutate { $0.previous = nil }
        #expect(edited.previous == nil)
        #expect(edited.total == 2)
    }
}
