import AccessorGeneration
import Foundation
import Testing
import JSONModelKitTestSupport

/// End-to-end tests of `jsonmodel accessors`: they run the built binary.
@Suite("jsonmodel accessors")
struct AccessorsToolTests {
    /// A folder of Swift files in the temporary folder, removed by `remove()`.
    struct SourceFolder {
        let url: URL

        init(_ files: [String: String]) throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodel-accessors-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for (name, text) in files {
                try Data(text.utf8).write(to: url.appendingPathComponent(name))
            }
        }

        func path(_ name: String) -> String { url.appendingPathComponent(name).path }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    static let user = """
        import JSONModelKit

        final class User: JSONModel, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) {
                p.login(String.self)
                p.followers(Int.self, readOnly: true)
                p.home(Place?.self)
            }
        }
        """

    /// A second file: a model whose property has a model type of the first file.
    static let place = """
        import JSONModelKit

        final class Place: JSONModel, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) {
                p.city(String.self)
            }
        }
        """

    @Test func printsTheExtensionsOfEveryModel() throws {
        let folder = try SourceFolder(["User.swift": Self.user, "Place.swift": Self.place])
        defer { folder.remove() }
        let paths = [folder.path("User.swift"), folder.path("Place.swift")]
        guard let result = try Tool.run(["accessors"] + paths) else { return }
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardError.isEmpty)
        let output = result.standardOutput
        #expect(output.contains("extension User {\n"))
        #expect(output.contains("    var login: String {\n"))
        #expect(output.contains("    var home: Place? {\n"))
        #expect(output.contains("extension Place {\n    var city: String {\n"))
        // readOnly: a getter and no setter.
        let followers = try #require(output.range(of: "    var followers: Int {\n"))
        let rest = output[followers.upperBound...]
        let body = rest[..<(rest.range(of: "\n    }\n")?.lowerBound ?? rest.endIndex)]
        #expect(body.contains("get { self[property: \"followers\", ordinal: 1] }"))
        #expect(!body.contains("set {"))
        // What the build plugin writes: the generator's source for the same files.
        let files = try paths.map { (path: $0, text: try String(contentsOfFile: $0, encoding: .utf8)) }
        #expect(output == AccessorGenerator.generate(files: files).source)
    }

    /// The printed members compile with the models, and read without type annotations.
    @Test(.enabled(if: BuildProducts.hasToolchain, "needs the toolchain's swiftc, located from /proc on Linux"))
    func theOutputCompilesWithTheModels() throws {
        let build = try BuildProducts.current.get()
        let swiftc = try build.tool("swiftc")
        let use = """
            import Foundation
            import JSONModelKit

            func use(_ data: Data) throws -> Int {
                let user = try User(json: data)
                let draft = user.jsonModel.mutableCopy()
                draft.login = "ann"
                return user.login.count + user.followers + (user.home?.city.count ?? 0)
            }
            """
        let folder = try SourceFolder(["User.swift": Self.user, "Place.swift": Self.place, "Use.swift": use])
        defer { folder.remove() }
        guard let result = try Tool.run(["accessors", folder.path("User.swift"), folder.path("Place.swift")]) else { return }
        try #require(result.status == 0, "stderr: \(result.standardError)")
        try Data(result.standardOutput.utf8).write(to: folder.url.appendingPathComponent("Accessors.swift"))
        let compile = try BuildProducts.run(
            swiftc,
            ["-typecheck", "-swift-version", "6"] + build.importFlags
                + ["User.swift", "Place.swift", "Use.swift", "Accessors.swift"].map(folder.path))
        #expect(compile.status == 0, "\(compile.output)")
    }

    @Test func anErrorIsStatus1WithTheFileAndLine() throws {
        let source = """
            import JSONModelKit

            final class Repo: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    p.name(String.self)
                    p.jsonModel(String.self)
                }
            }
            """
        let folder = try SourceFolder(["Repo.swift": source])
        defer { folder.remove() }
        let path = folder.path("Repo.swift")
        guard let result = try Tool.run(["accessors", path]) else { return }
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(lines.first?.hasPrefix("\(path):6:11: error: Repo.jsonModel: 'jsonModel' is a member of JSONModel") == true,
                "\(result.standardError)")
        // The other members are printed all the same.
        #expect(result.standardOutput.contains("extension Repo {\n    var name: String {\n"))
        #expect(!result.standardOutput.contains("var jsonModel"))
    }

    @Test func aWarningIsStatus0() throws {
        let source = """
            import JSONModelKit

            final class Tags: JSONModel, @unchecked Sendable {
                override class func properties(_ p: PropertyRegistrar) {
                    p.first(String.self)
                    for name in ["a", "b"] { p.add(name, String.self) }
                }
            }
            """
        let folder = try SourceFolder(["Tags.swift": source])
        defer { folder.remove() }
        let path = folder.path("Tags.swift")
        guard let result = try Tool.run(["accessors", path]) else { return }
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardError.hasPrefix("\(path):6:9: warning: Tags: "), "\(result.standardError)")
        #expect(result.standardOutput.contains("var first: String {\n"))
        #expect(result.standardOutput.contains("extension Tags: DynamicMembers {}\n"))
    }

    @Test func readsStandardInput() throws {
        guard let result = try Tool.run(["accessors", "-"], standardInput: Self.place) else { return }
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("extension Place {\n"))
        guard let error = try Tool.run(["accessors", "-"], standardInput: Self.place.replacingOccurrences(of: "city", with: "hash"))
        else { return }
        #expect(error.status == 1)
        #expect(error.standardError.hasPrefix("<stdin>:5:11: error: "), "\(error.standardError)")
    }

    @Test func anUnreadableFileIsStatus2AndPrintsNothing() throws {
        let folder = try SourceFolder(["Place.swift": Self.place])
        defer { folder.remove() }
        guard let result = try Tool.run(["accessors", folder.path("Place.swift"), "/no/such/Models.swift"]) else { return }
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "jsonmodel accessors: cannot read /no/such/Models.swift: no such file or not readable\n")
        guard let directory = try Tool.run(["accessors", folder.url.path]) else { return }
        #expect(directory.status == 2)
        #expect(directory.standardOutput.isEmpty)
    }

    @Test(arguments: [["accessors"], ["accessors", "--output", "x.swift"], ["accessors", "--bogus", "a.swift"]])
    func wrongCommandLinesAreUsageErrors(arguments: [String]) throws {
        guard let result = try Tool.run(arguments) else { return }
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("USAGE: jsonmodel accessors"), "\(result.standardError)")
    }

    @Test func helpExplainsTheRecipeAndStatuses() throws {
        guard let result = try Tool.run(["accessors", "--help"]) else { return }
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        for text in ["USAGE: jsonmodel accessors <file>...", "JSONModelAccessors", "> Accessors.swift", "EXIT STATUS"] {
            #expect(result.standardOutput.contains(text), "\(text)")
        }
    }
}
