/// How a model's property names turn into JSON keys, for properties without a `jsonPath` or
/// `anyOf`.
///
/// ```swift
/// final class User: JSONModel, @unchecked Sendable {
///     override class var keyStyle: KeyStyle { .snakeCase }
///     override class func properties(_ p: PropertyRegistrar) {
///         p.avatarURL(URL?.self)    // reads "avatar_url"
///         p.userID(Int.self)        // reads "user_id"
///     }
/// }
/// ```
///
/// Every style but ``camelCase`` splits the name into words first. The rule: a new word starts
/// at an uppercase letter that follows a lowercase letter or a digit (`user|ID`, `html5|Video`),
/// and at the last uppercase letter of a run of two or more when a lowercase letter follows it
/// (`URL|String`), unless that letter is a lone `s`, a plural (`user|IDs`); digits belong to the
/// word before them (`html5`, `MP3`); `_` and `-` separate words and are dropped. Then:
///
/// | name | `snake_case` | `kebab-case` | `PascalCase` | `SCREAMING_SNAKE_CASE` |
/// | --- | --- | --- | --- | --- |
/// | `avatarURL` | `avatar_url` | `avatar-url` | `AvatarURL` | `AVATAR_URL` |
/// | `userID` | `user_id` | `user-id` | `UserID` | `USER_ID` |
/// | `html5Video` | `html5_video` | `html5-video` | `Html5Video` | `HTML5_VIDEO` |
/// | `URLString` | `url_string` | `url-string` | `URLString` | `URL_STRING` |
/// | `userIDs` | `user_ids` | `user-ids` | `UserIDs` | `USER_IDS` |
///
/// ``pascalCase`` uppercases the first letter of each word and keeps the rest as written, so an
/// acronym stays an acronym.
///
/// The raw value is the name a schema uses (`"snake_case"`).
public enum KeyStyle: String, Sendable, Hashable, CaseIterable {
    /// The property name as it is (`avatarURL`); the default.
    case camelCase = "camelCase"
    /// Lowercase words joined by `_` (`avatar_url`).
    case snakeCase = "snake_case"
    /// Lowercase words joined by `-` (`avatar-url`).
    case kebabCase = "kebab-case"
    /// Each word with its first letter uppercased, joined (`AvatarURL`).
    case pascalCase = "PascalCase"
    /// Uppercase words joined by `_` (`AVATAR_URL`).
    case screamingSnakeCase = "SCREAMING_SNAKE_CASE"

    /// The JSON key of the property `name` in this style.
    ///
    /// - Complexity: O(*n*) in the length of the name.
    package func key(for name: String) -> String {
        switch self {
        case .camelCase:
            return name
        case .snakeCase:
            return Self.words(of: name).map { $0.lowercased() }.joined(separator: "_")
        case .kebabCase:
            return Self.words(of: name).map { $0.lowercased() }.joined(separator: "-")
        case .screamingSnakeCase:
            return Self.words(of: name).map { $0.uppercased() }.joined(separator: "_")
        case .pascalCase:
            return Self.words(of: name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        }
    }

    /// The words of a name, by the rule in the type's discussion.
    static func words(of name: String) -> [String] {
        let characters = Array(name)
        var words: [String] = []
        var current = ""
        for (index, character) in characters.enumerated() {
            if character == "_" || character == "-" {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            if character.isUppercase, let previous = current.last {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                // A lone `s` after a run of capitals is a plural (`IDs`), not a word's start.
                let afterNext = index + 2 < characters.count ? characters[index + 2] : nil
                let plural = next == "s" && afterNext?.isLowercase != true
                let startsWord =
                    previous.isLowercase || previous.isNumber
                    || (previous.isUppercase && next?.isLowercase == true && !plural)
                if startsWord {
                    words.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
