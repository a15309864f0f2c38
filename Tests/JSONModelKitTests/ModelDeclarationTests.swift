import Foundation
import Testing
@testable import JSONModelKit

class Animal: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
        p.legs(Int.self, default: 4)
    }
}

/// Overrides without calling super.
class Dog: Animal, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.breed(String?.self)
    }
}

/// Overrides and calls super.
final class Puppy: Dog, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        super.properties(p)
        p.ageInWeeks(Int.self, jsonPath: "age_weeks")
    }
}

/// Does not override at all.
final class Cat: Animal, @unchecked Sendable {}

/// Declares an inherited name differently.
final class Bird: Animal, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.legs(Int.self, default: 2)
    }
}

struct NotSupported {}

final class Broken: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.a(Int.self)
        p.a(Int.self)
        p.b(String.self, jsonPath: "same")
        p.c(String.self, jsonPath: "same")
        p.d(String.self, jsonPath: "same", readOnly: true)
        p.e(NotSupported.self)
        p.f([Int: String].self)
        p.g(URL.self)
        p.h(URL.self, default: URL(string: "https://x.y"))
    }
}

final class OddNames: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.add("with-dash", Int.self, jsonPath: ["with-dash"])
        p.add("add", Bool.self)
    }
}

/// Declares names of JSONModel's members.
class MemberNames: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.login(String.self)
        p.jsonModel(String.self)
        p.debugDescription(String.self)
        p.customMirror(JSONValue.self, jsonPath: "raw")
        p.hashValue(Int.self)
        p.add("hash", Int.self)
    }
}

/// Inherits the names of JSONModel's members.
final class MoreMemberNames: MemberNames, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.nickname(String?.self)
    }
}

/// Keeps the keys of JSONModel's members under other names.
final class Profile: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.bio(String.self, jsonPath: "description")
        p.checksum(String?.self, jsonPath: "hash")
    }
}

@Suite("Model declarations and registry")
struct ModelDeclarationTests {
    func names(_ type: JSONModel.Type) -> [String] { type.modelMetadata.properties.map(\.name) }

    @Test func inheritanceWithoutCallingSuper() throws {
        #expect(names(Dog.self) == ["name", "legs", "breed"])
        let dog = try Dog(json: #"{"name": "Rex", "breed": "pug"}"#)
        #expect(dog.name == "Rex")
        #expect(dog.legs == 4)
        #expect(dog.breed as String? == "pug")
        try Dog.validateDeclarations()
    }

    @Test func inheritanceWithSuperIsNotADuplicate() throws {
        #expect(names(Puppy.self) == ["name", "legs", "breed", "ageInWeeks"])
        try Puppy.validateDeclarations()
        let puppy = try Puppy(json: #"{"age_weeks": 8}"#)
        #expect(puppy.ageInWeeks == 8)
        #expect(Puppy.modelMetadata.property(named: "breed")?.declaringModel == "Dog")
    }

    @Test func classWithoutOverrideInheritsEverything() throws {
        #expect(names(Cat.self) == ["name", "legs"])
        try Cat.validateDeclarations()
        #expect(try Cat(json: "{}").legs == 4)
    }

    @Test func redeclaringAnInheritedNameDifferentlyIsAnError() {
        #expect(throws: ModelDeclarationError.self) { try Bird.validateDeclarations() }
        do {
            try Bird.validateDeclarations()
        } catch {
            #expect(error.problems.count == 1)
            #expect(error.problems[0].model == "Bird")
            #expect(error.problems[0].property == "legs")
            #expect(error.description.contains("Animal"))
        }
    }

    @Test func declarationMistakesNameClassAndProperty() {
        do {
            try Broken.validateDeclarations()
            Issue.record("expected problems")
        } catch {
            let problems = error.problems.map { "\($0.property): \($0.message)" }
            #expect(problems.count == 5, "\(problems)")
            #expect(error.problems.allSatisfy { $0.model == "Broken" })
            #expect(problems.contains { $0.hasPrefix("a:") && $0.contains("more than once") })
            #expect(problems.contains { $0.hasPrefix("c:") && $0.contains("'b' and 'c' both write") })
            #expect(problems.contains { $0.hasPrefix("e:") && $0.contains("NotSupported") })
            #expect(problems.contains { $0.hasPrefix("f:") && $0.contains("not supported") })
            #expect(problems.contains { $0.hasPrefix("g:") && $0.contains("no natural default") })
            #expect(error.description.contains("Broken.a"))
        }
        #expect(names(Broken.self) == ["a", "b", "d", "h"])
    }

    @Test func namesOfJSONModelMembersAreDeclarationProblems() throws {
        let error = try #require(throws: ModelDeclarationError.self) { try MemberNames.validateDeclarations() }
        #expect(error.problems.map(\.property) == ["jsonModel", "debugDescription", "customMirror", "hashValue", "hash"])
        #expect(error.problems.allSatisfy { $0.model == "MemberNames" && $0.message.hasPrefix("'\($0.property)' is a member of JSONModel") })
        #expect(error.problems[0].message == #"'jsonModel' is a member of JSONModel; name the property otherwise and keep the key with jsonPath: "jsonModel""#)
        // Declared with a path of its own, the name alone is the problem.
        #expect(error.problems[2].message == "'customMirror' is a member of JSONModel; name the property otherwise")
        #expect(error.description.contains("MemberNames.jsonModel: 'jsonModel' is a member of JSONModel"))
        #expect(names(MemberNames.self) == ["login"])
    }

    @Test func aSubclassInheritsTheProblemsOfMemberNames() throws {
        let error = try #require(throws: ModelDeclarationError.self) { try MoreMemberNames.validateDeclarations() }
        // The subclass has the properties too, so it cannot be instantiated either.
        #expect(error.problems.map(\.property) == ["jsonModel", "debugDescription", "customMirror", "hashValue", "hash"])
        #expect(names(MoreMemberNames.self) == ["login", "nickname"])
    }

    @Test func theKeyOfAMemberNameIsReadUnderAnotherName() throws {
        try Profile.validateDeclarations()
        let profile = try Profile(json: #"{"description": "Writes parsers", "hash": "9f2c"}"#)
        #expect(profile.bio == "Writes parsers")
        #expect(profile.checksum as String? == "9f2c")
        #expect(profile.debugDescription.hasPrefix("Profile("))
        #expect(profile.jsonModel.value(forProperty: "bio") as? String == "Writes parsers")
        let copy = profile.jsonModel.mutableCopy()
        copy.bio = "Writes generators"
        #expect(copy.jsonModel.json()["description"] == "Writes generators")
    }

    @Test func namesThatAreNotIdentifiers() throws {
        try OddNames.validateDeclarations()
        let model = try OddNames(json: #"{"with-dash": 3, "add": true}"#)
        #expect(model.jsonModel.value(forProperty: "with-dash") as? Int == 3)
        #expect(model.jsonModel.value(forProperty: "add") as? Bool == true)
    }

    @Test func metadataDescribesEachProperty() throws {
        let metadata = TestUser.modelMetadata
        #expect(metadata.modelName == "TestUser")
        let id = try #require(metadata.property(named: "id"))
        #expect(id.type == .int64)
        #expect(id.paths == ["id", "objectId", "object_id"])
        #expect(metadata.property(named: "age")?.declaredDefault == 18)
        #expect(metadata.property(named: "age")?.ordinal == 1)
        #expect(metadata.property(named: "city")?.options.readOnly == true)
        #expect(TestAddress.modelMetadata.property(named: "secret")?.options.serialize == false)
        #expect(metadata === ModelRegistry.shared.metadata(for: TestUser.self))
    }

    @Test func registryMapsNamesToTypes() throws {
        try ModelRegistry.shared.register(Dog.self, name: "Canine")
        #expect(ModelRegistry.shared.modelType(named: "Canine") == Dog.self)
        _ = Cat.modelMetadata
        #expect(ModelRegistry.shared.modelType(named: "Cat") == Cat.self)
        #expect(ModelRegistry.shared.modelType(named: "NoSuchModel") == nil)
        let type = try #require(ModelRegistry.shared.modelType(named: "Canine"))
        let dog = try type.make(json: Data(#"{"name": "Rex"}"#.utf8))
        #expect(dog is Dog)
        #expect(dog.jsonModel.value(forProperty: "name") as? String == "Rex")
        let made = try ModelRegistry.shared.makeModel(named: "Canine", json: ["name": "Max"] as JSONValue)
        #expect(made is Dog && made.jsonModel.value(forProperty: "name") as? String == "Max")
        #expect(throws: JSONModelError.unknownModel(name: "Nope")) {
            try ModelRegistry.shared.makeModel(named: "Nope", json: [:] as JSONValue)
        }
    }

    /// A class first used after a schema model took its name does not take the name too:
    /// `modelType(named:)` and the schema model would both answer to it.
    @Test func aClassFirstUsedAfterASchemaModelOfItsNameLeavesTheNameToIt() throws {
        final class NameHolderProbe: JSONModel, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) { p.n(Int.self) }
        }
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"{"models": [{"name": "NameHolderProbe", "properties": [{"name": "s", "type": "String"}]}]}"#))
        _ = registry.metadata(for: NameHolderProbe.self)
        #expect(registry.modelType(named: "NameHolderProbe") == nil)
        let made = try registry.makeModel(named: "NameHolderProbe", json: ["s": "schema"] as JSONValue)
        #expect(!(made is NameHolderProbe) && made.jsonModel.value(forProperty: "s") as? String == "schema")
    }

    @Test func metadataIsBuiltOnceUnderConcurrentFirstUse() {
        let registry = ModelRegistry()
        let seen = Mutex8()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            seen.record(index, "\(ObjectIdentifier(registry.metadata(for: Puppy.self)).hashValue)")
        }
        #expect(seen.values.count == 1)
    }

    // Programmer errors stop the process; exit tests check that they do.

    // Exit tests run child processes, which Swift Testing offers on macOS, Linux and Windows only.
    #if os(macOS) || os(Linux) || os(Windows)
    @Test func undeclaredNameTraps() async {
        await #expect(processExitsWith: .failure) {
            let user = try TestUser(json: "{}")
            let _: Int = user.notDeclared
        }
    }

    @Test func wrongSwiftTypeTraps() async {
        await #expect(processExitsWith: .failure) {
            let user = try TestUser(json: #"{"age": 3}"#)
            let _: String = user.age
        }
    }

    @Test func writeToImmutableModelTraps() async {
        await #expect(processExitsWith: .failure) {
            let user = try TestUser(json: "{}")
            user.age = 3
        }
    }

    @Test func instantiatingABrokenClassTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = try Broken(json: "{}")
        }
    }
    #endif
}
