import JSONModelKit

func biography(of user: User) -> String {
    let bio: String = user.bio
    return bio
}
