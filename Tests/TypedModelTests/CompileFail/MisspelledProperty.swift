import JSONModelKit

func greeting(for user: User) -> String {
    let n = user.logn
    return "Hello, \(n)"
}
