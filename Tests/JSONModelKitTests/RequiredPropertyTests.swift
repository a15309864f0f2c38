import Foundation
import Testing
@testable import JSONModelKit

// MARK: - Fixture models

final class RequiredLogin: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.login(String.self, jsonPath: "user_login", required: true)
        p.name(String.self)
        p.nickname(String?.self)
    }
}

final class StrictAccount: JSONModel, DynamicMembers, @unchecked Sendable {
    override class var requiresNonOptionals: Bool { true }
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
        p.tags([String].self)
        p.owner(RequiredLogin.self)
        p.plan(String.self, default: "free")
        p.note(String?.self)
    }
}

/// Inherits the switch, and makes its superclass's properties and its own required.
final class StrictTeamAccount: StrictAccountBase, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.team(String.self)
    }
}

class StrictAccountBase: JSONModel, @unchecked Sendable {
    override class var requiresNonOptionals: Bool { true }
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
    }
}

/// Turns the switch off again below a class that has it on.
final class LenientAccount: StrictAccountBase, DynamicMembers, @unchecked Sendable {
    override class var requiresNonOptionals: Bool { false }
}

final class RequiredOptional: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.nickname(String?.self, required: true)
    }
}

final class RequiredNested: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String.self, jsonPath: "address.city", required: true)
    }
}

@Suite("Required properties")
struct RequiredPropertyTests {
    @Test func presentValueReadsWithoutDiagnostics() throws {
        let user = try RequiredLogin(json: #"{"user_login": "ada", "name": "Ada"}"#, options: .validating)
        #expect(user.login == "ada")
        #expect(user.jsonModel.diagnostics.isEmpty)
    }

    @Test func nullReadsDefaultAndRecordsMissingRequired() throws {
        let user = try RequiredLogin(json: #"{"user_login": null}"#)
        #expect(user.login == "")
        #expect(user.jsonModel.diagnostics.count == 1)
        let diagnostic = try #require(user.jsonModel.diagnostics.first)
        #expect(diagnostic.kind == .missingRequired)
        #expect(diagnostic.path == "user_login")
        #expect(diagnostic.property == "login")
        #expect(diagnostic.model == "RequiredLogin")
        #expect(diagnostic.message == "a required value is null")
    }

    @Test func missingKeyRecordsMissingRequired() throws {
        let user = try RequiredLogin(json: "{}")
        #expect(user.login == "")
        #expect(user.jsonModel.diagnostics.map(\.message) == ["a required value is missing"])
        // Not required: missing reads quietly.
        #expect(user.name == "")
        #expect(user.nickname == nil)
        #expect(user.jsonModel.diagnostics.count == 1)
    }

    @Test func validatingCreationThrows() throws {
        let null = try #require(throws: JSONModelError.self) {
            try RequiredLogin(json: #"{"user_login": null}"#, options: .validating)
        }
        #expect(null.validationError?.diagnostics.map(\.kind) == [.missingRequired])
        do {
            _ = try RequiredLogin(json: "{}", options: .validating)
            Issue.record("expected a validation error")
        } catch .validationFailed(let error) {
            #expect(error.diagnostics.map(\.kind) == [.missingRequired])
            #expect(error.description.contains("user_login: a required value is missing (RequiredLogin.login, missingRequired)"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func valueOfTheWrongTypeIsATypeMismatchNotMissing() throws {
        let user = try RequiredLogin(json: #"{"user_login": {}}"#)
        _ = user.login as String
        #expect(user.jsonModel.diagnostics.map(\.kind) == [.typeMismatch])
    }

    @Test func pathCutShortRecordsOneDiagnostic() throws {
        let blocked = try RequiredNested(json: #"{"address": 3}"#)
        #expect(blocked.city == "")
        #expect(blocked.jsonModel.diagnostics.map(\.kind) == [.typeMismatch])
        let missing = try RequiredNested(json: #"{"address": {}}"#)
        #expect(missing.city == "")
        #expect(missing.jsonModel.diagnostics.map(\.kind) == [.missingRequired])
        #expect(missing.jsonModel.diagnostics.first?.path == "address.city")
    }

    @Test func outputAndWritesAreUnchanged() throws {
        let user = try RequiredLogin(json: #"{"user_login": null, "x": 1}"#, options: .mutable)
        #expect(user.jsonModel.json() == ["user_login": nil, "x": 1])
        user.login = "grace"
        #expect(user.login == "grace")
        try user.jsonModel.validate()
        #expect(user.jsonModel.json() == ["user_login": "grace", "x": 1])
    }

    @Test func requiresNonOptionalsListsEveryMissingProperty() throws {
        do {
            _ = try StrictAccount(json: #"{"tags": null, "owner": {"user_login": "ada"}}"#, options: .validating)
            Issue.record("expected a validation error")
        } catch .validationFailed(let error) {
            #expect(error.diagnostics.map(\.property) == ["id", "tags"])
            #expect(error.diagnostics.map(\.kind) == [.missingRequired, .missingRequired])
        } catch {
            Issue.record("unexpected error \(error)")
        }
        // The nested model's own required property is reported with its full path.
        do {
            _ = try StrictAccount(json: #"{"id": 1, "tags": [], "owner": {}}"#, options: .validating)
            Issue.record("expected a validation error")
        } catch .validationFailed(let error) {
            #expect(error.diagnostics.map(\.path) == ["owner.user_login"])
        } catch {
            Issue.record("unexpected error \(error)")
        }
        let account = try StrictAccount(json: #"{"id": 1, "tags": [], "owner": {"user_login": "ada"}}"#, options: .validating)
        #expect(account.plan == "free")
        #expect(account.note == nil)
    }

    @Test func missingRequiredModelReadsAnEmptyModel() throws {
        let account = try StrictAccount(json: #"{"id": 1, "tags": []}"#)
        let owner: RequiredLogin = account.owner
        #expect(owner.jsonModel.json() == [:])
        #expect(account.jsonModel.diagnostics.map(\.path) == ["owner"])
    }

    @Test func metadataSaysWhichPropertiesAreRequired() {
        let metadata = StrictAccount.modelMetadata
        #expect(metadata.requiresNonOptionals)
        #expect(metadata.properties.filter(\.isRequired).map(\.name) == ["id", "tags", "owner"])
        #expect(RequiredLogin.modelMetadata.properties.filter(\.isRequired).map(\.name) == ["login"])
        #expect(!RequiredLogin.modelMetadata.requiresNonOptionals)
    }

    @Test func subclassesInheritTheSwitch() throws {
        #expect(StrictTeamAccount.modelMetadata.properties.filter(\.isRequired).map(\.name) == ["id", "team"])
        let team = try StrictTeamAccount(json: "{}")
        #expect(team.team == "")
        try #require(throws: ModelValidationError.self) { try team.jsonModel.validate() }
        #expect(LenientAccount.modelMetadata.properties.filter(\.isRequired).isEmpty)
        try LenientAccount(json: "{}", options: .validating).jsonModel.validate()
    }

    @Test func anOptionalCannotBeRequired() {
        #expect(throws: ModelDeclarationError.self) { try RequiredOptional.validateDeclarations() }
        let problems = RequiredOptional.modelMetadata.problems
        #expect(problems.map(\.description) == [
            "RequiredOptional.nickname: an optional cannot be required: a missing value reads nil; drop required or the '?'"
        ])
    }

    // MARK: Schemas

    @Test func schemaRequiredAndRequireNonOptionals() throws {
        let schema = try ModelSchema(json: """
            {"models": [
              {"name": "Base", "requireNonOptionals": true, "properties": [{"name": "id", "type": "Int"}]},
              {"name": "Child", "extends": "Base", "properties": [
                {"name": "label", "type": "String"}, {"name": "note", "type": "String?"},
                {"name": "size", "type": "Int", "default": 1}]},
              {"name": "Loose", "extends": "Base", "requireNonOptionals": false, "properties": []},
              {"name": "One", "properties": [
                {"name": "login", "type": "String", "required": true}, {"name": "name", "type": "String"}]}
            ]}
            """)
        #expect(schema.models[0].requireNonOptionals == true)
        #expect(schema.models[1].requireNonOptionals == nil)
        #expect(schema.models[3].properties[0].required)
        let registry = ModelRegistry()
        try registry.register(schema)
        #expect(registry.schemaMetadata(named: "Child")?.properties.filter(\.isRequired).map(\.name) == ["id", "label"])
        #expect(registry.schemaMetadata(named: "Loose")?.properties.filter(\.isRequired).isEmpty == true)
        #expect(registry.schemaMetadata(named: "One")?.properties.filter(\.isRequired).map(\.name) == ["login"])

        let child = try registry.makeModel(named: "Child", json: Data(#"{"label": null}"#.utf8))
        do {
            try child.jsonModel.validate()
            Issue.record("expected a validation error")
        } catch {
            #expect(error.diagnostics.map(\.property) == ["id", "label"])
        }
    }

    @Test func schemaRefusesBadRequiredOptions() {
        #expect(throws: ModelSchemaError("\"required\" must be true or false", model: "M", property: "x")) {
            try ModelSchema(json: #"{"models": [{"name": "M", "properties": [{"name": "x", "type": "Int", "required": 1}]}]}"#)
        }
        #expect(throws: ModelSchemaError("\"requireNonOptionals\" must be true or false", model: "M")) {
            try ModelSchema(json: #"{"models": [{"name": "M", "requireNonOptionals": "yes", "properties": []}]}"#)
        }
        let optional = try? ModelSchema(
            json: #"{"models": [{"name": "M", "properties": [{"name": "x", "type": "Int?", "required": true}]}]}"#)
        do {
            try ModelRegistry().register(optional!)
            Issue.record("expected a schema error")
        } catch {
            #expect(String(describing: error).contains("M.x: an optional cannot be required"))
        }
    }
}
