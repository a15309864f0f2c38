#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKit

/// An issue, as an `IssuesEvent` carries it.
public final class Issue: JSONModel, @unchecked Sendable {
    public enum State: String, Sendable {
        case open, closed
    }

    public override class func properties(_ p: PropertyRegistrar) {
        p.id(Int64.self, readOnly: true)
        p.number(Int.self)
        p.title(String.self)
        p.body(String?.self)
        p.user(Actor.self)
        p.state(State.self, default: .open)
        p.isLocked(Bool.self, jsonPath: "locked")
        p.labels([Label].self, default: [])
        p.comments(Int.self)
        p.createdAt(Date?.self, jsonPath: "created_at")
        p.closedAt(Date?.self, jsonPath: "closed_at")
        p.htmlURL(URL?.self, jsonPath: "html_url")
    }
}
