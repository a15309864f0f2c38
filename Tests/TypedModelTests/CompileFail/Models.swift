import JSONModelKit

// The model the client files of this folder are typechecked against, together with the
// members AccessorGenerator writes for it (CompileFailTests).

final class User: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self, readOnly: true)
        p.login(String.self)
        p.age(Int.self)
        p.bio(String?.self)
        p.tags([String].self, default: [])
        p.manager(User?.self)
    }
}
