import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// A plain Codable struct: no converter, no JSONConvertible.
struct CodableMeta: Codable, Sendable, Equatable {
    var title: String
    var tags: [String]
    var rating: Double?
}

struct CodableAuthor: Codable, Sendable, Equatable {
    struct Contact: Codable, Sendable, Equatable {
        var email: String
        var since: Date
        var avatar: Data
        var site: URL
    }
    var name: String
    var contact: Contact
    var count: Int
}

/// An enum with associated values and synthesized Codable.
enum CodableShape: Codable, Sendable, Equatable {
    case circle(radius: Double)
    case rectangle(width: Int, height: Int)
    case empty
}

/// A Codable type that also has a converter registered for it (precedence).
struct CodableBadge: Codable, Sendable, Equatable {
    var text: String
}

/// One level of a deep Codable value: `{"next": {"next": … null}}`.
final class CodableNest: Codable, Sendable {
    let next: CodableNest?
    init(next: CodableNest?) { self.next = next }
    var depth: Int {
        var depth = 0
        var current = next
        while let level = current { depth += 1; current = level.next }
        return depth
    }
}

final class CodableHolder: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.meta(CodableMeta.self, default: CodableMeta(title: "untitled", tags: []))
        p.author(CodableAuthor?.self)
        p.shape(CodableShape.self, default: .empty)
        p.shapes([CodableShape].self)
        p.metas([CodableMeta].self)
        p.byName([String: CodableMeta].self)
        p.maybeMetas([CodableMeta]?.self)
        p.badge(CodableBadge?.self)
        p.count(Int.self)
    }
}

final class CodableNestHolder: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.nest(CodableNest?.self)
    }
}

@Suite("Codable property types")
struct CodableValueTests {
    @Test func plainStructReads() throws {
        let model = try CodableHolder(json: #"{"meta": {"title": "Hi", "tags": ["a", "b"], "rating": 4.5}}"#)
        let meta: CodableMeta = model.meta
        #expect(meta == CodableMeta(title: "Hi", tags: ["a", "b"], rating: 4.5))
        #expect(model.jsonModel.diagnostics.isEmpty)
    }

    @Test func missingValueReadsTheDefault() throws {
        let model = try CodableHolder(json: "{}")
        let meta: CodableMeta = model.meta
        #expect(meta.title == "untitled")
        let author: CodableAuthor? = model.author
        #expect(author == nil)
        #expect(model.jsonModel.diagnostics.isEmpty)
    }

    @Test func nestedStructWithDateDataAndURL() throws {
        let json = #"""
            {"author": {"name": "Ann", "count": 3e0,
                        "contact": {"email": "a@b.c", "since": "2024-05-06T07:08:09Z", "avatar": "AQID", "site": "https://x.org/a"}}}
            """#
        let model = try CodableHolder(json: json)
        let author: CodableAuthor? = model.author
        #expect(author?.name == "Ann")
        #expect(author?.count == 3)
        #expect(author?.contact.since == Date(timeIntervalSince1970: 1_714_979_289))
        #expect(author?.contact.avatar == Data([1, 2, 3]))
        #expect(author?.contact.site == URL(string: "https://x.org/a"))
        #expect(model.jsonModel.diagnostics.isEmpty)

        let seconds = try CodableHolder(
            json: #"{"author": {"name": "B", "count": 1, "contact": {"email": "", "since": 86400, "avatar": "", "site": "s"}}}"#)
        let other: CodableAuthor? = seconds.author
        #expect(other?.contact.since == Date(timeIntervalSince1970: 86400))
    }

    @Test func enumWithAssociatedValues() throws {
        let model = try CodableHolder(
            json: #"{"shape": {"rectangle": {"width": 2, "height": 3}}, "shapes": [{"circle": {"radius": 1.5}}, {"empty": {}}]}"#)
        let shape: CodableShape = model.shape
        #expect(shape == .rectangle(width: 2, height: 3))
        let shapes: [CodableShape] = model.shapes
        #expect(shapes == [.circle(radius: 1.5), .empty])
        #expect(model.jsonModel.diagnostics.isEmpty)
    }

    @Test func arraysDictionariesAndOptionals() throws {
        let json = #"""
            {"metas": [{"title": "a", "tags": []}, {"title": 5, "tags": []}, {"title": "c", "tags": ["x"]}],
             "byName": {"k": {"title": "k", "tags": []}},
             "maybeMetas": null}
            """#
        let model = try CodableHolder(json: json)
        let metas: [CodableMeta] = model.metas
        #expect(metas.map(\.title) == ["a", "c"])
        let byName: [String: CodableMeta] = model.byName
        #expect(byName["k"]?.title == "k")
        let maybe: [CodableMeta]? = model.maybeMetas
        #expect(maybe == nil)
        #expect(model.jsonModel.diagnostics.map(\.path.description) == ["metas[1].title"])

        // Other collections stay unsupported, Decodable or not.
        #expect(CustomValueType.descriptor(for: [Int: CodableMeta].self) == nil)
        #expect(CustomValueType.descriptor(for: Set<String>.self) == nil)

        let present = try CodableHolder(json: #"{"maybeMetas": [{"title": "m", "tags": []}]}"#)
        let some: [CodableMeta]? = present.maybeMetas
        #expect(some?.first?.title == "m")
    }

    @Test func failingFieldGivesTheDefaultAndAnExactPath() throws {
        let model = try CodableHolder(json: #"{"meta": {"title": "Hi", "tags": ["a", "b", 7]}}"#)
        let meta: CodableMeta = model.meta
        #expect(meta.title == "untitled")
        #expect(model.jsonModel.diagnostics.count == 1)
        let diagnostic = try #require(model.jsonModel.diagnostics.first)
        #expect(diagnostic.path.description == "meta.tags[2]")
        #expect(diagnostic.kind == .typeMismatch)
        #expect(diagnostic.message == "expected String, found a number 7")
        #expect(diagnostic.property == "meta")
    }

    @Test func missingKeyAndWrongNumbers() throws {
        let missing = try CodableHolder(json: #"{"meta": {"tags": []}}"#)
        let meta: CodableMeta = missing.meta
        #expect(meta.title == "untitled")
        #expect(missing.jsonModel.diagnostics.map(\.description) == [#"meta.title: missing key "title" (CodableHolder.meta, typeMismatch)"#])
        // Strings are not numbers inside a Codable value; 2.5 is not an Int.
        let text = try CodableHolder(json: #"{"shape": {"circle": {"radius": "1"}}}"#)
        let shape: CodableShape = text.shape
        #expect(shape == .empty)
        #expect(text.jsonModel.diagnostics.map(\.path.description) == ["shape.circle.radius"])
        let fraction = try CodableHolder(
            json: #"{"author": {"name": "x", "count": 2.5, "contact": {"email": "", "since": 0, "avatar": "", "site": "s"}}}"#)
        let author: CodableAuthor? = fraction.author
        #expect(author == nil)
        #expect(fraction.jsonModel.diagnostics.map(\.path.description) == ["author.count"])
        #expect(fraction.jsonModel.diagnostics.first?.kind == .invalidValue)
    }

    @Test func validateListsTheCodableDiagnostic() throws {
        let model = try CodableHolder(json: #"{"meta": {"title": "Hi", "tags": [true]}, "count": 1}"#)
        #expect(throws: ModelValidationError.self) { try model.jsonModel.validate() }
        do {
            try model.jsonModel.validate()
        } catch {
            #expect(error.diagnostics.map(\.path.description) == ["meta.tags[0]"])
        }
    }

    @Test func writesAndOutputRoundTrip() throws {
        let model = try CodableHolder(
            json: #"{"meta": {"title": "old", "tags": []}, "extra": {"kept": true}, "count": 2}"#, options: .mutable)
        model.meta = CodableMeta(title: "new", tags: ["t"], rating: nil)
        model.shape = CodableShape.circle(radius: 2)
        model.byName = ["b": CodableMeta(title: "b", tags: [], rating: 1)]
        let json = model.jsonModel.json()
        #expect(json["extra"] == ["kept": true])
        #expect(json["count"] == 2)
        #expect(json["meta"] == ["title": "new", "tags": ["t"]])
        #expect(json["shape"] == ["circle": ["radius": 2]])
        #expect(json["byName"] == ["b": ["title": "b", "tags": [], "rating": 1]])

        let again = try CodableHolder(json: model.jsonModel.jsonString())
        let meta: CodableMeta = again.meta
        #expect(meta == CodableMeta(title: "new", tags: ["t"], rating: nil))
        let shape: CodableShape = again.shape
        #expect(shape == .circle(radius: 2))
        #expect(again.jsonModel.diagnostics.isEmpty)
    }

    @Test func unwritableValueIsRefusedWithTheFieldPath() throws {
        let model = try CodableHolder(json: #"{"meta": {"title": "a", "tags": []}}"#, options: .mutable)
        #expect(throws: JSONModelError.self) {
            try model.jsonModel.set(CodableMeta(title: "b", tags: [], rating: .nan), forProperty: "meta")
        }
        do {
            try model.jsonModel.set(CodableMeta(title: "b", tags: [], rating: .nan), forProperty: "meta")
        } catch {
            #expect("\(error)".contains("rating: nan is not a JSON number"))
        }
        let meta: CodableMeta = model.meta
        #expect(meta.title == "a")
    }

    @Test func encoderWritesDatesDataAndURLsTheDecoderReads() throws {
        let author = CodableAuthor(
            name: "A", contact: .init(email: "e", since: Date(timeIntervalSince1970: 0), avatar: Data([255]),
                                      site: URL(string: "https://a.b")!), count: 1)
        let json = try JSONValueEncoder.encode(author)
        #expect(json["contact"]?["since"] == "1970-01-01T00:00:00Z")
        #expect(json["contact"]?["avatar"] == "/w==")
        #expect(json["contact"]?["site"] == "https://a.b")
        #expect(try JSONInputDecoder.decode(CodableAuthor.self, from: .value(json)) == author)
        #expect(throws: EncodingError.self) { try JSONValueEncoder.encode(Double.nan) }
    }

    @Test func deepCodableValuesOnASmallStack() {
        @Sendable func nest(_ levels: Int) -> String {
            #"{"nest":"# + String(repeating: #"{"next":"#, count: levels - 1) + "{}" + String(repeating: "}", count: levels)
        }
        let outcome = onSmallStackThread { () -> [String] in
            // 511 levels inside the property (the document is 512 deep): past the decoder's limit.
            // 200 levels (the limit's depth): decodes.
            [511, 200].map { levels in
                guard let model = try? CodableNestHolder(json: nest(levels)) else { return "no model" }
                let nest: CodableNest? = model.nest
                if let nest { return "depth \(nest.depth)" }
                return model.jsonModel.diagnostics.map { "\($0.path.segments.count) \($0.message)" }.joined()
            }
        }
        #expect(outcome == ["202 nested deeper than 200 levels inside a Codable value", "depth 199"])
    }
}

extension ConverterLookupTests {
    @Test func codableTypeWithARegisteredConverterUsesTheConverter() throws {
        let converter = JSONConverters.Closure<CodableBadge>(
            read: { json in json.stringValue.map { CodableBadge(text: "converted " + $0) } },
            write: { .string($0.text) })
        let plain = try CodableHolder(json: #"{"badge": {"text": "plain"}}"#)
        let decoded: CodableBadge? = plain.badge
        #expect(decoded == CodableBadge(text: "plain"))
        ModelRegistry.shared.register(converter, for: CodableBadge.self, in: CodableHolder.self)
        let model = try CodableHolder(json: #"{"badge": "gold"}"#)
        let badge: CodableBadge? = model.badge
        #expect(badge == CodableBadge(text: "converted gold"))
    }
}
