import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

final class EntryPointUser: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
        p.age(Int.self)
    }
}

/// JSON text in a buffer of the caller's own, as a networking library would hand it over.
struct OwnBuffer: JSONSource {
    var storage: [UInt8]

    func parsedJSON(options: JSONParseOptions) throws(JSONModelError) -> ParsedJSON {
        do {
            return ParsedJSON(try JSONDocument(bytes: storage, options: options).root)
        } catch {
            throw .invalidJSON(error)
        }
    }
}

/// Every way to create models from JSON: the eight entry points, each taking any `JSONSource`
/// (or bytes, for streams) and one `ModelOptions`.
@Suite("Creation entry points")
struct CreationEntryPointTests {
    static let text = #"{"name": "Ann", "age": 30}"#

    /// The public functions that create models from JSON, as the symbol graph lists them: the
    /// set CreatingModels.md documents, and no other.
    @Test(.enabled(if: JSONModelMembers.available))
    func thePublicSetIsTheDocumentedEight() throws {
        let graph = try JSONModelMembers.graph.get()
        var found: Set<String> = []
        for symbol in graph["symbols"]?.arrayValue ?? [] {
            guard let path = symbol["pathComponents"]?.arrayValue?.compactMap(\.stringValue), path.count == 2,
                let identifier = symbol["identifier"]?["precise"]?.stringValue, !identifier.contains("::SYNTHESIZED::")
            else { continue }
            let declaration = (symbol["declarationFragments"]?.arrayValue ?? []).compactMap { $0["spelling"]?.stringValue }
                .joined()
            // A schema is read from JSON too, but it defines models rather than being one.
            let takesJSON = declaration.contains("JSONSource") && path[1] != "parsedJSON(options:)" && path[0] != "ModelSchema"
            let streams = path[0] == "ModelStreamReader" && path[1].hasPrefix("init(") || path[1].hasPrefix("stream(")
            if takesJSON || streams { found.insert(path.joined(separator: ".")) }
        }
        #expect(
            found == [
                "JSONModel.init(json:options:)", "JSONModel.make(json:options:)",
                "JSONModelProtocol.array(from:options:)", "ModelDictionary.init(json:options:)",
                "ModelRegistry.makeModel(named:json:options:)", "JSONModelProtocol.stream(from:options:)",
                "ModelStreamReader.init(contentsOf:options:)", "ModelStreamReader.init(bytes:options:)",
            ], "\(found.sorted())")
    }

    /// The public surface of both libraries, counted as the symbol graph lists it: every public
    /// declaration in the package's own sources (types, members, enum cases, and the members of
    /// protocol extensions as each conforming type shows them). Engine internals are `package`,
    /// internal or `@_spi`, so the count stays at half of what it was when they were public (913).
    @Test(.enabled(if: JSONModelMembers.available))
    func thePublicSurfaceStaysSmall() throws {
        let graphs = try JSONModelMembers.graphs.get()
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources").path
        var count = 0
        for graph in graphs.values {
            for symbol in graph["symbols"]?.arrayValue ?? [] {
                guard let uri = symbol["location"]?["uri"]?.stringValue, uri.contains(sources) else { continue }
                count += 1
            }
        }
        #expect(graphs.keys.contains("JSONModelKitCore.symbols.json"), "\(graphs.keys.sorted())")
        #expect(count > 300, "the graphs were read: \(count) symbols")
        #expect(count <= 456, "\(count) public symbols; engine internals belong in package, internal or @_spi")
    }

    @Test func everySourceMakesTheSameModel() throws {
        let document = try JSONDocument(string: Self.text)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("entry-\(UUID()).json")
        try Data(Self.text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let sources: [any JSONSource] = [
            Self.text, Data(Self.text.utf8), Array(Self.text.utf8), url, document.root, document.root.value,
            OwnBuffer(storage: Array(Self.text.utf8)),
        ]
        for source in sources {
            let user = try EntryPointUser(json: source)
            #expect(user.jsonModel.value(forProperty: "name") as? String == "Ann", "\(type(of: source))")
            #expect(try EntryPointUser.make(json: source).jsonModel.value(forProperty: "age") as? Int == 30)
        }
    }

    @Test func aLiteralIsTextUnlessMarkedAValue() throws {
        let fromText = try EntryPointUser(json: #"{"name": "Bo"}"#)
        let fromValue = try EntryPointUser(json: ["name": "Bo"] as JSONValue)
        #expect(fromText.jsonModel.json() == fromValue.jsonModel.json())
    }

    @Test func aMissingFileIsUnreadableEverywhere() throws {
        let url = URL(fileURLWithPath: "/nonexistent/entry-\(UUID()).json")
        func isUnreadable(_ body: () throws -> Void) -> Bool {
            do {
                try body()
                return false
            } catch {
                guard case .unreadable(let reported, _) = error as? JSONModelError else { return false }
                return reported == url
            }
        }
        #expect(isUnreadable { _ = try EntryPointUser(json: url) })
        #expect(isUnreadable { _ = try EntryPointUser.make(json: url) })
        #expect(isUnreadable { _ = try EntryPointUser.array(from: url) })
        #expect(isUnreadable { _ = try ModelDictionary<EntryPointUser>(json: url) })
        let registry = ModelRegistry()
        try registry.register(EntryPointUser.self, name: "EntryPointUser")
        #expect(isUnreadable { _ = try registry.makeModel(named: "EntryPointUser", json: url) })
    }

    @Test func anUnknownNameIsReportedBeforeTheJSONIsRead() {
        #expect(throws: JSONModelError.unknownModel(name: "Nobody")) {
            try ModelRegistry().makeModel(named: "Nobody", json: "not JSON")
        }
    }

    @Test func aSourceOfTheWrongShapeIsNamed() {
        #expect(throws: JSONModelError.notAnObject(model: "EntryPointUser", found: .array)) {
            try EntryPointUser(json: "[1]")
        }
        #expect(throws: JSONModelError.notAnArray(model: "EntryPointUser", found: .object)) {
            try EntryPointUser.array(from: Self.text)
        }
        #expect(throws: JSONModelError.self) { try EntryPointUser(json: OwnBuffer(storage: Array("{".utf8))) }
    }

    // MARK: Streams validate

    static let lines = #"""
        {"name": "Ann", "age": 30}
        {"name": "Bo", "age": "old"}
        {"name": "Cy", "age": 5}
        """#

    @Test func aReaderThatValidatesStopsAtTheElementThatFails() throws {
        let options = ModelOptions(validating: true, streamOptions: JSONStreamOptions(format: .lines))
        let reader = ModelStreamReader<EntryPointUser>(bytes: Array(Self.lines.utf8), options: options)
        #expect(try reader.read()?.jsonModel.value(forProperty: "name") as? String == "Ann")
        let error = try #require(throws: JSONStreamError.self) { try reader.read() }
        guard case .validationFailed(let validation) = error.kind else {
            Issue.record("expected a validation failure, got \(error.kind)")
            return
        }
        #expect(error.element == 1 && error.line == 2)
        #expect(validation.diagnostics.map(\.path.description) == ["age"])
        #expect(error.description.contains("element 1 at line 2"), "\(error)")
        #expect(try reader.read() == nil)
    }

    @Test func aReaderThatDoesNotValidateReadsDefaults() throws {
        let options = ModelOptions(streamOptions: JSONStreamOptions(format: .lines))
        let reader = ModelStreamReader<EntryPointUser>(bytes: Array(Self.lines.utf8), options: options)
        let ages = try reader.map { try $0.get().jsonModel.value(forProperty: "age") as? Int }
        #expect(ages == [30, 0, 5])
    }

    @Test func strictValidationAppliesToStreams() throws {
        let text = #"{"name": "Ann", "age": "30"}"#
        let lenient = ModelStreamReader<EntryPointUser>(bytes: Array(text.utf8), options: .validating)
        #expect(try lenient.read()?.jsonModel.value(forProperty: "age") as? Int == 30)
        let strict = ModelStreamReader<EntryPointUser>(bytes: Array(text.utf8), options: .strict)
        let error = try #require(throws: JSONStreamError.self) { try strict.read() }
        guard case .validationFailed = error.kind else {
            Issue.record("expected a validation failure, got \(error.kind)")
            return
        }
    }

    @Test func anAsyncStreamThatValidatesStopsAtTheElementThatFails() async throws {
        let options = ModelOptions(validating: true, streamOptions: JSONStreamOptions(format: .lines))
        var names: [String] = []
        do {
            for try await user in EntryPointUser.stream(from: EntryBytes(bytes: Array(Self.lines.utf8)), options: options) {
                names.append(user.jsonModel.value(forProperty: "name") as? String ?? "?")
            }
            Issue.record("the stream ended without an error")
        } catch let error as JSONStreamError {
            guard case .validationFailed = error.kind else {
                Issue.record("expected a validation failure, got \(error.kind)")
                return
            }
            #expect(error.element == 1)
        }
        #expect(names == ["Ann"])
    }

    @Test func streamsAreMutableWhenAsked() throws {
        let reader = ModelStreamReader<EntryPointUser>(bytes: Array(Self.text.utf8), options: .mutable)
        let user = try #require(try reader.read())
        #expect(user.jsonModel.isMutable)
        try user.jsonModel.set("Di", forProperty: "name")
        #expect(user.jsonModel.value(forProperty: "name") as? String == "Di")
    }
}

/// Bytes in memory as an async sequence.
struct EntryBytes: AsyncSequence, Sendable {
    typealias Element = UInt8
    let bytes: [UInt8]

    struct Iterator: AsyncIteratorProtocol {
        var index = 0
        let bytes: [UInt8]

        mutating func next() async -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }
    }

    func makeAsyncIterator() -> Iterator { Iterator(bytes: bytes) }
}
