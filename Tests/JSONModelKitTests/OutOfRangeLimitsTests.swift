import Foundation
import Testing
@testable import JSONModelKit

private final class LimitTagged: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.tags([String].self)
        p.title(String?.self)
    }
}

/// A model whose two properties read the same nested model, which is of its own class.
private final class AliasedChain: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.next(AliasedChain.self, jsonPath: "n")
        p.alias(AliasedChain.self, jsonPath: "n", readOnly: true)
    }
}

/// Limits set out of their range count as their least, and no description's work doubles
/// with each level of a document.
@Suite("Limits out of range", .timeLimit(.minutes(10)))
struct OutOfRangeLimitsTests {
    @Test func negativeDescriptionLimitsCountAsTheirLeast() throws {
        let model = try LimitTagged(json: #"{"tags": ["a", "b"], "title": "Hello", "x": 1}"#)
        var limits = DescriptionLimits.default
        limits.maxItems = -1
        limits.maxStringLength = -5
        limits.maxFullStringLength = -5
        limits.maxLineLength = -1
        limits.maxDepth = -3
        limits.maxLineNesting = -3
        #expect(limits == DescriptionLimits(
            maxStringLength: 1, maxLineLength: 16, maxLineNesting: 1, maxFullStringLength: 1, maxItems: 0, maxDepth: 1))
        let full = model.jsonModel.fullDescription(limits: limits)
        #expect(full.contains("tags: [2 items]") && full.contains(#"title: "H…""#))
        #expect(!model.jsonModel.description(limits: limits).isEmpty)
    }

    @Test func aNegativeElementSizeCountsAsOne() throws {
        var stream = JSONStreamOptions()
        stream.maxElementSize = -2
        #expect(stream.maxElementSize == 1)
        let reader = ModelStreamReader<StreamEvent>(
            bytes: Array(#"[{"id":1}]"#.utf8), options: ModelOptions(streamOptions: stream))
        #expect(throws: JSONStreamError.self) { try reader.read() }
    }

    @Test func describingAliasedNestedModelsIsNotExponential() throws {
        var json = "{}"
        for _ in 0..<28 { json = #"{"n":\#(json)}"# }
        let chain = try AliasedChain(json: json)
        #expect("\(chain)" == "AliasedChain()")
        #expect(chain.debugDescription == "AliasedChain()")
        let leaf = try AliasedChain(json: #"{"n": {"n": {"n": {"x": 1}}}}"#)
        #expect("\(leaf)" == "AliasedChain()")
        _ = chain.jsonModel.fullDescription
    }
}
