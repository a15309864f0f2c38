#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// A compiled Unicode date pattern: a list of fields and literals, read and written
/// in the POSIX locale and the Gregorian calendar, UTC unless the text has a zone.
///
/// Fields: `yyyy` `yy` `y`, `MM` `M` `MMM` `MMMM`, `dd` `d`, `HH` `H`, `hh` `h` with `a` (a
/// pattern with `h` and no `a` is a ``problem``: it could not tell 00:30 from 12:30),
/// `mm` `m`, `ss` `s`, `S…` (fraction, as many digits as letters), `EEE` `EEEE` (weekday,
/// checked on read), `Z` `ZZ` `ZZZ` (`+0300`), `ZZZZZ` `XXX` (`+03:00` or `Z`), `XX`
/// (`+0300` or `Z`), `X` (`+03` or `Z`), `z` `zz` `zzz` (`GMT`, `UTC`, `GMT+3`,
/// `GMT+03:00`). Text in single quotes is literal (`''` is a quote); other non-letters too.
///
/// A numeric field of two letters (`MM` `dd` `HH` `hh` `mm` `ss`) reads one digit or two when
/// no other numeric field touches it (`7/4/1776` under `MM/dd/yyyy`), and exactly two inside a
/// run of digits (`yyyyMMdd`); it always writes two.
///
/// `yy` reads a year within 80 years before the current one and 19 after, as `DateFormatter`
/// does (`99` is 1999 until 2079), and writes only the years it reads back (``canWrite(_:)``).
///
/// Field widths are limited when the pattern is compiled, so every number a pattern reads
/// fits and every date it reads is one it can write: `y` takes at most 4 letters (years 0000
/// to 9999), `M` at most 4, `d` `H` `h` `m` `s` at most 2, `S` at most 9. A wider field is a
/// ``problem``, and a model declaring the pattern fails its declaration check.
///
/// Compiled once per distinct text ( ``compiled(_:)``) and immutable afterwards, so one
/// instance serves every thread.
final class DatePattern: Sendable {
    enum Field: Sendable, Equatable {
        case year(width: Int)
        case month(width: Int)
        case day(width: Int)
        case hour24(width: Int)
        case hour12(width: Int)
        case amPm
        case minute(width: Int)
        case second(width: Int)
        case fraction(digits: Int)
        case weekday(full: Bool)
        case zoneRFC822              // +0300
        case zoneISO(colon: Bool, minutes: Bool)  // Z or +03:00 / +0300 / +03
        case zoneName                // GMT, UTC, GMT+03:00
        case literal([UInt8])

        /// The letters of a field written as digits; nil for names, zones and literals.
        var numberWidth: Int? {
            switch self {
            case .year(let width), .day(let width), .hour24(let width), .hour12(let width), .minute(let width),
                .second(let width):
                return width
            case .month(let width): return width >= 3 ? nil : width
            case .fraction(let digits): return digits
            default: return nil
            }
        }

        var isFraction: Bool {
            if case .fraction = self { return true }
            return false
        }

        /// Whether the field's text starts (or, `atEnd`, ends) with a digit, so that a number
        /// beside it would run into it.
        func touchesDigits(atEnd: Bool) -> Bool {
            if case .literal(let bytes) = self {
                guard let byte = atEnd ? bytes.last : bytes.first else { return false }
                return ByteScanner.isDigit(byte)
            }
            return numberWidth != nil
        }
    }

    let text: String
    let fields: [Field]
    /// For each field, whether a read takes one digit or two: a numeric field of one letter, or
    /// of two next to no other numeric field (`MM` in `MM/dd/yyyy` reads `7` and `07`). Where
    /// numeric fields run together (`yyyyMMdd`) nothing marks where one ends, so their widths
    /// stay exact. Writes use the declared width.
    let readsOneOrTwoDigits: [Bool]
    /// Whether the pattern is numeric fields alone (`yyyyMMdd`, `yyyyMMddHHmmss`): text of digits
    /// only, which a JSON number can spell too.
    let isDigitsOnly: Bool
    /// Whether a year is written with two digits (`yy`), which reads back only within
    /// ``twoDigitYears``.
    let hasTwoDigitYear: Bool
    let problem: String?

    /// The years `yy` reads, the current year's 80 before to 19 after; fixed when first used.
    static let twoDigitYears: ClosedRange<Int> = {
        let year = ISO8601Text.civil(fromDays: Int((Date().timeIntervalSince1970 / 86_400).rounded(.down))).year
        return (year - 80)...(year + 19)
    }()

    /// The year of `yy`'s two digits: the one in ``twoDigitYears`` that ends in them.
    static func year(ofTwoDigits value: Int) -> Int {
        let start = twoDigitYears.lowerBound
        let century = start - start % 100
        let year = century + value
        return year < start ? year + 100 : year
    }

    init(text: String) {
        self.text = text
        var problem: String?
        let fields = DatePattern.compile(text, problem: &problem)
        // A one-letter field writes one digit or two, so beside another field of digits its end
        // is lost: `yyyyMd` writes 21 January 2018 as 2018121, which reads as 1 December.
        // So does `yyy`, three digits for a year before 1000 and four after: `yyyMMdd` writes
        // 6 May 999 as 9990506, which reads as a year 9990.
        for index in fields.indices where problem == nil && !fields[index].isFraction {
            let isYear: Bool
            if case .year(3) = fields[index] { isYear = true } else { isYear = false }
            guard fields[index].numberWidth == 1 || isYear else { continue }
            let before = index > 0 ? fields[index - 1] : nil
            let after = index + 1 < fields.count ? fields[index + 1] : nil
            if before?.touchesDigits(atEnd: true) == true || after?.touchesDigits(atEnd: false) == true {
                problem = isYear
                    ? "field 'yyy' beside digits in date pattern \"\(text)\" does not read back: "
                        + "a year before 1000 has three digits and a later one four; use yyyy or a separator"
                    : "a one-letter field beside digits in date pattern \"\(text)\" does not read back: "
                        + "its width varies; use two letters (MM, dd, HH, mm, ss) or a separator"
            }
        }
        self.fields = fields
        self.problem = problem
        self.readsOneOrTwoDigits = fields.indices.map { index in
            guard let width = fields[index].numberWidth else { return false }
            if width == 1 { return true }
            guard width == 2, !fields[index].isFraction else { return false }
            let before = index > 0 ? fields[index - 1] : nil
            let after = index + 1 < fields.count ? fields[index + 1] : nil
            return before?.touchesDigits(atEnd: true) != true && after?.touchesDigits(atEnd: false) != true
        }
        self.isDigitsOnly = !fields.isEmpty && fields.allSatisfy { $0.numberWidth != nil }
        self.hasTwoDigitYear = fields.contains(.year(width: 2))
    }

    /// Whether the pattern writes `date` so that it reads back: every date ``ISO8601Text`` writes
    /// (years 0000 to 9999), within ``twoDigitYears`` when the year has two digits.
    func canWrite(_ date: Date) -> Bool {
        guard ISO8601Text.isWritable(date) else { return false }
        guard hasTwoDigitYear else { return true }
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        return DatePattern.twoDigitYears.contains(ISO8601Text.civil(fromDays: days).year)
    }

    private static let cache = Locked<[String: DatePattern]>([:])

    /// The shared compiled pattern for `text`.
    static func compiled(_ text: String) -> DatePattern {
        if let known = cache.withLock({ $0[text] }) { return known }
        let pattern = DatePattern(text: text)
        return cache.withLock { cache in
            if let raced = cache[text] { return raced }
            if cache.count < 1024 { cache[text] = pattern }
            return pattern
        }
    }

    private static func compile(_ text: String, problem: inout String?) -> [Field] {
        let scalars = Array(text.unicodeScalars)
        var fields: [Field] = []
        var literal: [UInt8] = []
        func flushLiteral() {
            if !literal.isEmpty { fields.append(.literal(literal)) }
            literal = []
        }
        var index = 0
        if scalars.isEmpty { problem = "an empty date pattern" }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "'" {
                if index + 1 < scalars.count && scalars[index + 1] == "'" {
                    literal.append(UInt8(ascii: "'"))
                    index += 2
                    continue
                }
                index += 1
                // Quoted text up to the closing quote; two quotes inside it are one (`'o''clock'`).
                while index < scalars.count {
                    if scalars[index] == "'" {
                        guard index + 1 < scalars.count && scalars[index + 1] == "'" else { break }
                        literal.append(UInt8(ascii: "'"))
                        index += 2
                        continue
                    }
                    literal += Array(String(scalars[index]).utf8)
                    index += 1
                }
                if index == scalars.count { problem = "an unterminated quote in date pattern \"\(text)\"" }
                index += 1
                continue
            }
            guard scalar.properties.isAlphabetic && scalar.isASCII else {
                literal += Array(String(scalar).utf8)
                index += 1
                continue
            }
            var width = 1
            while index + width < scalars.count && scalars[index + width] == scalar { width += 1 }
            index += width
            flushLiteral()
            if let limit = DatePattern.widestField[scalar], width > limit.letters {
                let field = String(repeating: String(scalar), count: width)
                problem = "field '\(field)' is too wide in date pattern \"\(text)\" (at most \(limit.letters): \(limit.why))"
                continue
            }
            switch scalar {
            case "y": fields.append(.year(width: width))
            case "M", "L": fields.append(.month(width: width))
            case "d": fields.append(.day(width: width))
            case "H": fields.append(.hour24(width: width))
            case "h": fields.append(.hour12(width: width))
            case "a": fields.append(.amPm)
            case "m": fields.append(.minute(width: width))
            case "s": fields.append(.second(width: width))
            case "S": fields.append(.fraction(digits: width))
            case "E": fields.append(.weekday(full: width >= 4))
            case "Z": fields.append(width >= 5 ? .zoneISO(colon: true, minutes: true) : .zoneRFC822)
            case "X", "x":
                fields.append(.zoneISO(colon: width >= 3, minutes: width >= 2))
            case "z": fields.append(.zoneName)
            default:
                problem = "unsupported field '\(String(repeating: String(scalar), count: width))' in date pattern \"\(text)\""
            }
        }
        flushLiteral()
        if problem == nil, fields.contains(where: { if case .hour12 = $0 { true } else { false } }), !fields.contains(.amPm) {
            problem = "'h' without 'a' in date pattern \"\(text)\": the hour 12 could be noon or midnight; use 'H' for 0 to 23"
        }
        if problem == nil, fields.contains(where: { if case .hour24 = $0 { true } else { false } }), fields.contains(.amPm) {
            // Written, 13:05 would be "13:05 PM", which a reader of 'a' (hours 1 to 12) refuses.
            problem = "'H' with 'a' in date pattern \"\(text)\": 'H' is the hour 0 to 23; use 'h' with 'a'"
        }
        return fields
    }

    /// The most letters each numeric field may repeat, and why.
    static let widestField: [Unicode.Scalar: (letters: Int, why: String)] = [
        "y": (4, "years 0000 to 9999"), "M": (4, "MMMM is the full month name"),
        "L": (4, "LLLL is the full month name"), "d": (2, "days have 2 digits"), "H": (2, "hours have 2 digits"),
        "h": (2, "hours have 2 digits"), "m": (2, "minutes have 2 digits"), "s": (2, "seconds have 2 digits"),
        "S": (9, "fractions have at most 9 digits"),
    ]

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    // MARK: Reading

    /// The date the whole of `bytes` spells, or nil.
    func date(from bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard problem == nil else { return nil }
        var scanner = ByteScanner(bytes: bytes)
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var offset = 0
        var pm: Bool?
        var weekday: Int?
        for (index, field) in fields.enumerated() {
            let short = readsOneOrTwoDigits[index]
            switch field {
            case .year(let width):
                if width == 2 {
                    guard let value = scanner.digits(2) else { return nil }
                    year = DatePattern.year(ofTwoDigits: value)
                } else {
                    guard let value = width >= 4 ? scanner.digits(width) : scanner.digits(minimum: 1, maximum: 4)
                    else { return nil }
                    year = value
                }
            case .month(let width):
                if width >= 3 {
                    guard let value = DatePattern.name(in: &scanner, names: DatePattern.monthNames, full: width >= 4)
                    else { return nil }
                    month = value + 1
                } else {
                    guard let value = number(&scanner, width, short: short) else { return nil }
                    month = value
                }
            case .day(let width):
                guard let value = number(&scanner, width, short: short) else { return nil }
                day = value
            case .hour24(let width), .hour12(let width):
                guard let value = number(&scanner, width, short: short) else { return nil }
                hour = value
            case .amPm:
                if scanner.skip(word: "AM") { pm = false } else if scanner.skip(word: "PM") { pm = true } else { return nil }
            case .minute(let width):
                guard let value = number(&scanner, width, short: short), value < 60 else { return nil }
                minute = value
            case .second(let width):
                guard let value = number(&scanner, width, short: short), value <= 60 else { return nil }
                second = value
            case .fraction(let digits):
                guard let value = scanner.fraction(exactly: digits) else { return nil }
                fraction = value
            case .weekday(let full):
                guard let value = DatePattern.name(in: &scanner, names: DatePattern.weekdayNames, full: full)
                else { return nil }
                weekday = value
            case .zoneRFC822:
                guard let value = scanner.zoneOffset(colon: .forbidden, minutes: true) else { return nil }
                offset = value
            case .zoneISO(let colon, let minutes):
                guard let value = scanner.zoneOffset(colon: colon ? .required : .forbidden, minutes: minutes)
                else { return nil }
                offset = value
            case .zoneName:
                guard scanner.skip(word: "GMT") || scanner.skip(word: "UTC") else { return nil }
                if scanner.peek == UInt8(ascii: "+") || scanner.peek == UInt8(ascii: "-") {
                    let sign = scanner.skip("+") ? 1 : (scanner.skip("-") ? -1 : 1)
                    guard let hours = scanner.digits(minimum: 1, maximum: 2), hours < 24 else { return nil }
                    var minutes = 0
                    if scanner.skip(":") {
                        guard let value = scanner.digits(2), value < 60 else { return nil }
                        minutes = value
                    }
                    offset = sign * (hours * 3600 + minutes * 60)
                }
            case .literal(let expected):
                for byte in expected {
                    guard scanner.peek == byte else { return nil }
                    scanner.position += 1
                }
            }
        }
        guard scanner.atEnd else { return nil }
        if let pm {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (pm ? 12 : 0)
        }
        guard (1...12).contains(month), day >= 1, day <= ISO8601Text.daysIn(month: month, year: year), hour < 24
        else { return nil }
        let days = ISO8601Text.daysFromCivil(year: year, month: month, day: day)
        if let weekday, DatePattern.weekday(ofDays: days) != weekday { return nil }
        let seconds = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second) + fraction - Double(offset)
        return Date(timeIntervalSince1970: seconds)
    }

    /// One or two digits when `short` (``readsOneOrTwoDigits``), else exactly `width`.
    private func number(_ scanner: inout ByteScanner, _ width: Int, short: Bool) -> Int? {
        short ? scanner.digits(minimum: 1, maximum: 2) : scanner.digits(width)
    }

    /// The index of the month or weekday name at the cursor (three-letter or full, any case).
    private static func name(in scanner: inout ByteScanner, names: [String], full: Bool) -> Int? {
        for (index, name) in names.enumerated() {
            if full, scanner.skip(word: name) { return index }
        }
        for (index, name) in names.enumerated() where scanner.skip(word: String(name.prefix(3))) {
            return index
        }
        return nil
    }

    /// 0 for Sunday.
    static func weekday(ofDays days: Int) -> Int {
        ((days % 7) + 7 + 4) % 7  // 1970-01-01 was a Thursday
    }

    // MARK: Writing

    /// The text of `date` in UTC (zone fields write `Z`, `+0000` or `GMT`).
    ///
    /// Dates outside years 0000 to 9999 (see ``ISO8601Text/isWritable(_:)``) get a best effort
    /// that does not read back, and a date that is not finite or is beyond ±9e15 seconds its
    /// number of seconds: never a trap.
    func string(from date: Date) -> String {
        guard let (days, milliseconds) = ISO8601Text.utcFields(of: date) else {
            return String(date.timeIntervalSince1970)
        }
        let (year, month, day) = ISO8601Text.civil(fromDays: days)
        let secondsOfDay = milliseconds / 1000
        let millis = milliseconds % 1000
        let hour = secondsOfDay / 3600
        let pad = ISO8601Text.pad
        var text = ""
        for field in fields {
            switch field {
            case .year(let width): text += width == 2 ? pad(year % 100, 2) : pad(year, width)
            case .month(let width):
                let name = DatePattern.monthNames[month - 1]
                text += width >= 4 ? name : width == 3 ? String(name.prefix(3)) : pad(month, width)
            case .day(let width): text += pad(day, width)
            case .hour24(let width): text += pad(hour, width)
            case .hour12(let width): text += pad(hour % 12 == 0 ? 12 : hour % 12, width)
            case .amPm: text += hour < 12 ? "AM" : "PM"
            case .minute(let width): text += pad(secondsOfDay / 60 % 60, width)
            case .second(let width): text += pad(secondsOfDay % 60, width)
            case .fraction(let digits):
                let three = pad(millis, 3)
                text += digits <= 3 ? String(three.prefix(digits)) : three + String(repeating: "0", count: digits - 3)
            case .weekday(let full):
                let name = DatePattern.weekdayNames[DatePattern.weekday(ofDays: days)]
                text += full ? name : String(name.prefix(3))
            case .zoneRFC822: text += "+0000"
            case .zoneISO: text += "Z"
            case .zoneName: text += "GMT"
            case .literal(let bytes): text += String(decoding: bytes, as: UTF8.self)
            }
        }
        return text
    }
}
