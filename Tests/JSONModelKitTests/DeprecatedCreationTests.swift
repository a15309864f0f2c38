import Foundation
import JSONModelKit
import JSONModelKitFoundation
import Testing

/// The creation API before `ModelOptions`, kept compiling as deprecated forwards: each still
/// creates what it did, and those that threw untyped errors still throw the parse or validation
/// error itself. The only file that calls them; each test is marked deprecated so that calling
/// them here warns nobody.
@Suite("Deprecated creation forwards")
struct DeprecatedCreationTests {
    static let good = #"{"name": "Ann", "age": 31, "home": {"city": "Rome", "floors": 2}}"#
    static let bad = #"{"name": "Ann", "age": "old", "home": {"city": "Rome", "floors": "two"}}"#

    @available(*, deprecated, message: "exercises the deprecated creation API")
    @Test func mutableFormsForwardTheFlag() throws {
        let data = Data(Self.good.utf8)
        let node = try JSONDocument(data: data).root
        for mutable in [false, true] {
            let models: [JSONModel] = [
                try CreationAccount(json: data, mutable: mutable),
                try CreationAccount(json: Self.good, mutable: mutable),
                try CreationAccount(json: Array(data), mutable: mutable),
                try CreationAccount(json: data, mutable: mutable, options: JSONParseOptions(maxDepth: 4)),
                try CreationAccount(json: node.value, mutable: mutable),
                try CreationAccount(node: node, mutable: mutable),
                try CreationAccount(dictionary: node.value.anyValue as! [String: Any], mutable: mutable),
                try CreationAccount.make(json: data, mutable: mutable),
                try CreationAccount.make(json: Self.good, mutable: mutable),
                try CreationAccount.make(json: Array(data), mutable: mutable),
                try CreationAccount.make(json: node.value, mutable: mutable),
                try CreationAccount.make(node: node, mutable: mutable),
                try CreationForm.registry.makeModel(named: "Account", json: data, mutable: mutable),
                try CreationForm.registry.makeModel(named: "Account", json: node.value, mutable: mutable),
                try CreationForm.registry.makeModel(named: "Account", node: node, mutable: mutable),
            ]
            for model in models {
                #expect(model.isMutable == mutable)
                #expect(model.json()["age"] == 31)
            }
        }
        let dog = #"{"kind": "dog", "barks": 1}"#
        #expect(try CreationPet.make(json: dog, mutable: true) is CreationDog)
    }

    @available(*, deprecated, message: "exercises the deprecated creation API")
    @Test func collectionFormsForwardTheFlag() throws {
        let text = #"[{"kind": "cat"}, {"kind": "dog", "barks": 1}]"#
        let node = try JSONDocument(string: text).root
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("deprecated-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let arrays = [
            try CreationPet.array(from: Data(text.utf8), mutable: true),
            try CreationPet.array(from: Array(text.utf8), mutable: true),
            try CreationPet.array(from: file, mutable: true),
            try CreationPet.array(from: text, mutable: true),
            try CreationPet.array(from: node, mutable: true),
            try CreationPet.array(from: node.value, mutable: true),
            try CreationPet.array(from: node.value.anyValue as! [Any], mutable: true),
        ]
        for array in arrays {
            #expect(array.count == 2)
            #expect(array[0].isMutable)
            #expect(array[1] is CreationDog)
        }
        let object = #"{"a": {"kind": "cat"}}"#
        let dictionaries = [
            try ModelDictionary<CreationPet>(json: Data(object.utf8), mutable: true),
            try ModelDictionary<CreationPet>(json: object, mutable: true),
            try ModelDictionary<CreationPet>(json: JSONDocument(string: object).root.value, mutable: true),
        ]
        for dictionary in dictionaries {
            #expect(dictionary["a"]?.isMutable == true)
        }
    }

    @available(*, deprecated, message: "exercises the deprecated creation API")
    @Test func parseOptionsAloneStillApply() throws {
        let deep = JSONParseOptions(maxDepth: 1)
        let error = try #require(throws: JSONParseError.self) { try CreationAccount(json: Self.good, options: deep) }
        #expect(error.kind == .tooDeep(limit: 1))
        #expect(throws: JSONParseError.self) { try CreationAccount(json: Data(Self.good.utf8), options: deep) }
        #expect(throws: JSONParseError.self) { try CreationAccount(json: Array(Self.good.utf8), options: deep) }
        let commented = try CreationAccount(json: #"{"age": 3 /* years */}"#, options: JSONParseOptions(allowsComments: true))
        #expect(commented.age as Int == 3)
        #expect(!commented.isMutable)
    }

    @available(*, deprecated, message: "exercises the deprecated creation API")
    @Test func formsThatThrewUntypedErrorsStillThrowTheParseError() throws {
        let broken = "{"
        #expect(throws: JSONParseError.self) { try CreationAccount(json: broken, mutable: true) }
        #expect(throws: JSONParseError.self) { try CreationAccount.make(json: broken, mutable: false) }
        #expect(throws: JSONParseError.self) { try CreationPet.array(from: broken, mutable: false) }
        #expect(throws: JSONParseError.self) { try ModelDictionary<CreationPet>(json: broken, mutable: false) }
        #expect(throws: JSONParseError.self) {
            try CreationForm.registry.makeModel(named: "Account", json: Data(broken.utf8), mutable: false)
        }
        // A file that cannot be read: the reading error itself, not a JSONModelError.
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("deprecated-missing-\(UUID().uuidString).json")
        let readError = try #require(throws: (any Error).self) { try CreationPet.array(from: missing, mutable: false) }
        #expect(!(readError is JSONModelError))
        // Errors that were JSONModelError already stay so.
        #expect(throws: JSONModelError.notAnObject(model: "CreationAccount", found: .array)) {
            try CreationAccount(json: "[]", mutable: false)
        }
    }

    @available(*, deprecated, message: "exercises the deprecated creation API")
    @Test func validatingInitializersForwardToTheValidatingOption() throws {
        let data = Data(Self.bad.utf8)
        let node = try JSONDocument(data: data).root
        let failures: [(any Error)?] = [
            Self.thrown { try CreationAccount(validating: data) },
            Self.thrown { try CreationAccount(validating: Self.bad) },
            Self.thrown { try CreationAccount(validating: Array(data)) },
            Self.thrown { try CreationAccount(validating: node.value) },
            Self.thrown { try CreationAccount(validating: node) },
        ]
        for failure in failures {
            let validation = try #require(failure as? ModelValidationError, "\(String(describing: failure))")
            #expect(validation.diagnostics.map(\.path) == ["age", "home.floors"])
        }
        let good = try CreationAccount(validating: Self.good, mutable: true)
        #expect(good.isMutable)
        #expect(good.age as Int == 31)
        #expect(throws: JSONParseError.self) { try CreationAccount(validating: "{") }
        #expect(throws: JSONModelError.notAnObject(model: "CreationAccount", found: .array)) {
            try CreationAccount(validating: "[]")
        }
    }

    /// The error `body` throws, or nil.
    static func thrown(_ body: () throws -> Any) -> (any Error)? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }
}
