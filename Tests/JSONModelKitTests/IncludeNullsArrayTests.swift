import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitCore

final class NullsTagged: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.tags([String].self)
    }
}

@Suite("includeNulls and missing arrays")
struct IncludeNullsArrayTests {
    /// A missing non-optional array is written `null`, like every other absent key, not `[]`:
    /// the output says what the JSON holds, and the `null` reads back as the same `[]`.
    @Test func aMissingArrayIsWrittenNullAndReadsBackEmpty() throws {
        let model = try NullsTagged(json: "{}")
        let output = model.jsonModel.json(options: .includeNulls)
        #expect(output == JSONValue.object(JSONObject([(key: "tags", value: JSONValue.null)])))
        let again = try NullsTagged(json: output.jsonString())
        #expect((again.tags as [String]) == [])
        #expect(again.jsonModel.diagnostics.isEmpty)
    }
}
