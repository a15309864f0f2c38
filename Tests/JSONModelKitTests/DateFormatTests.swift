import Foundation
import Testing
@testable import JSONModelKit

final class DatedEvent: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.plain(Date?.self)
        p.us(Date?.self, dateFormat: "MM/dd/yyyy")
        p.eu(Date?.self, dateFormat: .dayMonthYear)
        p.millis(Date?.self, dateFormat: .millisecondsSince1970)
        p.seconds(Date?.self, dateFormat: .secondsSince1970)
        p.js(Date?.self, dateFormat: .javaScript)
        p.stamps([Date].self, dateFormat: "yyyyMMdd")
        p.start(Date.self, default: Date(timeIntervalSince1970: 0))
    }
}

@Suite("Dates")
struct DateFormatTests {
    static let may6 = Date(timeIntervalSince1970: 1_525_564_800)  // 2018-05-06T00:00:00Z

    @Test(arguments: [
        ("2018-05-06T00:00:00Z", 1_525_564_800.0),
        ("2018-05-06T00:00:00.250Z", 1_525_564_800.25),
        ("2018-05-06T02:00:00+02:00", 1_525_564_800.0),
        ("2018-05-05T21:00:00-0300", 1_525_564_800.0),
        ("2018-05-06T01:00:00+01", 1_525_564_800.0),
        ("2018-05-06 00:00:00Z", 1_525_564_800.0),
        ("2018-05-06", 1_525_564_800.0),
        ("2017-02-05T17:03:13.000-03:00", 1_486_324_993.0),
        ("2018/05/06", 1_525_564_800.0),
        ("20180506", 1_525_564_800.0),
        ("Tue Jun 3 2008 11:05:30 GMT", 1_212_491_130.0),
        ("05/06/2018", 1_525_564_800.0),        // month first by default
        ("25/06/2018", 1_529_884_800.0),        // not a month: day first
        ("05-06-2018", 1_525_564_800.0),
        ("1525564800", 1_525_564_800.0),        // numeric text: seconds
    ])
    func fallbacksReadEveryKnownForm(text: String, seconds: Double) {
        #expect(DateFormat.iso8601.dateTryingFallbacks(from: text) == Date(timeIntervalSince1970: seconds), "\(text)")
    }

    @Test(arguments: ["", "yesterday", "2018-02-30", "2018-13-01", "2018-05-06T24:00:00Z", "Mon Jun 3 2008 11:05:30 GMT",
                      "2018-05-06T00:00:00+2", " 2018-05-06", "1e400", "12/31/99"])
    func textThatIsNoDateReadsNil(text: String) {
        #expect(DateFormat.iso8601.dateTryingFallbacks(from: text) == nil, "\(text)")
    }

    @Test func declaredFormatComesFirst() {
        #expect(DateFormat.dayMonthYear.dateTryingFallbacks(from: "05/06/2018") == Date(timeIntervalSince1970: 1_528_156_800))
        #expect(DateFormat.monthDayYear.dateTryingFallbacks(from: "05/06/2018") == Self.may6)
        #expect(DateFormat.millisecondsSince1970.dateTryingFallbacks(from: "1525564800000") == Self.may6)
    }

    @Test func writingUsesTheDeclaredFormat() {
        #expect(DateFormat.iso8601.string(from: Self.may6) == "2018-05-06T00:00:00Z")
        #expect(DateFormat.iso8601WithMilliseconds.string(from: Self.may6) == "2018-05-06T00:00:00.000Z")
        #expect(DateFormat.javaScript.string(from: Date(timeIntervalSince1970: 1_212_491_130)) == "Tue Jun 3 2008 11:05:30 GMT")
        #expect(DateFormat.monthDayYear.string(from: Self.may6) == "05/06/2018")
        #expect(DateFormat.yearMonthDayCompact.string(from: Self.may6) == "20180506")
        #expect(DateFormat.secondsSince1970.string(from: Self.may6) == "1525564800")
        #expect(DateFormat.millisecondsSince1970.string(from: Self.may6) == "1525564800000")
        #expect(DateFormat.pattern("EEEE d MMMM yy, h:mm a").string(from: Self.may6.addingTimeInterval(13 * 3600 + 5 * 60))
            == "Sunday 6 May 18, 1:05 PM")
    }

    @Test func patternsRoundTrip() {
        let pattern = DateFormat.pattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ")
        let date = Date(timeIntervalSince1970: 1_525_564_800.125)
        #expect(pattern.string(from: date) == "2018-05-06T00:00:00.125+0000")
        #expect(pattern.date(from: "2018-05-06T02:00:00.125+0200") == date)
        #expect(DateFormat.pattern("dd MMM yyyy HH:mm zzz").date(from: "06 may 2018 03:00 GMT+03:00") == Self.may6)
        #expect(DateFormat.pattern("yyyy-MM-dd'T'HH:mm:ssXXX").date(from: "2018-05-06T00:00:00Z") == Self.may6)
        #expect(DateFormat.pattern("h:mm a dd/MM/yyyy").date(from: "12:00 AM 06/05/2018") == Self.may6)
    }

    /// `yy` reads a year within 80 years before the current one and 19 after, as
    /// `DateFormatter` does, and writes only the years it reads back: a date of 1900 under
    /// `dd/MM/yy` would be written `00` and read back as 2000.
    @Test func twoDigitYearsReadWithinTheWindowAndWriteOnlyWhatReadsBack() throws {
        let window = DatePattern.twoDigitYears
        #expect(window.count == 100)
        for value in 0..<100 {
            let year = DatePattern.year(ofTwoDigits: value)
            #expect(window.contains(year) && year % 100 == value, "\(value) → \(year)")
        }
        let pattern = DateFormat.pattern("dd/MM/yy")
        let end1999 = Date(timeIntervalSince1970: 946_598_400)  // 1999-12-31
        let expected1999 = window.contains(1999) ? end1999 : Date(timeIntervalSince1970: 4_102_358_400)
        #expect(pattern.date(from: "31/12/99") == expected1999)
        #expect(pattern.canWrite(end1999) == window.contains(1999))
        if window.contains(1999) { #expect(pattern.date(from: pattern.string(from: end1999)) == end1999) }
        let start1900 = Date(timeIntervalSince1970: -2_208_988_800)  // 1900-01-01
        #expect(!pattern.canWrite(start1900))
        #expect(pattern.unwritableReason(start1900).contains("two digits"))
        #expect(DateFormat.pattern("dd/MM/yyyy").canWrite(start1900))
    }

    /// `h` is the hour on a 12-hour clock: without `a` it cannot tell 00:30 from 12:30, so a
    /// pattern with `h` and no `a` is refused when it is compiled.
    @Test func aTwelveHourPatternNeedsItsAmPm() {
        #expect(DateFormat.pattern("hh:mm dd/MM/yyyy").problem?.contains("'h' without 'a'") == true)
        #expect(DateFormat.pattern("h:mm a dd/MM/yyyy").problem == nil)
        #expect(DateFormat.pattern("HH:mm dd/MM/yyyy").problem == nil)
        // The hour 0 to 23 with AM/PM writes "13:05 PM", which does not read back.
        #expect(DateFormat.pattern("HH:mm a").problem?.contains("'H' with 'a'") == true)
        // A field of one letter varies in width: beside digits, its end is lost.
        #expect(DateFormat.pattern("yyyyMd").problem?.contains("one-letter field") == true)
        #expect(DateFormat.pattern("Hmm").problem?.contains("one-letter field") == true)
        #expect(DateFormat.pattern("M/d/yyyy H:mm").problem == nil)
    }

    @Test func numbersOfSecondsAndMillisecondsAreWrittenWhole() throws {
        let event = try DatedEvent(json: #"{"plain": 1514764800, "millis": 0}"#, options: .mutable)
        event.plain = Date(timeIntervalSince1970: 1_514_764_900)
        event.millis = Date(timeIntervalSince1970: 1_514_764_900.1234567)
        let json = event.jsonModel.json()
        // As secondsSince1970 writes them: no ".0" that an integer reader refuses.
        #expect(json["plain"]?.numberValue?.description == "1514764900")
        // To the millisecond, as ISO 8601 text is.
        #expect(json["millis"]?.numberValue?.description == "1514764900123")
        #expect(DateFormat.millisecondsSince1970.string(from: Date(timeIntervalSince1970: 0.0006)) == "1")
        // A fraction of a second stays: the number reads back as the same date.
        event.plain = Date(timeIntervalSince1970: 1.5)
        #expect(event.jsonModel.json()["plain"]?.numberValue?.description == "1.5")
    }

    @Test func badPatternsAreReported() {
        #expect(DateFormat.pattern("yyyy-QQ").problem?.contains("QQ") == true)
        #expect(DateFormat.pattern("'open").problem != nil)
        #expect(DateFormat.pattern("yyyy-MM-dd").problem == nil)
        #expect(DateFormat(parsing: "secondsSince1970") == .secondsSince1970)
        #expect(DateFormat(parsing: "MM/dd/yyyy") == .monthDayYear)
    }

    @Test func isoAgreesWithFoundation() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: -5_000_000_000_000...5_000_000_000_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let foundation = date.formatted(style)
            let read = DateFormat.iso8601.date(from: foundation)
            #expect(read.map { abs($0.timeIntervalSince(date)) < 0.0015 } == true, "\(foundation) \(String(describing: read?.timeIntervalSince1970)) \(date.timeIntervalSince1970)")
            let ours = DateFormat.iso8601.string(from: date)
            let parsed = (try? style.parse(ours)) ?? (try? Date.ISO8601FormatStyle().parse(ours))
            #expect(parsed.map { abs($0.timeIntervalSince(date)) < 0.0015 } == true, "\(ours)")
        }
    }

    @Test func propertiesReadAndWriteTheirFormats() throws {
        let event = try DatedEvent(
            json: #"""
                {"plain": "2018/05/06", "us": "05/06/2018", "eu": "05/06/2018", "millis": 1525564800000,
                 "seconds": "1525564800", "js": "Tue Jun 3 2008 11:05:30 GMT", "stamps": ["20180506", "2018-05-07", 20180508]}
                """#, options: .mutable)
        #expect(event.plain as Date? == Self.may6)
        #expect(event.us as Date? == Self.may6)
        #expect(event.eu as Date? == Date(timeIntervalSince1970: 1_528_156_800))
        #expect(event.millis as Date? == Self.may6)
        #expect(event.seconds as Date? == Self.may6)
        #expect(event.js as Date? == Date(timeIntervalSince1970: 1_212_491_130))
        #expect(event.stamps as [Date] == [Self.may6, Self.may6.addingTimeInterval(86_400), Self.may6.addingTimeInterval(2 * 86_400)])
        #expect(event.start as Date == Date(timeIntervalSince1970: 0))
        #expect(event.jsonModel.diagnostics.isEmpty)

        event.eu = Self.may6
        event.us = Self.may6.addingTimeInterval(86_400)
        event.millis = Self.may6
        event.seconds = Self.may6
        event.stamps = [Self.may6]
        event.plain = Self.may6
        let json = event.jsonModel.json()
        #expect(json["eu"] == "06/05/2018")
        #expect(json["us"] == "05/07/2018")
        #expect(json["millis"] == 1_525_564_800_000)
        #expect(json["seconds"] == "1525564800")  // kept a string, as stored
        #expect(json["stamps"] == ["20180506"])
        #expect(json["plain"] == "2018-05-06T00:00:00Z")
    }

    @Test func schemaDateFormatsAndBadPatterns() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"""
            {"models": [{"name": "Stamp", "properties": [
              {"name": "day", "type": "Date?", "dateFormat": "dd.MM.yyyy"},
              {"name": "ms", "type": "Date?", "dateFormat": "millisecondsSince1970"}]}]}
            """#))
        let stamp = try registry.makeModel(named: "Stamp", json: ["day": "06.05.2018", "ms": 1_525_564_800_000] as JSONValue)
        #expect(stamp.jsonModel.dynamic.day as Date? == Self.may6)
        #expect(stamp.jsonModel.dynamic.ms as Date? == Self.may6)
        #expect(throws: ModelSchemaError.self) {
            try ModelRegistry().register(ModelSchema(json: #"""
                {"models": [{"name": "Bad", "properties": [{"name": "d", "type": "Date?", "dateFormat": "yyyy-QQ"}]}]}
                """#))
        }
    }

    @Test func datesReadFromManyThreadsShareOneFormat() async {
        let format = DateFormat.pattern("yyyy/MM/dd HH:mm")
        await withTaskGroup(of: Bool.self) { group in
            for day in 1...8 {
                group.addTask {
                    (0..<500).allSatisfy { _ in
                        format.date(from: "2018/05/0\(day) 00:00") == Self.may6.addingTimeInterval(Double(day - 6) * 86_400)
                    }
                }
            }
            for await ok in group { #expect(ok) }
        }
    }
}
