import Foundation
import Testing
@testable import JSONModelKit

/// Two-letter numeric fields (`MM`, `dd`, `HH`, `hh`, `mm`, `ss`) read one digit or two when a
/// separator follows, and always write two.
@Suite("Dates: one-digit months, days and times")
struct DatePatternShortFieldTests {
    /// Two quotes inside quoted text are one, as outside it.
    @Test func aDoubledQuoteInsideQuotedTextIsOneQuote() {
        let format = DateFormat.pattern("h 'o''clock' a, dd/MM/yyyy")
        #expect(format.problem == nil)
        let threePM = Self.utc(2018, 5, 6).addingTimeInterval(15 * 3600)
        #expect(format.string(from: threePM) == "3 o'clock PM, 06/05/2018")
        #expect(format.date(from: "3 o'clock PM, 06/05/2018") == threePM)
        #expect(DateFormat.pattern("'d''Artagnan' yyyy").string(from: Self.utc(2018, 5, 6)) == "d'Artagnan 2018")
        #expect(DateFormat.pattern("'unterminated''").problem != nil)
    }

    /// `yyy` writes three digits for a year before 1000 and four after: beside digits that
    /// does not read back, and is a declaration problem, as a one-letter field is.
    @Test func aThreeLetterYearBesideDigitsIsAProblem() {
        let problem = DateFormat.pattern("yyyMMdd").problem
        #expect(problem?.contains("yyy") == true, "\(problem ?? "no problem")")
        let separated = DateFormat.pattern("yyy-MM-dd")
        #expect(separated.problem == nil)
        let date = Self.utc(999, 5, 6)
        #expect(separated.date(from: separated.string(from: date)) == date)
    }

    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        let days = ISO8601Text.daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    @Test(arguments: [
        ("MM/dd/yyyy", "7/4/1776", utc(1776, 7, 4)),
        ("MM/dd/yyyy", "07/4/1776", utc(1776, 7, 4)),
        ("MM/dd/yyyy", "7/04/1776", utc(1776, 7, 4)),
        ("MM-dd-yyyy", "7-4-1896", utc(1896, 7, 4)),
        ("dd/MM/yyyy", "4/7/1776", utc(1776, 7, 4)),
        ("yyyy-MM-dd HH:mm:ss", "2018-2-5 1:2:3", utc(2018, 2, 5, 1, 2, 3)),
        ("yyyy/MM/dd", "2018/2/5", utc(2018, 2, 5)),
        ("hh:mm a, MM/dd/yyyy", "1:05 PM, 7/4/1776", utc(1776, 7, 4, 13, 5)),
    ])
    func aFieldFollowedByASeparatorReadsOneDigit(pattern: String, text: String, date: Date) {
        #expect(DateFormat.pattern(pattern).date(from: text) == date, "\(text) under \(pattern)")
    }

    @Test(arguments: [
        ("MM/dd/yyyy", "123/4/1776"),   // three digits
        ("MM/dd/yyyy", "/4/1776"),      // none
        ("yyyyMMdd", "2018025"),        // a run of digits keeps its widths
        ("yyyyMMdd", "201825"),
        ("HHmm", "123"),
        ("MM/dd/yyyy", "7/4/76"),       // yyyy still wants four digits
    ])
    func widthsStayFixedWhereNoSeparatorSaysWhereAFieldEnds(pattern: String, text: String) {
        #expect(DateFormat.pattern(pattern).date(from: text) == nil, "\(text) under \(pattern)")
    }

    @Test func theFallbacksReadOneDigitFields() {
        #expect(DateFormat.iso8601.dateTryingFallbacks(from: "7/4/1776") == Self.utc(1776, 7, 4))
        #expect(DateFormat.iso8601.dateTryingFallbacks(from: "7-4-1896") == Self.utc(1896, 7, 4))
        #expect(DateFormat.iso8601.dateTryingFallbacks(from: "25/6/2018") == Self.utc(2018, 6, 25))
    }

    @Test func writingKeepsTheDeclaredWidth() {
        #expect(DateFormat.monthDayYear.string(from: Self.utc(1776, 7, 4)) == "07/04/1776")
        #expect(DateFormat.pattern("yyyy-MM-dd HH:mm:ss").string(from: Self.utc(2018, 2, 5, 1, 2, 3)) == "2018-02-05 01:02:03")
    }

    @Test func aModelReadsAndWritesBack() throws {
        let event = try DatedEvent(json: #"{"us": "7/4/1776", "eu": "4/7/1776"}"#, options: .mutable)
        #expect(event.us as Date? == Self.utc(1776, 7, 4))
        #expect(event.eu as Date? == Self.utc(1776, 7, 4))
        #expect(event.jsonModel.diagnostics.isEmpty)
        try event.jsonModel.set(Self.utc(1776, 7, 4), forProperty: "us")
        #expect(event.jsonModel.json()["us"] == "07/04/1776")
    }
}
