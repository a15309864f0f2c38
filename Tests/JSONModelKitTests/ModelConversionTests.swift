import Foundation
import Testing
@testable import JSONModelKit

@Suite("Model conversion rules")
struct ModelConversionTests {
    func kinds(_ model: JSONModel) -> [ModelDiagnostic.Kind] { model.jsonModel.diagnostics.map(\.kind) }

    // MARK: Integers

    @Test func intFromIntegralNumbers() throws {
        #expect(try scalars(#"{"int": 42}"#).int as Int? == 42)
        #expect(try scalars(#"{"int": -7}"#).int as Int? == -7)
        let exponent = try scalars(#"{"int": 1e2, "int64": 2.0}"#)
        #expect(exponent.int as Int? == 100)
        #expect(exponent.int64 as Int64? == 2)
        #expect(exponent.jsonModel.diagnostics.isEmpty)
    }

    @Test(arguments: [("2.5", 3), ("-2.5", -3), ("2.4", 2), ("0.5", 1), ("-0.5", -1), ("2.6", 3)])
    func intRoundsHalfAwayFromZeroWithALossyDiagnostic(text: String, expected: Int) throws {
        let model = try scalars(#"{"int": \#(text)}"#)
        #expect(model.int as Int? == expected)
        #expect(kinds(model) == [.lossy])
        #expect(model.jsonModel.diagnostics.first?.path == "int")
        #expect(model.jsonModel.diagnostics.first?.property == "int")
    }

    @Test func intFromNumericString() throws {
        let model = try scalars(#"{"int": "42", "uint8": "255", "int16": "2.5"}"#)
        #expect(model.int as Int? == 42)
        #expect(model.uint8 as UInt8? == 255)
        #expect(model.int16 as Int16? == 3)
        #expect(kinds(model) == [.lossy])
    }

    @Test(arguments: [
        #"{"int8": 128}"#, #"{"int8": -129}"#, #"{"uint": -1}"#, #"{"uint8": 256}"#, #"{"int64": 9223372036854775808}"#,
        #"{"int": 1e30}"#, #"{"int32": "4294967296"}"#, #"{"uint16": 65535.6}"#,
    ])
    func integersOutOfRangeGiveDefaultAndDiagnostic(json: String) throws {
        let model = try scalars(json)
        let key = String(json.dropFirst(2).prefix { $0 != "\"" })
        #expect(model.jsonModel.value(forProperty: key) == nil, "\(key)")
        #expect(kinds(model) == [.outOfRange])
    }

    @Test func bigUnsignedIntegersAreExact() throws {
        let model = try scalars(#"{"uint64": 18446744073709551615, "int64": -9223372036854775808}"#)
        #expect(model.uint64 as UInt64? == UInt64.max)
        #expect(model.int64 as Int64? == Int64.min)
    }

    /// Integers above 2^53 written with a fraction or an exponent, or in a string, or in a
    /// `JSONValue`, are read from their digits, as integers in the document's text are: a
    /// `Double` on the way would round them.
    @Test func integersBeyondADoublesPrecisionAreExact() throws {
        let fraction = try scalars(#"{"int64": 9007199254740993.4, "int": 0.49999999999999999}"#)
        #expect(fraction.int64 as Int64? == 9_007_199_254_740_993)
        #expect(fraction.int as Int? == 0)
        #expect(kinds(fraction) == [.lossy, .lossy])
        let integral = try scalars(#"{"int64": 9223372036854775807.0, "uint64": 1.8446744073709551615e19, "int": -9.223372036854775808e18}"#)
        #expect(integral.int64 as Int64? == .max)
        #expect(integral.uint64 as UInt64? == .max)
        #expect(integral.int as Int? == .min)
        #expect(integral.jsonModel.diagnostics.isEmpty)
        let string = try scalars(#"{"int64": "9007199254740993.0"}"#)
        #expect(string.int64 as Int64? == 9_007_199_254_740_993)
        let number = try #require(JSONNumber(text: "9007199254740993.0"))
        let value = try Scalars(json: JSONValue.object(["int64": .number(number)]))
        #expect(value.int64 as Int64? == 9_007_199_254_740_993)
        #expect(value.jsonModel.diagnostics.isEmpty)
        let tiny = try scalars(#"{"int": 1e-400}"#)
        #expect(tiny.int as Int? == 0)
        #expect(kinds(tiny) == [.lossy])
    }

    /// A Codable value's integers read exactly from their digits too, whatever their spelling.
    @Test func codableIntegersWithAnExponentAreExact() throws {
        struct Counts: Codable, Sendable, Equatable {
            var big: Int64
            var small: Int8
        }
        final class CountsHolder: JSONModel, DynamicMembers, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) { p.counts(Counts?.self) }
        }
        let model = try CountsHolder(json: #"{"counts": {"big": 1e18, "small": -1.28e2}}"#)
        #expect(model.counts as Counts? == Counts(big: 1_000_000_000_000_000_000, small: -128))
        #expect(model.jsonModel.diagnostics.isEmpty)
        let inexact = try CountsHolder(json: #"{"counts": {"big": 1.5, "small": 1}}"#)
        #expect(inexact.counts as Counts? == nil)
        #expect(!inexact.jsonModel.diagnostics.isEmpty)
    }

    @Test(arguments: [#"true"#, #""abc""#, #"" 42""#, #""0x10""#, #""+5""#, #"[1]"#, #"{"a": 1}"#])
    func intFromWrongKinds(json: String) throws {
        let model = try scalars(#"{"int": \#(json), "plainInt": \#(json)}"#)
        #expect((model.int as Int?).isNone)
        #expect(model.plainInt == 0)
        #expect(kinds(model) == [.typeMismatch, .typeMismatch])
    }

    // MARK: Floating point and Decimal

    @Test func doublesAndFloats() throws {
        let model = try scalars(#"{"double": "3.5", "float": 0.1, "plainDouble": 1e2}"#)
        #expect(model.double as Double? == 3.5)
        #expect(model.float as Float? == 0.1)
        #expect(model.plainDouble == 100.0 as Double)
        #expect(model.jsonModel.diagnostics.isEmpty)
    }

    @Test func doubleBadInput() throws {
        let model = try scalars(#"{"double": 1e400, "float": 1e39, "plainDouble": "nan"}"#)
        #expect((model.double as Double?).isNone)
        #expect((model.float as Float?).isNone)
        #expect(model.plainDouble == 0.0 as Double)
        #expect(kinds(model) == [.outOfRange, .outOfRange, .typeMismatch])
        #expect((try scalars(#"{"double": true}"#).double as Double?).isNone)
    }

    @Test func decimalsAreExact() throws {
        let model = try scalars(#"{"decimal": 0.1, "plainDecimal": "12.50"}"#)
        #expect(model.decimal as Decimal? == Decimal(string: "0.1"))
        #expect(model.plainDecimal == Decimal(string: "12.5")! as Decimal)
        #expect((try scalars(#"{"decimal": "x"}"#).decimal as Decimal?).isNone)
        #expect(kinds(model).isEmpty)
        // 38 significant digits fit; more are rounded, and say so.
        let exact = try scalars(#"{"decimal": 0.12345678901234567890123456789012345678}"#)
        _ = exact.decimal as Decimal?
        #expect(kinds(exact).isEmpty)
        let long = try scalars(#"{"decimal": 0.1234567890123456789012345678901234567890123}"#)
        #expect(long.decimal as Decimal? != nil)
        #expect(kinds(long) == [.lossy])
    }

    /// A number with more digits than `Decimal` keeps reads the nearest value it holds, ties away
    /// from zero, not the digits its parser kept; and the diagnostic names that value.
    @Test(arguments: [
        // 39 digits kept where they fit the significand; the next digit rounds.
        ("1.234567890123456789012345678901234567895", "1.2345678901234567890123456789012345679"),
        ("-1.234567890123456789012345678901234567895", "-1.2345678901234567890123456789012345679"),
        ("0.1234567890123456789012345678901234567894999", "0.123456789012345678901234567890123456789"),
        // 39 nines do not fit: 38 are kept, and they round up to a power of ten.
        ("99999999999999999999999999999999999999999", "1e41"),
        ("0.0099999999999999999999999999999999999999999", "0.01"),
        // Past the significand's largest, the nearest of that largest and 38 digits rounded.
        ("340282366920938463463374607431768211455.9", "340282366920938463463374607431768211455"),
        ("340282366920938463463374607431768211456", "340282366920938463463374607431768211455"),
        ("3402823669209384634633746074317682114574", "3402823669209384634633746074317682114550"),
        ("3402823669209384634633746074317682114575", "3402823669209384634633746074317682114600"),
        ("3402823669209384634633746074317682114590", "3402823669209384634633746074317682114600"),
        // 38 nines rounded up at the largest exponent: 10^38 fits the significand there.
        ("9999999999999999999999999999999999999985e125", "100000000000000000000000000000000000000e127"),
        ("12345678901234567890123456789012345678.95e-3", "12345678901234567890123456789012345.679"),
    ])
    func decimalsWithMoreDigitsRound(json: String, expected: String) throws {
        let model = try scalars(#"{"decimal": \#(json)}"#)
        let expectedValue = try #require(Decimal(string: expected, locale: Locale(identifier: "en_US_POSIX")))
        #expect(model.decimal as Decimal? == expectedValue)
        #expect(kinds(model) == [.lossy])
        #expect(model.jsonModel.diagnostics.first?.message.contains("rounded to \(expectedValue)") == true, "\(model.jsonModel.diagnostics)")
    }

    /// A `Decimal` holds powers of ten from -128 to 127, which Foundation's parser checks as the
    /// number is written: a number past them reads exactly when its digits make room for the
    /// power, as the nearest value below the smallest one, and as the default beyond the largest.
    @Test(arguments: [
        // Exact: the digits take the powers past 127, or the dropped digits are zeros.
        ("1e128", "10e127", true), ("-12345e160", "-12345000000000000000000000000000000000e127", true),
        ("3.4e165", "340000000000000000000000000000000000000e127", true), ("1000e-131", "1e-128", true),
        ("0.00000001e135", "1e127", true), ("0e999", "0", true),
        // Below 10^-128: rounded to it, half away from zero.
        ("123e-130", "1e-128", false), ("5e-129", "1e-128", false), ("-5e-129", "-1e-128", false),
        ("4.9e-129", "0", false), ("1e-400", "0", false), ("1.25e-127", "13e-128", false),
    ])
    func decimalExponentsOutsideTheRange(json: String, expected: String, exact: Bool) throws {
        let model = try scalars(#"{"decimal": \#(json)}"#)
        let expectedValue = try #require(Decimal(string: expected, locale: Locale(identifier: "en_US_POSIX")))
        #expect(model.decimal as Decimal? == expectedValue)
        #expect(kinds(model) == (exact ? [] : [.lossy]), "\(model.jsonModel.diagnostics)")
        // A `Codable` property's `Decimal` reads the same value.
        struct Holder: Decodable { let decimal: Decimal }
        let holder = try JSONInputDecoder.decode(Holder.self, from: .value(try JSONValue(json: #"{"decimal": \#(json)}"#)))
        #expect(holder.decimal == expectedValue)
    }

    /// Beyond the largest `Decimal`, about 3.4 × 10^165, a number reads the default, and says so.
    @Test(arguments: ["3.5e165", "1e166", "-1e200", "1e99999999999999999999"])
    func decimalsBeyondTheLargestReadTheDefault(json: String) throws {
        let model = try scalars(#"{"decimal": \#(json), "plainDecimal": \#(json)}"#)
        #expect((model.decimal as Decimal?).isNone)
        #expect(model.plainDecimal == Decimal(0) as Decimal)
        #expect(kinds(model) == [.outOfRange, .outOfRange])
        #expect(model.jsonModel.diagnostics.first?.message.contains("does not fit in Decimal") == true)
    }

    // MARK: Bool and String

    @Test(arguments: [
        ("true", true), ("false", false), ("1", true), ("0", false), ("1.0", true), (#""yes""#, true), (#""NO""#, false),
        (#""y""#, true), (#""n""#, false), (#""T""#, true), (#""f""#, false), (#""1""#, true), (#""0""#, false),
        (#""TRUE""#, true), (#""False""#, false),
    ])
    func boolSpellings(json: String, expected: Bool) throws {
        let model = try scalars(#"{"bool": \#(json)}"#)
        #expect(model.bool as Bool? == expected)
        #expect(model.jsonModel.diagnostics.isEmpty)
    }

    @Test(arguments: ["2", #""maybe""#, #""""#, "[]", "{}"])
    func boolFromWrongValues(json: String) throws {
        let model = try scalars(#"{"bool": \#(json), "plainBool": \#(json)}"#)
        #expect((model.bool as Bool?).isNone)
        #expect(model.plainBool == false)
        #expect(kinds(model) == [.typeMismatch, .typeMismatch])
    }

    @Test func stringFromNumbersAndBools() throws {
        #expect(try scalars(#"{"string": 5}"#).string as String? == "5")
        #expect(try scalars(#"{"string": 5.50}"#).string as String? == "5.50")
        #expect(try scalars(#"{"string": 12345678901234567890}"#).string as String? == "12345678901234567890")
        #expect(try scalars(#"{"string": true}"#).string as String? == "true")
        #expect(try scalars(#"{"string": false}"#).string as String? == "false")
        let wrong = try scalars(#"{"string": [1], "plainString": {}}"#)
        #expect((wrong.string as String?).isNone)
        #expect(wrong.plainString == "")
        #expect(kinds(wrong) == [.typeMismatch, .typeMismatch])
    }

    // MARK: Foundation types

    @Test func urlUUIDData() throws {
        let model = try scalars(
            #"{"url": "https://example.com/a?b=1", "uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "data": "aGk="}"#)
        #expect(model.url as URL? == URL(string: "https://example.com/a?b=1"))
        #expect(model.uuid as UUID? == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(model.data as Data? == Data("hi".utf8))
        let bad = try scalars(#"{"url": "", "uuid": "nope", "data": "!!", "plainData": 5}"#)
        #expect((bad.url as URL?).isNone)
        #expect((bad.uuid as UUID?).isNone)
        #expect((bad.data as Data?).isNone)
        #expect(bad.plainData == Data() as Data)
        #expect(kinds(bad) == [.invalidValue, .invalidValue, .invalidValue, .typeMismatch])
    }

    @Test(arguments: [
        ("2018-05-06T00:00:00Z", 1_525_564_800.0), ("2018-05-06T02:00:00+02:00", 1_525_564_800.0),
        ("2018-05-06T00:00:00.250Z", 1_525_564_800.25), ("2018-05-06", 1_525_564_800.0),
        ("2018-05-05T19:00:00-0500", 1_525_564_800.0), ("1969-12-31T23:59:59Z", -1.0),
    ])
    func isoDates(text: String, seconds: Double) throws {
        let model = try scalars(#"{"date": "\#(text)"}"#)
        #expect(model.date as Date? == Date(timeIntervalSince1970: seconds))
    }

    @Test func datesFromNumbersAndBadText() throws {
        #expect(try scalars(#"{"date": 1525564800}"#).date as Date? == Date(timeIntervalSince1970: 1_525_564_800))
        let bad = try scalars(#"{"date": "2018-02-30"}"#)
        #expect((bad.date as Date?).isNone)
        #expect(kinds(bad) == [.invalidValue])
        #expect(ISO8601Text.string(from: Date(timeIntervalSince1970: 1_525_564_800)) == "2018-05-06T00:00:00Z")
        #expect(ISO8601Text.string(from: Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
    }

    @Test func rawJSON() throws {
        let model = try scalars(#"{"raw": {"a": [1, "x"]}, "plainJSON": 1.50}"#)
        #expect(model.raw as JSONValue? == ["a": [1, "x"]])
        #expect(model.plainJSON == JSONValue.number(JSONNumber(text: "1.50")!))
        #expect(try scalars("{}").plainJSON == JSONValue.null)
    }

    // MARK: Collections

    @Test func arraysLeaveOutElementsThatDoNotConvert() throws {
        let model = try scalars(#"{"ints": [1, "2", 2.5, "x", null, true]}"#)
        #expect(model.ints == [1, 2, 3] as [Int])
        #expect(kinds(model) == [.lossy, .typeMismatch, .typeMismatch, .typeMismatch])
        #expect(model.jsonModel.diagnostics.map(\.path.description) == ["ints[2]", "ints[3]", "ints[4]", "ints[5]"])
    }

    @Test func optionalElementsReadAsNil() throws {
        let model = try scalars(#"{"optionalInts": [1, null, "x", 4]}"#)
        #expect(model.optionalInts == [1, nil, nil, 4] as [Int?])
        #expect(kinds(model) == [.typeMismatch])
    }

    @Test func dictionariesLeaveOutValuesThatDoNotConvert() throws {
        let model = try scalars(#"{"intsByName": {"a": 1, "b": "x", "c": "3"}, "plainDict": {"k": 5}}"#)
        #expect(model.intsByName == ["a": 1, "c": 3] as [String: Int])
        #expect(model.plainDict == ["k": "5"] as [String: String])
        #expect(model.jsonModel.diagnostics.map(\.path) == [JSONPath(["intsByName", "b"])])
    }

    /// Of duplicate keys the last decides, in a dictionary of strings (read in a loop of its
    /// own) as in one of integers: its value wins, and when it does not convert, the key is left
    /// out with a diagnostic, as any member that does not convert is.
    @Test(arguments: [false, true])
    func dictionariesTakeTheLastDuplicateKey(strings: Bool) throws {
        let name = strings ? "plainDict" : "intsByName"
        let model = try scalars(
            #"{"\#(name)": {"a": "1", "b": [1], "a": "2", "c": {}, "c": "3", "d": "4", "d": [], "e": 5}}"#)
        if strings {
            #expect(model.plainDict == ["a": "2", "c": "3", "e": "5"] as [String: String])
        } else {
            #expect(model.intsByName == ["a": 2, "c": 3, "e": 5] as [String: Int])
        }
        #expect(model.jsonModel.diagnostics.map(\.path) == ["b", "c", "d"].map { JSONPath([.key(name), .key($0)]) })
        #expect(kinds(model) == [.typeMismatch, .typeMismatch, .typeMismatch])
    }

    @Test func collectionsFromWrongKinds() throws {
        let model = try scalars(#"{"ints": {"a": 1}, "intsByName": [1], "plainModel": [1]}"#)
        #expect(model.ints == [Int]())
        #expect(model.intsByName == [String: Int]())
        let address: TestAddress = model.plainModel
        #expect(address.jsonModel.json() == [:])
        #expect(kinds(model) == [.typeMismatch, .typeMismatch, .typeMismatch])
    }

    @Test func nestedModelArraysLeaveOutNonObjects() throws {
        let user = try TestUser(json: #"{"homes": [{"city": "A"}, 5, {"city": "B"}]}"#)
        let homes: [TestAddress] = user.homes
        #expect(homes.count == 2)
        #expect(user.jsonModel.diagnostics.map(\.path.description) == ["homes[1]"])
    }

    // MARK: Validation

    @Test func validatingInitializerListsEveryDiagnosticWithItsPath() throws {
        let json = #"{"age": "old", "address": {"city": [1]}, "homes": [{"zip": 1, "city": {}}], "tags": [1, {}]}"#
        do {
            _ = try TestUser(json: json, options: .validating)
            Issue.record("expected a validation error")
        } catch .validationFailed(let error) {
            #expect(error.model == "TestUser")
            let paths = Set(error.diagnostics.map(\.path.description))
            #expect(paths == ["age", "address.city", "homes[0].city", "tags[1]"])
            #expect(error.description.contains("address.city"))
            #expect(error.description.contains("TestAddress.city"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func validatingInitializerAcceptsCleanInput() throws {
        let user = try TestUser(json: #"{"age": 3, "address": {"city": "X"}, "homes": [{"postal_code": "1"}]}"#, options: .validating)
        #expect(user.age == 3)
        #expect(try TestUser(json: Data(#"{"age": "3"}"#.utf8), options: .validating).age == 3)
        #expect(try TestUser(json: ["age": 4] as JSONValue, options: .validating).age == 4)
    }

    @Test func lossyValuesAreReportedByValidation() throws {
        let error = try #require(throws: JSONModelError.self) { try Scalars(json: #"{"int": 2.5}"#, options: .validating) }
        #expect(error.validationError?.diagnostics.map(\.kind) == [.lossy])
    }

    @Test func propertyTypeDescriptors() {
        #expect(PropertyType(of: Int.self) == .int)
        #expect(PropertyType(of: [String: [Int?]].self) == .dictionary(.array(.optional(.int))))
        #expect(PropertyType(of: TestAddress?.self) == .optional(.model(TestAddress.self)))
        #expect(PropertyType(of: [Int: String].self) == nil)
        #expect(PropertyType(of: Character.self) == nil)
        #expect(PropertyType.dictionary(.optional(.model(TestAddress.self))).description == "[String: TestAddress?]")
    }
}
