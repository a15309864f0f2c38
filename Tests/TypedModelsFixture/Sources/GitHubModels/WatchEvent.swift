import JSONModelKit

/// Someone starred a repository (the API's name for it is still "watch").
public final class WatchEvent: Event, @unchecked Sendable {
    public override class func properties(_ p: PropertyRegistrar) {
        p.action(String.self, jsonPath: "payload.action", default: "started")
    }
}
