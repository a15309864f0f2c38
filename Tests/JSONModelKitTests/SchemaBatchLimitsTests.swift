import Foundation
import Testing
@testable import JSONModelKit

/// A batch of schema models is registered whole or not at all, and what checking it costs stays
/// in proportion to its size.
@Suite("Schema batches: all or nothing, in proportion", .timeLimit(.minutes(5)))
struct SchemaBatchLimitsTests {
    private func problems(_ text: String, in registry: ModelRegistry = ModelRegistry()) -> [ModelSchemaError] {
        do {
            let schema = try ModelSchema(json: text)
            try SchemaBatch(models: schema.models.map { SchemaBatch.Entry(model: $0, file: nil) }).register(in: registry)
            return []
        } catch let error as SchemaLoadingError {
            return error.problems
        } catch let error as ModelSchemaError {
            return [error]
        } catch {
            Issue.record("\(error)")
            return []
        }
    }

    @Test func aModelWhoseInheritedPropertyFailsOnlyForItIsRefusedAndTheBatchWithIt() throws {
        let text = #"""
            {"models": [
              {"name": "Base", "allowNonFiniteNumbers": true, "properties": [{"name": "d", "type": "Double", "default": "NaN"}]},
              {"name": "Child", "extends": "Base", "allowNonFiniteNumbers": false}
            ]}
            """#
        let registry = ModelRegistry()
        let found = problems(text, in: registry)
        #expect(found.map(\.model) == ["Child"])
        #expect(found.map(\.property) == ["d"])
        #expect(registry.schemaMetadata(named: "Base") == nil)
        #expect(registry.schemaMetadata(named: "Child") == nil)

        // With the base registered before, the problem is the child's, not the base's.
        let base = #"{"models": [{"name": "Base", "allowNonFiniteNumbers": true, "properties": [{"name": "d", "type": "Double", "default": "NaN"}]}]}"#
        #expect(problems(base, in: registry).isEmpty)
        let child = #"{"models": [{"name": "Child", "extends": "Base", "allowNonFiniteNumbers": false}]}"#
        #expect(problems(child, in: registry).map(\.model) == ["Child"])
        #expect(registry.schemaMetadata(named: "Child") == nil)
    }

    @Test func aProblemTheBaseSharesIsReportedOnceOnTheBase() throws {
        let text = #"""
            {"models": [
              {"name": "Base", "properties": [{"name": "d", "type": "Double", "default": "NaN"}]},
              {"name": "Child", "extends": "Base"}
            ]}
            """#
        #expect(problems(text).map(\.model) == ["Base"])
    }

    @Test func manyModelsExtendingALargeBaseAreRefusedBeforeTheirMetadataIsBuilt() throws {
        let properties = (0..<2_000).map { #"{"name": "p\#($0)", "type": "Int"}"# }.joined(separator: ",")
        let children = (0..<2_000).map { #"{"name": "C\#($0)", "extends": "Base"}"# }.joined(separator: ",")
        let registry = ModelRegistry()
        let found = problems(#"{"models": [{"name": "Base", "properties": [\#(properties)]}, \#(children)]}"#, in: registry)
        #expect(found.count == 1)
        #expect(found.first?.message.contains("properties with the ones they inherit") == true)
        #expect(registry.schemaMetadata(named: "Base") == nil)
        // Models extending a base registered before cost what they cost in one batch with it.
        let registered = ModelRegistry()
        #expect(problems(#"{"models": [{"name": "Base", "properties": [\#(properties)]}]}"#, in: registered).isEmpty)
        let some = (0..<51).map { #"{"name": "C\#($0)", "extends": "Base"}"# }.joined(separator: ",")
        #expect(problems(#"{"models": [\#(some)]}"#, in: registered).isEmpty)
        // A few models extending it are what schemas are for.
        let few = (0..<20).map { #"{"name": "C\#($0)", "extends": "Base"}"# }.joined(separator: ",")
        #expect(problems(#"{"models": [{"name": "Base", "properties": [\#(properties)]}, \#(few)]}"#).isEmpty)
    }

    @Test func cyclesOfGroupsAreReportedAtMostTenTimesAndShortly() throws {
        let n = 3_000
        var models = (0..<(n - 1)).map { #"{"name": "M\#($0)", "properties": [{"name": "g", "type": "M\#($0 + 1)", "group": true}]}"# }
        let back = (0..<n).map { #"{"name": "h\#($0)", "type": "M\#($0)", "group": true}"# }.joined(separator: ",")
        models.append(#"{"name": "M\#(n - 1)", "properties": [\#(back)]}"#)
        let found = problems(#"{"models": [\#(models.joined(separator: ","))]}"#)
        #expect(found.count == 10)
        #expect(found.allSatisfy { $0.message.count < 1_000 })
        #expect(found.first?.message.contains("more →") == true)
    }

    @Test func theDiscriminatorTakesItsKeysOnlyAndAPathToAValue() {
        let misspelt = #"{"models": [{"name": "A", "discriminator": {"jsonPath": "type", "map": {}, "defualt": "A"}}]}"#
        #expect(problems(misspelt).map(\.message) == [#"unknown key "defualt" in the discriminator of model A"#])
        let root = #"{"models": [{"name": "A", "discriminator": {"jsonPath": "$", "map": {}}}]}"#
        #expect(problems(root).first?.message.hasPrefix(#"the discriminator's "jsonPath" names the root"#) == true)
    }
}
