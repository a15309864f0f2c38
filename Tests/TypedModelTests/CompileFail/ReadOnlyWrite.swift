import JSONModelKit

func renumbered(_ user: User) -> User {
    user.mutate { user in
        user.id = 2
    }
}
