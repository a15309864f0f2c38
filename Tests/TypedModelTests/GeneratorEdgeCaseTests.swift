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

    /// `#"""#` is a one-line raw string holding a quote, as the compiler reads it, not the start
    /// of a multi-line one that would hide the rest of the file.
    @Test func aRawStringOfQuotesOnOneLineEndsOnIt() {
        let source = ##"""
            import JSONModelKit
            let quote = #"""#
            let quoted = ##"""quoted" text"##
            let block = #"""
                "# is no end here
                """#
            final class User: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.login(String.self) }
            }
            """##
        let (generated, diagnostics, _) = generate(source)
        #expect(diagnostics == [])
        #expect(members(of: "User", in: generated) == ["var login: String {"])
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

    /// A class declared under `#if` has its members under the same conditions; one declared once
    /// per clause has none (its properties differ between builds), and its subclasses read by name.
    @Test func modelsUnderIfHaveTheirMembersUnderTheSameConditions() {
        let source = """
            import JSONModelKit
            #if canImport(Foundation)
            import Foundation
            enum Feed {
                #if os(Linux)
                #elseif DEBUG
                final class Event: JSONModel, @unchecked Sendable {
                    override class func properties(_ p: PropertyRegistrar) { p.at(Date?.self) }
                }
                #endif
            }
            #endif
            #if os(iOS)
            class Settings: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.badge(Int.self); p.theme(String.self) }
            }
            #else
            class Settings: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.theme(String.self) }
            }
            #endif
            final class UserSettings: Settings, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
            }
            """
        let (generated, diagnostics, hasErrors) = generate(source)
        #expect(!hasErrors)
        #expect(generated.contains("\n#if (canImport(Foundation)) && !(os(Linux)) && (DEBUG)\nextension Feed.Event {\n    var at: Date? {\n"), "\(generated)")
        #expect(!generated.contains("extension Settings"))
        #expect(generated.contains(#"get { self[property: "name"] }"#))
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("Models.swift:18:7: warning: Settings is declared more than once, under #if") == true, "\(diagnostics)")
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

    /// A registration block sees its own file's imports: another file's narrower import of the
    /// same module takes no member away, and its wider one gives none a wider access. Imports
    /// in an `#if` count too, and a module imported plainly by several files is imported once.
    @Test func eachFilesOwnImportsDecideItsMembers() {
        let stamp = """
            #if canImport(FoundationEssentials)
            internal import FoundationEssentials
            #else
            internal import Foundation
            #endif
            import JSONModelKit
            public final class Stamp: JSONModel, @unchecked Sendable {
                override public class func properties(_ p: PropertyRegistrar) { p.at(Date?.self); p.count(Int.self) }
            }
            """
        let event = """
            internal import Foundation
            import JSONModelKit
            public final class Event: JSONModel, @unchecked Sendable {
                override public class func properties(_ p: PropertyRegistrar) { p.at(Date?.self) }
            }
            """
        let log = """
            public import Foundation
            import JSONModelKit
            public final class Log: JSONModel, @unchecked Sendable {
                override public class func properties(_ p: PropertyRegistrar) { p.at(Date?.self) }
            }
            """
        let helper = "private import Foundation\nimport JSONModelKit\nfinal class Hidden: JSONModel, @unchecked Sendable {}\n"
        let (generated, diagnostics, _) = generate([("Stamp.swift", stamp), ("Event.swift", event), ("Log.swift", log), ("Helper.swift", helper)])
        #expect(diagnostics == [])
        #expect(members(of: "Stamp", in: generated) == ["var at: Date? {", "public var count: Int {"])
        #expect(members(of: "Event", in: generated) == ["var at: Date? {"])
        #expect(members(of: "Log", in: generated) == ["public var at: Date? {"])
        // One plain import of Foundation, at the widest access written.
        #expect(generated.components(separatedBy: "import Foundation\n").count == 3, "\(generated)")  // the #if's and this one
        #expect(generated.contains("\npublic import Foundation\n"))
        #expect(!generated.contains("private import Foundation"))
    }

    /// `.private` ending the line before an import, `import` as an argument label, and enum cases
    /// named `package` and `open` are names, not the modifiers or imports they spell.
    @Test func wordsThatAreNamesThereAreNotImportsOrModifiers() {
        let source = """
            import JSONModelKit
            enum Visibility: Sendable { case `public`, `private` }
            let defaultVisibility: Visibility = .private
            import Foundation
            func load(import path: String) -> String { path }
            public enum Source: String, Sendable {
                case registry
                case package
                final class Manifest: JSONModel, @unchecked Sendable {
                    override class func properties(_ p: PropertyRegistrar) { p.at(Date?.self) }
                }
            }
            public enum Door: Sendable {
                case closed, open
                final class Sensor: JSONModel, @unchecked Sendable {
                    override class func properties(_ p: PropertyRegistrar) { p.level(Int.self) }
                }
            }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(diagnostics == [])
        #expect(generated.contains("\nimport Foundation\n"))
        #expect(!generated.contains("private\nimport"))
        #expect(!generated.contains("import path"))
        #expect(members(of: "Source.Manifest", in: generated) == ["var at: Date? {"])
        #expect(members(of: "Door.Sensor", in: generated) == ["var level: Int {"])
    }

    @Test func anIfConditionOverSeveralLinesIsCopiedWhole() {
        let source = """
            import JSONModelKit
            #if (os(macOS) ||
                os(Linux))
            import Foundation
            #endif
            final class User: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.login(String.self) }
            }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(diagnostics == [])
        #expect(generated.contains("\n#if (os(macOS) ||\n    os(Linux))\nimport Foundation\n#endif\n"), "\(generated)")
        #expect(members(of: "User", in: generated) == ["var login: String {"])
    }

    /// `Self` is written as the class where it names one type in every subclass; where it names
    /// the instance's own class, which differs in each subclass, the property gets no member.
    @Test func selfInAPropertyTypeIsWrittenAsTheClassOrGetsNoMember() {
        let source = """
            import JSONModelKit
            final class Leaf: JSONModel, @unchecked Sendable {
                enum Kind: String, Sendable, Codable { case a }
                override class func properties(_ p: PropertyRegistrar) {
                    p.kind(Self.Kind?.self); p.next(Self?.self); p.all([String: [Self]].self)
                }
            }
            class Tree: JSONModel, @unchecked Sendable {
                enum Kind: String, Sendable, Codable { case a }
                override class func properties(_ p: PropertyRegistrar) {
                    p.kind(Self.Kind?.self)
                    p.parent(Self?.self)
                }
            }
            """
        let (generated, diagnostics, hasErrors) = generate(source)
        #expect(!hasErrors)
        #expect(members(of: "Leaf", in: generated) == ["var kind: Leaf.Kind? {", "var next: Leaf? {", "var all: [String: [Leaf]] {"])
        #expect(members(of: "Tree", in: generated) == ["var kind: Tree.Kind? {"])
        #expect(
            diagnostics == [
                "Models.swift:12:11: warning: Tree.parent has type Self?, which is a different type in each subclass of Tree; it gets no typed member (read it with self[property: \"parent\"], or make Tree final)"
            ])
    }

    /// A type or alias declared in the block is out of an extension's reach: the properties of
    /// it get no member, and no error (the class reads them by name).
    @Test func typesDeclaredInTheBlockGetNoMember() {
        let source = """
            import JSONModelKit
            final class Event: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    private enum Kind: String, Sendable, Codable { case a, b }
                    typealias UserID = String
                    p.kind(Kind?.self)
                    p.names([UserID: String].self)
                    p.title(String.self)
                }
            }
            """
        let (generated, diagnostics, hasErrors) = generate(source)
        #expect(!hasErrors, "\(diagnostics)")
        #expect(members(of: "Event", in: generated) == ["var title: String {"])
        #expect(generated.contains("extension Event: DynamicMembers {}"))
        #expect(diagnostics.count == 3)
        #expect(diagnostics.first == "Models.swift:6:11: warning: Event.kind has type Kind?, and Kind is declared in the registration block, where no extension can name it; it gets no typed member (read it with self[property: \"kind\"], or declare Kind in the class)")
        #expect(diagnostics.dropFirst().first?.hasPrefix("Models.swift:7:11: warning: Event.names has type [UserID: String], and UserID is declared") == true)
    }

    /// Another function named `properties` is not the block, and an override is the block
    /// whatever alias names its parameter's type.
    @Test func theBlockIsTheOverrideWithOneUnlabelledParameter() {
        let source = """
            import JSONModelKit
            typealias Registrar = PropertyRegistrar
            final class Post: JSONModel, @unchecked Sendable {
                override class func properties(_ p: Registrar) {
                    p.title(String.self); p.body(String.self)
                    properties(audit: p)
                }
                static func properties(audit p: PropertyRegistrar) { p.createdBy(String?.self) }
            }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(members(of: "Post", in: generated) == ["var title: String {", "var body: String {"])
        // The helper's call leaves the places of the properties unknown: they are read by name.
        #expect(generated.contains("get { self[property: \"body\"] }"))
        #expect(generated.contains("extension Post: DynamicMembers {}"))
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("Models.swift:6:9: warning: Post: the generator cannot read this statement of the registration block (properties)") == true)
    }

    /// A member the class or a superclass declares in Swift cannot be declared again, nor
    /// overridden, by an extension; and a file the generator wrote, given again, is no source.
    @Test func membersWrittenInSwiftAreNotDeclaredAgain() {
        let source = """
            import JSONModelKit
            class Titled: JSONModel, @unchecked Sendable {
                var heading: String { "untitled" }
                static var body: String { "" }
            }
            final class Article: Titled, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.heading(String.self); p.body(String.self); p.size(Int.self) }
            }
            extension Article { func size() -> Int { 0 } }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(members(of: "Article", in: generated) == ["var body: String {"])
        #expect(
            diagnostics == [
                "Models.swift:7:64: warning: Article.heading is also a member Titled declares in Swift; it gets no typed member (read it with self[property: \"heading\"], or name it otherwise and keep the key with jsonPath: \"heading\")",
                "Models.swift:7:109: warning: Article.size is also a member Article declares in Swift; it gets no typed member (read it with self[property: \"size\"], or name it otherwise and keep the key with jsonPath: \"size\")",
            ])
        let again = generate([("Models.swift", source), ("JSONModelAccessors.swift", generated)])
        #expect(again.source == generated)
        #expect(again.diagnostics == diagnostics)
    }

    /// `DynamicMembers` adopted through a protocol or an alias of the files is not given again;
    /// nor is it given to a class whose subclass adopts it itself.
    @Test func dynamicMembersIsNeverAdoptedTwice() {
        let source = """
            import JSONModelKit
            protocol Flexible: DynamicMembers {}
            typealias Dynamic = DynamicMembers
            class Base: JSONModel, Flexible, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { for key in ["a"] { p.add(key, Int?.self) } }
            }
            class Other: JSONModel, Dynamic, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { for key in ["a"] { p.add(key, Int?.self) } }
            }
            class Counter: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { for key in ["a"] { p.add(key, Int?.self) } }
            }
            final class FlexibleCounter: Counter, DynamicMembers, @unchecked Sendable {}
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(!generated.contains(": DynamicMembers {}"), "\(generated)")
        #expect(diagnostics.count == 3)
        #expect(diagnostics.last?.contains("Counter cannot adopt DynamicMembers, which a subclass adopts itself") == true)
    }

    /// A model of the files named `Date` is no Foundation `Date`: it has a default, the empty object.
    @Test func aModelNamedLikeAFoundationTypeHasItsDefault() {
        let source = """
            import JSONModelKit
            final class Date: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.day(Int.self) }
            }
            final class Match: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.date(Date.self) }
            }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(diagnostics == [])
        #expect(members(of: "Match", in: generated) == ["var date: Date {"])
    }

    /// `@available` goes on the extension of a class it is written on (or on a type or extension
    /// around it), and a public member that shows an `@_spi` type is SPI of the same group.
    @Test func availabilityAndSPIAreCarriedOntoTheMembers() {
        let source = """
            import JSONModelKit
            @available(macOS 13, iOS 16, *)
            public final class Clip: JSONModel, @unchecked Sendable {
                override public class func properties(_ p: PropertyRegistrar) { p.title(String.self) }
            }
            @available(macOS 14, *)
            extension Clip {
                public final class Frame: JSONModel, @unchecked Sendable {
                    override public class func properties(_ p: PropertyRegistrar) { p.index(Int.self) }
                }
            }
            public final class Host: JSONModel, @unchecked Sendable {
                @_spi(Beta) public struct Token: Sendable, Codable {}
                override public class func properties(_ p: PropertyRegistrar) { p.token(Token?.self); p.name(String.self) }
            }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(diagnostics == [])
        #expect(generated.contains("\n@available(macOS 13, iOS 16, *)\nextension Clip {\n"), "\(generated)")
        // The extension's availability is within the class's, as the compiler requires.
        #expect(generated.contains("\n@available(macOS 14, *)\nextension Clip.Frame {\n"), "\(generated)")
        #expect(members(of: "Host", in: generated) == ["@_spi(Beta) public var token: Host.Token? {", "public var name: String {"])
    }

    /// Models in an extension written through an alias or with the module's name belong to the
    /// extended type; a generic parameter hides a type of its name around the class, and is of
    /// no module.
    @Test func extensionsThroughAliasesAndGenericParametersAreReadAsSwiftReadsThem() {
        let source = """
            internal import Foundation
            import JSONModelKit
            enum API {
                struct Item: Sendable, Codable {}
                class Base: JSONModel, @unchecked Sendable {}
            }
            typealias Remote = API
            extension Remote {
                final class Cart: JSONModel, @unchecked Sendable {
                    override class func properties(_ p: PropertyRegistrar) { p.item(Item?.self) }
                }
            }
            extension Models.API {
                final class Order: Base, @unchecked Sendable {
                    override class func properties(_ p: PropertyRegistrar) { p.id(Int.self) }
                }
                public final class Page<Item: JSONModel>: JSONModel, @unchecked Sendable {
                    override public class func properties(_ p: PropertyRegistrar) { p.items([Item].self); p.big(Int128.self) }
                }
            }
            extension Foundation.URL {
                final class Part: JSONModel, @unchecked Sendable {
                    override class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
                }
            }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(diagnostics == [])
        #expect(members(of: "API.Cart", in: generated) == ["var item: API.Item? {"])
        #expect(members(of: "API.Order", in: generated) == ["var id: Int {"])
        #expect(members(of: "API.Page", in: generated) == ["var items: [Item] {", "var big: Int128 {"])
        #expect(members(of: "Foundation.URL.Part", in: generated) == ["var name: String {"])
    }

    /// A member named like a function of the standard library hides it from the code of the
    /// class, of its nested types and of its subclasses: where that code calls it by its bare
    /// name, the property gets no member. A call elsewhere, or a qualified one, does not count.
    @Test func aPropertyNamedLikeAFunctionTheClassCallsGetsNoMember() {
        let source = """
            import JSONModelKit
            class Range: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.min(Int.self); p.max(Int.self); p.abs(Int.self); p.zip(Int.self) }
                func clamp(_ value: Int) -> Int { Swift.min(value, 9) + max(1, 2) }
                struct Parts { func sum() -> Int { [1].map { print($0); return $0 }.count } }
            }
            final class Span: Range, @unchecked Sendable {}
            extension Span { func size() -> Int { abs(-1) } }
            func pairs() -> Int { zip([1], [2]).count }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(members(of: "Range", in: generated) == ["var min: Int {", "var zip: Int {"])
        #expect(
            diagnostics == [
                "Models.swift:3:81: warning: Range.max is named like the standard library's function max, which Range calls by that name; it gets no typed member, which would hide the function there (read it with self[property: \"max\"], or name it otherwise and keep the key with jsonPath: \"max\")",
                "Models.swift:3:98: warning: Range.abs is named like the standard library's function abs, which Span calls by that name; it gets no typed member, which would hide the function there (read it with self[property: \"abs\"], or name it otherwise and keep the key with jsonPath: \"abs\")",
            ])
    }

    /// A name written with the target's own module (`Models.Secret`) is the target's type: its
    /// access holds, and a superclass so written is found.
    @Test func namesWrittenWithTheModulesOwnNameAreItsTypes() {
        let source = """
            import JSONModelKit
            struct Secret: Sendable, Codable {}
            class Base: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.id(Int.self) }
            }
            public final class Stamp: JSONModel, @unchecked Sendable {
                override public class func properties(_ p: PropertyRegistrar) { p.secret(Models.Secret?.self); p.count(Int.self) }
            }
            final class Sub: Models.Base, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
            }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(diagnostics == [])
        #expect(members(of: "Stamp", in: generated) == ["var secret: Models.Secret? {", "public var count: Int {"])
        #expect(members(of: "Sub", in: generated) == ["var name: String {"])
        #expect(generated.contains(#"get { self[property: "name", ordinal: 1] }"#))
    }

    /// A superclass named by a member type that a class around it inherits is found as Swift
    /// finds it: `Item` in `Special: Item`, nested in `Sub: Base`, is `Base.Item`.
    @Test func aSuperclassInheritedByAnEnclosingClassIsFound() {
        let source = """
            import JSONModelKit
            class Base: JSONModel, @unchecked Sendable {
                class Item: JSONModel, @unchecked Sendable {
                    override class func properties(_ p: PropertyRegistrar) { p.id(Int.self) }
                }
            }
            final class Sub: Base, @unchecked Sendable {
                final class Special: Item, @unchecked Sendable {
                    override class func properties(_ p: PropertyRegistrar) { p.extra(String.self) }
                }
            }
            """
        let (generated, diagnostics, _) = generate(source)
        #expect(diagnostics == [])
        #expect(members(of: "Sub.Special", in: generated) == ["var extra: String {"])
        #expect(generated.contains(#"get { self[property: "extra", ordinal: 1] }"#))
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
