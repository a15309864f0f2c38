import Foundation
@testable import AccessorGeneration
import Testing

/// Valid Swift whose first bytes or words the generator's reader used to take for something
/// else, leaving a file's imports or a model's members out without a word.
@Suite("Generator: what the compiler reads")
struct GeneratorReadingTests {
    func generate(_ source: String) -> String {
        AccessorGenerator.generate(files: [(path: "Models.swift", text: source)]).source
    }

    @Test func aByteOrderMarkHidesNoImportAndNoModel() {
        let body = """
            import Foundation
            import JSONModelKit
            final class Event: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { p.createdAt(Date?.self) }
            }
            """
        let plain = generate(body)
        #expect(plain.contains("import Foundation"))
        #expect(generate("\u{FEFF}" + body) == plain)
        let first = generate("\u{FEFF}public final class Stamp: JSONModel, @unchecked Sendable {\n"
            + "    override class func properties(_ p: PropertyRegistrar) { p.at(Int.self) }\n}\n")
        #expect(first.contains("public var at: Int"), "\(first)")
    }

    @Test func anEnumCaseNamedActorDeclaresNoType() {
        let source = """
            import JSONModelKit
            enum Credit {
                case actor
                case director
                final class Person: JSONModel, @unchecked Sendable {
                    override class func properties(_ p: PropertyRegistrar) { p.name(String.self) }
                }
            }
            func make(class name: String, struct other: Int) {}
            """
        let output = generate(source)
        #expect(output.contains("extension Credit.Person {"), "\(output)")
        #expect(output.contains("var name: String"), "\(output)")
    }

    @Test func aSubclassOfAClassUnderIfGetsTheConformanceItsWarningPromises() {
        let source = """
            import JSONModelKit
            #if os(Linux)
            class Base: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { for name in ["a"] { p.add(name, Int.self) } }
            }
            #else
            class Base: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) { for name in ["a"] { p.add(name, Int.self) } }
            }
            #endif
            final class Sub: Base {
                override class func properties(_ p: PropertyRegistrar) { if true { p.c(Int.self) } }
            }
            """
        let output = AccessorGenerator.generate(files: [(path: "Models.swift", text: source)])
        #expect(output.source.contains("extension Sub: DynamicMembers {}"), "\(output.source)")
        #expect(!output.source.contains("extension Base: DynamicMembers"), "\(output.source)")
    }
}
