import Foundation
@testable import AccessorGeneration
import Testing

/// The generator's reading of registration blocks, on sources given as text.
@Suite("Accessor generator")
struct AccessorGeneratorTests {
    /// Generates for `files` (name → text) and returns the source and the diagnostics as lines.
    func generate(_ files: [(String, String)]) -> (source: String, diagnostics: [String]) {
        let output = AccessorGenerator.generate(files: files.map { (path: $0.0, text: $0.1) })
        return (output.source, output.diagnostics.map(\.description))
    }

    /// The members generated for `type`: `name: Type` for each, `(get)` after read-only ones
    /// (whose getter is followed by the closing brace instead of a setter).
    func members(of type: String, in source: String) -> [String] {
        guard let start = source.range(of: "extension \(type) {\n") else { return [] }
        let lines = Array(source[start.upperBound...].split(separator: "\n").prefix { $0 != "}" })
        var result: [String] = []
        for (index, line) in lines.enumerated() {
            guard let declaration = line.split(separator: "var ", maxSplits: 1).dropFirst().first else { continue }
            let readOnly = index + 2 < lines.count && lines[index + 2] == "    }"
            result.append(String(declaration.dropLast(2)) + (readOnly ? " (get)" : ""))
        }
        return result
    }

    @Test func multiLineCallsCommentsAndStringsWithParentheses() {
        let source = #"""
            import JSONModelKit

            final class Article: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    // p.commented(Int.self)
                    /* p.blockCommented(Int.self) /* nested ) */ */
                    p.title(
                        String.self,   // a comment with ( and )
                        jsonPath: "ti)tle(",
                        default: "a \"(quoted)\" \(1 + (2))"
                    )
                    p.body(String.self, default: """
                        several ) lines ( with p.fake(Int.self)
                        """)
                    p.raw(String.self, default: #"a "raw" \(not) string"#)
                    p.nested([String: [Item]]?.self)
                    p.wrapped(Optional<Int>.self)
                    p.longhand(Dictionary<String, Array<Int>>.self)
                    p.kind(Event.Kind.self, readOnly: true)
                    p.add("with-dash", Int.self); p.add("fine", Int?.self, readOnly: false)
                    super.properties(p)
                }
            }
            """#
        let (generated, diagnostics) = generate([("Article.swift", source)])
        #expect(diagnostics == [])
        #expect(
            members(of: "Article", in: generated) == [
                "title: String", "body: String", "raw: String", "nested: [String: [Item]]?", "wrapped: Int?",
                "longhand: [String: [Int]]", "kind: Event.Kind (get)", "fine: Int?",
            ])
        #expect(!generated.contains("commented"))
        #expect(!generated.contains("fake"))
        #expect(generated.contains(#"self[property: "title"]"#))
    }

    @Test func classesAcrossFilesNestedAndNotModels() {
        let events = """
            import JSONModelKit
            class Event: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.id(String.self) }
            }
            final class Actor: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.login(String.self) }
            }
            extension Event {
                final class Payload: JSONModelKit.JSONModel, @unchecked Sendable {
                    override class func properties(_ registrar: PropertyRegistrar) { registrar.size(Int.self) }
                }
            }
            final class Settings: Codable {
                class func properties(_ p: PropertyRegistrar) { p.ignored(Int.self) }
            }
            """
        let push = """
            final class PushEvent: Event, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    p.commits([Commit].self)
                    p.payload(Payload.self)
                }
                func helper() {
                    class Local: JSONModel, @unchecked Sendable {
                        override class func properties(_ p: PropertyRegistrar) { p.hidden(Int.self) }
                    }
                }
            }
            """
        let (generated, diagnostics) = generate([("Events.swift", events), ("Push.swift", push)])
        #expect(diagnostics == [])
        #expect(members(of: "Event", in: generated) == ["id: String"])
        #expect(members(of: "Actor", in: generated) == ["login: String"])
        #expect(members(of: "Event.Payload", in: generated) == ["size: Int"])
        #expect(members(of: "PushEvent", in: generated) == ["commits: [Commit]", "payload: PushEvent.Payload"])
        #expect(!generated.contains("Settings"))
        #expect(!generated.contains("hidden"))
        #expect(!generated.contains("Local"))
    }

    /// Each getter passes its property's place among the model's declarations, superclasses'
    /// first (a call of `super` adds nothing, a name that is no identifier takes a place), and
    /// none once a block of the lineage has a statement the generator cannot read.
    @Test func gettersPassTheirPlaceAmongTheDeclarations() {
        let source = """
            import JSONModelKit
            class Base: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    p.id(String.self)
                    p.add("created-at", Date?.self)
                }
            }
            class Middle: Base, @unchecked Sendable {}
            final class Leaf: Middle, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    super.properties(p)
                    p.size(Int.self)
                    p.ref(String.self, readOnly: true)
                }
            }
            class Loose: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    p.first(Int.self)
                    for name in ["a"] { p.add(name, Int.self) }
                }
            }
            final class LooseLeaf: Loose, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.second(Int.self) }
            }
            """
        let (generated, _) = generate([("Models.swift", source)])
        #expect(generated.contains(#"get { self[property: "id", ordinal: 0] }"#))
        #expect(generated.contains(#"get { self[property: "size", ordinal: 2] }"#))
        #expect(generated.contains(#"get { self[property: "ref", ordinal: 3] }"#))
        #expect(generated.contains(#"set { self[property: "size"] = newValue }"#))
        #expect(generated.contains(#"get { self[property: "first"] }"#))
        #expect(generated.contains(#"get { self[property: "second"] }"#))
        #expect(!generated.contains("created-at"))
    }

    @Test func aModelMentionedOnlyInsideStringsIsNoModel() {
        let source = #"""
            let sample = """
                final class Fake: JSONModel {
                    override class func properties(_ p: PropertyRegistrar) { p.x(Int.self) }
                }
                """
            let other = "class Fake2: JSONModel {"
            """#
        let (generated, diagnostics) = generate([("Sample.swift", source)])
        #expect(diagnostics == [])
        #expect(!generated.contains("extension"))
    }

    @Test func unreadableStatementsWarnAndAdoptDynamicMembers() throws {
        let source = """
            import JSONModelKit
            final class Flexible: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    p.known(Int.self)
                    for name in ["a", "b"] { p.add(name, Int.self) }
                    #if DEBUG
                    p.debugOnly(String.self)
                    #endif
                }
            }
            final class AlreadyDynamic: JSONModel, DynamicMembers, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    Self.shared(p)
                }
            }
            """
        let (generated, diagnostics) = generate([("Flexible.swift", source)])
        #expect(members(of: "Flexible", in: generated) == ["known: Int"])
        #expect(generated.contains("extension Flexible: DynamicMembers {}"))
        #expect(!generated.contains("debugOnly"))
        #expect(!generated.contains("extension AlreadyDynamic"))
        try #require(diagnostics.count == 2)
        #expect(diagnostics[0].hasPrefix("Flexible.swift:5:9: warning: Flexible: the generator cannot read this statement"))
        #expect(diagnostics[0].contains("(for) (and 1 more)"))
        #expect(diagnostics[1].hasPrefix("Flexible.swift:13:9: warning: AlreadyDynamic:"))
        #expect(diagnostics[1].contains("reads them through DynamicMembers"))
    }

    @Test func declarationErrorsNameFileLineAndProperty() {
        let base = """
            class Base: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.id(Int.self) }
            }
            """
        let source = """
            final class Broken: Base, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    p.id(Int.self)
                    p.name(String.self)
                    p.name(String.self)
                    p.jsonModel(String.self)
                    p.point((Int, Int).self)
                    p.tags(Set<String>.self)
                    p.byNumber([Int: String].self)
                    p.anything(Any.self)
                    p.callback(((Int) -> Void).self)
                    p.created(Date.self)
                    p.link(URL.self, default: URL(string: "https://example.com")!)
                    p.modified(Date?.self)
                }
            }
            """
        let (generated, diagnostics) = generate([("Base.swift", base), ("Broken.swift", source)])
        #expect(
            diagnostics == [
                "Broken.swift:3:11: error: Broken.id is already declared by a superclass (Base.swift:2); declare it once",
                "Broken.swift:5:11: error: Broken.name is declared twice; the first declaration is at line 4",
                "Broken.swift:6:11: error: Broken.jsonModel: 'jsonModel' is a member of JSONModel; name the property otherwise and keep the key with jsonPath: \"jsonModel\"",
                "Broken.swift:7:11: error: Broken.point: (Int, Int) is not a type a property can have",
                "Broken.swift:8:11: error: Broken.tags: Set<String> is not supported; declare an array",
                "Broken.swift:9:11: error: Broken.byNumber: [Int: String] has Int keys; JSON object keys are strings, so declare [String: String]",
                "Broken.swift:10:11: error: Broken.anything: Any has no JSON form; declare the type, or JSONValue for any JSON",
                "Broken.swift:11:11: error: Broken.callback: (Int) -> Void is not a type a property can have",
                "Broken.swift:12:11: error: Broken.created: a non-optional Date has no natural default; declare a default or make it optional",
            ])
        #expect(members(of: "Broken", in: generated) == ["name: String", "link: URL", "modified: Date?"])
    }

    @Test func accessLevelsFollowTheClassAndTheTypesItUses() throws {
        let source = """
            public final class Account: JSONModel, @unchecked Sendable {
                public enum Tier: String, Sendable { case free, paid }
                enum Secret: String, Sendable { case a }
                override public class func properties(_ p: PropertyRegistrar) {
                    p.tier(Tier.self, default: .free)
                    p.secret(Secret?.self)
                    p.owner(Owner?.self)
                    p.note(Note?.self)
                }
            }
            final class Owner: JSONModel, @unchecked Sendable {}
            private struct Note: Sendable {}
            package final class Team: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
            }
            private final class Hidden: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
            }
            """
        let (generated, diagnostics) = generate([("Account.swift", source)])
        #expect(generated.contains("public var tier: Account.Tier {"))
        #expect(generated.contains("    var secret: Account.Secret? {"))
        #expect(generated.contains("    var owner: Owner? {"))
        #expect(!generated.contains("var note"))
        #expect(generated.contains("    package var name: String {"))
        #expect(!generated.contains("extension Hidden"))
        try #require(diagnostics.count == 2)
        #expect(diagnostics[0].contains("Account.note has type Note?, which is private to its file"))
        #expect(diagnostics[1].contains("Hidden is private to its file"))
    }

    @Test func keywordsAreEscapedAndImportsCopied() {
        let source = """
            #if canImport(FoundationEssentials)
            import FoundationEssentials
            #else
            import Foundation
            #endif
            @testable import JSONModelKit

            final class Settings: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    p.default(Int.self)
                    p.`class`(String.self)
                }
            }
            """
        let (generated, diagnostics) = generate([("Settings.swift", source)])
        #expect(diagnostics == [])
        #expect(generated.contains("#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n#endif\n"))
        #expect(generated.contains("@testable import JSONModelKit\n"))
        #expect(generated.contains("var `default`: Int {"))
        #expect(generated.contains(#"self[property: "default"]"#))
        #expect(generated.contains("var `class`: String {"))
    }

    @Test func typesAreReadWhateverTheSpelling() {
        func read(_ text: String) -> String? {
            var parser = TypeParser(tokens: SwiftTokenizer.tokens(of: text)[...])
            return parser.parseType()?.source
        }
        #expect(read("[String: [Item]]?") == "[String: [Item]]?")
        #expect(read("Optional<Array<Swift.Int>>") == "[Swift.Int]?")
        #expect(read("Swift.Dictionary<String, Event.Kind>") == "[String: Event.Kind]")
        #expect(read("ModelArray<Commit>") == "ModelArray<Commit>")
        #expect(read("(Int)") == "Int")
        #expect(read("Int??") == "Int??")
        #expect(read("[Int") == nil)
        // Absurd nesting is refused, not recursed into without bound.
        #expect(read(String(repeating: "[", count: 10_000) + "Int" + String(repeating: "]", count: 10_000)) == nil)
    }
}
