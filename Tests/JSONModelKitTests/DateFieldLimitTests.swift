import Foundation
import Testing
@testable import JSONModelKit

/// Date patterns from third-party schemas (red-team item 3): field widths are limited when the
/// pattern is parsed, every date a pattern reads is one it can write, and writing or describing
/// a date never stops the program.
@Suite("Date field limits")
struct DateFieldLimitTests {
    final class WideYear: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.born(Date?.self, dateFormat: "yyyyyyyyy")
        }
    }

    final class Stamped: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.day(Date?.self, dateFormat: "yyyy-MM-dd")
            p.zoned(Date?.self, dateFormat: "yyyy-MM-dd'T'HH:mmXXX")
            p.plain(Date?.self)
            p.seconds(Date?.self, dateFormat: .secondsSince1970)
        }
    }

    /// A date no format writes, read through a converter of the user's.
    static let farAway = Date(timeIntervalSince1970: 1e300)

    final class FarAway: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.when(Date?.self, converter: .using(JSONConverters.Closure<Date>(
                read: { _ in DateFieldLimitTests.farAway }, write: { _ in .string("far") })))
            p.never(Date?.self, converter: .using(JSONConverters.Closure<Date>(
                read: { _ in Date(timeIntervalSince1970: .nan) }, write: { _ in .string("never") })))
        }
    }

    @Test(arguments: [
        "yyyyy", "yyyyyyyyy", "yyyyyyyyyyyyyyyyyyyy", "ddd", "HHH", "hhh", "mmm", "sss", "MMMMM",
        "SSSSSSSSSS", "yyyy-MM-dddddddddddddddddddd",
    ])
    func wideFieldsAreRejectedWhenParsed(pattern: String) throws {
        let problem = try #require(DateFormat.pattern(pattern).problem)
        #expect(problem.contains("too wide"), "\(problem)")
        #expect(problem.contains(pattern), "\(problem)")
        // A rejected pattern reads nothing, whatever the digits: no overflow.
        #expect(DateFormat.pattern(pattern).date(from: String(repeating: "9", count: 40)) == nil)
        #expect(DateFormat.pattern(pattern).date(from: "99999999999999999999") == nil)
    }

    @Test(arguments: ["y", "yy", "yyy", "yyyy", "M", "MM", "MMM", "MMMM", "d", "dd", "H", "HH", "h a", "hh a",
                      "m", "mm", "s", "ss", "S", "SSSSSSSSS"])
    func usualWidthsStayValid(pattern: String) {
        #expect(DateFormat.pattern(pattern).problem == nil, "\(pattern)")
    }

    @Test func aWidePatternIsADeclarationProblem() {
        #expect {
            try WideYear.validateDeclarations()
        } throws: { error in
            let problems = (error as? ModelDeclarationError)?.problems ?? []
            return problems.count == 1 && problems[0].model.hasSuffix("WideYear") && problems[0].property == "born"
                && problems[0].message.contains("yyyyyyyyy")
        }
    }

    @Test func aWidePatternIsASchemaProblem() throws {
        let schema = try ModelSchema(json: #"""
            {"models": [{"name": "Birth", "properties": [
              {"name": "born", "type": "Date?", "dateFormat": "yyyyyyyyyyyyyyyyyyyy"}]}]}
            """#)
        #expect {
            try ModelRegistry().register(schema)
        } throws: { error in
            let error = error as? ModelSchemaError
            return error?.model == "Birth" && error?.property == "born" && error?.message.contains("too wide") == true
        }
    }

    @Test func datesOutsideWhatTheFormatWritesReadAsTheDefaultWithADiagnostic() throws {
        // Year 0 at +01:00 is year -1 in UTC; 9999-12-31 at -01:00 is year 10000: neither writes back.
        let stamped = try Stamped(json: #"""
            {"zoned": "0000-01-01T00:00+01:00", "plain": "9999-12-31T23:59:59-01:00", "day": "0000-01-01"}
            """#)
        #expect(stamped.zoned as Date? == nil)
        #expect(stamped.plain as Date? == nil)
        #expect(stamped.day as Date? == Date(timeIntervalSince1970: -62_167_219_200))
        #expect(stamped.jsonModel.diagnostics.count == 2)
        #expect(stamped.jsonModel.diagnostics.allSatisfy { $0.message.contains("out of range") }, "\(stamped.jsonModel.diagnostics)")
    }

    @Test func theWritableRangeOfEachFormat() {
        let yearZero = Date(timeIntervalSince1970: -62_167_219_200)     // 0000-01-01T00:00:00Z
        let year10000 = Date(timeIntervalSince1970: 253_402_300_800)    // 10000-01-01T00:00:00Z
        for format in [DateFormat.iso8601, .yearMonthDayDashes, .javaScript, .iso8601WithMilliseconds] {
            #expect(format.canWrite(yearZero), "\(format)")
            #expect(format.canWrite(year10000.addingTimeInterval(-0.001)), "\(format)")
            #expect(!format.canWrite(year10000), "\(format)")
            #expect(!format.canWrite(yearZero.addingTimeInterval(-1)), "\(format)")
        }
        #expect(DateFormat.iso8601.string(from: yearZero) == "0000-01-01T00:00:00Z")
        #expect(DateFormat.iso8601.string(from: year10000.addingTimeInterval(-0.001)) == "9999-12-31T23:59:59.999Z")
        #expect(DateFormat.secondsSince1970.canWrite(Date(timeIntervalSince1970: -253_402_300_799)))
        #expect(!DateFormat.secondsSince1970.canWrite(year10000))
        #expect(!DateFormat.millisecondsSince1970.canWrite(Date(timeIntervalSince1970: -1e12)))
        for format in [DateFormat.iso8601, .secondsSince1970, .millisecondsSince1970, .monthDayYear] {
            for bad in [Double.nan, .infinity, -.infinity, 1e300, -1e300] {
                #expect(!format.canWrite(Date(timeIntervalSince1970: bad)), "\(format) \(bad)")
            }
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, 9.3e15, -9.3e15, 1e12, -1e12])
    func formatsWriteEveryDateWithoutStopping(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        for format in [DateFormat.iso8601, .secondsSince1970, .millisecondsSince1970, .javaScript,
                       .iso8601WithMilliseconds, .pattern("EEEE d MMMM yy, h:mm a")] {
            _ = format.string(from: date)  // a best effort, but never a trap
        }
        #expect(!DateFormat.iso8601.string(from: date).isEmpty)
    }

    @Test func writingADateTheFormatCannotWriteThrows() throws {
        let stamped = try Stamped(json: "{}", options: .mutable)
        for seconds in [Double.nan, .infinity, 1e12, -1e12, 1e300] {
            for property in ["day", "zoned", "plain", "seconds"] {
                #expect(throws: JSONModelError.self, "\(property) \(seconds)") {
                    try stamped.jsonModel.set(Date(timeIntervalSince1970: seconds), forProperty: property)
                }
            }
        }
        #expect(stamped.jsonModel.json() == [:])
        #expect(!stamped.jsonModel.hasMutations)
        do {
            try stamped.jsonModel.set(Date(timeIntervalSince1970: 1e12), forProperty: "day")
            Issue.record("expected an error")
        } catch {
            #expect(error == .unwritable(
                model: "Stamped", property: "day",
                reason: "the date 1000000000000.0 seconds since 1970 is outside what yyyy-MM-dd writes (years 0000 to 9999)"))
        }
        // The last writable instant of each format writes.
        try stamped.jsonModel.set(Date(timeIntervalSince1970: 253_402_300_799), forProperty: "day")
        try stamped.jsonModel.set(Date(timeIntervalSince1970: 253_402_300_799), forProperty: "seconds")
        #expect(stamped.jsonModel.json() == ["day": "9999-12-31", "seconds": 253_402_300_799])
    }

    // Exit tests run child processes, which Swift Testing offers on macOS, Linux and Windows only.
    #if os(macOS) || os(Linux) || os(Windows)
    @Test func memberSyntaxStopsWithAClearMessageForAnUnwritableDate() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stamped = try Stamped(json: "{}", options: .mutable)
            stamped.day = Date(timeIntervalSince1970: 1e12)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("cannot set 'day' on Stamped"), "\(text)")
        #expect(text.contains("outside what yyyy-MM-dd writes"), "\(text)")
    }
    #endif

    @Test func describingADateNoFormatWritesShowsItsSeconds() throws {
        let model = try FarAway(json: #"{"when": "x", "never": "y"}"#)
        #expect(model.debugDescription.contains("Date(1e+300 seconds since 1970)"), "\(model.debugDescription)")
        #expect(model.debugDescription.contains("Date(nan seconds since 1970)"), "\(model.debugDescription)")
        #expect(model.jsonModel.fullDescription.contains("1e+300 seconds since 1970"), "\(model.jsonModel.fullDescription)")
        _ = model.jsonModel.json()
    }
}
