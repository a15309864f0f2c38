import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// Schemas from third parties: whatever loads works, and whatever would not work is refused when
/// loading, naming the file, model and property; never a trap, a stack overflow, a hang, or memory
/// out of proportion to the schema. The limits are ``ModelSchema/maximumTypeNesting`` and
/// ``ModelSchema/maximumExtendsDepth``.
@Suite("Hostile schemas", .timeLimit(.minutes(10)))
struct HostileSchemaTests {
    /// Registers `text` in a new registry; returns the registry or the first problem.
    static func register(_ text: String) -> Result<ModelRegistry, ModelSchemaError> {
        let registry = ModelRegistry()
        do {
            try registry.register(ModelSchema(json: text))
            return .success(registry)
        } catch {
            return .failure(error)
        }
    }

    /// One model `M` with one property `x` of `type`, and a model `A` for model types.
    static func schema(type: String, default value: String? = nil) -> String {
        let defaultText = value.map { #", "default": \#($0)"# } ?? ""
        return #"""
            {"models": [{"name": "A", "properties": [{"name": "n", "type": "Int"}]},
                        {"name": "M", "properties": [{"name": "x", "type": "\#(type)"\#(defaultText)}]}]}
            """#
    }

    /// The problems of loading `text` as a schema file; none when it loads.
    static func problems(loading text: String) -> [ModelSchemaError] {
        do {
            try loadSchemaText(text)
            return []
        } catch {
            return error.problems
        }
    }

    // MARK: - Type nesting

    /// `Int` and 24 `?` used to register, then stall 22 s in the runtime's nested-Optional casts
    /// on the first read (doubling per `?`); 5,000 `?` overflowed the stack in type resolution.
    @Test(arguments: [2, 24, 30, 5_000, 1_000_000])
    func nestedOptionalsAreRefused(_ marks: Int) throws {
        let type = "Int" + String(repeating: "?", count: marks)
        guard case .failure(let error) = Self.register(Self.schema(type: type)) else {
            Issue.record("\(marks) ? registered")
            return
        }
        #expect(error.model == "M" && error.property == "x")
        #expect(error.message.contains("nests optionals"), "\(error)")
        #expect(error.message.utf8.count < 300, "the message quotes the whole type")
    }

    /// Refusing a type with many `?` takes time in proportion to its length.
    @Test func refusingNestedOptionalsTakesLinearTime() {
        Scaling.expectLinear(from: 250_000, "refusing Int followed by n ?") { marks in
            _ = Self.register(Self.schema(type: "Int" + String(repeating: "?", count: marks)))
        }
    }

    @Test func typeNestingIsLimitedForBracketsAndOptionalsTogether() throws {
        let limit = ModelSchema.maximumTypeNesting
        #expect(limit == 32)
        // 16 arrays, each of an optional: 32 levels, the deepest accepted.
        let deepest = String(repeating: "[", count: limit / 2) + "Int?" + String(repeating: "]?", count: limit / 2 - 1) + "]"
        #expect(try ModelSchema.TypeName(parsing: deepest).nestingLevels == limit)
        let tooDeep = [
            deepest + "?",
            String(repeating: "[", count: limit + 1) + "Int" + String(repeating: "]", count: limit + 1),
            String(repeating: "[String: ", count: limit) + "Int?" + String(repeating: "]", count: limit),
            String(repeating: "[", count: 100_000) + "Int" + String(repeating: "]", count: 100_000),
        ]
        for type in tooDeep {
            guard case .failure(let error) = Self.register(Self.schema(type: type)) else {
                Issue.record("\(type.prefix(60))… registered")
                continue
            }
            #expect(error.model == "M" && error.property == "x")
            #expect(error.message.contains("more than 32 levels"), "\(error)")
        }
        // Exactly at the limit: brackets only, and brackets with optionals.
        for type in [deepest, String(repeating: "[", count: limit) + "Int" + String(repeating: "]", count: limit)] {
            guard case .success = Self.register(Self.schema(type: type)) else {
                Issue.record("\(type) was refused")
                continue
            }
        }
    }

    /// The deepest accepted type reads, writes and outputs at once.
    @Test func theDeepestAcceptedTypeReadsFast() throws {
        let levels = ModelSchema.maximumTypeNesting / 2
        for inner in ["Int?", "A?"] {
            let type = String(repeating: "[String: ", count: levels) + inner + String(repeating: "]?", count: levels - 1) + "]"
            let registry = try Self.register(Self.schema(type: type)).get()
            var value: JSONValue = inner == "A?" ? ["n": 7] : 7
            for _ in 0..<levels { value = ["k": value] }
            let model = try registry.makeModel(named: "M", json: ["x": value] as JSONValue)
            #expect(model.jsonModel.value(forProperty: "x") != nil)
            #expect(model.jsonModel.diagnostics.isEmpty)
            let copy = try registry.makeModel(named: "M", json: ["x": value] as JSONValue, options: .mutable)
            try copy.jsonModel.set(copy.jsonModel.value(forProperty: "x"), forProperty: "x")
            #expect(copy.jsonModel.json() == ["x": value], "\(type)")
        }
    }

    /// A schema built in code is not bounded by a parser: its types are checked without recursing.
    @Test func typesBuiltInCodeAreCheckedWithoutRecursion() throws {
        var deep = ModelSchema.TypeName.named("Int")
        for level in 0..<2_000 { deep = level.isMultiple(of: 2) ? .array(deep) : .optional(deep) }
        var doubled = ModelSchema.TypeName.named("Int")
        doubled = .optional(.optional(doubled))
        for type in [deep, doubled] {
            let property = ModelSchema.Property(
                name: "x", type: type, paths: [], defaultValue: nil, enumValues: nil, serialize: true, readOnly: false,
                dateFormat: nil, embedPath: nil, converter: nil, inverse: nil, group: false)
            let schema = ModelSchema(models: [ModelSchema.Model(name: "M", extends: nil, discriminator: nil, properties: [property])])
            let registry = ModelRegistry()
            #expect(throws: ModelSchemaError.self) { try registry.register(schema) }
            #expect(registry.schemaMetadata(named: "M") == nil)
        }
    }

    /// From a file: the problem names file, model and property.
    @Test func aTooDeepTypeInAFileNamesFileModelAndProperty() throws {
        let folder = try SchemaFolder(["deep.json": Self.schema(type: "Int" + String(repeating: "?", count: 5_000))])
        defer { folder.remove() }
        do {
            try ModelRegistry().loadSchemas(at: folder.url)
            Issue.record("loaded")
        } catch {
            #expect(error.problems.count == 1)
            #expect(error.problems.first?.file == folder.path("deep.json"))
            #expect(error.problems.first?.model == "M" && error.problems.first?.property == "x")
        }
    }

    // MARK: - Defaults of model types

    /// Each registered, then reading `x` on `{}` stopped the process: "M.x has no usable default".
    @Test(arguments: [
        ("A?", "5"), ("A", "5"), ("A", "null"), ("A", "[]"), ("A?", "\"text\""),
        ("[String: A]", "{\"k\": 5}"), ("[String: A]", "[]"), ("[String: A?]", "{\"k\": true}"),
        ("[A]", "{}"), ("[A]", "[1]"), ("[A]", "[null]"), ("[A]", "[{}, 2]"), ("[A?]", "[5]"), ("[[A]]", "[[{}], [3]]"),
        ("[A]?", "5"),
    ])
    func modelDefaultsThatAreNotObjectsAreRefused(_ type: String, _ value: String) throws {
        Self.expectRefusedDefault(type, value)
    }

    /// Registering `M.x` of `type` with the default `value` fails, naming the property and why.
    static func expectRefusedDefault(_ type: String, _ value: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .failure(let error) = register(schema(type: type, default: value)) else {
            Issue.record("\(type) with default \(value) registered", sourceLocation: sourceLocation)
            return
        }
        #expect(error.model == "M" && error.property == "x", "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.hasPrefix("the default"), "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains("is not a valid \(type)"), "\(error)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        ("A?", "{\"n\": 2}", "{\"n\": 2}"), ("A?", "null", "null"), ("A", "{}", "{}"),
        ("[A]", "[{\"n\": 1}, {}]", "[{\"n\": 1}, {}]"), ("[A?]", "[null, {}]", "[null, {}]"),
        ("[String: A]", "{\"k\": {\"n\": 3}}", "{\"k\": {\"n\": 3}}"), ("[[A]]", "[[{}], []]", "[[{}], []]"),
        ("[A]?", "null", "null"),
    ])
    func modelDefaultsThatAreObjectsRead(_ type: String, _ value: String, _ expected: String) throws {
        let registry = try Self.register(Self.schema(type: type, default: value)).get()
        let model = try registry.makeModel(named: "M", json: [:] as JSONValue)
        let json = try JSONDocument(data: Data(expected.utf8)).root.value
        #expect(model.jsonModel.jsonValue(forProperty: "x") == json, "\(type)")
        #expect(model.jsonModel.diagnostics.isEmpty)
    }

    /// A default converts only without a diagnostic: an element left out of a collection, or a
    /// number rounded, would read as other than what the schema declares.
    @Test(arguments: [
        ("[Int]", "[1, \"x\", 3]"), ("[Bool]", "[\"maybe\"]"), ("[UUID]", "[\"zz\"]"), ("[String: Int]", "{\"a\": \"x\", \"b\": 2}"),
        ("[Date]", "[\"nope\"]"), ("[[Int]]", "[[1], [true]]"), ("Int", "2.5"), ("[Int?]", "[1.5]"),
    ])
    func defaultsThatConvertOnlyInPartAreRefused(_ type: String, _ value: String) throws {
        Self.expectRefusedDefault(type, value)
    }

    @Test(arguments: [
        ("[Int]", "[1, 2]"), ("[Int?]", "[null, 3]"), ("[String: Int]", "{\"b\": 2}"), ("Int", "2.0"), ("Double", "2"),
    ])
    func defaultsThatConvertWholeRead(_ type: String, _ value: String) throws {
        let registry = try Self.register(Self.schema(type: type, default: value)).get()
        let model = try registry.makeModel(named: "M", json: [:] as JSONValue)
        #expect(model.jsonModel.jsonValue(forProperty: "x") == (try JSONDocument(data: Data(value.utf8)).root.value), "\(type)")
        #expect(model.jsonModel.diagnostics.isEmpty)
    }

    /// The same check guards compiled declarations: the registration block cannot express such a
    /// default, but the metadata refuses one however it comes.
    @Test func compiledDeclarationsWithANonObjectModelDefaultAreProblems() {
        final class Item: JSONModel, DynamicMembers, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) { p.n(Int.self) }
        }
        let declarations: [(PropertyType, JSONValue)] = [
            (.model(Item.self), 5), (.optional(.model(Item.self)), "x"), (.array(.model(Item.self)), [1]),
            (.dictionary(.model(Item.self)), ["k": [1]]),
        ]
        for (type, value) in declarations {
            let metadata = ModelMetadata(
                modelName: "Holder", modelType: JSONModel.self,
                declarations: [(PropertyDeclaration(name: "item", type: type, defaultValue: value), "Holder")])
            #expect(metadata.problems.count == 1, "\(type)")
            #expect(metadata.properties.isEmpty)
            #expect(metadata.problems.first?.message.hasPrefix("the default") == true)
        }
    }

    @Test func modelsMayNotBeNamedLikeBuiltInTypes() throws {
        for name in ModelRegistry.builtinTypes.keys.sorted() {
            let text = #"{"models": [{"name": "\#(name)", "properties": [{"name": "n", "type": "Int?"}]}]}"#
            guard case .failure(let error) = Self.register(text) else {
                Issue.record("a model named \(name) registered")
                continue
            }
            #expect(error == ModelSchemaError("\"\(name)\" is a built-in type; a model cannot be named so", model: name))
        }
        // Names that merely resemble one are fine.
        #expect(throws: Never.self) { _ = try Self.register(#"{"models": [{"name": "Integer"}, {"name": "date"}]}"#).get() }
    }

    // MARK: - Discriminators

    @Test func discriminatorTargetsMustExtendTheModel() throws {
        let text = #"""
            {"models": [
              {"name": "Invoice", "discriminator": {"jsonPath": "kind", "map": {"other": "Other", "credit": "Credit"}},
               "properties": [{"name": "total", "type": "Decimal"}]},
              {"name": "Credit", "extends": "Invoice"},
              {"name": "Other", "properties": [{"name": "note", "type": "String"}]}]}
            """#
        let folder = try SchemaFolder(["billing.json": text])
        defer { folder.remove() }
        let registry = ModelRegistry()
        do {
            try registry.loadSchemas(at: folder.url)
            Issue.record("loaded")
        } catch {
            #expect(error.problems == [
                ModelSchemaError(
                    "the discriminator maps \"other\" to \"Other\", which does not extend \"Invoice\"",
                    model: "Invoice", file: folder.path("billing.json"))
            ])
        }
        #expect(registry.schemaMetadata(named: "Invoice") == nil)
    }

    /// Discriminator tags are compared as Swift compares text, so two spellings of one text
    /// would be one tag, and one of their models could never be chosen: refused, naming both.
    @Test func discriminatorTagsSpelledTwoWaysAreRefused() throws {
        let text = #"""
            {"models": [
              {"name": "Base", "discriminator": {"jsonPath": "kind", "map": {"\u00e9": "Acute", "e\u0301": "Combining"}}},
              {"name": "Acute", "extends": "Base"}, {"name": "Combining", "extends": "Base"}]}
            """#
        guard case .failure(let error) = Self.register(text) else {
            Issue.record("registered")
            return
        }
        #expect(error.model == "Base")
        #expect(error.message == #"the discriminator maps "\u{E9}" and "e\u{301}", one text spelled two ways"#, "\(error)")
        let repeated = #"{"models": [{"name": "Base", "discriminator": {"jsonPath": "kind", "map": {"a": "Base", "a": "Base"}}}]}"#
        #expect(throws: Never.self) { try Self.register(repeated).get() }
    }

    /// A registered model that does not extend is refused too; one extending through a chain is fine.
    @Test func discriminatorTargetsMayExtendThroughAChain() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"""
            {"models": [{"name": "Base", "properties": [{"name": "kind", "type": "String"}]},
                        {"name": "Loose", "properties": [{"name": "kind", "type": "String"}]}]}
            """#))
        #expect(throws: ModelSchemaError("the discriminator maps \"l\" to \"Loose\", which does not extend \"Root\"", model: "Root")) {
            try registry.register(ModelSchema(json: #"""
                {"models": [{"name": "Root", "extends": "Base", "discriminator": {"jsonPath": "kind", "map": {"l": "Loose"}}}]}
                """#))
        }
        try registry.register(ModelSchema(json: #"""
            {"models": [
              {"name": "Root", "extends": "Base", "discriminator": {"jsonPath": "kind", "map": {"leaf": "Leaf", "root": "Root"}}},
              {"name": "Middle", "extends": "Root"},
              {"name": "Leaf", "extends": "Middle", "properties": [{"name": "depth", "type": "Int"}]}]}
            """#))
        let leaf = try registry.makeModel(named: "Root", json: ["kind": "leaf", "depth": 2] as JSONValue)
        #expect(leaf.jsonModel.modelName == "Leaf")
        #expect(leaf.jsonModel.value(forProperty: "depth") as? Int == 2)
        #expect(try registry.makeModel(named: "Root", json: ["kind": "root"] as JSONValue).jsonModel.modelName == "Root")
    }

    /// A child declaring a property its parent declares is refused on the child. It used to be
    /// attributed to the parent and dropped (reported "when that model is built", which has no
    /// such problem): the load succeeded, returned the child's name, and registered no child.
    @Test func aPropertyDeclaredAgainInAChildIsRefusedOnTheChild() throws {
        let text = #"""
            {"models": [{"name": "Base", "properties": [{"name": "n", "type": "Int"}]},
                        {"name": "Child", "extends": "Base", "properties": [{"name": "n", "type": "String"}]}]}
            """#
        let registry = ModelRegistry()
        #expect(throws: ModelSchemaError("'n' is declared more than once", model: "Child", property: "n")) {
            try registry.register(ModelSchema(json: text))
        }
        #expect(registry.schemaMetadata(named: "Base") == nil)
    }

    // MARK: - Cost

    /// `{"name": "M1", "extends": "M0", …}`, each model one property.
    static func chain(_ count: Int, prefix: String = "M") -> [String] {
        (0..<count).map { index in
            let extends = index == 0 ? "" : #""extends": "\#(prefix)\#(index - 1)", "#
            return #"{"name": "\#(prefix)\#(index)", \#(extends)"properties": [{"name": "p\#(index)", "type": "Int"}]}"#
        }
    }

    static func schema(models: [String]) -> String { #"{"models": ["# + models.joined(separator: ",\n") + "]}" }

    /// A chain of 2,000 models took 12.9 s and 2.3 GB (every model rebuilt every inherited
    /// property); it is now refused at once, at the first model past the limit.
    @Test func aLongExtendsChainIsRefusedAtOnce() throws {
        let limit = ModelSchema.maximumExtendsDepth
        #expect(limit == 16)
        let result = Self.problems(loading: Self.schema(models: Self.chain(2_000)))
        #expect(result.count == 1, "one problem per chain, not one per model")
        #expect(result.first?.model == "M\(limit + 1)")
        #expect(result.first?.message == "\"extends\" gives the model more than \(limit) ancestors: M\(limit + 1) → M\(limit) → … → M0")
        Scaling.expectLinear(from: 1_000, "refusing an extends chain of n models") { count in
            _ = Self.problems(loading: Self.schema(models: Self.chain(count)))
        }
    }

    /// 2,000 models in chains of the deepest accepted length load quickly, and the deepest
    /// reads the root's property.
    @Test func manyChainsAtTheLimitLoadQuickly() throws {
        let length = ModelSchema.maximumExtendsDepth + 1
        let models = (0..<(2_000 / length)).flatMap { Self.chain(length, prefix: "C\($0)_") }
        let registry = ModelRegistry()
        let names = try loadSchemaText(Self.schema(models: models), into: registry)
        #expect(names.count == models.count)
        try Scaling.expectLinear(from: 500, "loading n models in chains at the limit") { count in
            let chains = (0..<(count / length)).flatMap { Self.chain(length, prefix: "C\($0)_") }
            _ = try loadSchemaText(Self.schema(models: chains))
        }
        let last = length - 1
        let model = try registry.makeModel(named: "C0_\(last)", json: ["p0": 1, "p\(last)": 2] as JSONValue)
        #expect(model.jsonModel.value(forProperty: "p0") as? Int == 1 && model.jsonModel.value(forProperty: "p\(last)") as? Int == 2)
        #expect(registry.schemaMetadata(named: "C0_\(last)")?.properties.count == length)
    }

    /// Memory: peak growth while loading, measured in a child process (other tests run in parallel here).
    @Test(ChildTestProcess.available) func loadingLongChainsTakesMemoryInProportion() throws {
        guard
            let report = try ChildTestProcess.run(
                filter: #"JSONModelKitTests\.HostileSchemaTests/childLoadsLongChains"#, workload: "chains", label: "the schema memory child"),
            let growth = report.number("growth")
        else { return }
        print("hostile schemas: memory: peak growth \(growth / 1_000_000) MB, checks \(report.passed ? "passed" : "failed")")
        #expect(report.passed)
        // The refused 2,000-chain, then 2,000 models in chains at the limit (about 18,000 properties
        // counting inherited ones): about 15 MB, where the 2,000-chain alone took 2.3 GB.
        #expect(growth < 48_000_000, "peak growth \(growth) bytes")
    }

    /// Runs the memory workload when started by ``loadingLongChainsTakesMemoryInProportion()``; skipped otherwise.
    @Test(ChildTestProcess.child())
    func childLoadsLongChains() throws {
        let refused = Self.schema(models: Self.chain(2_000))
        let length = ModelSchema.maximumExtendsDepth + 1
        let accepted = Self.schema(models: (0..<(2_000 / length)).flatMap { Self.chain(length, prefix: "C\($0)_") })
        ProcessMemory.resetPeak()
        let before = ProcessMemory.status("VmRSS")
        let registry = ModelRegistry()
        let refusedOK = (try? loadSchemaText(refused, into: registry)) == nil
        let acceptedOK = (try? loadSchemaText(accepted, into: registry))?.count == 2_000 / length * length
        let peak = ProcessMemory.status("VmHWM")
        withExtendedLifetime(registry) {}
        try ChildTestProcess.write(["growth": peak - before, "passed": refusedOK && acceptedOK])
    }

    /// 10,000 models each naming an unknown type took 4.9 s to report (each "did you mean" scanned
    /// every name); now linear.
    @Test func tenThousandUnknownTypesAreReportedQuickly() throws {
        let count = 10_000
        let models = (0..<count).map { #"{"name": "M\#($0)", "properties": [{"name": "p", "type": "Unknown\#($0)"}]}"# }
            + [#"{"name": "Known", "properties": [{"name": "p", "type": "known"}]}"#]
        let problems = Self.problems(loading: Self.schema(models: models))
        #expect(problems.count == count + 1)
        #expect(problems.first?.message == "unknown type \"Unknown0\"")
        #expect(problems.last?.message == "unknown type \"known\" (did you mean \"Known\"?)")
        Scaling.expectLinear(from: 2_500, "reporting n unknown type names") { count in
            _ = Self.problems(loading: Self.schema(models: (0..<count).map {
                #"{"name": "M\#($0)", "properties": [{"name": "p", "type": "Unknown\#($0)"}]}"#
            }))
        }
    }

    /// A property's `anyOf` list of thousands of paths: each was checked against those before it,
    /// so 20,000 paths took 37 s; now linear. Repeated paths are still kept once, in order.
    @Test func aLongAnyOfListLoadsInLinearTime() throws {
        func schema(_ count: Int, repeating: Bool = false) -> String {
            let paths = (0..<count).map { #""k\#($0 % (repeating ? 3 : count))""# }.joined(separator: ",")
            return #"{"models": [{"name": "M", "properties": [{"name": "p", "type": "Int?", "anyOf": [\#(paths)]}]}]}"#
        }
        let registry = try Self.register(schema(9, repeating: true)).get()
        let model = try registry.makeModel(named: "M", json: Data(#"{"k2": 7, "k1": 5}"#.utf8))
        #expect(model[property: "p"] as Int? == 5, "the first path of the list that is present")
        Scaling.expectLinear(from: 5_000, "loading an anyOf list of n paths") { count in
            _ = Self.register(schema(count))
        }
    }
}

/// Loads `text` as a schema file into `registry` (a new one by default), then removes the file.
@discardableResult
func loadSchemaText(_ text: String, into registry: ModelRegistry = ModelRegistry()) throws(SchemaLoadingError) -> [String] {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodelkit-hostile-\(UUID().uuidString).json")
    try? Data(text.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    return try registry.loadSchemas(at: url)
}
