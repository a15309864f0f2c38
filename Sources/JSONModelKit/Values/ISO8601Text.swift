#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The ISO 8601 writer, and the calendar arithmetic the date formats share.
///
/// Date properties read through ``ISO8601Parser``, which reads bytes; they write through
/// ``string(from:)`` here: `yyyy-MM-ddTHH:mm:ssZ` in UTC, with milliseconds only when not zero.
enum ISO8601Text {
    /// The text of `date`; for a date ``isWritable(_:)`` refuses, a best effort that does not
    /// read back (a signed year of more digits, or the number of seconds), never a trap.
    static func string(from date: Date) -> String {
        guard let (days, milliseconds) = utcFields(of: date) else { return String(date.timeIntervalSince1970) }
        let (year, month, day) = civil(fromDays: days)
        let secondsOfDay = milliseconds / 1000
        let millis = milliseconds % 1000
        let yearText = (0...9999).contains(year) ? pad(year, 4) : (year < 0 ? "" : "+") + pad(year, 4)
        var text = "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T"
        text += "\(pad(secondsOfDay / 3600, 2)):\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2))"
        if millis != 0 { text += ".\(pad(millis, 3))" }
        return text + "Z"
    }

    /// `value` in decimal with at least `width` digits (a minus sign comes before the zeros).
    static func pad(_ value: Int, _ width: Int) -> String {
        if value < 0 { return "-" + pad(-value, width) }
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z in milliseconds since 1970: the dates the
    /// text formats write (four-digit years) are those from the first up to the second.
    static let writableMilliseconds: Range<Int64> = -62_167_219_200_000..<253_402_300_800_000

    /// The date rounded to the millisecond, as the writers round it; nil when it is not finite
    /// or beyond ±9e15 seconds (some 285 million years), where the arithmetic would overflow.
    static func milliseconds(of date: Date) -> Int64? {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 9e15 else { return nil }
        return Int64((interval * 1000).rounded(.toNearestOrAwayFromZero))
    }

    /// Days since 1970 and the millisecond of that day, in UTC; nil as for ``milliseconds(of:)``.
    static func utcFields(of date: Date) -> (days: Int, millisecondOfDay: Int)? {
        guard var milliseconds = self.milliseconds(of: date) else { return nil }
        var days = milliseconds / 86_400_000
        milliseconds -= days * 86_400_000
        if milliseconds < 0 {
            days -= 1
            milliseconds += 86_400_000
        }
        return (Int(days), Int(milliseconds))
    }

    /// Whether the text formats write `date` so that it reads back: years 0000 to 9999 in UTC.
    static func isWritable(_ date: Date) -> Bool {
        milliseconds(of: date).map(writableMilliseconds.contains) ?? false
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
