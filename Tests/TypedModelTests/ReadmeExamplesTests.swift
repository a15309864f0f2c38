import Foundation
import Testing
import JSONModelKit

/// The README's examples, run as written: if one of them stops being true, this fails.
@Suite("README examples")
struct ReadmeExamplesTests {
    final class User: JSONModel, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.firstName(String.self, jsonPath: "first_name")
            p.login(String.self)
            p.age(Int.self, default: 18)
            p.id(Int64.self, anyOf: ["id", "objectId", "object_id"])
            p.address(Address.self)
            p.tags([String].self)
            p.password(String?.self, serialize: false)
        }
    }

    final class Address: JSONModel, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.city(String.self)
            p.zip(String?.self, jsonPath: "postal_code")
        }
    }

    enum Kind: String, Sendable, JSONUnknownCase { case alpha, beta, unknown }

    final class Item: JSONModel, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.kind(Kind.self)
            p.kinds([Kind].self)
        }
    }

    /// The example of the user's types, alone and in a collection.
    @Test func enumsAloneAndInArrays() throws {
        let item = try Item(json: #"{"kind": "gamma", "kinds": ["alpha", "gamma"]}"#)
        #expect(item.kind == .unknown)
        #expect(item.kinds == [.alpha, .unknown])
        #expect(item.jsonModel.diagnostics.map(\.path.description).contains("kinds[1]"))
    }

    /// The example on the front page.
    @Test func frontPage() throws {
        let user = try User(json: #"{"first_name": "Ann", "login": "ann", "address": {"city": "Rome"}, "x-id": 7}"#)
        #expect(user.firstName == "Ann")
        #expect(user.address.city == "Rome")
        #expect(user.age == 18)
        let moved = user.jsonModel.mutate { $0.address.city = "Oslo" }
        #expect(moved.jsonModel.jsonString() == #"{"first_name":"Ann","login":"ann","address":{"city":"Oslo"},"x-id":7}"#)
        #expect(user.address.city == "Rome")
        #expect(user.debugDescription == #"User(firstName: "Ann", login: "ann", address: Address(city: "Rome"))"#)
    }

    @Test func declarationsAreValid() throws {
        try User.validateDeclarations()
        try Address.validateDeclarations()
    }

    @Test func reading() throws {
        let data = Data(#"{"first_name": "Ada", "login": "ada", "age": 36, "objectId": 7, "address": {"city": "London"}, "tags": ["a"], "extra": true}"#.utf8)
        let user = try User(json: data)
        let name = user.firstName
        let next = user.age + 1
        let city = user.address.city
        #expect(name == "Ada" && next == 37 && city == "London")
        #expect(user.login.count == 3)
        for tag in user.tags { #expect(tag == "a") }
        #expect(user.id == 7)
        #expect(user[property: "age"] as Int == 36)
        #expect(user.jsonModel.dynamic.address.city == "London")
        #expect(user.jsonModel.value(forProperty: "age") as? Int == 36)
        #expect(user.jsonModel.value(forProperty: "nope") == nil)
        #expect(user.jsonModel.jsonValue(forProperty: "tags") == .array(["a"]))
        #expect(user.jsonModel.json()["extra"] == .bool(true))
    }

    @Test func elementsThatDoNotConvertAreLeftOutWithADiagnostic() throws {
        let user = try User(json: #"{"tags": ["a", 2, {}]}"#)
        #expect(user.tags == ["a", "2"])
        #expect(user.jsonModel.diagnostics.map(\.path.description) == ["tags[2]"])
    }

    @Test func writing() throws {
        let user = try User(json: #"{"age": "31", "address": {"city": "Rome"}}"#)
        let older = user.jsonModel.mutate { $0.age = 40; $0.address.city = "Milan" }
        #expect(older.jsonModel.jsonString() == #"{"age":"40","address":{"city":"Milan"}}"#)
        #expect(user.age == 31)

        let draft = user.jsonModel.mutableCopy()
        draft.age = 41
        try draft.jsonModel.set("42", forProperty: "age")
        #expect(draft.age == 42)
        #expect(draft.jsonModel.originalJSON["age"] == .string("31"))
        draft.jsonModel.clearMutations()
        #expect(draft.age == 31)
    }

    @Test func nothingLost() throws {
        let user = try User(json: #"{"id": 12345678901234567890, "age": 30, "x-trace": "caf\u00e9"}"#)
        let older = user.jsonModel.mutate { $0.age = 31 }
        #expect(older.jsonModel.jsonString() == #"{"id":12345678901234567890,"age":31,"x-trace":"café"}"#)
        // Never written to: compact, every string escaped as it came.
        #expect(user.jsonModel.jsonString() == #"{"id":12345678901234567890,"age":30,"x-trace":"caf\u00e9"}"#)
    }

    @Test func aParseErrorSaysWhere() {
        let untrusted: [UInt8] = Array(#"{"name": "caf"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        do {
            _ = try JSONDocument(bytes: untrusted)
            Issue.record("invalid UTF-8 parsed")
        } catch {
            #expect("\(error)".hasPrefix("JSON parse error at line 1, column 14 (byte 13): invalid UTF-8\n  near: {\"name\": \"caf"))
        }
    }

    @Test func streaming() async throws {
        let lines = Array("{\"first_name\": \"Ada\", \"login\": \"ada\"}\n{\"first_name\": \"Alan\", \"login\": \"alan\"}\n".utf8)
        var logins: [String] = []
        for try await user in User.stream(from: ReadmeBytes(bytes: lines)) { logins.append(user.login) }
        #expect(logins == ["ada", "alan"])

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(lines).write(to: url)
        var names: [String] = []
        for result in try ModelStreamReader<User>(contentsOf: url) {
            let user = try result.get()
            names.append(user.firstName)
        }
        #expect(names == ["Ada", "Alan"])

        let broken = Array("{\"login\": \"a\"}\n{\"login\": \"b\", \"first_name\": \"Bo\n".utf8)
        let reader = ModelStreamReader<User>(bytes: broken)
        #expect(try reader.read()?.login == "a")
        #expect(throws: JSONStreamError.self) { try reader.read() }
    }
}

/// Bytes in memory as an async sequence, as a response body would arrive.
struct ReadmeBytes: AsyncSequence, Sendable {
    typealias Element = UInt8
    let bytes: [UInt8]

    struct AsyncIterator: AsyncIteratorProtocol {
        let bytes: [UInt8]
        var index = 0

        mutating func next() async -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes) }
}
