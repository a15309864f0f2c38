import JSONModelKit

// Reads and writes through the typed members, without a type annotation: builds.

func summary(of user: User) -> String {
    let login = user.login
    var text = "#\(user.id) \(login) (\(user.login.count) letters), \(user.age + 1) next year"
    if let letters = user.bio?.count { text += ", a bio of \(letters) letters" }
    if let manager = user.manager?.login.uppercased() { text += ", reports to \(manager)" }
    for tag in user.tags { text += " #" + tag.lowercased() }
    return text
}

func birthday(of user: User) -> User {
    user.jsonModel.mutate { user in
        user.age += 1
        user.tags.append("older")
        user.bio = nil
    }
}
