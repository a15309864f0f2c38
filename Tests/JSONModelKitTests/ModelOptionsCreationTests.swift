import Foundation
@testable import JSONModelKit
import JSONModelKitFoundation
import Testing

final class CreationHome: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String.self)
        p.floors(Int.self)
    }
}

final class CreationAccount: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
        p.age(Int.self)
        p.home(CreationHome?.self)
    }
}

class CreationPet: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.kind(String.self)
    }

    override class func modelClass(for json: JSONView) -> JSONModel.Type {
        json["kind"]?.stringValue == "dog" ? CreationDog.self : self
    }
}

final class CreationDog: CreationPet, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.barks(Int.self)
    }
}

/// One way to create a `CreationAccount` from JSON text: the input form and the entry point.
enum CreationForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case data, string, bytes, value, node, dictionary
    case makeData, makeString, makeBytes, makeValue, makeNode
    case registryData, registryValue, registryNode

    /// The forms that parse text, and so take parse options and report invalid JSON.
    static let parsing: [CreationForm] = [.data, .string, .bytes, .makeData, .makeString, .makeBytes, .registryData]
    /// The forms that can be given a top level other than an object (not `[String: Any]`).
    static let anyTopLevel = allCases.filter { $0 != .dictionary }

    var testDescription: String { rawValue }

    static let registry: ModelRegistry = {
        let registry = ModelRegistry()
        try! registry.register(CreationAccount.self, name: "Account")
        return registry
    }()

    /// Creates the model from `text`; the forms over a value, node or dictionary parse it first.
    func create(_ text: String, options: ModelOptions = ModelOptions()) throws(JSONModelError) -> CreationAccount {
        let registry = Self.registry
        func parsed() -> JSONNode { try! JSONDocument(string: text).root }
        switch self {
        case .data: return try CreationAccount(json: Data(text.utf8), options: options)
        case .string: return try CreationAccount(json: text, options: options)
        case .bytes: return try CreationAccount(json: Array(text.utf8), options: options)
        case .value: return try CreationAccount(json: parsed().value, options: options)
        case .node: return try CreationAccount(json: parsed(), options: options)
        case .dictionary: return try CreationAccount(json: try! JSONValue(any: parsed().value.anyValue as! [String: Any]), options: options)
        case .makeData: return try CreationAccount.make(json: Data(text.utf8), options: options)
        case .makeString: return try CreationAccount.make(json: text, options: options)
        case .makeBytes: return try CreationAccount.make(json: Array(text.utf8), options: options)
        case .makeValue: return try CreationAccount.make(json: parsed().value, options: options)
        case .makeNode: return try CreationAccount.make(json: parsed(), options: options)
        case .registryData:
            return try registry.makeModel(named: "Account", json: Data(text.utf8), options: options) as! CreationAccount
        case .registryValue:
            return try registry.makeModel(named: "Account", json: parsed().value, options: options) as! CreationAccount
        case .registryNode:
            return try registry.makeModel(named: "Account", json: parsed(), options: options) as! CreationAccount
        }
    }
}

/// One way to create a lazy array of `CreationPet` from JSON text.
enum ArrayForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case data, bytes, file, string, node, value, objects

    var testDescription: String { rawValue }

    func create(_ text: String, options: ModelOptions = ModelOptions()) throws(JSONModelError) -> ModelArray<CreationPet> {
        func parsed() -> JSONNode { try! JSONDocument(string: text).root }
        switch self {
        case .data: return try CreationPet.array(from: Data(text.utf8), options: options)
        case .bytes: return try CreationPet.array(from: Array(text.utf8), options: options)
        case .file:
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("creation-\(UUID().uuidString).json")
            try! Data(text.utf8).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            // The array reads the file on creation; a mapped file must stay while the array
            // lives, but a small one is read into memory, so it can go.
            return try CreationPet.array(from: url, options: options)
        case .string: return try CreationPet.array(from: text, options: options)
        case .node: return try CreationPet.array(from: parsed(), options: options)
        case .value: return try CreationPet.array(from: parsed().value, options: options)
        case .objects: return try CreationPet.array(from: try! JSONValue(any: parsed().value.anyValue as! [Any]), options: options)
        }
    }
}

/// One way to create a lazy dictionary of `CreationPet` from JSON text.
enum DictionaryForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case data, string, value

    var testDescription: String { rawValue }

    func create(_ text: String, options: ModelOptions = ModelOptions()) throws(JSONModelError) -> ModelDictionary<CreationPet> {
        switch self {
        case .data: return try ModelDictionary(json: Data(text.utf8), options: options)
        case .string: return try ModelDictionary(json: text, options: options)
        case .value: return try ModelDictionary(json: try! JSONDocument(string: text).root.value, options: options)
        }
    }
}

@Suite("Model creation: options and typed errors")
struct ModelOptionsCreationTests {
    static let good = #"{"name": "Ann", "age": 31, "home": {"city": "Rome", "floors": 2}, "x-trace": "a1"}"#
    static let bad = #"{"name": "Ann", "age": "old", "home": {"city": "Rome", "floors": "two"}}"#

    /// Creates with `form`, returning the error it throws (nil when it does not).
    static func error(_ form: CreationForm, _ text: String, options: ModelOptions = ModelOptions()) -> JSONModelError? {
        do {
            _ = try form.create(text, options: options)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Options

    @Test func optionsDefaultToALazyImmutableModelFromStrictJSON() {
        let options = ModelOptions()
        #expect(!options.mutable)
        #expect(!options.validating)
        #expect(options.parseOptions == JSONParseOptions())
        #expect(ModelOptions.mutable == ModelOptions(mutable: true))
        #expect(ModelOptions.validating == ModelOptions(validating: true))
        let lenient = ModelOptions(parseOptions: JSONParseOptions(allowsComments: true))
        #expect(Set([options, .mutable, .validating, lenient, ModelOptions()]).count == 4)
    }

    // MARK: Every input form

    @Test(arguments: CreationForm.allCases)
    func defaultOptionsGiveAnImmutableModelThatConvertsOnRead(_ form: CreationForm) throws {
        let account = try form.create(Self.good)
        #expect(!account.jsonModel.isMutable)
        #expect(account.name as String == "Ann")
        #expect(account.age as Int == 31)
        #expect(account.homeCity == "Rome")
        #expect(account.jsonModel.json()["x-trace"] == "a1")
        #expect(throws: JSONModelError.immutable(model: "CreationAccount", property: "age")) {
            try account.jsonModel.set(32, forProperty: "age")
        }
        // Nothing is checked at creation: a bad value reads its default, with a diagnostic.
        let lenient = try form.create(Self.bad)
        #expect(lenient.age as Int == 0)
        #expect(lenient.jsonModel.diagnostics.map(\.path) == ["age"])
    }

    @Test(arguments: CreationForm.allCases)
    func mutableModelsAcceptWrites(_ form: CreationForm) throws {
        let account = try form.create(Self.good, options: .mutable)
        #expect(account.jsonModel.isMutable)
        try account.jsonModel.set(32, forProperty: "age")
        account.name = "Bo"
        let home: CreationHome = try #require(account.home)
        home.city = "Oslo"  // children of a mutable model are mutable and write through
        #expect(account.jsonModel.json() == [
            "name": "Bo", "age": 32, "home": ["city": "Oslo", "floors": 2], "x-trace": "a1",
        ])
    }

    @Test(arguments: CreationForm.allCases)
    func validatingListsEveryBadValueWithItsPathNestedModelsIncluded(_ form: CreationForm) throws {
        let error = try #require(Self.error(form, Self.bad, options: .validating))
        let validation = try #require(error.validationError, "\(error)")
        #expect(validation.model == "CreationAccount")
        #expect(validation.diagnostics.map(\.path) == ["age", "home.floors"])
        #expect(validation.diagnostics.map(\.model) == ["CreationAccount", "CreationHome"])
        #expect(error.description == validation.description)
        #expect(error.description.hasPrefix("CreationAccount failed validation with 2 problems:"))
        #expect(error.description.contains("home.floors"))
    }

    @Test(arguments: CreationForm.allCases)
    func validatingAcceptsAGoodDocument(_ form: CreationForm) throws {
        let account = try form.create(Self.good, options: .validating)
        #expect(!account.jsonModel.isMutable)
        #expect(account.jsonModel.diagnostics.isEmpty)
        let home: CreationHome? = account.home
        #expect(home?.floors as Int? == 2)
        let both = try form.create(Self.good, options: ModelOptions(mutable: true, validating: true))
        #expect(both.jsonModel.isMutable)
        both.age = 40
        #expect(both.age as Int == 40)
    }

    @Test(arguments: CreationForm.parsing)
    func invalidJSONIsTheParseCaseWithItsPosition(_ form: CreationForm) throws {
        let error = try #require(Self.error(form, #"{"name": }"#))
        let parse = try #require(error.parseError, "\(error)")
        #expect(parse.line == 1)
        #expect(parse.column == 10)
        #expect(error.description == parse.description)
        #expect(error.description.hasPrefix("JSON parse error at line 1, column 10"))
        // Validating changes nothing about a parse error.
        #expect(Self.error(form, "", options: .validating)?.parseError?.kind == .emptyInput)
    }

    @Test(arguments: CreationForm.parsing)
    func parseOptionsAreHonoured(_ form: CreationForm) throws {
        let deep = #"{"name": "Ann", "home": {"city": "Rome"}}"#
        let shallow = ModelOptions(parseOptions: JSONParseOptions(maxDepth: 1))
        #expect(Self.error(form, deep, options: shallow)?.parseError?.kind == .tooDeep(limit: 1))
        #expect(Self.error(form, deep) == nil)

        let commented = #"{"name": "Ann" /* the first */, "age": 3,}"#
        #expect(Self.error(form, commented)?.parseError != nil)
        let lenient = JSONParseOptions(allowsTrailingCommas: true, allowsComments: true)
        let account = try form.create(commented, options: ModelOptions(mutable: true, parseOptions: lenient))
        #expect(account.age as Int == 3)
        #expect(account.jsonModel.isMutable)
    }

    @Test(arguments: CreationForm.anyTopLevel)
    func aTopLevelOtherThanAnObjectIsNotAnObject(_ form: CreationForm) throws {
        let error = try #require(Self.error(form, #"[{"name": "Ann"}]"#, options: .validating))
        #expect(error == .notAnObject(model: "CreationAccount", found: .array))
        #expect(error.description == "CreationAccount needs a JSON object at the top level, found array")
        #expect(Self.error(form, "42") == .notAnObject(model: "CreationAccount", found: .number))
    }

    // MARK: Through a metatype

    @Test func makeReturnsTheSubclassTheJSONCallsFor() throws {
        let text = #"{"kind": "dog", "barks": 3}"#
        let type: CreationPet.Type = CreationPet.self
        let node = try JSONDocument(string: text).root
        let made: [CreationPet] = [
            try type.make(json: Data(text.utf8)), try type.make(json: text), try type.make(json: Array(text.utf8)),
            try type.make(json: node.value), try type.make(json: node),
            try type.make(json: text, options: .mutable), try type.make(json: text, options: .validating),
        ]
        for pet in made {
            let dog = try #require(pet as? CreationDog)
            #expect(dog.barks as Int == 3)
        }
        #expect(made[5].jsonModel.isMutable)
        // An initializer cannot return a subclass.
        let plain = try CreationPet(json: text)
        #expect(Swift.type(of: plain) == CreationPet.self)

        // Validation covers the subclass's own properties.
        let error = try #require(throws: JSONModelError.self) {
            try type.make(json: #"{"kind": "dog", "barks": "loud"}"#, options: .validating)
        }
        #expect(error.validationError?.model == "CreationDog")
        #expect(error.validationError?.diagnostics.map(\.path) == ["barks"])
    }

    @Test func theRegistryMakesTheSubclassAndChecksTheNameBeforeParsing() throws {
        let registry = ModelRegistry()
        try registry.register(CreationPet.self, name: "Pet")
        let dog = try registry.makeModel(named: "Pet", json: Data(#"{"kind": "dog", "barks": 1}"#.utf8), options: .mutable)
        #expect(dog is CreationDog)
        #expect(dog.jsonModel.isMutable)
        #expect(throws: JSONModelError.unknownModel(name: "Cat")) {
            try registry.makeModel(named: "Cat", json: Data("{".utf8))
        }
    }

    @Test func schemaModelsValidateThroughTheRegistry() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"""
            {"models": [{"name": "Invoice", "properties": [
              {"name": "total", "type": "Int"}, {"name": "lines", "type": "[Line]"}]},
              {"name": "Line", "properties": [{"name": "qty", "type": "Int"}]}]}
            """#))
        let bad = Data(#"{"total": "x", "lines": [{"qty": 1}, {"qty": "two"}]}"#.utf8)
        #expect(throws: Never.self) { try registry.makeModel(named: "Invoice", json: bad) }
        let error = try #require(throws: JSONModelError.self) {
            try registry.makeModel(named: "Invoice", json: bad, options: .validating)
        }
        #expect(error.validationError?.model == "Invoice")
        #expect(error.validationError?.diagnostics.map(\.path) == ["total", "lines[1].qty"])
        let good = try registry.makeModel(named: "Invoice", json: Data(#"{"total": 2, "lines": []}"#.utf8), options: .validating)
        #expect(good is DynamicModel)
        let deep = ModelOptions(parseOptions: JSONParseOptions(maxDepth: 1))
        let tooDeep = try #require(throws: JSONModelError.self) {
            try registry.makeModel(named: "Invoice", json: Data(#"{"lines": []}"#.utf8), options: deep)
        }
        #expect(tooDeep.parseError?.kind == .tooDeep(limit: 1))
    }

    // MARK: Arrays and dictionaries of models

    @Test(arguments: ArrayForm.allCases)
    func arraysFromEveryInputTakeTheOptionsForEveryElement(_ form: ArrayForm) throws {
        let text = #"[{"kind": {}}, {"kind": "dog", "barks": 2}]"#
        let lazy = try form.create(text)
        #expect(lazy.count == 2)
        #expect(!lazy.isElementBuilt(at: 0))
        #expect(lazy[1] is CreationDog)
        #expect(!lazy[0].jsonModel.isMutable)

        let mutable = try form.create(text, options: .mutable)
        try mutable[0].jsonModel.set("cat", forProperty: "kind")
        #expect(mutable[0].kind as String == "cat")

        // Validating builds every element; the first one's kind is not a string.
        let error = try #require(throws: JSONModelError.self) { try form.create(text, options: .validating) }
        #expect(error.validationError?.model == "[CreationPet]")
        #expect(error.validationError?.diagnostics.map(\.path) == ["[0].kind"])
    }

    @Test func validatingAnArrayChecksEveryElementAndCountsTheOnesLeftOut() throws {
        let bad = #"[{"kind": "cat"}, {"kind": "dog", "barks": "loud"}, 7, {"kind": "dog", "barks": 1}]"#
        let error = try #require(throws: JSONModelError.self) { try CreationPet.array(from: bad, options: .validating) }
        let validation = try #require(error.validationError)
        // The array's own problem (an element left out) first, then each element's, in order.
        #expect(validation.diagnostics.map(\.path) == ["[2]", "[1].barks"])

        let good = try CreationPet.array(from: #"[{"kind": "cat"}, {"kind": "dog", "barks": 1}]"#, options: .validating)
        #expect((0..<good.count).allSatisfy(good.isElementBuilt(at:)))
        #expect(good[1] is CreationDog)

        let shallow = ModelOptions(parseOptions: JSONParseOptions(maxDepth: 1))
        let tooDeep = try #require(throws: JSONModelError.self) { try CreationPet.array(from: bad, options: shallow) }
        #expect(tooDeep.parseError?.kind == .tooDeep(limit: 1))
        #expect(throws: JSONModelError.notAnArray(model: "CreationPet", found: .object)) {
            try CreationPet.array(from: #"{"kind": "cat"}"#)
        }
    }

    @Test func anArrayFileThatCannotBeReadIsUnreadable() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("creation-missing-\(UUID().uuidString).json")
        let error = try #require(throws: JSONModelError.self) { try CreationPet.array(from: missing) }
        guard case .unreadable(let url, let reason) = error else {
            Issue.record("expected .unreadable, got \(error)")
            return
        }
        #expect(url == missing)
        #expect(!reason.isEmpty)
        #expect(error.description.hasPrefix("cannot read \(missing.path): "))
    }

    @Test(arguments: DictionaryForm.allCases)
    func dictionariesTakeTheOptionsForEveryValue(_ form: DictionaryForm) throws {
        let text = #"{"a": {"kind": "cat"}, "b": {"kind": "dog", "barks": "loud"}, "c": 3}"#
        let lazy = try form.create(text)
        #expect(lazy.keys == ["a", "b"])
        #expect(lazy["b"] is CreationDog)
        #expect(lazy["a"]?.jsonModel.isMutable == false)
        #expect(try form.create(text, options: .mutable)["a"]?.jsonModel.isMutable == true)
        let error = try #require(throws: JSONModelError.self) { try form.create(text, options: .validating) }
        #expect(error.validationError?.model == "[String: CreationPet]")
        #expect(error.validationError?.diagnostics.map(\.path) == ["c", "b.barks"])
        let clean = try form.create(#"{"a": {"kind": "cat"}}"#, options: .validating)
        #expect(clean["a"]?.kind as String? == "cat")
    }

    @Test func dictionariesReportInvalidJSON() throws {
        let broken = try #require(throws: JSONModelError.self) { try ModelDictionary<CreationPet>(json: "{") }
        #expect(broken.parseError?.kind == .unexpectedEnd)
    }

    // MARK: Typed throws

    /// Compiles only while the creation forms throw `JSONModelError`. Every form is
    /// also called from a `throws(JSONModelError)` function above: `CreationForm.create`,
    /// `ArrayForm.create` and `DictionaryForm.create`.
    @Test func creationThrowsJSONModelErrorAtCompileTime() throws {
        let data = Data(Self.good.utf8)
        do {
            _ = try CreationAccount(json: data)
            _ = try CreationAccount(json: Self.good, options: .init())
            _ = try CreationAccount.make(json: Array(data))
            _ = try CreationAccount.array(from: Data("[{}]".utf8))
            _ = try ModelDictionary<CreationAccount>(json: "{}")
            _ = try CreationForm.registry.makeModel(named: "Account", json: data)
            _ = try CreationAccount(json: "[]")
            Issue.record("expected notAnObject")
        } catch {
            let typed: JSONModelError = error
            #expect(typed == .notAnObject(model: "CreationAccount", found: .array))
        }
        let checked = { () throws(JSONModelError) -> CreationAccount in try CreationAccount(json: data, options: .validating) }
        #expect(try checked().age as Int == 31)
    }
}

extension CreationAccount {
    /// The city of the home, through the optional nested model.
    var homeCity: String? {
        let home: CreationHome? = self.home
        return home?.city
    }
}
