import Foundation
import JSONModelInference
import JSONModelKit
import Testing

/// A class of `Generated/`, the Swift source `jsonmodel generate` prints for a sample of
/// `Tests/GeneratorAndToolTests/Fixtures/Generate/` (whose tests check the files are that output).
struct GeneratedClass: Sendable, CustomTestStringConvertible {
    /// The sample's file name.
    let sample: String
    /// `--name`: the root model, and the name of its schema beside the sample.
    let name: String
    /// `--prefix`.
    let prefix: String
    /// The compiled root class.
    let rootClass: JSONModel.Type

    static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TypedModelTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("GeneratorAndToolTests/Fixtures/Generate")

    static let all: [GeneratedClass] = [
        GeneratedClass(sample: "shop-orders.json", name: "ShopOrder", prefix: "Shop", rootClass: ShopOrder.self),
        GeneratedClass(sample: "odd-keys.json", name: "OddRecord", prefix: "Odd", rootClass: OddRecord.self),
        GeneratedClass(sample: "api-feed.json", name: "FeedPage", prefix: "Feed", rootClass: FeedPage.self),
        GeneratedClass(sample: "org-archive.json", name: "Org", prefix: "Org", rootClass: Org.self),
        GeneratedClass(sample: "names-without-prefix.json", name: "Listing", prefix: "", rootClass: Listing.self),
    ]

    static func data(_ sample: String) throws -> Data {
        try Data(contentsOf: samples.appendingPathComponent(sample))
    }

    var testDescription: String { sample }

    /// The sample's objects the root model reads: itself, the elements of its array, or the
    /// values of a top-level dictionary.
    func objects(of inferred: InferredSchema) throws -> [JSONObject] {
        switch try JSONDocument(data: Self.data(sample)).root.value {
        case .object(let object):
            return inferred.topLevel == .dictionary ? object.values.compactMap(\.objectValue) : [object]
        case .array(let elements):
            return elements.compactMap(\.objectValue)
        default:
            return []
        }
    }
}

/// The classes `jsonmodel generate` prints, compiled with the typed members of the
/// JSONModelAccessors plugin: they read their samples as the schema models do, and through
/// member syntax with no type annotations.
@Suite("Generated models, compiled")
struct GeneratedModelTests {
    /// Every property reads as the checked-in schema's model reads it (the GeneratorAndToolTests
    /// check that one against the sample, dates as instants); the output is the sample; and
    /// validating finds nothing.
    @Test(arguments: GeneratedClass.all)
    func compiledClassesReadTheSampleAsTheSchemaDoes(generated: GeneratedClass) throws {
        let inferred = try ModelInference.infer(
            from: GeneratedClass.data(generated.sample), rootName: generated.name,
            options: .init(modelNamePrefix: generated.prefix))
        let root = try #require(inferred.models.first)
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: GeneratedClass.data(generated.name + ".schema.json")))
        let objects = try generated.objects(of: inferred)
        #expect(!objects.isEmpty)
        for (index, object) in objects.enumerated() {
            let context = "\(generated.sample)[\(index)]"
            let compiled = try generated.rootClass.make(json: JSONValue.object(object))
            let schemaModel = try registry.makeModel(named: generated.name, json: JSONValue.object(object))
            #expect(compiled.jsonModel.modelName == generated.name)
            for property in root.properties {
                let read = compiled.jsonModel.jsonValue(forProperty: property.name)
                #expect(read != nil, "\(context): no property \(property.name)")
                #expect(read == schemaModel.jsonModel.jsonValue(forProperty: property.name), "\(context).\(property.name)")
            }
            #expect(compiled.jsonModel.json() == .object(object), "\(context): output differs from the input")
            #expect(throws: Never.self, "\(context)") { try compiled.jsonModel.validate() }
        }
    }

    @Test func shopOrdersReadThroughTypedMembers() throws {
        let orders = try ShopOrder.array(from: GeneratedClass.data("shop-orders.json"))
        #expect(orders.count == 4)
        #expect(orders[1].orderID == UInt64.max)
        #expect(orders[0].placedAt == DateFormat.iso8601.date(from: "2025-03-12T17:04:11Z"))
        #expect(orders[0].exchangeRate == Decimal(string: "1.0834567890123456789", locale: Locale(identifier: "en_US_POSIX")))
        #expect(orders[1].status == "processing")
        #expect(orders[0].customer.address?.postalCode == "10435")
        #expect(orders[1].customer.address == nil)
        let items = orders[0].lineItems
        #expect(items[0].unitPrice == 12.9)
        #expect(items[0].tags == ["green", "japan"])
        #expect(items[1].giftWrap == true)
        #expect(orders[0].shipping.deliveredOn.map(DateFormat(parsing: "yyyy-MM-dd").string(from:)) == "2025-03-15")
        #expect(orders[2].coupon == "SPRING10")
        #expect(orders[0].notes == nil)
    }

    @Test func oddKeysReadThroughTypedMembers() throws {
        let record = try OddRecord(json: GeneratedClass.data("odd-keys.json"))
        #expect(record.firstName == "Ann again")
        #expect(record.firstName2 == "Ann")
        #expect(record.firstName3 == "ANN")
        #expect(record.displayName == "Ann Lee")
        // Keywords are members after a dot; Swift's own member names were renamed, and the
        // names of JSONModel's API outside `jsonModel` are the properties' own.
        #expect(record.class == "first")
        #expect(record.default == 0)
        #expect(record.in == "x")
        #expect(record.selfField == "me")
        #expect(record.initField == "start")
        #expect(record.description == "A record with awkward keys")
        #expect(record.value == 3.5)
        #expect(record.model == "X1")
        #expect(record.add == "plus")
        #expect(record.aB == "dotted")
        #expect(record.withQuotes == "q")
        #expect(record.unnamed == "empty key")
        #expect(record.größe == 42)
        #expect(record.名前 == "名")
        #expect(record._2faEnabled == false)
        #expect(record._3d.y == 2.5)
        #expect(record.json.raw == true)
        #expect(record.userIDs == [1, 2])
        #expect(record.byYear["2020"]?.note == "busy")
        #expect(record.scoresByID["0b0a1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d"] == 2)
        #expect(record.grid.map(\.count) == [1, 2])
        #expect(record.optionalTags == ["a", nil])
        #expect(record.huge.numberValue?.text == "1e400")
        let dates = [record.birthDate, record.due, record.validUntil, record.shipped, record.startDate]
        #expect(dates.map { $0.map(DateFormat(parsing: "yyyy-MM-dd").string(from:)) } == [
            "1990-05-06", "2025-05-31", "2025-05-31", "2025-05-31", "2025-05-31",
        ])
        #expect(record.createdAt?.timeIntervalSince1970 == 1_710_000_000)
        #expect(record.updatedTimestamp.map { ($0.timeIntervalSince1970 * 1000).rounded() } == 1_710_000_000_123)
        #expect(record.code == "20250531")
        #expect(record.count == 1_710_000_000)
        #expect(record.jsonModel.diagnostics.isEmpty, "\(record.jsonModel.diagnostics)")
    }

    @Test func feedPageReadsThroughTypedMembers() throws {
        let page = try FeedPage(json: GeneratedClass.data("api-feed.json"))
        let items = page.data
        #expect(items.count == 2)
        #expect(items[0].type.code == "post")
        // One model for the author of an item and of a reply (same shape), another for
        // each differently shaped owner.
        let author: FeedAuthor = items[0].author
        let replyAuthor: FeedAuthor = items[0].replyList[0].author
        #expect(author.login == "ann")
        #expect(replyAuthor.login == "cy")
        #expect(items[0].repository.owner.siteAdmin == false)
        #expect(items[0].organization?.owner.members == 5)
        #expect(items[1].organization == nil)
        #expect(items[0].statuses.map(\.state) == ["ok", "ok", "failed", "ok"])
        #expect(items[0].people.first?.login == "bob")
        #expect(items[0].published.map(DateFormat.iso8601.string(from:)) == "2008-06-03T11:05:30Z")
        #expect(items[1].editedTimestamp == nil)
        #expect(page.error.retry == false)
        let previous = page.paging.previous
        #expect(previous == nil || previous == .null)
    }

    @Test func orgArchiveReadsAsADictionaryOfTheGeneratedClass() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Generated/Org.swift"), encoding: .utf8)
        #expect(source.contains("// The top level is [String: Org]: read it with ModelDictionary<Org>(json: data).\n"))
        // What the comment says, done.
        let orgs = try ModelDictionary<Org>(json: GeneratedClass.data("org-archive.json"))
        #expect(orgs.keys == ["5171", "5172", "5180", "5204", "5230", "5301"])
        #expect(orgs.diagnostics.isEmpty)
        let octave = try #require(orgs["5230"])
        #expect(octave.name == "GNU Octave")
        #expect(octave.firstYear == 2011)
        #expect(octave.projects.map(\.status) == ["passed", "failed", "passed"])
        let apertium = try #require(orgs["5171"]), debian = try #require(orgs["5204"])
        #expect(apertium.ideasURL == nil)
        #expect(debian.ideasURL == "https://wiki.debian.org/SummerOfCode")
        #expect(debian.projects.isEmpty)
    }
}
