import JSONModelKit

// Reads a subclass of a generic model through the typed members, its own and inherited: builds.

func summary(of page: RepositoryPage) -> String {
    let names = page.repositories.map { $0.name.uppercased() }
    let complete = page.status?.complete == true || page.previous?.complete == true
    return "\(page.total + 0) repositories: \(names.joined(separator: ", "))\(complete ? "" : ", more to come")"
}
