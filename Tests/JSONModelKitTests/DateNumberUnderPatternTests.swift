import Foundation
import Testing
@testable import JSONModelKit

final class CompactDated: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.day(Date?.self, dateFormat: .yearMonthDayCompact)
        p.stamp(Date?.self, dateFormat: "yyyyMMddHHmmss")
        p.us(Date?.self, dateFormat: .monthDayYear)
        p.days([Date].self, dateFormat: "yyyyMMdd")
    }
}

/// The same pattern given as a converter, in a declaration and registered by name.
final class ConvertedUSDate: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.us(Date?.self, converter: .using(.dates(.monthDayYear)))
        p.named(Date?.self, converter: "usDate")
    }
}

/// The library's date converters, given where a `dateFormat:` could be.
final class ConvertedStamps: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.seconds(Date?.self, converter: .using(.dates(.secondsSince1970)))
        p.day(Date?.self, converter: .using(.dates("yyyyMMdd")))
        p.named(Date?.self, converter: "millisecondsSince1970")
    }
}

/// A JSON number under a declared date pattern.
@Suite("Dates: numbers under a declared pattern")
struct DateNumberUnderPatternTests {
    /// A date converter writes as the date format it reads: the JSON keeps its kind, a string
    /// a string and a number a number.
    @Test func dateConvertersKeepTheStoredKindAsADateFormatDoes() throws {
        let model = try ConvertedStamps(json: #"{"seconds": "1", "day": 20180215, "named": "1000"}"#, options: .mutable)
        #expect(model.seconds as Date? == Date(timeIntervalSince1970: 1))
        #expect(model.day as Date? == Self.feb15)
        #expect(model.named as Date? == Date(timeIntervalSince1970: 1))
        try model.jsonModel.set(Date(timeIntervalSince1970: 1_525_564_800), forProperty: "seconds")
        try model.jsonModel.set(Self.feb15.addingTimeInterval(86_400), forProperty: "day")
        try model.jsonModel.set(Date(timeIntervalSince1970: 2), forProperty: "named")
        let json = model.jsonModel.json()
        #expect(json["seconds"] == "1525564800")
        #expect(json["day"] == 20_180_216)
        #expect(json["named"] == "2000")
        // Stored the other way, each keeps that kind too.
        let other = try ConvertedStamps(json: #"{"seconds": 1, "day": "20180215"}"#, options: .mutable)
        try other.jsonModel.set(Date(timeIntervalSince1970: 5), forProperty: "seconds")
        try other.jsonModel.set(Self.feb15.addingTimeInterval(86_400), forProperty: "day")
        #expect(other.jsonModel.json()["seconds"] == 5)
        #expect(other.jsonModel.json()["day"] == "20180216")
    }

    static let feb15 = Date(timeIntervalSince1970: 1_518_652_800)  // 2018-02-15T00:00:00Z

    @Test func aNumberUnderADigitOnlyPatternReadsItsDigitsThroughThePattern() throws {
        let model = try CompactDated(json: #"{"day": 20180215, "stamp": 20180215013005, "days": [20180215, "20180216"]}"#)
        #expect(model.day as Date? == Self.feb15)
        #expect(model.stamp as Date? == Self.feb15.addingTimeInterval(3600 + 30 * 60 + 5))
        #expect(model.days as [Date] == [Self.feb15, Self.feb15.addingTimeInterval(86_400)])
        #expect(model.jsonModel.diagnostics.isEmpty)
    }

    @Test func aNumberTheDigitOnlyPatternCannotReadIsADiagnosticNotAnEpochDate() throws {
        for number in ["20181345", "1518652800", "2018021.5", "-20180215", "2.0180215e7"] {
            let model = try CompactDated(json: #"{"day": \#(number)}"#)
            #expect(model.day as Date? == nil, "\(number)")
            #expect(model.jsonModel.diagnostics.count == 1, "\(number)")
            #expect(model.jsonModel.diagnostics.first?.kind == .invalidValue, "\(number)")
            #expect(model.jsonModel.diagnostics.first?.message.contains("yyyyMMdd") == true, "\(number)")
        }
    }

    @Test func aDateReadFromANumberIsWrittenBackAsANumber() throws {
        let model = try CompactDated(json: #"{"day": 20180215}"#, options: .mutable)
        try model.jsonModel.set(Self.feb15.addingTimeInterval(86_400), forProperty: "day")
        #expect(model.jsonModel.json()["day"] == .number(JSONNumber(20180216)))
        let fromText = try CompactDated(json: #"{"day": "20180215"}"#, options: .mutable)
        try fromText.jsonModel.set(Self.feb15, forProperty: "day")
        #expect(fromText.jsonModel.json()["day"] == "20180215")
    }

    @Test func aNumberUnderAPatternThatCannotSpellOneReadsAsSecondsAndSaysSo() throws {
        let model = try CompactDated(json: #"{"us": 1518652800}"#)
        #expect(model.us as Date? == Self.feb15)
        #expect(model.jsonModel.diagnostics.count == 1)
        let diagnostic = try #require(model.jsonModel.diagnostics.first)
        #expect(diagnostic.kind == .typeMismatch)
        #expect(diagnostic.message.contains("MM/dd/yyyy"))
        #expect(diagnostic.message.contains("seconds since 1970"))
    }

    @Test func undeclaredAndEpochFormatsReadNumbersAsBefore() throws {
        let event = try DatedEvent(json: #"{"plain": 1525564800, "seconds": 1525564800, "millis": 1525564800000}"#)
        #expect(event.plain as Date? == DateFormatTests.may6)
        #expect(event.seconds as Date? == DateFormatTests.may6)
        #expect(event.millis as Date? == DateFormatTests.may6)
        #expect(event.jsonModel.diagnostics.isEmpty)
    }

    /// Seconds written with many digits read as a `Double` property reads them, whatever their
    /// length: a number of 40 characters or more was refused as out of range.
    @Test func longNumberTextReadsAsSeconds() throws {
        let long = "1525564800." + String(repeating: "0", count: 40) + "1"
        let huge = "0." + String(repeating: "0", count: 200_000) + "1"
        let event = try DatedEvent(json: #"{"plain": \#(long), "seconds": \#(long), "millis": \#(huge)}"#)
        #expect(event.plain as Date? == DateFormatTests.may6)
        #expect(event.seconds as Date? == DateFormatTests.may6)
        #expect(event.millis as Date? == Date(timeIntervalSince1970: 0))
        #expect(event.jsonModel.diagnostics.isEmpty)
    }
}

extension DateNumberUnderPatternTests {
    @Test func digitsInAStringThatTheDigitOnlyPatternCannotReadAreNotSecondsEither() throws {
        #expect(DateFormat.yearMonthDayCompact.dateTryingFallbacks(from: "20181345") == nil)
        #expect(DateFormat.yearMonthDayCompact.dateTryingFallbacks(from: "2018-02-15") == Self.feb15)
        #expect(DateFormat.iso8601.dateTryingFallbacks(from: "1518652800") == Self.feb15)
        let model = try CompactDated(json: #"{"day": "1518652800"}"#)
        #expect(model.day as Date? == nil)
        #expect(model.jsonModel.diagnostics.map(\.kind) == [.invalidValue])
    }
}

/// With the suite that registers converters in the shared registry, which runs its tests one at
/// a time and resets the shared converters before each.
extension ConverterLookupTests {
    /// A date converter reports what its format reports: it reads through the model's
    /// conversion, not through a conversion of its own whose diagnostics nobody sees.
    @Test func aDateConverterSaysSoToo() throws {
        ModelRegistry.shared.register(.dates(.monthDayYear), named: "usDate")
        let model = try ConvertedUSDate(json: #"{"us": 1518652800, "named": 1518652800}"#)
        #expect(model.us as Date? == DateNumberUnderPatternTests.feb15)
        #expect(model.named as Date? == DateNumberUnderPatternTests.feb15)
        #expect(model.jsonModel.diagnostics.map(\.kind) == [.typeMismatch, .typeMismatch])
        #expect(model.jsonModel.diagnostics.allSatisfy { $0.message.contains("seconds since 1970") })
        let text = try ConvertedUSDate(json: #"{"us": "02/15/2018", "named": "nonsense"}"#)
        #expect(text.us as Date? == DateNumberUnderPatternTests.feb15)
        #expect(text.named as Date? == nil)
        #expect(text.jsonModel.diagnostics.map(\.kind) == [.invalidValue])
        #expect(text.jsonModel.diagnostics.first?.message.contains("MM/dd/yyyy") == true)
    }
}
