#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKit

/// The repository an event happened in: `owner/name`.
public final class Repo: JSONModel, @unchecked Sendable {
    public override class func properties(_ p: PropertyRegistrar) {
        p.id(Int64.self, readOnly: true)
        p.name(String.self)
        p.url(URL?.self)
    }
}
