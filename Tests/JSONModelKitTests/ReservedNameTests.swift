import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// The public members of `JSONModel` as the toolchain's `swift-symbolgraph-extract` reads them
/// from the built module, so that a member added to `JSONModel` without adding its name to
/// ``JSONModel/reservedPropertyNames`` fails a test.
enum JSONModelMembers {
    /// The public symbol graphs of JSONModelKit and JSONModelKitCore, by file name
    /// (`JSONModelKit.symbols.json`, and one per extended module: `JSONModelKit@Swift.symbols.json`),
    /// read once.
    static let graphs: Result<[String: JSONValue], BuildProducts.Unavailable> = Result {
        () throws(BuildProducts.Unavailable) in try extract()
    }

    /// JSONModelKit's own graph.
    static var graph: Result<JSONValue, BuildProducts.Unavailable> {
        graphs.flatMap { graphs in
            guard let graph = graphs["JSONModelKit.symbols.json"] else {
                return .failure(.init(description: "no symbol graph for JSONModelKit"))
            }
            return .success(graph)
        }
    }

    /// The base names of the members.
    static var names: Result<Set<String>, BuildProducts.Unavailable> {
        graph.map { memberNames(of: "JSONModel", in: $0).union(memberNames(of: "JSONModelProtocol", in: $0)) }
    }

    /// Whether the names could be read; prints why not.
    static var available: Bool {
        if case .failure(let reason) = names {
            print("note: the tests that read the public symbol graph are skipped: \(reason)")
            return false
        }
        return true
    }

    private static func extract() throws(BuildProducts.Unavailable) -> [String: JSONValue] {
        let build = try BuildProducts.current.get()
        let swiftc = try build.tool("swiftc")
        let extractor = try build.tool("swift-symbolgraph-extract")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodelkit-symbols-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        do {
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        } catch {
            throw .init(description: "cannot create \(output.path): \(error)")
        }
        let info = try run(swiftc, ["-print-target-info"])
        guard let triple = (try? JSONDocument(data: info))?.root.value["target"]?["triple"]?.stringValue else {
            throw .init(description: "swiftc -print-target-info gave no target triple")
        }
        for module in ["JSONModelKit", "JSONModelKitCore"] {
            _ = try run(extractor, [
                "-module-name", module, "-target", triple,
                "-output-dir", output.path, "-minimum-access-level", "public",
            ] + build.importFlags)
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        var graphs: [String: JSONValue] = [:]
        for name in files where name.hasSuffix(".symbols.json") {
            let file = output.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: file), let graph = try? JSONDocument(data: data).root.value else {
                throw .init(description: "no readable symbol graph at \(file.path)")
            }
            graphs[name] = graph
        }
        return graphs
    }

    /// The base names of the instance members whose path is `[type, member]`: `set` for
    /// `set(_:forProperty:)`, `subscript` for `subscript(property:)`. Operators, initializers and
    /// class members are left out: none shares a namespace with a property's typed member.
    static func memberNames(of type: String, in graph: JSONValue) -> Set<String> {
        var names: Set<String> = []
        for symbol in graph["symbols"]?.arrayValue ?? [] {
            guard let path = symbol["pathComponents"]?.arrayValue?.compactMap(\.stringValue),
                path.count == 2, path[0] == type,
                let kind = symbol["kind"]?["identifier"]?.stringValue,
                !["swift.func.op", "swift.init", "swift.type.method", "swift.type.property", "swift.type.subscript"]
                    .contains(kind)
            else { continue }
            names.insert(String(path[1].prefix { $0 != "(" }))
        }
        return names
    }

    /// Runs a program and returns its standard output; a failure is a reason to skip.
    private static func run(_ program: URL, _ arguments: [String]) throws(BuildProducts.Unavailable) -> Data {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { throw .init(description: "cannot run \(program.path): \(error)") }
        // Read before waiting, so that a full pipe cannot block the program.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .init(description: "\(program.lastPathComponent) failed (\(process.terminationStatus)):\n\(message)")
        }
        return data
    }
}

@Suite("Reserved property names")
struct ReservedNameTests {
    @Test(.enabled(if: JSONModelMembers.available))
    func listHoldsEveryPublicMemberOfJSONModel() throws {
        let members = try JSONModelMembers.names.get()
        // The graph was read: a few members every version has.
        #expect(members.isSuperset(of: ["debugDescription", "jsonModel", "subscript"]), "\(members.sorted())")
        let missing = members.subtracting(JSONModel.reservedPropertyNames).sorted()
        #expect(missing.isEmpty, "public members of JSONModel missing from JSONModel.reservedPropertyNames: \(missing)")
    }

    @Test func listHoldsSwiftsOwnMemberNamesAndNoOperators() {
        let names = JSONModel.reservedPropertyNames
        #expect(names.isSuperset(of: ["self", "Type", "Protocol", "init", "deinit", "subscript"]))
        #expect(names.isSuperset(of: ["hashValue", "debugDescription", "jsonModel"]))
        #expect(names.count <= 12)
        #expect(!names.contains("=="))
        #expect(!names.contains("!="))
    }
}
