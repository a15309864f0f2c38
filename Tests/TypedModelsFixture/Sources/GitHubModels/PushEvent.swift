import JSONModelKit

/// Commits pushed to a branch or tag.
public final class PushEvent: Event, @unchecked Sendable {
    public override class func properties(_ p: PropertyRegistrar) {
        p.pushID(Int64.self, jsonPath: "payload.push_id")
        p.ref(String.self, jsonPath: "payload.ref")
        p.head(String.self, jsonPath: "payload.head")
        p.before(String.self, jsonPath: "payload.before")
        p.size(Int.self, jsonPath: "payload.size")
        p.distinctSize(Int.self, jsonPath: "payload.distinct_size")
        p.commits([Commit].self, jsonPath: "payload.commits")
    }
}
