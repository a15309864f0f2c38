#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKit

/// A commit of a push.
public final class Commit: JSONModel, @unchecked Sendable {
    public override class func properties(_ p: PropertyRegistrar) {
        p.sha(String.self)
        p.message(String.self)
        p.authorName(String?.self, jsonPath: "author.name")
        p.authorEmail(String?.self, jsonPath: "author.email")
        p.isDistinct(Bool.self, jsonPath: "distinct", default: true)
        p.url(URL?.self)
    }
}
