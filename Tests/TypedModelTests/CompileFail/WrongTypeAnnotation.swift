import JSONModelKit

func label(for user: User) -> String {
    let age: String = user.age
    return age
}
