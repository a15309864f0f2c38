#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKit

/// Who can see a repository.
public enum Visibility: String, Sendable {
    case `public`, `private`, `internal`
}

/// What a repository is taken to be when its JSON does not say. (A keyword after a dot, just
/// before a model's declaration: the generator reads it as a name, not as the model's access.)
public let assumedVisibility: Visibility = .private

/// The repository an event happened in: `owner/name`.
public final class Repo: JSONModel, @unchecked Sendable {
    public override class func properties(_ p: PropertyRegistrar) {
        p.id(Int64.self, readOnly: true)
        p.name(String.self)
        p.url(URL?.self)
        p.visibility(Visibility?.self)
    }
}
