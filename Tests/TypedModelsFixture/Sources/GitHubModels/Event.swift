#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKit

/// An event of a GitHub events page (`GET /events`, `GET /users/{user}/events`).
///
/// Reading a page makes the subclass each event's `type` names: `PushEvent`, `WatchEvent`,
/// `IssuesEvent`; any other type is an `Event` of kind `.unknown`.
public class Event: JSONModel, @unchecked Sendable {
    /// The `type` of an event; the types this package has no subclass for read as `.unknown`.
    public enum Kind: String, Sendable, JSONUnknownCase {
        case push = "PushEvent"
        case watch = "WatchEvent"
        case issues = "IssuesEvent"
        case fork = "ForkEvent"
        case unknown
    }

    public override class func properties(_ p: PropertyRegistrar) {
        p.id(String.self, readOnly: true)
        p.kind(Kind.self, jsonPath: "type")
        p.actor(Actor.self)
        p.repo(Repo.self)
        p.org(Actor?.self)
        p.isPublic(Bool.self, jsonPath: "public", default: true)
        p.createdAt(Date.self, jsonPath: "created_at", default: .distantPast)
    }

    public override class func modelClass(for json: JSONView) -> JSONModel.Type {
        switch json["type"]?.stringValue {
        case "PushEvent": PushEvent.self
        case "WatchEvent": WatchEvent.self
        case "IssuesEvent": IssuesEvent.self
        default: self
        }
    }
}
