import JSONModelKit

func renumbered(_ user: User) -> User {
    user.jsonModel.mutate { user in
        user.id = 2
    }
}
