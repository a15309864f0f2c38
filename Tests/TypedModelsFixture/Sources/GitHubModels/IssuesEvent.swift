import JSONModelKit

/// Something happened to an issue: opened, closed, labeled…
public final class IssuesEvent: Event, @unchecked Sendable {
    /// What happened; actions this package does not know read as `.unknown`.
    public enum Action: String, Sendable, JSONUnknownCase {
        case opened, edited, closed, reopened, assigned, unassigned, labeled, unlabeled
        case unknown
    }

    public override class func properties(_ p: PropertyRegistrar) {
        p.action(Action.self, jsonPath: "payload.action")
        p.issue(Issue.self, jsonPath: "payload.issue")
    }
}
