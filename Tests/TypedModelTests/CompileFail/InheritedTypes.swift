import JSONModelKit

// Models whose properties name member types of a generic superclass, typechecked with the
// members AccessorGenerator writes for them (CompileFailTests).

class Page<Item: JSONModel>: JSONModel, @unchecked Sendable {
    /// A member type of a generic class: outside the class, `Page.Status` needs `Page`'s arguments.
    final class Status: JSONModel, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) { p.complete(Bool.self) }
    }

    override class func properties(_ p: PropertyRegistrar) {
        p.total(Int.self)
        p.status(Status?.self)
    }
}

final class Repository: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
}

final class RepositoryPage: Page<Repository>, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.previous(Status?.self)
        p.repositories([Repository].self, default: [])
    }
}
