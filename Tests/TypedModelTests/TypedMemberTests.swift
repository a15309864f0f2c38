import AccessorGeneration
import Foundation
@testable import JSONModelKit
import Testing

@Suite("Typed members")
struct TypedMemberTests {
    static let pushJSON = #"""
        {"id": "1", "type": "PushEvent", "public": true, "created_at": "2024-05-01T10:00:00Z",
         "actor": {"id": 7, "login": "ann", "avatar_url": "https://example.com/a.png"},
         "repo": {"id": 12345678901, "name": "ann/tools", "topics": ["swift", "json"],
                  "maintainers": {"lead": {"id": 7, "login": "ann"}, "docs": {"id": 8, "login": "bo"}}},
         "payload": {"ref": "refs/heads/main", "size": 2, "commits": [
            {"sha": "a1", "message": "First", "distinct": true, "author": {"name": "Ann"}},
            {"sha": "b2", "message": "Second", "distinct": false}]},
         "unknown": [1, 2]}
        """#

    /// Every place a generated getter of this target passes is its property's ordinal in the
    /// class's metadata: the generator counts declarations as the runtime does (checked on the
    /// same files the plugin reads, this folder's Swift files outside `CompileFail`).
    @Test func everyGeneratedPlaceIsThePropertysOrdinal() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let paths = try #require(FileManager.default.subpaths(atPath: folder.path))
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("CompileFail") }
        let files = try paths.map { path in
            (path: path, text: try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8))
        }
        let generated = AccessorGenerator.generate(files: files)
        #expect(!generated.hasErrors)
        // Classes nested in other types, which `_typeByName` does not find by a dotted name, and
        // generic ones, which it does not find without their arguments.
        let nested: [String: JSONModel.Type] = [
            "ReadmeExamplesTests.User": ReadmeExamplesTests.User.self,
            "ReadmeExamplesTests.Address": ReadmeExamplesTests.Address.self,
            "ReadmeExamplesTests.Item": ReadmeExamplesTests.Item.self,
            "ResultPage": ResultPage<Contributor>.self,
            "ResultPage.Cursor": ResultPage<Contributor>.Cursor.self,
        ]
        var model: JSONModel.Type?
        var checked: [String] = []
        for line in generated.source.split(separator: "\n") {
            if line.hasPrefix("extension "), let name = line.dropFirst(10).split(separator: " ").first {
                let name = name.trimmingCharacters(in: [":"])
                model = nested[name] ?? _typeByName("TypedModelTests." + name) as? JSONModel.Type
                #expect(model != nil, "no model class named \(name)")
                continue
            }
            guard let model, let getter = line.firstRange(of: "get { self[property: \""),
                let place = line.firstRange(of: "\", ordinal: ")
            else { continue }
            let name = String(line[getter.upperBound..<place.lowerBound])
            let ordinal = try #require(Int(line[place.upperBound...].prefix { $0.isNumber }))
            let properties = ModelRegistry.shared.metadata(for: model).properties
            #expect(ordinal < properties.count && properties[ordinal].name == name, "\(model).\(name) at \(ordinal)")
            checked.append("\(model).\(name)")
        }
        // Inherited places too: a subclass's own properties come after its superclass's.
        #expect(checked.contains("PushEvent.commits"))
        #expect(checked.count >= 30, "\(checked)")
    }

    @Test func readsWithoutTypeAnnotations() throws {
        let event = try Event.make(json: Data(Self.pushJSON.utf8))
        #expect(event.actor.login.count == 3)
        #expect(event.repo.name.uppercased() == "ANN/TOOLS")
        var topics: [String] = []
        for topic in event.repo.topics { topics.append(topic) }
        #expect(topics == ["swift", "json"])
        #expect(event.repo.id == 12_345_678_901)
        #expect(event.kind == .push)
        #expect(event.isPublic)
        #expect(event.createdAt == Date(timeIntervalSince1970: 1_714_557_600))
        #expect(event.actor.avatarURL?.host == "example.com")
        #expect(event.org?.login == nil)
        #expect(event.repo.labels?["bug"] == nil)
    }

    @Test func subclassesAndModelArrays() throws {
        let event = try Event.make(json: Data(Self.pushJSON.utf8))
        let push = try #require(event as? PushEvent)
        #expect(push.commits.count == 2)
        #expect(push.commits[1].message == "Second")
        #expect(push.commits[0] === push.commits[0])
        #expect(push.lazyCommits.count == 2)
        #expect(push.size == 2)
        #expect(push.ref == "refs/heads/main")
        #expect(push.commits[0][property: "author-name"] as String? == "Ann")
        #expect(push.commits[1][property: "author-name"] as String? == nil)
        #expect(push.actor.login == "ann")
    }

    @Test func modelCollectionsReadAgainCostNoNewCollection() throws {
        let push = try #require(try Event.make(json: Data(Self.pushJSON.utf8)) as? PushEvent)
        let first = push.commits
        let second = push.commits
        #expect(first.withUnsafeBufferPointer { $0.baseAddress } == second.withUnsafeBufferPointer { $0.baseAddress })
        for index in 0..<push.commits.count { #expect(push.commits[index] === first[index]) }
        let maintainers = push.repo.maintainers
        #expect(maintainers["lead"]?.login == "ann")
        #expect(maintainers["docs"] === push.repo.maintainers["docs"])
        // A ModelArray member stays lazy: elements are built as they are read.
        let lazy = push.lazyCommits
        #expect(!lazy.isElementBuilt(at: 0) && !lazy.isElementBuilt(at: 1))
        #expect(lazy[1].sha == "b2")
        #expect(!lazy.isElementBuilt(at: 0) && lazy.isElementBuilt(at: 1))
    }

    @Test func writesOnMutableModels() throws {
        let event = try Event.make(json: Data(Self.pushJSON.utf8))
        let changed = event.jsonModel.mutate { event in
            event.repo.name = "ann/renamed"
            event.kind = .watch
            event.org = nil
        }
        #expect(changed.repo.name == "ann/renamed")
        #expect(changed.kind == .watch)
        #expect(event.repo.name == "ann/tools")
        #expect(changed.jsonModel.json()["unknown"] == [1, 2])
    }
}
