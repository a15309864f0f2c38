import Foundation
import JSONModelKit

// Models of a GitHub events page, declared once in registration blocks; the JSONModelAccessors
// plugin applied to this target generates their typed members.

class Event: JSONModel, @unchecked Sendable {
    enum Kind: String, Sendable {
        case push = "PushEvent", watch = "WatchEvent", issues = "IssuesEvent", other
    }

    override class func properties(_ p: PropertyRegistrar) {
        p.id(String.self)
        p.kind(Kind.self, jsonPath: "type", default: .other)
        p.actor(Actor.self)
        p.repo(Repo.self)
        p.isPublic(Bool.self, jsonPath: "public")
        p.createdAt(
            Date?.self,  // ISO 8601; "(" in a comment, ")" in a string
            jsonPath: "created_at")
        p.org(Actor?.self)
    }

    override class func modelClass(for json: JSONView) -> JSONModel.Type {
        switch json["type"]?.stringValue {
        case "PushEvent": PushEvent.self
        default: self
        }
    }
}

final class PushEvent: Event, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        super.properties(p)
        p.commits([Commit].self, jsonPath: "payload.commits")
        p.lazyCommits(ModelArray<Commit>.self, jsonPath: "payload.commits", readOnly: true)
        p.ref(String?.self, jsonPath: "payload.ref")
        p.size(Int.self, jsonPath: "payload.size", readOnly: true)
    }
}

final class Actor: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
        p.login(String.self)
        p.avatarURL(URL?.self, jsonPath: "avatar_url")
    }
}

final class Repo: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int64.self)
        p.name(String.self)
        p.topics([String].self, default: [])
        p.labels([String: Int]?.self)
        p.maintainers([String: Actor].self)
    }
}

final class Commit: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.sha(String.self)
        p.message(String.self)
        p.add("distinct", Bool.self)
        p.add("author-name", String?.self, jsonPath: "author.name")
    }
}
