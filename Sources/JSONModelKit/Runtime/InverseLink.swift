// The back-references of relationships (`inverse:`), as the engine keeps them: a model's state
// holds its parents by name, and creating a child records its parent. Reading them is the
// model's API (Model/JSONModel+Relationships.swift).

/// A weak reference to a model, for back-references.
struct WeakModel: Sendable {
    weak var model: JSONModel?
}

/// The parent a relationship child refers back to, and under which name.
final class InverseLink: Sendable {
    let name: String
    weak let parent: JSONModel?

    init(name: String, parent: JSONModel) {
        self.name = name
        self.parent = parent
    }
}

extension JSONModel {
    /// Records a back-reference; the latest parent under a name wins.
    func setInverse(_ link: InverseLink) {
        guard let parent = link.parent else { return }
        state.withLock { $0.inverses[link.name] = WeakModel(model: parent) }
    }
}
