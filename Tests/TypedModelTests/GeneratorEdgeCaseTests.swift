import Foundation
@testable import AccessorGeneration
import Testing

/// Valid Swift the generator's own tokenizer and reader must either read as the compiler does
/// or refuse with an error at the line: never members that do not build, of the wrong type,
/// or none at all without a word.
@Suite("Generator edge cases", .serialized)
struct GeneratorEdgeCaseTests {
    func generate(_ files: [(String, String)]) -> (source: String, diagnostics: [String], hasErrors: Bool) {
        let output = AccessorGenerator.generate(files: files.map { (path: $0.0, text: $0.1) })
        return (output.source, output.diagnostics.map(\.description), output.hasErrors)
    }

    func generate(_ source: String) -> (source: String, diagnostics: [String], hasErrors: Bool) {
        generate([("Models.swift", source)])
    }

    /// The `var` lines generated for `type`, trimmed.
    func members(of type: String, in source: String) -> [String] {
        guard let start = source.range(of: "extension \(type) {\n") else { return [] }
        return source[start.upperBound...].split(separator: "\n").prefix { $0 != "}" }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.contains("var ") }
    }

    // MARK: Tokens

    /// A line comment ends at a carriage return alone (a file with classic Mac line endings), a
    /// `#!` first line is no code, and a no-break space separates words: each hid a model.
    @Test func lineEndingsShebangsAndNoBreakSpacesAreReadAsTheCompilerReadsThem() {
        let model = "final class User: JSONModel, @unchecked Sendable {\r"
            + "    override class func properties(_ p: PropertyRegistrar) {\r"
            + "        // the login {\r"
            + "        p.login(String.self)\r"
            + "    }\r}\r"
        for source in [
            "import JSONModelKit\r// Users {\r" + model,
            "#!/usr/bin/env swift {\nimport JSONModelKit\n" + model,
            "import JSONModelKit\n" + model.replacingOccurrences(of: "class User", with: "class\u{A0}User"),
        ] {
            let (generated, diagnostics, _) = generate(source)
            #expect(diagnostics == [], "\(source.debugDescription)")
            #expect(members(of: "User", in: generated) == ["var login: String {"], "\(source.debugDescription)")
        }
    }

    @Test func rawIdentifiersAndRegexLiteralsAreNotCommentsOrStrings() {
        let source = #"""
            import JSONModelKit
            let `a /* b` = 1
            let extended = #/a/*b/#
            let bare = /"""/
            let multiline = #/
              a /* b
              /#
            let `quote " here` = 2
            let ratio = 4 / 2 /* a real comment */ / 1
            final class After: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.x(Int.self) }
            }
            """#
        let (generated, diagnostics, _) = generate(source)
        #expect(diagnostics == [])
        #expect(members(of: "After", in: generated) == ["var x: Int {"])
    }

    /// A keyword after a dot (`.private`, `.internal`, `.extension`, `.import`) is a member's
    /// name. `private` was kept as a modifier of the next declaration, so a model after
    /// `= .private` lost its members with a warning that it was private; `.extension` took the
    /// next class for an extension, which lost its members without a word.
    @Test func keywordsAfterADotAreNamesNotModifiers() {
        let source = """
            import JSONModelKit
            enum Visibility: String, Sendable { case `public`, `private`, `internal` }
            enum Access: String, Sendable { case `extension`, `import` }
            public enum GitHub {
                public static let defaultVisibility: Visibility = .private
                public final class Repo: JSONModel, @unchecked Sendable {
                    override public class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
                }
                static let other: Visibility = .internal
                public final class Team: JSONModel, @unchecked Sendable {
                    override public class func properties(_ p: PropertyRegistrar) { p.slug(String.self) }
                }
            }
            let access: Access = .extension
            final class Member: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.login(String.self) }
            }
            let imported: Access = .import
            final class Invite: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.email(String.self) }
            }
            """
        let (generated, diagnostics, hasErrors) = generate(source)
        #expect(diagnostics == [] && !hasErrors)
        #expect(members(of: "GitHub.Repo", in: generated) == ["public var name: String {"])
        #expect(members(of: "GitHub.Team", in: generated) == ["public var slug: String {"])
        #expect(members(of: "Member", in: generated) == ["var login: String {"])
        #expect(members(of: "Invite", in: generated) == ["var email: String {"])
        #expect(!generated.contains("import Invite") && !generated.contains("import final"))
    }

    /// `$` after a name's first character is part of it, as the compiler reads it: such a
    /// property got no member and no word.
    @Test func aDollarSignInsideANameIsPartOfIt() {
        let (generated, diagnostics, hasErrors) = generate("""
            import JSONModelKit
            final class Price: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.total$(Double.self) }
            }
            """)
        #expect(diagnostics == [] && !hasErrors)
        #expect(members(of: "Price", in: generated) == ["var total$: Double {"])
        #expect(SwiftNames.isIdentifier("total$") && !SwiftNames.isIdentifier("$total"))
    }

    /// A type the target declares with a standard library type's name (`Character`, a model of
    /// a cartoon's API) is that type, and a dictionary keyed by a type alias of the target is
    /// left to the engine: both were refused as unsupported, and the build stopped.
    @Test func theTargetsOwnTypesShadowTheStandardLibrarysNames() {
        let source = """
            import JSONModelKit
            typealias UserID = String
            final class Character: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
            }
            final class Episode: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    p.characters([Character].self)
                    p.lead(Character?.self)
                    p.names([UserID: String].self)
                }
            }
            """
        let (generated, diagnostics, hasErrors) = generate(source)
        #expect(diagnostics == [] && !hasErrors)
        #expect(members(of: "Episode", in: generated) == [
            "var characters: [Character] {", "var lead: Character? {", "var names: [UserID: String] {",
        ])
        // Without a declaration of its own, the standard library's is still refused.
        let (_, refusal, refused) = generate("""
            import JSONModelKit
            final class Note: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.initial(Character.self) }
            }
            """)
        #expect(refused && refusal.first?.contains("Character is not supported; declare String") == true)
    }

    @Test func interpolationsNestedBeyondTheLimitAreAnErrorNotACrash() {
        let depth = 10_000
        let source = "let s = " + String(repeating: #""\("#, count: depth) + "1"
            + String(repeating: #")""#, count: depth) + "\n"
        let (_, diagnostics, hasErrors) = generate(source)
        #expect(hasErrors)
        #expect(diagnostics.first?.hasPrefix("Models.swift:1:") == true)
        #expect(diagnostics.first?.contains("string interpolations nest more than") == true)
    }

    // MARK: Conditions and imports

    @Test func registrationBlocksUnderIfAreRefusedAtTheirLine() {
        let source = """
            import JSONModelKit
            final class Flag: JSONModel, @unchecked Sendable {
                #if DEBUG
                override class func properties(_ p: PropertyRegistrar) { p.debugName(String.self) }
                #else
                override class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
                #endif
            }
            final class Leaf: Flag, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.size(Int.self) }
            }
            """
        let (generated, diagnostics, hasErrors) = generate(source)
        #expect(hasErrors)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("Models.swift:4:25: error: Flag: the registration block is declared under #if") == true)
        #expect(!generated.contains("extension Flag"))
        #expect(!generated.contains("name"))
        // The places of a subclass's properties are unknown: its getters find them by name.
        #expect(generated.contains(#"get { self[property: "size"] }"#))
    }

    @Test func importsAreCopiedAloneAndUnderTheirConditions() {
        let source = """
            struct Empty {}; import JSONModelKit
            import Foundation; final class Order: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.total(Int.self) }
            }
            #if canImport(Darwin)
            import Darwin
            extension Order {}
            #elseif os(Linux)
            @preconcurrency import Glibc
            #else
            import WinSDK
            #endif
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(diagnostics == [])
        #expect(!generated.contains("Empty"))
        #expect(generated.contains("\nimport JSONModelKit\nimport Foundation\n"))
        #expect(generated.contains("\n#if canImport(Darwin)\nimport Darwin\n#endif\n"))
        #expect(generated.contains("\n#if !(canImport(Darwin)) && (os(Linux))\n@preconcurrency import Glibc\n#endif\n"))
        #expect(generated.contains("\n#if !(canImport(Darwin)) && !(os(Linux))\nimport WinSDK\n#endif\n"))
        #expect(members(of: "Order", in: generated) == ["var total: Int {"])
    }

    @Test func publicMembersDoNotShowTypesOfModulesImportedInternally() {
        let source = """
            internal import Foundation
            import JSONModelKit
            public final class Stamp: JSONModel, @unchecked Sendable {
                override public class func properties(_ p: PropertyRegistrar) {
                    p.at(Date?.self)
                    p.link(Foundation.URL?.self)
                    p.count(Int.self)
                    p.extra(JSONValue?.self)
                }
            }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(diagnostics == [])
        #expect(generated.contains("internal import Foundation\n"))
        #expect(
            members(of: "Stamp", in: generated) == [
                "var at: Date? {", "var link: Foundation.URL? {", "public var count: Int {",
                "public var extra: JSONValue? {",
            ])
    }

    /// `Currency.Code` is a type nested in a type of some module, not `Code` of a module named
    /// `Currency`: a public member of it would not compile when that module is imported internally.
    @Test func aNestedTypeOfAModuleImportedInternallyIsNotTakenForAModulesType() {
        let source = """
            internal import Money
            public import Foundation
            import JSONModelKit
            public final class Price: JSONModel, @unchecked Sendable {
                override public class func properties(_ p: PropertyRegistrar) {
                    p.currency(Currency.Code?.self)
                    p.link(Foundation.URL?.self)
                    p.cents(Int.self)
                }
            }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(diagnostics == [])
        #expect(
            members(of: "Price", in: generated) == [
                "var currency: Currency.Code? {", "public var link: Foundation.URL? {", "public var cents: Int {",
            ])
    }

    @Test func typesOfModulesImportedPrivatelyGetNoMember() {
        let source = """
            private import Foundation
            import JSONModelKit
            final class Stamp: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    p.at(Date?.self)
                    p.count(Int.self)
                }
            }
            """
        let (generated, diagnostics, hasErrors) = generate(source)
        #expect(!hasErrors)
        #expect(
            diagnostics == [
                "Models.swift:5:11: warning: Stamp.at has type Date?, whose module is imported private to its file; it gets no typed member (read it with self[property: \"at\"])"
            ])
        #expect(members(of: "Stamp", in: generated) == ["var count: Int {"])
    }

    // MARK: Access and names

    @Test func theAccessWrittenOnAnExtensionCountsForTheTypesInIt() {
        let source = """
            import JSONModelKit
            final class Outer: JSONModel, @unchecked Sendable {}
            private extension Outer {
                final class Hidden: JSONModel, @unchecked Sendable {
                    override class func properties(_ p: PropertyRegistrar) { p.x(Int.self) }
                }
            }
            public final class API: JSONModel, @unchecked Sendable {}
            public extension API {
                final class Thing: JSONModel, @unchecked Sendable {
                    override class func properties(_ p: PropertyRegistrar) { p.y(Int.self) }
                }
            }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(!generated.contains("Hidden"))
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.contains("Outer.Hidden is private to its file") == true)
        #expect(members(of: "API.Thing", in: generated) == ["public var y: Int {"])
    }

    @Test func keywordNamesKeepTheirBackticksAndUnderscoreGetsNoMember() {
        let source = """
            import JSONModelKit
            enum `default` { enum Kind: String, Sendable { case a } }
            final class `class`: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    p.kind(`default`.Kind?.self)
                    p.add("_", Int.self)
                    p.😀(Int.self)
                    p.`for`(Int.self)
                }
            }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(diagnostics == [])
        #expect(
            members(of: "`class`", in: generated) == [
                "var kind: `default`.Kind? {", "var 😀: Int {", "var `for`: Int {",
            ])
        #expect(!generated.contains("var _"))
        #expect(generated.contains(#"self[property: "😀", ordinal: 2]"#))
    }

    /// A member named like a type hides the type in the class and its subclasses, so the
    /// registration block (`p.Date(Date?.self)`) would no longer build: such a property gets no
    /// member, and a warning says how to read it.
    @Test func aPropertyNamedLikeATypeOfTheBlocksGetsNoMember() {
        let source = """
            import Foundation
            import JSONModelKit
            final class Entry: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    p.Id(Int.self)
                    p.Date(Date?.self)
                    p.add("Int", Int.self)
                }
            }
            """
        let (generated, diagnostics, hasErrors) = generate(source)
        #expect(!hasErrors)
        #expect(members(of: "Entry", in: generated) == ["var Id: Int {"])
        #expect(diagnostics.count == 2)
        #expect(diagnostics.allSatisfy { $0.contains("is named like a type that registration blocks name; it gets no typed member") })
    }

    @Test func swiftIdentifiersAreToldFromOtherNames() {
        for name in ["😀", "café", "_x", "x1", "Ωmega", "a\u{301}", "a\u{3021}"] { #expect(SwiftNames.isIdentifier(name), "\(name)") }
        // A Hangzhou numeral may start a name by the grammar, but the compiler reads an operator.
        for name in ["_", "1x", "with-dash", "a b", "", "→", "\u{3021}x", "name\u{FFFD}", "\u{FFF9}"] {
            #expect(!SwiftNames.isIdentifier(name), "\(name)")
        }
    }

    @Test func memberTypesInheritedFromASuperclassComeBeforeEnclosingOnes() {
        let source = """
            import JSONModelKit
            struct Item: Sendable {}
            class Base: JSONModel, @unchecked Sendable {
                struct Item: Sendable {}
            }
            final class Sub: Base, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.item(Item?.self) }
            }
            """
        let (generated, _, _) = generate(source)
        #expect(members(of: "Sub", in: generated) == ["var item: Sub.Item? {"])
    }

    @Test func aTypealiasOfJSONModelMakesAModel() {
        let source = """
            import JSONModelKit
            typealias Model = JSONModel
            typealias Root = Model
            final class User: Root, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.login(String.self) }
            }
            """
        let (generated, _, _) = generate(source)
        #expect(members(of: "User", in: generated) == ["var login: String {"])
    }

    @Test func readOnlyThatIsNotALiteralIsAnError() {
        let source = """
            import JSONModelKit
            final class Doc: JSONModel, @unchecked Sendable {
                static let frozen = true
                override class func properties(_ p: PropertyRegistrar) {
                    p.a(Int.self, readOnly: frozen)
                    p.b(Int.self, readOnly: !false)
                    p.c(Int.self, readOnly: false)
                }
            }
            """
        let (generated, diagnostics, hasErrors) = generate(source)
        #expect(hasErrors)
        #expect(
            diagnostics == [
                "Models.swift:5:11: error: Doc.a: readOnly: frozen is not a literal, so the generator cannot tell whether to write a setter; pass readOnly: true or readOnly: false",
                "Models.swift:6:11: error: Doc.b: readOnly: !false is not a literal, so the generator cannot tell whether to write a setter; pass readOnly: true or readOnly: false",
            ])
        #expect(members(of: "Doc", in: generated) == ["var c: Int {"])
    }

    // MARK: Cost

    /// `count` models whose blocks hold a loop, each with an extension.
    static func models(_ count: Int) -> String {
        var source = "import JSONModelKit\n"
        for index in 0..<count {
            source += """
                final class M\(index): JSONModel, @unchecked Sendable {
                    override class func properties(_ p: PropertyRegistrar) {
                        p.a\(index)(Int.self)
                        for name in ["x"] { p.add(name, Int.self) }
                    }
                }
                extension M\(index) { func f() {} }

                """
        }
        return source
    }

    /// `count` models, each a subclass of the one before.
    static func chain(_ count: Int) -> String {
        var source = "import JSONModelKit\nclass C0: JSONModel, @unchecked Sendable {}\n"
        for index in 1..<count {
            source += """
                class C\(index): C\(index - 1), @unchecked Sendable {
                    override class func properties(_ p: PropertyRegistrar) { p.a\(index)(Int.self) }
                }

                """
        }
        return source
    }

    /// How many times longer generating for `large` takes than for `small`: the fastest of five
    /// runs each, taken in turns so that a busy spell of the machine slows both alike.
    func timeRatio(_ small: String, _ large: String) -> Double {
        let clock = ContinuousClock()
        func time(_ source: String) -> Duration {
            clock.measure { _ = AccessorGenerator.generate(files: [(path: "Models.swift", text: source)]) }
        }
        _ = time(small)  // warm up
        var fastestSmall = Duration.seconds(1_000)
        var fastestLarge = Duration.seconds(1_000)
        for _ in 0..<5 {
            fastestSmall = min(fastestSmall, time(small))
            fastestLarge = min(fastestLarge, time(large))
        }
        return fastestLarge / fastestSmall
    }

    // Four times the models: about four times the time; a quadratic step would make it sixteen.

    @Test func generatingTakesTimeInProportionToTheModels() {
        let ratio = timeRatio(Self.models(400), Self.models(1_600))
        #expect(ratio < 8, "ratio \(ratio)")
    }

    @Test func generatingTakesTimeInProportionToALongChainOfSubclasses() {
        let ratio = timeRatio(Self.chain(300), Self.chain(1_200))
        #expect(ratio < 8, "ratio \(ratio)")
    }

    @Test func typesNestedTenThousandDeepAreAnErrorNotACrash() {
        let depth = 10_000
        var source = "import JSONModelKit\n"
        for index in 0..<depth { source += "struct N\(index) {\n" }
        source += "final class Deep: JSONModel, @unchecked Sendable {}\n"
        source += String(repeating: "}\n", count: depth)
        let (_, diagnostics, hasErrors) = generate(source)
        #expect(hasErrors)
        #expect(diagnostics.count == 1)
        #expect(
            diagnostics.first?.hasPrefix(
                "Models.swift:\(SourceReader.maximumNesting + 2):8: error: types nest more than \(SourceReader.maximumNesting) deep")
                == true)
    }
}
