import Foundation
import Testing
@testable import JSONModelKit

/// What the `FuzzSchema` fuzz target (Tools/fuzz) found, each finding reduced to a schema and a
/// document: random schemas that register must be safe to read, validate, describe, dump and
/// write, in time and memory in proportion to the document.
@Suite("Hostile schema fuzz findings", .timeLimit(.minutes(10)))
struct HostileSchemaFuzzFindingsTests {
    /// A new registry holding `text`.
    static func registry(_ text: String) throws -> ModelRegistry {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: text))
        return registry
    }

    /// The problem registering `text` reports, or nil when it registers.
    static func problem(registering text: String) -> ModelSchemaError? {
        do {
            _ = try registry(text)
            return nil
        } catch {
            return error as? ModelSchemaError
        }
    }

    // MARK: - Property groups that hold their own model

    /// A property group reads its parent's own object, so a model holding itself through groups
    /// made a model over that object at every level: `validate()` overflowed the stack (and
    /// `onlyDeclared` output recursed the same way) on any document, `{}` included.
    @Test(arguments: [
        // Itself, optional or not.
        (#"[{"name": "Node", "properties": [{"name": "same", "type": "Node", "group": true}]}]"#, "Node", "same"),
        (#"[{"name": "Node", "properties": [{"name": "id", "type": "Int"}, {"name": "same", "type": "Node?", "group": true}]}]"#,
         "Node", "same"),
        // Through another model.
        (#"""
        [{"name": "A", "properties": [{"name": "b", "type": "B", "group": true}]},
         {"name": "B", "properties": [{"name": "a", "type": "A", "group": true}]}]
        """#, "A", "b"),
        // Inherited: B extends A, so B holds the group `g` of type B.
        (#"""
        [{"name": "A", "properties": [{"name": "g", "type": "B", "group": true}]},
         {"name": "B", "extends": "A", "properties": [{"name": "x", "type": "Int"}]}]
        """#, "B", "g"),
        // Through the model a discriminator picks for the group.
        (#"""
        [{"name": "A", "properties": [{"name": "shape", "type": "Shape", "group": true}]},
         {"name": "Shape", "discriminator": {"jsonPath": "kind", "map": {"circle": "Circle"}},
          "properties": [{"name": "kind", "type": "String"}]},
         {"name": "Circle", "extends": "Shape", "properties": [{"name": "owner", "type": "A", "group": true}]}]
        """#, "A", "shape"),
    ])
    func groupCyclesAreRefused(models: String, model: String, property: String) throws {
        let error = try #require(Self.problem(registering: #"{"models": \#(models)}"#))
        #expect(error.message.contains("property groups nest without end"), "\(error)")
        #expect(error.model == model && error.property == property, "\(error)")
    }

    @Test func aGroupCycleIsNamedAndReportedOnce() throws {
        let schema = #"""
            {"models": [
              {"name": "A", "properties": [{"name": "b", "type": "B", "group": true}]},
              {"name": "B", "properties": [{"name": "c", "type": "C?", "group": true}]},
              {"name": "C", "properties": [{"name": "a", "type": "A", "group": true}]}]}
            """#
        let problems = HostileSchemaTests.problems(loading: schema).filter { $0.message.contains("groups nest") }
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.message.contains("A.b → B.c → C.a → A") == true, "\(problems)")
    }

    /// A discriminator with many choices and a model with many groups of its type: the check
    /// for cycles walks each group and each choice once, where it walked every choice for
    /// every group (10^8 edges and gigabytes from a 1 MB schema at 10,000 of each). Counted as
    /// the definitions it asks for, which grew with the product before.
    /// The cycle check told a type's node from a model's by a leading NUL, which a model's name
    /// may have too: the groups of a model named `"\u0000X"` were never followed, the cycle
    /// registered, and `validate()` then made models without end.
    @Test func aGroupCycleThroughAModelNamedWithALeadingNULIsRefused() throws {
        let text = #"""
            {"models": [
              {"name": "A", "properties": [{"name": "shape", "type": "Shape", "group": true}]},
              {"name": "Shape", "discriminator": {"jsonPath": "kind", "map": {"x": "\u0000X"}},
               "properties": [{"name": "kind", "type": "String"}]},
              {"name": "\u0000X", "extends": "Shape", "properties": [{"name": "owner", "type": "A", "group": true}]}]}
            """#
        let error = try #require(Self.problem(registering: text), "the schema registered")
        #expect(error.message.contains("property groups nest without end"), "\(error)")
        // The same with a plain name, for comparison.
        let plain = try #require(Self.problem(registering: text.replacingOccurrences(of: #"\u0000X"#, with: "X")))
        #expect(plain.message.contains("property groups nest without end"), "\(plain)")
    }

    @Test func theGroupCycleCheckIsLinearInGroupsAndChoices() throws {
        let count = 1_000
        let choices = (0..<count).map { #""k\#($0)": "S\#($0)""# }.joined(separator: ", ")
        let subtypes = (0..<count).map { #"{"name": "S\#($0)", "extends": "Hub", "properties": []}"# }.joined(separator: ", ")
        let groups = (0..<count).map { #"{"name": "g\#($0)", "type": "Hub", "group": true}"# }.joined(separator: ", ")
        let text = #"{"models": [{"name": "Hub", "discriminator": {"jsonPath": "kind", "map": {\#(choices)}}, "#
            + #""properties": [{"name": "kind", "type": "String"}]}, \#(subtypes), "#
            + #"{"name": "Big", "properties": [\#(groups)]}]}"#
        let schema = try ModelSchema(json: text)
        let byName = Dictionary(uniqueKeysWithValues: schema.models.map { ($0.name, $0) })
        var lookups = 0
        let cycles = SchemaBatch.groupCycles(among: schema.models.map(\.name)) { name in
            lookups += 1
            return byName[name]
        }
        #expect(cycles.isEmpty)
        #expect(lookups < 20 * count, "\(lookups) definitions looked up for \(count) groups and choices")
        // And it loads.
        try ModelRegistry().register(schema)
        // A cycle through the many choices is still found: one choice holds Big as a group.
        let cyclic = text.replacingOccurrences(
            of: #"{"name": "S7", "extends": "Hub", "properties": []}"#,
            with: #"{"name": "S7", "extends": "Hub", "properties": [{"name": "back", "type": "Big", "group": true}]}"#)
        let problems = HostileSchemaTests.problems(loading: cyclic).filter { $0.message.contains("groups nest") }
        #expect(problems.count == 1, "\(problems)")
        let message = problems.first?.message ?? ""
        #expect(message.contains("Big.g0") && message.contains("S7.back"), "\(problems)")
    }

    /// Groups that do not come back to their model, and models that come back through a path
    /// of their own (which the document bounds), still load and validate.
    @Test func groupsWithoutACycleStillLoad() throws {
        let registry = try Self.registry(#"""
            {"models": [
              {"name": "Person", "properties": [{"name": "name", "type": "String"},
                {"name": "address", "type": "Address", "group": true}]},
              {"name": "Address", "properties": [{"name": "city", "type": "String"},
                {"name": "resident", "type": "Person?"}]}]}
            """#)
        let person = try registry.makeModel(
            named: "Person", json: ["name": "Ann", "city": "Rome", "resident": ["name": "Bo", "city": "Oslo"]] as JSONValue)
        try person.jsonModel.validate()
        let address = try #require(person.jsonModel.value(forProperty: "address") as? JSONModel)
        #expect(address.jsonModel.value(forProperty: "city") as? String == "Rome")
        #expect(person.jsonModel.json(options: .onlyDeclared) == ["name": "Ann", "city": "Rome", "resident": ["name": "Bo", "city": "Oslo"]])
    }

    // MARK: - What a freed registry leaves behind

    /// `enumValues` were added to the process-wide table of interned strings, which never
    /// shrinks: every schema a process registered left its values behind once its registry was
    /// freed, however many a third party declared.
    @Test func enumValuesOfASchemaStayOutOfTheProcessWideTable() throws {
        let value = "fuzz-finding-\(UUID().uuidString)"
        do {
            let registry = try Self.registry(#"""
                {"models": [{"name": "M", "properties": [{"name": "s", "type": "String", "enumValues": ["\#(value)"]}]}]}
                """#)
            let first = try registry.makeModel(named: "M", json: ["s": .string(value)] as JSONValue)
            let second = try registry.makeModel(named: "M", json: ["s": .string(value)] as JSONValue)
            #expect(first.jsonModel.value(forProperty: "s") as? String == value && first.jsonModel.diagnostics.isEmpty)
            // Still one string for every model of the property.
            let (a, b) = (first.jsonModel.value(forProperty: "s") as! String, second.jsonModel.value(forProperty: "s") as! String)
            #expect(unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self))
        }
        #expect(InternTable.shared.lookUp(value) == nil)
    }

    // MARK: - Non-optional model properties that cycle

    /// A non-optional model property whose JSON is absent reads as an empty model, so
    /// `Node.left: Node` holds one at every level. Deciding whether such a model differs from its
    /// default went down to the nesting guard (32 levels), which answers "differs": over `{}`,
    /// `description` showed `Node(left: Node(left: Node(…` for a document without a value.
    @Test func describingModelsWhoseRequiredModelPropertiesCycleShowsOnlyValues() throws {
        let registry = try Self.registry(#"""
            {"models": [{"name": "Node", "properties": [{"name": "id", "type": "Int"},
              {"name": "left", "type": "Node"}, {"name": "right", "type": "Node"}]}]}
            """#)
        for (document, expected) in [
            (JSONValue.object([:]), "Node()"),
            (["left": ["right": ["id": 3]]], "Node(left: Node(right: Node(id: 3)))"),
            (["left": ["right": [:]], "right": ["left": ["left": [:]]]], "Node()"),
        ] {
            let node = try registry.makeModel(named: "Node", json: document)
            #expect(node.debugDescription == expected)
            #expect(node.debugDescription.utf8.count < 2_000, "\(node.debugDescription.utf8.count) bytes")
        }
    }

    /// `fullDescription` opened models 12 levels deep (``DescriptionLimits/maxDepth``), default
    /// empty models included: with *n* non-optional properties of the model's own type that was
    /// *n*^12 models over `{}` (8 properties: 7 × 10^10). A default inside a default is now one line.
    @Test
    func fullDescriptionOfRequiredModelsThatCycleIsBounded() throws {
        let properties = (1...8).map { #"{"name": "p\#($0)", "type": "Node"}"# }.joined(separator: ", ")
        let registry = try Self.registry(#"{"models": [{"name": "Node", "properties": [\#(properties)]}]}"#)
        let node = try registry.makeModel(named: "Node", json: [:] as JSONValue)
        // Each of the 8 properties a line, each holding a default on one line: a bounded text
        // where opening defaults inside defaults made 7 × 10^10 models.
        let text = node.jsonModel.fullDescription
        #expect(text.utf8.count < 4_000, "fullDescription is \(text.utf8.count) bytes")
    }

    /// `dump` follows ``JSONModel/customMirror``, whose children included the empty model a
    /// non-optional `Node.next: Node` reads at every level: a new object each time, so `dump`'s
    /// cycle check never stopped it. The mirror now shows such a default on one line.
    @Test
    func dumpOfARequiredModelThatCyclesEnds() throws {
        let registry = try Self.registry(#"{"models": [{"name": "Node", "properties": [{"name": "next", "type": "Node"}]}]}"#)
        let node = try registry.makeModel(named: "Node", json: [:] as JSONValue)
        var text = ""
        dump(node, to: &text)
        #expect(text.utf8.count < 100_000)
    }
}
