import Foundation
import Testing
@testable import JSONModelKit

final class StrictPerson: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
        p.age(Int.self)
        p.member(Bool.self, default: false)
        p.nickname(String?.self)
        p.extra(JSONValue.self)
        p.home(StrictHome?.self)
    }
}

final class StrictHome: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.city(String.self)
        p.scores([Double].self, default: [])
    }
}

/// Lenient validation (the default) accepts what reads convert; strict validation refuses what
/// `Codable` would: lenient conversions, and missing or null non-optionals.
@Suite("Strict validation")
struct StrictValidationTests {
    /// Each input passes lenient validation and fails strict validation at `path`.
    static let lenientOnly: [(json: String, path: String, kind: ModelDiagnostic.Kind)] = [
        (#"{"nmae": "Ann", "age": 3, "extra": 1}"#, "name", .missingRequired),  // a key typo
        (#"{"name": 5, "age": 3, "extra": 1}"#, "name", .typeMismatch),  // a number for a String
        (#"{"name": true, "age": 3, "extra": 1}"#, "name", .typeMismatch),  // a bool for a String
        (#"{"name": null, "age": 3, "extra": 1}"#, "name", .missingRequired),  // null for a non-optional
        (#"{"name": "Ann", "age": "3", "extra": 1}"#, "age", .typeMismatch),  // text for a number
        (#"{"name": "Ann", "age": 3, "member": "yes", "extra": 1}"#, "member", .typeMismatch),
        (#"{"name": "Ann", "age": 3, "member": 1, "extra": 1}"#, "member", .typeMismatch),
        (#"{"name": "Ann", "age": 3}"#, "extra", .missingRequired),
        (#"{"name": "Ann", "age": 3, "extra": 1, "home": {"city": 9}}"#, "home.city", .typeMismatch),
        (#"{"name": "Ann", "age": 3, "extra": 1, "home": {"city": "R", "scores": ["1.5"]}}"#, "home.scores[0]", .typeMismatch),
    ]

    @Test(arguments: 0..<lenientOnly.count)
    func lenientPassesStrictFails(case index: Int) throws {
        let (json, path, kind) = Self.lenientOnly[index]
        let person = try StrictPerson(json: json)
        #expect(throws: Never.self) { try person.jsonModel.validate() }
        #expect(throws: Never.self) { try StrictPerson(json: json, options: .validating) }
        do {
            try person.jsonModel.validate(strict: true)
            Issue.record("strict validation passed for \(json)")
        } catch {
            #expect(error.diagnostics.map(\.path.description) == [path], "\(json)")
            #expect(error.diagnostics.first?.kind == kind)
            #expect(error.description.contains(path + ": "))
        }
        #expect(throws: JSONModelError.self) { try StrictPerson(json: json, options: .strict) }
        #expect(throws: JSONModelError.self) { try StrictPerson(json: json, options: ModelOptions(strict: true)) }
        // Reads stay lenient, and strict problems are not kept in the model.
        #expect(person.jsonModel.diagnostics.isEmpty)
    }

    @Test func strictAcceptsExactTypesOptionalsDefaultsAndUnknownKeys() throws {
        let json = #"""
            {"name": "Ann", "age": 3.0, "nickname": null, "extra": null, "unknown": "kept",
             "home": {"city": "Rome", "scores": [1, 2.5]}}
            """#
        let person = try StrictPerson(json: json, options: .strict)
        try person.jsonModel.validate(strict: true)
        #expect(person.age == 3)
    }

    @Test func strictProblemsComeWithLenientOnes() throws {
        let person = try StrictPerson(json: #"{"name": 1, "age": "x", "extra": 1}"#)
        do {
            try person.jsonModel.validate(strict: true)
            Issue.record("strict validation passed")
        } catch {
            #expect(error.diagnostics.map(\.path.description) == ["name", "age"])
        }
        // The lenient problem stays with the model; the strict one does not.
        #expect(person.jsonModel.diagnostics.map(\.path.description) == ["age"])
    }

    @Test func collectionsValidateStrictlyAtCreation() throws {
        let data = Data(#"[{"name": "Ann", "age": 3, "extra": 1}, {"name": "Bo", "age": "4", "extra": 1}]"#.utf8)
        _ = try StrictPerson.array(from: data, options: .validating)
        do {
            _ = try StrictPerson.array(from: data, options: .strict)
            Issue.record("strict validation passed")
        } catch .validationFailed(let error) {
            #expect(error.diagnostics.map(\.path.description) == ["[1].age"])
        } catch {
            Issue.record("\(error)")
        }
    }
}
