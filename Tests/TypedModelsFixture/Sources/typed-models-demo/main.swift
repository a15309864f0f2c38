// Reads a page of GitHub events through the members JSONModelAccessors generates for
// GitHubModels: no read needs a type annotation, and a misspelled name or a wrong type is
// a compile error. Prints a line or two per event, closes the issue in a copy, and exits 1
// if what it read is not what the page holds.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("typed-models-demo needs the C library: no Glibc or Darwin module here")
#endif
import GitHubModels

let events = try Event.array(from: Data(eventsPage.utf8))
print("\(events.count) events of \(events[0].actor.displayLogin ?? events[0].actor.login)")

for event in events {
    let place = event.repo.name.uppercased() + (event.repo.visibility == .private ? " (private)" : "")
    let time = event.createdAt.formatted(.iso8601)
    switch event {
    case let push as PushEvent:
        let commits = push.commits.count == 1 ? "1 commit" : "\(push.commits.count) commits"
        print("\(time) pushed \(commits) to \(place) \(push.ref.split(separator: "/").last ?? "")")
        for commit in push.commits {
            let subject = commit.message.split(separator: "\n").first ?? ""
            print("    \(commit.sha.prefix(7)) \(subject) (\(commit.authorName ?? "no author"))")
        }
    case let watch as WatchEvent:
        print("\(time) \(watch.action) watching \(place)")
    case let opened as IssuesEvent:
        let issue = opened.issue
        print("\(time) \(opened.action.rawValue) issue #\(issue.number) in \(place): \(issue.title)")
        for label in issue.labels {
            print("    label \(label.name) #\(label.color)" + (label.description.map { ": \($0)" } ?? ""))
        }
    default:
        print("\(time) \(event.kind.rawValue) in \(place)")
    }
    if let organization = event.org?.login {
        print("    in the organization \(organization)")
    }
}

// A write: models read from JSON are immutable; `mutate` changes a mutable copy.
let opened = events.compactMap { $0 as? IssuesEvent }[0]
let closed = opened.issue.jsonModel.mutate { issue in
    issue.state = .closed
    issue.closedAt = opened.createdAt.addingTimeInterval(3600)
    issue.comments += 1
}
print("issue #\(closed.number) closed in a copy: \(closed.state.rawValue), \(closed.comments) comment; "
    + "the page still says \(opened.issue.state.rawValue)")

let pushes = events.compactMap { $0 as? PushEvent }
let expected = pushes.map(\.commits.count) == [2, 1] && pushes[0].size == 2
    && events.map(\.kind) == [.push, .watch, .issues, .fork, .push]
    && opened.issue.labels.map(\.name) == ["bug", "charts"] && opened.issue.labels[1].description == nil
    && events.filter { $0.org?.login == "quay-labs" }.count == 3
    && closed.state == .closed && closed.jsonModel.json()["comments"] == 1 && opened.issue.state == .open
guard expected else {
    print("typed-models-demo: the page did not read as expected")
    exit(1)
}
