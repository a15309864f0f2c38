import Foundation
import Testing
@testable import JSONModelInference
@testable import JSONModelKit
import JSONModelKitTestSupport

/// The rules of `ModelInference`, one at a time.
@Suite("Model inference")
struct GenerateInferenceTests {
    /// Infers from JSON text and returns the root model's properties by key.
    private func infer(
        _ json: String, name: String = "Root", options: ModelInference.Options = .init()
    ) throws -> InferredSchema {
        try ModelInference.infer(from: Data(json.utf8), rootName: name, options: options)
    }

    private func types(_ json: String) throws -> [String: String] {
        let root = try infer(json).models[0]
        return Dictionary(uniqueKeysWithValues: root.properties.map { ($0.key, $0.type.description) })
    }

    private func property(_ key: String, in json: String) throws -> InferredProperty? {
        try infer(json).models[0].properties.first { $0.key == key }
    }

    // MARK: Types

    @Test func numbersTakeTheNarrowestExactType() throws {
        let found = try types("""
            {"small": 42, "negative": -7, "beyondInt64": 18446744073709551615, "longInteger": 123456789012345678901234567890,
             "fraction": 2.5, "exponent": 1e3, "longFraction": 1.0834567890123456789, "tooLong": 1e400,
             "fifteenDigits": 0.123456789012345, "zero": 0.0}
            """)
        #expect(found == [
            "small": "Int", "negative": "Int", "beyondInt64": "UInt64", "longInteger": "Decimal",
            "fraction": "Double", "exponent": "Double", "longFraction": "Decimal", "tooLong": "JSON",
            "fifteenDigits": "Double", "zero": "Double",
        ])
    }

    @Test func mergedNumbersWidenTogether() throws {
        let found = try types("""
            [{"a": 1, "b": 1, "c": -1, "d": 1, "e": true},
             {"a": 2.5, "b": 18446744073709551615, "c": 18446744073709551615, "d": "1", "e": false}]
            """)
        // Int + Double → Double; Int + UInt64 → UInt64; negative + UInt64 → Decimal; number + string → JSON.
        #expect(found == ["a": "Double", "b": "UInt64", "c": "Decimal", "d": "JSON", "e": "Bool"])
    }

    @Test func nullsAndMissingKeysMakeOptionals() throws {
        let found = try types("""
            [{"always": 1, "sometimesNull": 1, "sometimesMissing": "x", "onlyNull": null, "nested": {"a": 1}},
             {"always": 2, "sometimesNull": null, "onlyNull": null, "nested": null}]
            """)
        #expect(found == [
            "always": "Int", "sometimesNull": "Int?", "sometimesMissing": "String?", "onlyNull": "JSON?",
            "nested": "Nested?",
        ])
    }

    @Test func keysMissingInsideNestedArraysMakeOptionals() throws {
        let inferred = try infer("""
            {"items": [{"sku": "a", "qty": 1}, {"sku": "b"}, {"sku": "c", "qty": null, "note": "x"}]}
            """)
        #expect(inferred.models.map(\.name) == ["Root", "Item"])
        let item = try #require(inferred.model(named: "Item"))
        #expect(item.properties.map(\.type.description) == ["String", "Int?", "String?"])
    }

    @Test func arraysOfScalarsModelsAndArrays() throws {
        let found = try types("""
            {"tags": ["a", "b"], "maybe": [1, null], "empty": [], "mixed": [1, "a"], "matrix": [[1, 2], []],
             "lines": [{"n": 1}], "grid": [[{"v": 1}]], "emptyObject": {}, "nullInModels": [{"n": 1}, null]}
            """)
        #expect(found == [
            "tags": "[String]", "maybe": "[Int?]", "empty": "[JSON]", "mixed": "[JSON]", "matrix": "[[Int]]",
            "lines": "[Line]", "grid": "[[GridItem]]", "emptyObject": "[String: JSON]",
            "nullInModels": "[NullInModel?]",
        ])
    }

    @Test func objectsWithDataKeysAreDictionaries() throws {
        let found = try types("""
            {"byYear": {"2019": 1, "2020": 2.5}, "byID": {"7f1c2d9e-0b7a-4c1e-9f57-1c2b3d4e5f60": {"n": 1}},
             "negative": {"-1": "a", "2": "b"}, "named": {"one": 1, "2": 2}}
            """)
        #expect(found["byYear"] == "[String: Double]")
        #expect(found["byID"] == "[String: ByIDItem]")
        #expect(found["negative"] == "[String: String]")
        // One key that is a name is enough to make a model.
        #expect(found["named"] == "Named")
    }

    /// Fifty plugin names, as an update center lists them.
    static let pluginNames: [String] = ["git", "ant", "docker", "maven", "gradle", "slack", "junit", "credentials", "matrix", "pipeline"]
        .flatMap { name in ["", "-api", "-plugin", "-steps", "-auth"].map { name + $0 } }

    /// An update-center-like object: each plugin name maps to a record of one shape; every
    /// third one has a wiki, and none has every key.
    static func plugins(_ names: [String] = pluginNames) -> String {
        "{" + names.enumerated().map { index, name in
            let wiki = index % 3 == 0 ? #", "wiki": "https://wiki.example.org/\#(name)""# : ""
            return #""\#(name)": {"name": "\#(name)", "version": "1.\#(index)", "popularity": \#(index * 7),"#
                + #" "dependencies": [{"name": "core", "optional": \#(index % 2 == 0)}]\#(wiki)}"#
        }.joined(separator: ", ") + "}"
    }

    @Test func manyNamedRecordsOfOneShapeAreADictionary() throws {
        let json = #"{"connectionCheckUrl": "https://example.org", "core": {"name": "core", "version": "2.4"}, "plugins": "#
            + Self.plugins() + "}"
        let inferred = try infer(json, name: "UpdateCenter")
        #expect(inferred.models.map(\.name) == ["UpdateCenter", "Core", "Plugin", "Dependency"])
        #expect(inferred.models[0].properties.map(\.type.description) == ["String", "Core", "[String: Plugin]"])
        let plugin = try #require(inferred.model(named: "Plugin"))
        #expect(plugin.properties.map(\.key) == ["name", "version", "popularity", "dependencies", "wiki"])
        #expect(plugin.properties.map(\.type.description) == ["String", "String", "Int", "[Dependency]", "String?"])
    }

    @Test func manyNamedArraysOfRecordsOfOneShapeAreADictionary() throws {
        let authors = (0..<25).map { #""author\#($0)": [{"sha": "a\#($0)", "lines": \#($0)}]"# }
        let empty = #""nobody": []"#
        let found = try types(#"{"commits_by_author": {"# + (authors + [empty]).joined(separator: ", ") + "}}")
        #expect(found["commits_by_author"] == "[String: [CommitsByAuthorItem]]")
    }

    @Test func namedRecordsStayAModelWhenFewOrOfDifferentShapes() throws {
        // Nineteen records of one shape: below the 20 keys a dictionary of names needs.
        let few = try infer(#"{"plugins": "# + Self.plugins(Array(Self.pluginNames.prefix(19))) + "}")
        #expect(few.models[0].properties[0].type == .model("Plugins"))
        let fewer = try infer(
            #"{"plugins": "# + Self.plugins(Array(Self.pluginNames.prefix(19))) + "}", options: .init(dictionaryMinimumKeys: 19))
        #expect(fewer.models[0].properties[0].type == .dictionary(.model("Plugin")))
        // Thirty objects that share one key out of two: different kinds of thing, so a model.
        let mixed = (0..<30).map { #""field\#($0)": {"common": 1, "own\#($0)": 2}"# }.joined(separator: ", ")
        let distinct = try infer(#"{"parts": {"# + mixed + "}}")
        #expect(distinct.models[0].properties[0].type == .model("Parts"))
        // Lowering the shared fraction to a half makes them one shape.
        let loose = try infer(#"{"parts": {"# + mixed + "}}", options: .init(dictionaryMinimumSharedKeyFraction: 0.5))
        #expect(loose.models[0].properties[0].type == .dictionary(.model("Part")))
    }

    @Test func aWideObjectOfScalarFieldsStaysAModel() throws {
        let fields = (0..<30).map { index in
            index % 2 == 0 ? #""setting_\#(index)": \#(index)"# : #""option_\#(index)": "value \#(index)""#
        }
        let object = "{" + fields.joined(separator: ", ") + "}"
        let nested = try infer(#"{"settings": "# + object + "}")
        #expect(nested.models.map(\.name) == ["Root", "Settings"])
        #expect(nested.model(named: "Settings")?.properties.count == 30)
        let top = try infer(object, name: "Settings")
        #expect(top.topLevel == .model)
        #expect(top.models.map(\.name) == ["Settings"])
        #expect(top.models[0].properties.count == 30)
        // Scalars and objects mixed among the values: a model too.
        let withObject = try infer(#"{"settings": {"nested": {"a": 1}, "# + fields.joined(separator: ", ") + "}}")
        #expect(withObject.models[0].properties[0].type == .model("Settings"))
    }

    /// Fifty organizations keyed by id, as an archive lists them; every other one has a logo.
    static let organizations: String = "{" + (0..<50).map { index in
        let logo = index % 2 == 0 ? #", "logo": {"url": "https://example.org/\#(index).png", "width": 64}"# : ""
        return #""\#(5171 + index)": {"name": "Org \#(index)", "year": \#(2005 + index % 15),"#
            + #" "projects": [{"title": "Project \#(index)", "passed": \#(index % 3 != 0)}]\#(logo)}"#
    }.joined(separator: ", ") + "}"

    @Test func aTopLevelObjectOfIDsIsADictionaryOfOneModel() throws {
        let inferred = try infer(Self.organizations, name: "Org")
        #expect(inferred.topLevel == .dictionary)
        #expect(inferred.topLevelType == .dictionary(.model("Org")))
        #expect(inferred.models.map(\.name) == ["Org", "Project", "Logo"])
        let org = inferred.models[0]
        #expect(org.properties.map(\.key) == ["name", "year", "projects", "logo"])
        #expect(org.properties.map(\.type.description) == ["String", "Int", "[Project]", "Logo?"])
        // The Swift source says how to read the file, above the classes.
        let lines = inferred.swiftSource.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2] == "// The top level is [String: Org]: read it with ModelDictionary<Org>(json: data).")
        #expect(inferred.swiftSource.components(separatedBy: "final class ").count == 4)
        // The schema has no way to say it: the same three models, which load and read each value.
        #expect(try ModelSchema(json: inferred.schemaText) == inferred.schema)
        #expect(inferred.schema.models.map(\.name) == ["Org", "Project", "Logo"])
        let registry = ModelRegistry()
        try registry.register(inferred.schema)
        let archive = try #require(try JSONValue(json: Self.organizations).objectValue)
        for (key, value) in archive {
            let model = try registry.makeModel(named: "Org", json: value)
            #expect(model.jsonModel.json() == value, "\(key)")
            try model.jsonModel.validate()
        }
    }

    @Test func aNestedObjectOfIDsIsStillADictionary() throws {
        let inferred = try infer(#"{"total": 50, "organizations": "# + Self.organizations + "}", name: "Archive")
        #expect(inferred.topLevel == .model)
        #expect(inferred.topLevelType == .model("Archive"))
        #expect(inferred.models.map(\.name) == ["Archive", "Organization", "Project", "Logo"])
        #expect(inferred.models[0].properties.map(\.type.description) == ["Int", "[String: Organization]"])
        #expect(!inferred.swiftSource.contains("The top level is"))
    }

    @Test func aTopLevelObjectOfNamedRecordsIsADictionaryOfOneModel() throws {
        let inferred = try infer(Self.plugins(), name: "Plugin")
        #expect(inferred.topLevel == .dictionary)
        #expect(inferred.models.map(\.name) == ["Plugin", "Dependency"])
        #expect(inferred.swiftSource.contains("// The top level is [String: Plugin]: read it with ModelDictionary<Plugin>(json: data).\n"))
        #expect(inferred.schemaText.contains(#"{"name": "wiki", "type": "String?"}"#))
    }

    @Test func aTopLevelObjectOfIDsWithoutObjectValuesStaysAModel() throws {
        // No model class stands for a number or an array: one property per key, as before.
        let counts = try infer(#"{"2019": 1, "2020": 2}"#)
        #expect(counts.topLevel == .model)
        #expect(counts.models[0].properties.map(\.name) == ["_2019", "_2020"])
        let withNull = try infer(#"{"1": {"a": 1}, "2": null}"#)
        #expect(withNull.topLevel == .model)
        // An array sample is read element by element, whatever each element's keys are.
        let array = try infer(#"[{"1": {"a": 1}}, {"2": {"a": 2}}]"#)
        #expect(array.topLevel == .array)
        #expect(array.topLevelType == .array(.model("Root")))
        #expect(!array.swiftSource.contains("The top level is"))
    }

    @Test func tooDeepBecomesJSONWithoutRecursingForever() throws {
        let depth = 400
        let json = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        let inferred = try infer(json, options: .init(maximumDepth: 8))
        #expect(inferred.models.count == 8)
        #expect(inferred.models.last?.properties.first?.type == .json)
    }

    // MARK: Dates

    @Test(arguments: [
        ("2025-03-12T18:04:11+01:00", DateFormat.iso8601), ("2025-03-12T18:04:11.250Z", .iso8601),
        ("2025-03-12 18:04", .iso8601), ("2025-03-12", .yearMonthDayDashes), ("2025/03/12", .yearMonthDaySlashes),
        ("Tue Jun 3 2008 11:05:30 GMT", .javaScript), ("05/31/2025", .monthDayYear), ("31/05/2025", .dayMonthYear),
        ("05-31-2025", .monthDayYearDashes), ("31-05-2025", .dayMonthYearDashes),
    ])
    func datesAreRecognizedByFormat(text: String, format: DateFormat) throws {
        let found = try #require(try property("when", in: #"{"when": "\#(text)"}"#))
        #expect(found.type == .optional(.date(format)))
    }

    @Test func ambiguousDayAndMonthReadMonthFirstUnlessAValueSaysOtherwise() throws {
        #expect(try property("d", in: #"[{"d": "05/06/2018"}, {"d": "01/02/2018"}]"#)?.type == .optional(.date(.monthDayYear)))
        #expect(try property("d", in: #"[{"d": "05/06/2018"}, {"d": "13/02/2018"}]"#)?.type == .optional(.date(.dayMonthYear)))
        // No single format reads both: not a date.
        #expect(try property("d", in: #"[{"d": "13/02/2018"}, {"d": "02/13/2018"}]"#)?.type == .string)
    }

    @Test func digitOnlyDatesNeedAKeyThatNamesADate() throws {
        #expect(try property("start_date", in: #"{"start_date": "20250531"}"#)?.type == .optional(.date(.yearMonthDayCompact)))
        #expect(try property("code", in: #"{"code": "20250531"}"#)?.type == .string)
        #expect(try property("created_at", in: #"{"created_at": 1710000000}"#)?.type == .optional(.date(.secondsSince1970)))
        #expect(try property("createdAt", in: #"{"createdAt": 1710000000.5}"#)?.type == .optional(.date(.secondsSince1970)))
        #expect(try property("updatedTimestamp", in: #"{"updatedTimestamp": 1710000000123}"#)?.type
            == .optional(.date(.millisecondsSince1970)))
        #expect(try property("count", in: #"{"count": 1710000000}"#)?.type == .int)
        // Under a date key, but out of the plausible range: a number.
        #expect(try property("created_at", in: #"{"created_at": 12}"#)?.type == .int)
    }

    @Test func aNonDateAmongDatesMakesAString() throws {
        #expect(try property("d", in: #"[{"d": "2025-01-01"}, {"d": "soon"}]"#)?.type == .string)
        #expect(try property("d", in: #"[{"d": "2025-01-01"}, {"d": null}]"#)?.type == .optional(.date(.yearMonthDayDashes)))
    }

    // MARK: Enum values

    /// A JSON array of objects with `key` set to each of `values` in turn.
    private func objects(_ key: String, _ values: [String?]) -> String {
        "[" + values.map { value in
            #"{"\#(key)": \#(value.map { JSONValue.string($0).jsonString() } ?? "null")}"#
        }.joined(separator: ", ") + "]"
    }

    @Test func smallRepeatedStringSetsBecomeEnumValues() throws {
        // Two values, three times each: the least that makes an enum.
        #expect(try property("s", in: objects("s", ["b", "a", "b", "a", "a", "b"]))?.enumValues == ["a", "b"])
        // Twice each is too few to call a set.
        #expect(try property("s", in: objects("s", ["b", "a", "b", "a"]))?.enumValues == nil)
        // One distinct value is not a set.
        #expect(try property("s", in: objects("s", ["a", "a", "a", "a", "a", "a"]))?.enumValues == nil)
        // Enough on average, but "c" was seen once.
        #expect(try property("s", in: objects("s", ["a", "a", "a", "b", "b", "b", "a", "c"]))?.enumValues == nil)
        // Nulls do not count, and make the property optional.
        let withNull = objects("s", ["b", "a", "b", "a", "a", "b", nil])
        #expect(try property("s", in: withNull)?.enumValues == ["a", "b"])
        #expect(try property("s", in: withNull)?.type == .optional(.string))
    }

    @Test func aStateOverThirtyItemsIsAnEnum() throws {
        let states = (0..<30).map { $0 % 3 == 0 ? "closed" : "open" }
        #expect(try property("state", in: objects("state", states))?.enumValues == ["closed", "open"])
        let kinds = (0..<30).map { ["in_progress", "DHL", "full-time", "v1.2"][$0 % 4] }
        #expect(try property("kind", in: objects("kind", kinds))?.enumValues == ["DHL", "full-time", "in_progress", "v1.2"])
        // Numeric codes are values too, when every value is one.
        let codes = (0..<12).map { $0 % 2 == 0 ? "200" : "404" }
        #expect(try property("code", in: objects("code", codes))?.enumValues == ["200", "404"])
    }

    @Test func gitRefsAndBranchNamesAreNotEnums() throws {
        // A handful of branch names, each seen once or twice.
        let branches = ["main", "dev", "main", "feature-login", "dev", "release-2"]
        #expect(try property("head", in: objects("head", branches))?.enumValues == nil)
        let twice = ["main", "dev", "hotfix", "main", "dev", "hotfix"]
        #expect(try property("head", in: objects("head", twice))?.enumValues == nil)
        // Refs and slashed branch names are free-form, however often they repeat.
        let refs = (0..<30).map { $0 % 2 == 0 ? "refs/heads/main" : "refs/heads/dev" }
        #expect(try property("target", in: objects("target", refs))?.enumValues == nil)
        let slashed = (0..<30).map { $0 % 2 == 0 ? "feature/login-form" : "main" }
        #expect(try property("target", in: objects("target", slashed))?.enumValues == nil)
        // A key naming a branch or a ref is open-ended even with word-like values.
        let words = (0..<30).map { $0 % 2 == 0 ? "main" : "dev" }
        #expect(try property("default_branch", in: objects("default_branch", words))?.enumValues == nil)
        #expect(try property("headRef", in: objects("headRef", words))?.enumValues == nil)
    }

    @Test func valuesWithSpacesOrOtherSymbolsAreNotEnums() throws {
        let cases: [[String]] = [
            ["In progress", "Done"], ["text/plain", "text/html"], ["a+b", "c"], ["4k", "hd"], ["2.0", "beta"],
            ["-x", "y"], ["a b", "c"],
        ]
        for values in cases {
            let repeated = (0..<12).map { values[$0 % values.count] }
            #expect(try property("s", in: objects("s", repeated))?.enumValues == nil, "\(values)")
        }
    }

    @Test func enumThresholdsAreOptions() throws {
        let values = (0..<11).flatMap { ["v\($0)", "v\($0)", "v\($0)"] }
        let json = objects("s", values)
        // 11 distinct values: more than the default 10.
        #expect(try infer(json).models[0].properties[0].enumValues == nil)
        let wider = try infer(json, options: .init(enumMaximumValues: 11))
        #expect(wider.models[0].properties[0].enumValues?.count == 11)
        let six = objects("s", ["a", "b", "a", "b", "a", "b"])
        let stricter = try infer(six, options: .init(enumMinimumOccurrences: 7))
        #expect(stricter.models[0].properties[0].enumValues == nil)
        let moreRepeats = try infer(six, options: .init(enumMinimumOccurrencesPerValue: 4))
        #expect(moreRepeats.models[0].properties[0].enumValues == nil)
        let fewerRepeats = try infer(objects("s", ["a", "b", "a", "b"]), options: .init(enumMinimumOccurrencesPerValue: 2))
        #expect(fewerRepeats.models[0].properties[0].enumValues == ["a", "b"])
    }

    @Test func namesTextAndLongValuesAreNotEnums() throws {
        let names = objects("user_name", ["Ann", "Bob", "Ann", "Bob", "Ann", "Bob"])
        #expect(try property("user_name", in: names)?.enumValues == nil)
        let long = String(repeating: "x", count: 33)
        #expect(try property("s", in: objects("s", [long, "a", long, "a", long, "a"]))?.enumValues == nil)
        #expect(try property("s", in: objects("s", ["a\nb", "a", "a\nb", "a", "a\nb", "a"]))?.enumValues == nil)
    }

    // MARK: Names

    @Test(arguments: [
        ("first_name", "firstName"), ("first-name", "firstName"), ("First Name", "firstName"), ("FirstName", "firstName"),
        ("FIRST_NAME", "firstName"), ("firstName", "firstName"), ("user_id", "userID"), ("avatar_url", "avatarURL"),
        ("user_ids", "userIDs"), ("ID", "id"), ("URL", "url"), ("HTTPStatusCode", "httpStatusCode"),
        ("productSKU", "productSKU"), ("iOSVersion", "iOSVersion"), ("utf8Bytes", "utf8Bytes"), ("2fa", "_2fa"),
        ("3d_model", "_3dModel"), ("a.b", "aB"), ("größe", "größe"), ("emoji🙂", "emoji"), ("!!!", "unnamed"),
        ("", "unnamed"), ("__private", "private"), ("class", "class"), ("in", "in"),
    ])
    func propertyNamesFromAnyKeyStyle(key: String, name: String) {
        #expect(InferenceNames.propertyName(forKey: key) == name)
    }

    @Test(arguments: [
        ("line_items", "LineItem"), ("people", "Person"), ("children", "Child"), ("categories", "Category"),
        ("addresses", "Address"), ("statuses", "Status"), ("boxes", "Box"), ("matches", "Match"), ("movies", "Movie"),
        ("data", "DataItem"), ("news", "NewsItem"), ("address", "AddressItem"), ("tagList", "Tag"),
        ("user_ids", "UserID"), ("series", "SeriesItem"), ("analyses", "Analysis"), ("photos", "Photo"),
        ("URLs", "URL"),
    ])
    func elementModelNamesAreSingular(key: String, name: String) {
        #expect(InferenceNames.elementTypeName(forKey: key) == name)
    }

    @Test func reservedAndKeywordNames() throws {
        let root = try infer("""
            {"description": 1, "value": 2, "json": 3, "self": 4, "init": 5, "model": 6, "class": 7, "default": 8,
             "add": 9, "type": 10}
            """).models[0]
        // Only Swift's own member names and the model's few are renamed; `description`, `value`
        // and `json` are free.
        #expect(root.properties.map(\.name) == [
            "description", "value", "json", "selfField", "initField", "model", "class", "default",
            "add", "type",
        ])
        #expect(root.properties[0].jsonPath == nil)
        #expect(root.properties[3].jsonPath == ["self"])
        #expect(root.properties[6].jsonPath == nil)
        let swift = try infer(#"{"add": 1}"#).swiftSource
        #expect(swift.contains(#"p.add("add", Int.self)"#))
    }

    @Test func keysNamedLikeMembersOfJSONModelGetOtherNames() throws {
        let inferred = try infer(#"{"description": "x", "hash": "y", "jsonModel": "z", "isMutable": true}"#)
        let root = inferred.models[0]
        #expect(root.properties.map(\.name) == ["description", "hashField", "jsonModelField", "isMutable"])
        #expect(root.properties.allSatisfy { !JSONModel.reservedPropertyNames.contains($0.name) })
        #expect(root.properties.map(\.jsonPath) == [nil, ["hash"], ["jsonModel"], nil])
        #expect(inferred.swiftSource.contains(#"p.hashField(String.self, jsonPath: "hash")"#))
        // The schema it writes registers, and reads the keys.
        let registry = ModelRegistry()
        try registry.register(inferred.schema)
        let model = try registry.makeModel(named: "Root", json: ["description": "x", "hash": "y"] as JSONValue)
        #expect(model.jsonModel.value(forProperty: "description") as? String == "x")
        #expect(model.jsonModel.value(forProperty: "hashField") as? String == "y")
    }

    /// `"\u{E1}"` and `"a\u{301}"` are two keys (the models read keys by their bytes), though
    /// Swift's `String ==` takes them for one: each gets a property of its own, with its own
    /// values, and the schema written reads both. They were merged, and one key had none.
    @Test func keysEqualOnlyUnderUnicodeNormalizationAreTwoProperties() throws {
        let composed = "\u{E1}"
        let decomposed = "a\u{301}"
        let inferred = try infer(#"[{"\#(composed)": 1, "\#(decomposed)": "x"}, {"\#(decomposed)": "y"}]"#)
        let properties = inferred.models[0].properties
        #expect(properties.count == 2)
        #expect(properties.map { Array($0.key.utf8) } == [Array(composed.utf8), Array(decomposed.utf8)])
        #expect(properties.map(\.type.description) == ["Int?", "String"])
        #expect(Set(properties.map { Array($0.name.utf8) }).count == 2)
        let registry = ModelRegistry()
        try registry.register(inferred.schema)
        let model = try registry.makeModel(
            named: "Root", json: #"{"\#(composed)": 7, "\#(decomposed)": "z"}"#)
        #expect(model.jsonModel.value(forProperty: properties[0].name) as? Int == 7)
        #expect(model.jsonModel.value(forProperty: properties[1].name) as? String == "z")
    }

    /// A name equal to its key only as `String` compares them (`tempK` for a key that ends in
    /// the Kelvin sign, U+212A) keeps the key's path, so the model reads the key it came from.
    @Test func aNameEqualToItsKeyOnlyUnderUnicodeEquivalenceKeepsThePath() throws {
        for key in ["temp\u{212A}", "x\u{2126}"] {
            let sample = #"{"\#(key)": 7, "name": "n"}"#
            let inferred = try infer(sample)
            let property = try #require(inferred.models[0].properties.first { Array($0.key.utf8) == Array(key.utf8) })
            #expect(!property.name.isSameJSONKey(as: key))
            #expect(property.jsonPath == JSONPath([.key(key)]), "\(key)")
            let registry = ModelRegistry()
            try registry.register(inferred.schema)
            let model = try registry.makeModel(named: "Root", json: Data(sample.utf8))
            #expect(model.jsonModel.value(forProperty: property.name) as? Int == 7, "\(key)")
        }
    }

    /// Nested objects whose keys differ only in how an accent is encoded are two shapes, so two
    /// models, each reading its own key.
    @Test func objectsWhoseKeysDifferOnlyInEncodingAreTwoModels() throws {
        let sample = #"{"a": {"item": {"caf\#u{E9}": 1}}, "b": {"item": {"cafe\#u{301}": 2}}}"#
        let inferred = try infer(sample)
        #expect(inferred.models.count == 5, "\(inferred.models.map(\.name))")
        let registry = ModelRegistry()
        try registry.register(inferred.schema)
        let model = try registry.makeModel(named: "Root", json: Data(sample.utf8))
        for (outer, key, value) in [("a", "caf\u{E9}", 1), ("b", "cafe\u{301}", 2)] {
            let item = try #require(
                (model.jsonModel.value(forProperty: outer) as? JSONModel)?.jsonModel.value(forProperty: "item") as? JSONModel)
            let name = try #require(
                inferred.models.flatMap(\.properties).first { Array($0.key.utf8) == Array(key.utf8) }?.name)
            #expect(item.jsonModel.value(forProperty: name) as? Int == value, "\(outer)")
        }
    }

    /// A model shared by keys whose names differ only in how a syllable is encoded (Hangul, as
    /// file names on some systems spell it) is named one way everywhere: Swift tells the two
    /// spellings apart, so a reference in the other spelling named no type.
    @Test func aSharedModelIsReferredToInTheSpellingItIsDeclaredIn() throws {
        let inferred = try infer("{\"x\u{AC00}\": {\"a\": 1}, \"x\u{1100}\u{1161}\": {\"a\": 1}}")
        let declared = Set(inferred.models.map { Array($0.name.utf8) })
        func referenced(_ type: InferredType) -> [String] {
            switch type {
            case .model(let name): [name]
            case .array(let inner), .dictionary(let inner), .optional(let inner): referenced(inner)
            default: []
            }
        }
        let references = inferred.models.flatMap { $0.properties.flatMap { referenced($0.type) } }
        #expect(references.count == 2)
        for name in references { #expect(declared.contains(Array(name.utf8)), "\(name.unicodeScalars.map(\.value))") }
    }

    /// String values that differ only in how an accent is encoded are two enum values: the model
    /// checks a value by its bytes, and would refuse the sample it came from.
    @Test func enumValuesThatDifferOnlyInEncodingAreBothKept() throws {
        let values = ["caf\u{E9}", "cafe\u{301}", "open"].flatMap { [$0, $0, $0] }
        let sample = "[" + values.map { #"{"state": "\#($0)"}"# }.joined(separator: ", ") + "]"
        let inferred = try infer(sample)
        let enumValues = try #require(inferred.models[0].properties.first?.enumValues)
        #expect(Set(enumValues.map { Array($0.utf8) }) == Set(["caf\u{E9}", "cafe\u{301}", "open"].map { Array($0.utf8) }))
        let registry = ModelRegistry()
        try registry.register(inferred.schema)
        for value in values {
            let model = try registry.makeModel(named: "Root", json: Data(#"{"state": "\#(value)"}"#.utf8))
            try model.jsonModel.validate()
        }
    }

    @Test func keysThatMeetOnOneNameAreNumbered() throws {
        let root = try infer(#"{"first_name": 1, "firstName": 2, "FIRST_NAME": 3, "first-name": 4}"#).models[0]
        // The key spelled like the name keeps it; the others count up in key order.
        #expect(root.properties.map(\.name) == ["firstName2", "firstName", "firstName3", "firstName4"])
        #expect(root.properties.map(\.jsonPath) == [["first_name"], nil, ["FIRST_NAME"], ["first-name"]])
    }

    @Test func pathsOfKeysWithDotsAreSegments() throws {
        let inferred = try infer(#"{"a.b": 1, "c[0]": 2, "": 3}"#)
        #expect(inferred.swiftSource.contains(#"p.aB(Int.self, jsonPath: ["a.b"])"#))
        #expect(inferred.swiftSource.contains(#"p.c0(Int.self, jsonPath: ["c[0]"])"#))
        #expect(inferred.schemaText.contains(#"{"name": "unnamed", "type": "Int", "jsonPath": [""]}"#))
    }

    @Test func rootNameIsTurnedIntoATypeName() throws {
        #expect(try infer("{}", name: "order item").models[0].name == "OrderItem")
        #expect(try ModelInference.modelName(for: "order item") == "OrderItem")
        #expect(try ModelInference.modelName(for: "Order", options: .init(modelNamePrefix: "Shop")) == "Order")
        #expect(try infer("{}", name: "api_response").models[0].name == "APIResponse")
        #expect(throws: ModelInferenceError.self) { try infer("{}", name: "!!!") }
        #expect(throws: ModelInferenceError.self) { try infer("{}", name: "data") }
        #expect(throws: ModelInferenceError.self) { try infer("{}", options: .init(modelNamePrefix: "1x")) }
    }

    // MARK: Model names

    @Test func equalShapesShareAModelAndOtherShapesTakeTheParentsName() throws {
        let inferred = try infer("""
            {"repo": {"owner": {"login": "a"}, "author": {"login": "x", "id": 1}},
             "org": {"owner": {"team": "core"}, "author": {"login": "y", "id": 2}},
             "third": {"owner": {"seats": 3}}}
            """)
        #expect(inferred.models.map(\.name) == ["Root", "Repo", "Org", "Third", "Owner", "Author", "OrgOwner", "ThirdOwner"])
        let org = try #require(inferred.model(named: "Org"))
        #expect(org.properties.map(\.type) == [.model("OrgOwner"), .model("Author")])
    }

    @Test func clashesWithTheParentNameFallBackToNumbers() throws {
        // "Owner" is taken, and so is "ThingOwner" (the parent's name first): the next is Owner2.
        let inferred = try infer("""
            {"owner": {"a": 1}, "thing_owner": {"b": 1}, "thing": {"owner": {"c": 1}}}
            """)
        #expect(inferred.models.map(\.name) == ["Root", "Owner", "ThingOwner", "Thing", "Owner2"])
    }

    @Test func reservedTypeNamesTakeTheParentsName() throws {
        let inferred = try infer(#"{"data": {"a": 1}, "error": {"b": 1}, "url": {"c": 1}, "type": {"d": 1}}"#, name: "Response")
        #expect(inferred.models.map(\.name) == ["Response", "ResponseData", "ResponseError", "ResponseURL", "ResponseType"])
    }

    /// No model is named like a public type of the library, which would shadow it in the
    /// generated code's module (`override class var keyStyle: KeyStyle` would not build), nor
    /// like a schema's built-in type (`JSON`), which a schema model may not take: every such
    /// name in the library's sources is reserved.
    @Test func everyPublicTypeOfTheLibraryIsReserved() throws {
        var declared: Set<String> = []
        for target in ["JSONModelKit", "JSONModelKitCore"] {
            let folder = SharedData.packageRoot.appendingPathComponent("Sources/\(target)")
            let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            for case let file as URL in files where file.pathExtension == "swift" {
                // Top-level declarations only: a nested type shadows nothing.
                for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where line.hasPrefix("public ") {
                    let words = line.split(separator: " ")
                    guard words.count >= 3 else { continue }
                    let rest = words.dropFirst().drop { $0 == "final" }
                    guard let kind = rest.first, ["class", "struct", "enum", "protocol", "typealias", "actor"].contains(kind),
                        let name = rest.dropFirst().first?.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
                    else { continue }
                    declared.insert(String(name))
                }
            }
        }
        #expect(declared.count > 40 && declared.contains("KeyStyle"), "\(declared.sorted())")
        let missing = declared.subtracting(InferenceNames.reservedTypeNames).sorted()
        #expect(missing.isEmpty, "public types a generated model could shadow: \(missing)")
        #expect(InferenceNames.reservedTypeNames.isSuperset(of: ["JSON", "Decimal", "UUID"]))
        let inferred = try infer(#"{"key_style": {"a": 1}, "json": {"b": 1}, "model_options": {"c": 1}}"#, name: "Root")
        #expect(inferred.models.map(\.name) == ["Root", "RootKeyStyle", "RootJSON", "RootModelOptions"])
        try ModelRegistry().register(inferred.schema)
    }

    /// A nested model is never named like a property of its parent: `p._3d(_3d.self)` finds the
    /// property's typed member before the type, and does not build. Keys whose first letter has
    /// no case (a digit, CJK) give such names.
    @Test func aModelIsNotNamedLikeItsParentsProperty() throws {
        let inferred = try infer(#"{"3d": {"x": 1}, "住所": {"市": "x"}, "other": {"3d": {"y": 1}}}"#, name: "Root")
        for model in inferred.models {
            for property in model.properties {
                if case .model(let name) = property.type {
                    #expect(name != property.name, "\(model.name).\(property.name) is of type \(name)")
                }
            }
        }
        #expect(Set(inferred.models.map(\.name)).count == inferred.models.count)
        #expect(inferred.models.map(\.name).prefix(3) == ["Root", "Root3d", "Root住所"])
        try ModelRegistry().register(inferred.schema)
    }

    /// Arrays nested deeper than a schema's types may be (32 levels) are inferred as deep as a
    /// schema takes, the rest raw JSON: the schema inferred from the sample registers and reads it.
    @Test func arraysNestedBeyondASchemasLimitEndInJSON() throws {
        for depth in [31, 32, 33, 40] {
            let sample = #"{"m": "# + String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth) + "}"
            let inferred = try infer(sample, name: "Root")
            let registry = ModelRegistry()
            try registry.register(inferred.schema)
            let model = try registry.makeModel(named: "Root", json: Data(sample.utf8))
            try model.jsonModel.validate()
            #expect(model.jsonModel.json() == (try JSONDocument(string: sample).root.value), "depth \(depth)")
        }
    }

    /// Case mapping can add a scalar that is no letter: lowercasing the Turkish `İ` gives `i` and
    /// a combining dot. Names keep letters and digits only, so the schema registers.
    @Test func namesFromCaseMappingKeepLettersOnly() throws {
        let sample = #"{"İletişim": {"telefon": "1"}, "İsim": "Ayşe"}"#
        let inferred = try infer(sample, name: "Kişi")
        for name in inferred.models.map(\.name) + inferred.models.flatMap({ $0.properties.map(\.name) }) {
            #expect(!name.unicodeScalars.contains("\u{307}"), "\(name)")
        }
        let registry = ModelRegistry()
        try registry.register(inferred.schema)
        let model = try registry.makeModel(named: "Kişi", json: Data(sample.utf8))
        try model.jsonModel.validate()
    }

    /// Types are named from the prefix; one starting with a lowercase letter could name a model
    /// like a member of JSONModel (`key` and `Style`), which the registration block finds first.
    @Test(arguments: ["key", "model", "json", "ünter"])
    func aPrefixStartingWithALowercaseLetterIsRefused(prefix: String) throws {
        #expect(throws: ModelInferenceError.self) {
            try infer(#"{"style": {"a": 1}}"#, options: .init(modelNamePrefix: prefix))
        }
        _ = try infer(#"{"style": {"a": 1}}"#, options: .init(modelNamePrefix: "_" + prefix))
    }

    /// The Hangzhou numerals (U+3021 to U+3029) may start a name by Swift's grammar, but the
    /// compiler reads them as an operator there: a key that starts with one gets a name that
    /// starts with `_`, and keeps its path.
    @Test func aKeyStartingWithAHangzhouNumeralGetsANameStartingWithAnUnderscore() throws {
        let inferred = try infer(#"{"\#u{3021}": 1, "a\#u{3022}": 2}"#)
        let names = inferred.models[0].properties.map(\.name)
        #expect(names == ["_\u{3021}", "a\u{3022}"])
        #expect(inferred.models[0].properties[0].jsonPath == JSONPath([.key("\u{3021}")]))
    }

    /// Arrays nested deeper than Swift's type checker reads in good time end in `JSON` in both
    /// outputs.
    @Test func arraysNestedDeeperThanSwiftChecksInGoodTimeEndInJSON() throws {
        let depth = 30
        let sample = #"{"m": "# + String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth) + "}"
        let inferred = try infer(sample)
        let type = inferred.models[0].properties[0].type.swiftTypeName
        #expect(type == String(repeating: "[", count: 16) + "JSONValue" + String(repeating: "]", count: 16))
    }

    @Test func thePrefixNamesNestedModelsOnly() throws {
        let inferred = try infer(#"{"customer": {"a": 1}, "3d": {"x": 1}}"#, name: "ShopOrder", options: .init(modelNamePrefix: "Shop"))
        #expect(inferred.models.map(\.name) == ["ShopOrder", "ShopCustomer", "Shop3d"])
    }

    // MARK: Input errors

    @Test func samplesThatAreNotObjectsAreRefused() throws {
        #expect(throws: ModelInferenceError.notAnObject(found: .number)) { try infer("3") }
        #expect(throws: ModelInferenceError.emptyArray) { try infer("[]") }
        #expect(throws: ModelInferenceError.elementNotAnObject(index: 1, found: .null)) { try infer(#"[{"a": 1}, null]"#) }
        do {
            _ = try infer("{\n  \"a\": tru\n}")
            Issue.record("expected an error")
        } catch let error as ModelInferenceError {
            guard case .invalidJSON(let parseError) = error else {
                Issue.record("expected invalidJSON, got \(error)")
                return
            }
            #expect(parseError.line == 2)
            #expect(error.description.hasPrefix("invalid JSON at line 2, column 8"))
        }
    }

    @Test func anEmptyObjectGivesAModelWithNoProperties() throws {
        let inferred = try infer("{}", name: "Nothing")
        #expect(inferred.models == [InferredModel(name: "Nothing", properties: [])])
        #expect(inferred.swiftSource.contains("override class func properties(_ p: PropertyRegistrar) {}"))
        let registry = ModelRegistry()
        try registry.register(inferred.schema)
    }

    // MARK: Output

    @Test func outputIsDeterministic() throws {
        let url = GenerateFixtures.folder.appendingPathComponent("shop-orders.json")
        let data = try Data(contentsOf: url)
        let first = try ModelInference.infer(from: data, rootName: "Order")
        for _ in 0..<5 {
            let again = try ModelInference.infer(from: data, rootName: "Order")
            #expect(again == first)
            #expect(again.swiftSource == first.swiftSource)
            #expect(again.schemaText == first.schemaText)
        }
    }

    @Test func schemaTextReadsBackAsTheSchema() throws {
        for fixture in GenerateFixtures.all {
            let inferred = try fixture.infer()
            #expect(try ModelSchema(json: inferred.schemaText) == inferred.schema, "\(fixture.sample)")
        }
    }

    @Test func swiftLiteralsEscapeWhatSwiftCannotHoldAsIs() {
        #expect(InferredSchema.swiftLiteral("a\"b\\c\nd\u{7}e\u{2028}") == #""a\"b\\c\nd\u{7}e\u{2028}""#)
        #expect(InferredSchema.swiftLiteral("\u{301}x") == #""\u{301}x""#)
        #expect(InferredSchema.swiftLiteral("Zoë 名") == #""Zoë 名""#)
    }
}
