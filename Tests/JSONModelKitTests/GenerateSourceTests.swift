import Foundation
import Testing
import JSONModelKit

/// A sample under `Fixtures/Generate/` and what `jsonmodel generate` makes of it: the Swift source
/// checked in under `Generated/` (compiled with these tests) and the schema beside the sample.
struct GenerateFixture: Sendable, CustomTestStringConvertible {
    /// The sample's file name in `Fixtures/Generate/`.
    let sample: String
    /// `--name`.
    let name: String
    /// `--prefix`.
    let prefix: String
    /// The compiled root class generated from the sample.
    let rootClass: JSONModel.Type

    var sampleURL: URL { GenerateFixtures.folder.appendingPathComponent(sample) }
    var swiftURL: URL { GenerateFixtures.generatedFolder.appendingPathComponent(name + ".swift") }
    var schemaURL: URL { GenerateFixtures.folder.appendingPathComponent(name + ".schema.json") }
    var testDescription: String { sample }

    func infer() throws -> InferredSchema {
        try ModelInference.infer(
            from: Data(contentsOf: sampleURL), rootName: name, options: .init(modelNamePrefix: prefix))
    }

    /// The sample's objects that the root model reads: itself, the elements of its array, or the
    /// values of a top-level dictionary.
    func objects() throws -> [JSONObject] {
        let value = try JSONDocument(data: Data(contentsOf: sampleURL)).root.value
        switch value {
        case .object(let object):
            guard try infer().topLevel == .dictionary else { return [object] }
            return object.values.compactMap(\.objectValue)
        case .array(let elements): return elements.compactMap(\.objectValue)
        default: return []
        }
    }
}

enum GenerateFixtures {
    /// Set to 1 to rewrite `Generated/*.swift` and `Fixtures/Generate/*.schema.json` from the generator.
    static let recordVariable = "RECORD_GENERATED"

    static var isRecording: Bool { ProcessInfo.processInfo.environment[recordVariable] == "1" }

    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let folder = testsFolder.appendingPathComponent("Fixtures/Generate")
    static let generatedFolder = testsFolder.appendingPathComponent("Generated")

    static let all: [GenerateFixture] = [
        GenerateFixture(sample: "shop-orders.json", name: "ShopOrder", prefix: "Shop", rootClass: ShopOrder.self),
        GenerateFixture(sample: "odd-keys.json", name: "OddRecord", prefix: "Odd", rootClass: OddRecord.self),
        GenerateFixture(sample: "api-feed.json", name: "FeedPage", prefix: "Feed", rootClass: FeedPage.self),
        GenerateFixture(sample: "org-archive.json", name: "Org", prefix: "Org", rootClass: Org.self),
    ]

    /// Checks `actual` against the file at `url` byte for byte, or records it.
    static func expect(_ actual: String, equalsFileAt url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        let stored = try? Data(contentsOf: url)
        if isRecording || stored == nil {
            do {
                try Data(actual.utf8).write(to: url)
            } catch {
                Issue.record("cannot write \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            if !isRecording {
                Issue.record("recorded \(url.path); check it, rebuild and run again", sourceLocation: sourceLocation)
            }
            return
        }
        guard Data(actual.utf8) != stored! else { return }
        let expected = String(decoding: stored!, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let lines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(lines, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(lines.count, expected.count)
        Issue.record(
            """
            generated output differs from \(url.lastPathComponent) at line \(line + 1) (re-record with \(recordVariable)=1):
              file:      \(line < expected.count ? expected[line] : "(end)")
              generated: \(line < lines.count ? lines[line] : "(end)")
            """, sourceLocation: sourceLocation)
    }
}

/// Proof that generated models work: the Swift source equals the files compiled into these
/// tests, those classes read the samples, and the schemas register and read the samples back.
@Suite("Generated models")
struct GenerateSourceTests {
    @Test(arguments: GenerateFixtures.all)
    func swiftSourceEqualsTheCompiledFile(fixture: GenerateFixture) throws {
        GenerateFixtures.expect(try fixture.infer().swiftSource, equalsFileAt: fixture.swiftURL)
    }

    @Test(arguments: GenerateFixtures.all)
    func schemaEqualsTheCheckedInFile(fixture: GenerateFixture) throws {
        GenerateFixtures.expect(try fixture.infer().schemaText, equalsFileAt: fixture.schemaURL)
    }

    @Test(arguments: GenerateFixtures.all)
    func schemaRegistersAndReadsTheSampleBack(fixture: GenerateFixture) throws {
        let inferred = try fixture.infer()
        let registry = ModelRegistry()
        try registry.register(ModelSchema(string: inferred.schemaText))
        let root = try #require(inferred.models.first)
        for (index, object) in try fixture.objects().enumerated() {
            let model = try registry.makeModel(named: root.name, json: .object(object))
            GeneratedRoundTrip.expectReadsBack(model, from: object, as: root, in: inferred, context: "\(fixture.sample)[\(index)]")
        }
    }

    @Test(arguments: GenerateFixtures.all)
    func compiledClassesReadTheSampleBack(fixture: GenerateFixture) throws {
        let inferred = try fixture.infer()
        let root = try #require(inferred.models.first)
        for (index, object) in try fixture.objects().enumerated() {
            let model = try fixture.rootClass.make(json: .object(object))
            #expect(model.modelName == root.name)
            GeneratedRoundTrip.expectReadsBack(model, from: object, as: root, in: inferred, context: "\(fixture.sample)[\(index)]")
        }
    }

    // MARK: The compiled classes through the member syntax

    private func data(_ sample: String) throws -> Data {
        try Data(contentsOf: GenerateFixtures.folder.appendingPathComponent(sample))
    }

    @Test func shopOrdersReadThroughTheGeneratedClasses() throws {
        let orders = try ShopOrder.array(from: data("shop-orders.json"))
        #expect(orders.count == 4)
        let big: UInt64 = orders[1].orderID
        #expect(big == UInt64.max)
        let placedAt: Date? = orders[0].placedAt
        #expect(placedAt == DateFormat.iso8601.date(from: "2025-03-12T17:04:11Z"))
        let rate: Decimal = orders[0].exchangeRate
        #expect(rate == Decimal(string: "1.0834567890123456789", locale: Locale(identifier: "en_US_POSIX")))
        let status: String = orders[1].status
        #expect(status == "processing")
        let customer: ShopCustomer = orders[0].customer
        let address: ShopAddress? = customer.address
        #expect(address?.postalCode == "10435")
        let noAddress: ShopAddress? = orders[1].customer.address
        #expect(noAddress == nil)
        let items: [ShopLineItem] = orders[0].lineItems
        let price: Double = items[0].unitPrice
        #expect(price == 12.9)
        let tags: [String]? = items[0].tags
        #expect(tags == ["green", "japan"])
        let giftWrap: Bool? = items[1].giftWrap
        #expect(giftWrap == true)
        let shipping: ShopShipping = orders[0].shipping
        let deliveredOn: Date? = shipping.deliveredOn
        #expect(deliveredOn.map(DateFormat.yearMonthDayDashes.string(from:)) == "2025-03-15")
        let coupon: String? = orders[2].coupon
        #expect(coupon == "SPRING10")
        let notes: String? = orders[0].notes
        #expect(notes == nil)
    }

    @Test func oddKeysReadThroughTheGeneratedClass() throws {
        let record = try OddRecord(json: data("odd-keys.json"))
        #expect(record.firstName as String == "Ann again")
        #expect(record.firstName2 as String == "Ann")
        #expect(record.firstName3 as String == "ANN")
        #expect(record.displayName as String == "Ann Lee")
        #expect(record.class as String == "first")
        #expect(record.default as Int == 0)
        #expect(record.in as String == "x")
        #expect(record.selfField as String == "me")
        #expect(record.initField as String == "start")
        #expect(record.descriptionField as String == "A record with awkward keys")
        #expect(record.valueField as Double == 3.5)
        #expect(record.modelField as String == "X1")
        #expect(record.add as String == "plus")
        #expect(record.aB as String == "dotted")
        #expect(record.withQuotes as String == "q")
        #expect(record.unnamed as String == "empty key")
        #expect(record.größe as Int == 42)
        #expect(record.名前 as String == "名")
        #expect(record._2faEnabled as Bool == false)
        let threeD: Odd3d = record._3d
        #expect(threeD.y as Double == 2.5)
        let json: OddJSON = record.jsonField
        #expect(json.raw as Bool == true)
        let userIDs: [Int] = record.userIDs
        #expect(userIDs == [1, 2])
        let byYear: [String: OddByYearItem] = record.byYear
        #expect(byYear["2020"]?.note == "busy")
        let scores: [String: Double] = record.scoresByID
        #expect(scores["0b0a1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d"] == 2)
        let grid: [[OddGridItem]] = record.grid
        #expect(grid.map(\.count) == [1, 2])
        let tags: [String?] = record.optionalTags
        #expect(tags == ["a", nil])
        let huge: JSONValue = record.huge
        #expect(huge.numberValue?.text == "1e400")
        let dates: [Date?] = [record.birthDate, record.due, record.validUntil, record.shipped, record.startDate]
        #expect(dates.map { $0.map(DateFormat.yearMonthDayDashes.string(from:)) } == [
            "1990-05-06", "2025-05-31", "2025-05-31", "2025-05-31", "2025-05-31",
        ])
        let createdAt: Date? = record.createdAt
        #expect(createdAt?.timeIntervalSince1970 == 1_710_000_000)
        let updated: Date? = record.updatedTimestamp
        #expect(updated.map { ($0.timeIntervalSince1970 * 1000).rounded() } == 1_710_000_000_123)
        #expect(record.code as String == "20250531")
        #expect(record.count as Int == 1_710_000_000)
        #expect(record.diagnostics.isEmpty, "\(record.diagnostics)")
    }

    @Test func feedPageReadsThroughTheGeneratedClasses() throws {
        let page = try FeedPage(json: data("api-feed.json"))
        let items: [FeedDataItem] = page.data
        #expect(items.count == 2)
        let kind: FeedType = items[0].type
        #expect(kind.code as String == "post")
        // One model for the author of an item and of a reply (same shape), another for
        // each differently shaped owner.
        let author: FeedAuthor = items[0].author
        let replies: [FeedReply] = items[0].replyList
        let replyAuthor: FeedAuthor = replies[0].author
        #expect(author.login as String == "ann")
        #expect(replyAuthor.login as String == "cy")
        let owner: FeedOwner = items[0].repository.owner
        #expect(owner.siteAdmin as Bool == false)
        let organization: FeedOrganization? = items[0].organization
        let teamOwner: FeedOrganizationOwner? = organization?.owner
        #expect(teamOwner?.members == 5)
        #expect(items[1].organization as FeedOrganization? == nil)
        let statuses: [FeedStatus] = items[0].statuses
        #expect(statuses.map { $0.state as String } == ["ok", "ok", "failed", "ok"])
        let people: [FeedPerson] = items[0].people
        #expect(people.first?.login == "bob")
        let published: Date? = items[0].published
        #expect(published.map(DateFormat.iso8601.string(from:)) == "2008-06-03T11:05:30Z")
        let edited: Date? = items[1].editedTimestamp
        #expect(edited == nil)
        let error: FeedError = page.error
        #expect(error.retry as Bool == false)
        let previous: JSONValue? = page.paging.previous
        #expect(previous == nil || previous == .null)
    }

    @Test func orgArchiveReadsAsADictionaryOfTheGeneratedClass() throws {
        let source = try fixtureSource("Org.swift")
        #expect(source.contains("// The top level is [String: Org]: read it with ModelDictionary<Org>(json: data).\n"))
        // What the comment says, done.
        let orgs = try ModelDictionary<Org>(json: data("org-archive.json"))
        #expect(orgs.keys == ["5171", "5172", "5180", "5204", "5230", "5301"])
        #expect(orgs.diagnostics.isEmpty)
        let octave = try #require(orgs["5230"])
        #expect(octave.name as String == "GNU Octave")
        #expect(octave.firstYear as Int == 2011)
        let projects: [OrgProject] = octave.projects
        #expect(projects.map { $0.status as String } == ["passed", "failed", "passed"])
        let apertium = try #require(orgs["5171"]), debian = try #require(orgs["5204"])
        #expect(apertium.ideasURL as String? == nil)
        #expect(debian.ideasURL as String? == "https://wiki.debian.org/SummerOfCode")
        #expect((debian.projects as [OrgProject]).isEmpty)
    }

    private func fixtureSource(_ name: String) throws -> String {
        try String(contentsOf: GenerateFixtures.generatedFolder.appendingPathComponent(name), encoding: .utf8)
    }
}

/// Compares what a model reads with the JSON it was read from, property by property.
enum GeneratedRoundTrip {
    /// Checks every property of `model` (declared as `inferredModel`) against `object`: the
    /// value read, turned back into JSON, equals the sample's value (dates compared as
    /// instants, since a date is written in UTC and its declared format); the model's JSON equals
    /// `object`; and validating records no diagnostic.
    static func expectReadsBack(
        _ model: JSONModel, from object: JSONObject, as inferredModel: InferredModel, in schema: InferredSchema,
        context: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for property in inferredModel.properties {
            let original = object[property.key] ?? .null
            guard let read = model.jsonValue(forProperty: property.name) else {
                Issue.record("\(context): \(model.modelName) has no property \(property.name)", sourceLocation: sourceLocation)
                continue
            }
            #expect(normalized(read, as: property.type, in: schema) == normalized(original, as: property.type, in: schema),
                    "\(context).\(property.name): read \(read), sample \(original)", sourceLocation: sourceLocation)
        }
        #expect(model.json() == .object(object), "\(context): output differs from the input", sourceLocation: sourceLocation)
        do {
            try model.validate()
        } catch {
            Issue.record("\(context): \(error)", sourceLocation: sourceLocation)
        }
    }

    /// `json` with every date (by the inferred type) replaced by its instant in milliseconds.
    static func normalized(_ json: JSONValue, as type: InferredType, in schema: InferredSchema) -> JSONValue {
        switch type {
        case .optional(let wrapped):
            return json.isNull ? .null : normalized(json, as: wrapped, in: schema)
        case .date(let format):
            var date: Date?
            if let text = json.stringValue {
                date = format.dateTryingFallbacks(from: text)
            } else if let number = json.doubleValue {
                date = Date(timeIntervalSince1970: number / (format == .millisecondsSince1970 ? 1000 : 1))
            }
            guard let date else { return json }
            return JSONValue(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        case .array(let element):
            guard let items = json.arrayValue else { return json }
            return .array(items.map { normalized($0, as: element, in: schema) })
        case .dictionary(let value):
            guard let object = json.objectValue else { return json }
            return .object(JSONObject(object.map { (key: $0.key, value: normalized($0.value, as: value, in: schema)) }))
        case .model(let name):
            guard var object = json.objectValue, let model = schema.model(named: name) else { return json }
            for property in model.properties {
                if let value = object[property.key] {
                    _ = object.updateValue(normalized(value, as: property.type, in: schema), forKey: property.key)
                }
            }
            return .object(object)
        default:
            return json
        }
    }
}
