#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKit

/// The account behind an event, or the organization it happened in.
public final class Actor: JSONModel, @unchecked Sendable {
    public override class func properties(_ p: PropertyRegistrar) {
        p.id(Int64.self, readOnly: true)
        p.login(String.self)
        p.displayLogin(String?.self, jsonPath: "display_login")
        p.url(URL?.self)
        p.avatarURL(URL?.self, jsonPath: "avatar_url")
    }
}
