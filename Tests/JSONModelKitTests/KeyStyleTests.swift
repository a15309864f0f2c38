import Foundation
import Testing
@testable import JSONModelInference
@testable import JSONModelKit

// MARK: - Fixture models

final class SnakeUser: JSONModel, DynamicMembers, @unchecked Sendable {
    override class var keyStyle: KeyStyle { .snakeCase }
    override class func properties(_ p: PropertyRegistrar) {
        p.avatarURL(String?.self)
        p.userID(Int.self)
        p.login(String.self, jsonPath: "LOGIN")
        p.nickname(String?.self, anyOf: ["nick", "nickName"])
    }
}

/// Inherits snake_case.
final class SnakeAdmin: SnakeUserBase, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.adminLevel(Int.self)
    }
}

class SnakeUserBase: JSONModel, @unchecked Sendable {
    override class var keyStyle: KeyStyle { .snakeCase }
    override class func properties(_ p: PropertyRegistrar) {
        p.firstName(String.self)
    }
}

/// Overrides the style; the inherited property keeps the style of the class that declared it.
final class KebabAdmin: SnakeUserBase, DynamicMembers, @unchecked Sendable {
    override class var keyStyle: KeyStyle { .kebabCase }
    override class func properties(_ p: PropertyRegistrar) {
        super.properties(p)
        p.lastName(String.self)
    }
}

final class ScreamingConfig: JSONModel, DynamicMembers, @unchecked Sendable {
    override class var keyStyle: KeyStyle { .screamingSnakeCase }
    override class func properties(_ p: PropertyRegistrar) {
        p.maxRetries(Int.self)
        p.homeURL(String.self)
    }
}

@Suite("Key styles")
struct KeyStyleTests {
    static let names = ["avatarURL", "userID", "html5Video", "URLString", "id", "firstName", "mp3File", "userIDs"]

    @Test(arguments: [
        (KeyStyle.snakeCase, ["avatar_url", "user_id", "html5_video", "url_string", "id", "first_name", "mp3_file", "user_ids"]),
        (.kebabCase, ["avatar-url", "user-id", "html5-video", "url-string", "id", "first-name", "mp3-file", "user-ids"]),
        (.pascalCase, ["AvatarURL", "UserID", "Html5Video", "URLString", "Id", "FirstName", "Mp3File", "UserIDs"]),
        (.screamingSnakeCase, ["AVATAR_URL", "USER_ID", "HTML5_VIDEO", "URL_STRING", "ID", "FIRST_NAME", "MP3_FILE", "USER_IDS"]),
        (.camelCase, names),
    ])
    func conversion(style: KeyStyle, keys: [String]) {
        #expect(Self.names.map(style.key(for:)) == keys)
    }

    @Test func wordSplitting() {
        #expect(KeyStyle.words(of: "avatarURL") == ["avatar", "URL"])
        #expect(KeyStyle.words(of: "URLString") == ["URL", "String"])
        #expect(KeyStyle.words(of: "html5Video") == ["html5", "Video"])
        #expect(KeyStyle.words(of: "MP3File") == ["MP3", "File"])
        #expect(KeyStyle.words(of: "version2beta") == ["version2beta"])
        #expect(KeyStyle.words(of: "userIDs") == ["user", "IDs"])
        #expect(KeyStyle.words(of: "IDsList") == ["IDs", "List"])
        #expect(KeyStyle.words(of: "HTTPServer") == ["HTTP", "Server"])
        #expect(KeyStyle.words(of: "already_snake-and-kebab") == ["already", "snake", "and", "kebab"])
        #expect(KeyStyle.words(of: "_2faEnabled") == ["2fa", "Enabled"])
        #expect(KeyStyle.words(of: "") == [])
        #expect(KeyStyle.words(of: "X") == ["X"])
        #expect(KeyStyle.snakeCase.key(for: "_2faEnabled") == "2fa_enabled")
    }

    @Test func schemaNamesAreTheRawValues() {
        #expect(KeyStyle.allCases.map(\.rawValue) == ["camelCase", "snake_case", "kebab-case", "PascalCase", "SCREAMING_SNAKE_CASE"])
        #expect(KeyStyle.allCases.map(\.caseName) == ["camelCase", "snakeCase", "kebabCase", "pascalCase", "screamingSnakeCase"])
    }

    @Test func registrationStyleAppliesToPropertiesWithoutPaths() throws {
        let user = try SnakeUser(json: #"{"avatar_url": "a.png", "user_id": 5, "LOGIN": "ada", "nickName": "A"}"#)
        #expect(user.avatarURL == "a.png")
        #expect(user.userID == 5)
        #expect(user.login == "ada")
        #expect(user.nickname == "A")
        #expect(user.jsonModel.diagnostics.isEmpty)
        #expect(SnakeUser.modelMetadata.properties.map(\.paths) == [["avatar_url"], ["user_id"], ["LOGIN"], ["nick", "nickName"]])
    }

    @Test func writesGoToTheStyledKey() throws {
        let user = try SnakeUser(json: "{}", options: .mutable)
        user.userID = 7
        #expect(user.jsonModel.json() == ["user_id": 7])
    }

    @Test func subclassesInheritOrOverrideTheStyle() throws {
        #expect(SnakeAdmin.modelMetadata.properties.map(\.paths) == [["first_name"], ["admin_level"]])
        #expect(KebabAdmin.modelMetadata.problems.isEmpty)
        #expect(KebabAdmin.modelMetadata.properties.map(\.paths) == [["first_name"], ["last-name"]])
        let admin = try KebabAdmin(json: #"{"first_name": "Ada", "last-name": "Lovelace"}"#)
        #expect(admin.firstName == "Ada")
        #expect(admin.lastName == "Lovelace")
    }

    @Test func screamingSnakeCase() throws {
        let config = try ScreamingConfig(json: #"{"MAX_RETRIES": 3, "HOME_URL": "/"}"#)
        #expect(config.maxRetries == 3)
        #expect(config.homeURL == "/")
    }

    @Test func camelCaseIsTheDefault() {
        #expect(ModelRegistry.shared.defaultKeyStyle == .camelCase)
        #expect(JSONModel.keyStyle == .camelCase)
        #expect(TestUser.modelMetadata.property(named: "active")?.paths == ["active"])
    }

    // MARK: Schemas

    @Test func schemaKeyStyleIsInheritedThroughExtends() throws {
        let schema = try ModelSchema(json: """
            {"models": [
              {"name": "Base", "keyStyle": "snake_case", "properties": [{"name": "firstName", "type": "String"}]},
              {"name": "Child", "extends": "Base", "properties": [
                {"name": "avatarURL", "type": "String?"}, {"name": "login", "type": "String", "jsonPath": "LOGIN"}]},
              {"name": "Kebab", "extends": "Base", "keyStyle": "kebab-case", "properties": [{"name": "lastName", "type": "String"}]}
            ]}
            """)
        #expect(schema.models.map(\.keyStyle) == [.snakeCase, nil, .kebabCase])
        let registry = ModelRegistry()
        try registry.register(schema)
        #expect(registry.schemaMetadata(named: "Child")?.properties.map(\.paths) == [["first_name"], ["avatar_url"], ["LOGIN"]])
        #expect(registry.schemaMetadata(named: "Kebab")?.properties.map(\.paths) == [["first_name"], ["last-name"]])
        let child = try registry.makeModel(named: "Child", json: Data(#"{"first_name": "Ada", "avatar_url": "a.png"}"#.utf8))
        #expect(child.jsonModel.value(forProperty: "firstName") as? String == "Ada")
        #expect(child.jsonModel.value(forProperty: "avatarURL") as? String == "a.png")
    }

    @Test func registryDefaultAppliesToSchemaModelsWithoutAStyle() throws {
        let registry = ModelRegistry()
        registry.defaultKeyStyle = .pascalCase
        registry.defaultKeyStyle = .pascalCase  // the same style again is allowed
        try registry.register(ModelSchema(json: """
            {"models": [
              {"name": "Plain", "properties": [{"name": "userID", "type": "Int"}]},
              {"name": "Camel", "keyStyle": "camelCase", "properties": [{"name": "userID", "type": "Int"}]}
            ]}
            """))
        #expect(registry.schemaMetadata(named: "Plain")?.properties.first?.paths == ["UserID"])
        #expect(registry.schemaMetadata(named: "Camel")?.properties.first?.paths == ["userID"])
        #expect(registry.defaultKeyStyle == .pascalCase)
    }

    @Test func schemaRefusesUnknownStyles() {
        let message = #""keyStyle" must be one of "camelCase", "snake_case", "kebab-case", "PascalCase", "SCREAMING_SNAKE_CASE""#
        for value in [#""snake""#, "1", #""SnakeCase""#] {
            #expect(throws: ModelSchemaError(message, model: "M")) {
                try ModelSchema(json: #"{"models": [{"name": "M", "keyStyle": \#(value), "properties": []}]}"#)
            }
        }
    }

    // MARK: Inference

    @Test func inferenceStatesAStyleThatExplainsEveryKey() throws {
        let snake = try ModelInference.infer(
            from: Data(#"{"order_id": 1, "avatar_url": "x", "status": "paid"}"#.utf8), rootName: "Order")
        #expect(snake.models[0].keyStyle == .snakeCase)
        #expect(snake.swiftSource.contains("override class var keyStyle: KeyStyle { .snakeCase }\n"))
        #expect(!snake.swiftSource.contains("jsonPath"))
        #expect(snake.schemaText.contains(#"{"name": "Order", "keyStyle": "snake_case", "properties": ["#))
        #expect(!snake.schemaText.contains("jsonPath"))
        #expect(snake.schema.models[0].keyStyle == .snakeCase)
        #expect(snake.schema.models[0].properties.allSatisfy { $0.paths.isEmpty })

        let kebab = try ModelInference.infer(from: Data(#"{"first-name": "a", "id": 1}"#.utf8), rootName: "R")
        #expect(kebab.models[0].keyStyle == .kebabCase)
        let screaming = try ModelInference.infer(from: Data(#"{"MAX_RETRIES": 1, "ID": 1}"#.utf8), rootName: "R")
        #expect(screaming.models[0].keyStyle == .screamingSnakeCase)
        let pascal = try ModelInference.infer(from: Data(#"{"FirstName": "a", "Id": 1}"#.utf8), rootName: "R")
        #expect(pascal.models[0].keyStyle == .pascalCase)
    }

    @Test func inferenceKeepsPathsWhenNoStyleExplainsTheKeys() throws {
        let mixed = try ModelInference.infer(from: Data(#"{"first_name": "a", "last-name": "b"}"#.utf8), rootName: "R")
        #expect(mixed.models[0].keyStyle == nil)
        #expect(mixed.swiftSource.contains(#"jsonPath: "first_name""#))
        #expect(!mixed.swiftSource.contains("keyStyle"))
        let camel = try ModelInference.infer(from: Data(#"{"firstName": "a"}"#.utf8), rootName: "R")
        #expect(camel.models[0].keyStyle == nil)
    }

    @Test func generatedSchemaReadsTheSample() throws {
        let sample = #"{"order_id": 1, "avatar_url": "x", "line_items": [{"unit_price": 2.5}]}"#
        let inferred = try ModelInference.infer(from: Data(sample.utf8), rootName: "Order")
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: inferred.schemaText))
        let order = try registry.makeModel(named: "Order", json: Data(sample.utf8))
        try order.jsonModel.validate()
        #expect(order.jsonModel.value(forProperty: "orderID") as? Int == 1)
        #expect(order.jsonModel.json() == (try JSONDocument(data: Data(sample.utf8)).root.value))
    }
}

/// A model whose property names match what `.convertFromSnakeCase` makes of its keys.
final class ConvertedKeysUser: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.avatarURL(String?.self)
        p.avatarUrl(String?.self)
        p.userId(Int?.self)
    }
}

/// A decoder's key strategy renames keys before a model sees them: the model stores the renamed
/// keys, and its own key style then looks for keys that are no longer there.
@Suite("Decoder key strategies")
struct DecoderKeyStrategyTests {
    let json = Data(#"{"avatar_url": "a.png", "user_id": 7, "LOGIN": "ann", "first_name": "Ann"}"#.utf8)

    @Test func theModelsKeyStyleReadsSnakeCaseThroughAPlainDecoder() throws {
        let user = try JSONDecoder().decode(SnakeUser.self, from: json)
        #expect(user.avatarURL as String? == "a.png")
        #expect(user.userID as Int == 7)
        #expect(user.jsonModel.json()["avatar_url"] == "a.png")  // the JSON as it came
        // And it encodes back with the same keys, through a plain encoder.
        let again = try JSONDecoder().decode(SnakeUser.self, from: JSONEncoder().encode(user))
        #expect(again == user)
    }

    @Test func convertFromSnakeCaseRenamesTheKeysTheModelStores() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let snake = try decoder.decode(SnakeUser.self, from: json)
        #expect(snake.jsonModel.json()["avatarUrl"] == "a.png")
        #expect(snake.jsonModel.json()["avatar_url"] == nil)
        // The style looks for "avatar_url", gone: the optional reads nil, the Int its default.
        #expect(snake.avatarURL as String? == nil)
        #expect(snake.userID as Int == 0)
        #expect(snake.jsonModel.diagnostics.isEmpty)  // nothing to diagnose: the keys are simply missing
        // A camelCase model sees "avatarUrl" and "userId": `avatarURL` still reads nil.
        let camel = try decoder.decode(ConvertedKeysUser.self, from: json)
        #expect(camel.avatarURL as String? == nil)
        #expect(camel.avatarUrl as String? == "a.png")
        #expect(camel.userId as Int? == 7)
    }

    @Test func convertToSnakeCaseRenamesKeysThatAreNotSnakeCase() throws {
        let user = try SnakeUser(json: json)
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let back = try JSONDecoder().decode(SnakeUser.self, from: encoder.encode(user))
        #expect(back.avatarURL as String? == "a.png")
        #expect(back.userID as Int == 7)
        // The declared key "LOGIN" is renamed on the way out, so the copy no longer finds it.
        let keys = try #require(back.jsonModel.json().objectValue?.keys)
        #expect(!keys.contains("LOGIN"))
        #expect(back.login as String == "")
    }
}
