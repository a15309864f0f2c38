#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
#if (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS) ||
    os(Linux) || os(Android) || os(Windows) || os(FreeBSD) || os(OpenBSD) || os(WASI))
import Dispatch
#endif
import JSONModelKit

// Models the generator once wrote members for that did not build, or wrote none for.

enum Visibility: Sendable { case `public`, `private` }
let defaultVisibility: Visibility = .private
import Dispatch

func load(import path: String) -> String { path }

/// Foundation is imported internally, in an `#if`: the member of a public model is internal.
public final class Stamp: JSONModel, @unchecked Sendable {
    override public class func properties(_ p: PropertyRegistrar) {
        p.at(Date?.self)
        p.count(Int.self)
    }
}

public enum Source: String, Sendable {
    case registry
    case package
    case open, closed
    final class Manifest: JSONModel, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
    }
}

final class Leaf: JSONModel, @unchecked Sendable {
    enum Kind: String, Sendable, Codable { case bud, flower }
    override class func properties(_ p: PropertyRegistrar) {
        p.kind(Self.Kind?.self)
        p.next(Self?.self)
        p.children([Self].self)
    }
}

class Tree: JSONModel, @unchecked Sendable {
    enum Kind: String, Sendable, Codable { case oak, ash }
    override class func properties(_ p: PropertyRegistrar) {
        p.kind(Self.Kind?.self)
        p.parent(Self?.self)
    }
}

final class Event: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        enum Kind: String, Sendable, Codable { case a, b }
        typealias Tags = [String: [String]]
        p.kind(Kind?.self)
        p.tags(Tags.self)
        p.title(String.self)
    }
}

final class Post: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.title(String.self)
        properties(audit: p)
    }

    static func properties(audit p: PropertyRegistrar) { p.createdBy(String?.self) }
}

class Titled: JSONModel, @unchecked Sendable {
    var heading: String { "untitled" }
}

final class Article: Titled, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.heading(String.self)
        p.body(String.self)
        p.min(Int.self)
        p.max(Int.self)
    }

    func clamp(_ value: Int) -> Int { Swift.max(0, value) + max(1, 2) }
    func min() -> Int { 0 }
}

public final class Host: JSONModel, @unchecked Sendable {
    @_spi(Beta) public struct Token: Sendable, Codable { public let value: String }
    override public class func properties(_ p: PropertyRegistrar) {
        p.token(Token?.self)
        p.name(String.self)
    }
}

@available(swift, introduced: 99)
final class Future: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) { p.title(String.self) }
}

@available(*, deprecated, message: "read Post")
final class Legacy: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) { p.title(String.self) }
}

protocol Flexible: DynamicMembers {}

class Settings: JSONModel, Flexible, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) { p.id(Int.self) }
}

final class UserSettings: Settings, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.theme(String.self)
        for key in ["a", "b"] { p.add(key, Int?.self) }
    }
}

class Counter: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.total(Int.self)
        for key in ["a", "b"] { p.add(key, Int?.self) }
    }
}

final class FlexibleCounter: Counter, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) { p.label(String.self) }
}

enum Catalog {
    struct Item: Sendable, Codable { let sku: String }
    class Base: JSONModel, @unchecked Sendable {}
}

typealias Shop = Catalog

extension Shop {
    final class Cart: JSONModel, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) { p.item(Item?.self) }
    }

    final class Order: Base, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) { p.number(Int.self) }
    }

    final class Page<Item: JSONModel>: JSONModel, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) { p.items([Item].self) }
    }
}

#if canImport(Dispatch)
final class Job: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) { p.queue(String.self) }
}
#endif
