import Foundation
import Testing
@testable import JSONModelKit

final class AnyOfRef: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self, anyOf: ["id", "object_id"])
    }
}

@Suite("anyOf writes")
struct AnyOfWriteTests {
    @Test(arguments: [
        // input, output after writing 9
        (#"{"object_id": 3}"#, #"{"object_id":9}"#),
        (#"{"id": 3}"#, #"{"id":9}"#),
        (#"{}"#, #"{"id":9}"#),
        (#"{"id": null, "object_id": 3}"#, #"{"id":null,"object_id":9}"#),
        (#"{"object_id": null}"#, #"{"object_id":9}"#),
        (#"{"id": 1, "object_id": 3}"#, #"{"id":9,"object_id":3}"#),
    ])
    func aWriteGoesWhereTheValueWasRead(input: String, expected: String) throws {
        let ref = try AnyOfRef(json: input, options: .mutable)
        ref.id = 9
        #expect(ref.jsonModel.jsonString() == expected)
        #expect(ref.id == 9)
    }
}
