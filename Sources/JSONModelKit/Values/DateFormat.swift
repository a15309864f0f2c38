#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// How a `Date` is stored in JSON.
///
/// Declare it on a property; reading tries this format first, then the others in a fixed
/// order (ISO 8601 first; see <doc:DatesAndEnums>); writing always uses it.
///
/// ```swift
/// p.createdAt(Date.self, jsonPath: "created_at", dateFormat: .iso8601)
/// p.born(Date?.self, dateFormat: "dd/MM/yyyy")            // a Unicode pattern
/// p.seen(Date?.self, dateFormat: .millisecondsSince1970)
/// ```
///
/// Schemas give the same formats as text: `"iso8601"`, `"secondsSince1970"`,
/// `"millisecondsSince1970"`, `"iso8601WithMilliseconds"`, `"javaScript"` (`Tue Jun 3 2008
/// 11:05:30 GMT`), or a pattern such as `"MM/dd/yyyy"`; so do string literals in Swift. Patterns use
/// the POSIX locale and UTC unless the text carries a zone. Every format is parsed
/// once and shared (immutable, `Sendable`), so no formatter is created per read.
public struct DateFormat: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    enum Storage: Sendable, Hashable {
        case iso8601
        case secondsSince1970
        case millisecondsSince1970
        case pattern(DatePattern)
    }

    let storage: Storage

    init(_ storage: Storage) { self.storage = storage }

    /// ISO 8601: `2018-05-06T17:03:13Z`, with or without fractional seconds, `Z` or an
    /// offset, or a date alone. Written in UTC with `Z`, milliseconds only when not zero.
    public static let iso8601 = DateFormat(.iso8601)
    /// Seconds since 1970 as a number (a numeric string reads too). Written as a number.
    public static let secondsSince1970 = DateFormat(.secondsSince1970)
    /// Milliseconds since 1970 as a number (a numeric string reads too). Written as a number.
    public static let millisecondsSince1970 = DateFormat(.millisecondsSince1970)
    // The patterns below are the fallbacks and what inference recognises; users write them as
    // pattern text (`dateFormat: "yyyy-MM-dd"`), which makes the same format.

    /// `2017-02-05T17:03:13.000-03:00`: ISO 8601 with milliseconds and an offset, always written with both.
    package static let iso8601WithMilliseconds = DateFormat.pattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")
    /// `Tue Jun 3 2008 11:05:30 GMT`: weekday, month, day, year, time and a `GMT` zone (`GMT+2`,
    /// `GMT+02:00`), close to what JavaScript's `Date.toString` prints, without its `+0200` and
    /// the zone's name in parentheses, which this format does not read.
    package static let javaScript = DateFormat.pattern("EEE MMM d yyyy HH:mm:ss zzz")
    /// `2018/02/15`.
    package static let yearMonthDaySlashes = DateFormat.pattern("yyyy/MM/dd")
    /// `2018-02-15`.
    package static let yearMonthDayDashes = DateFormat.pattern("yyyy-MM-dd")
    /// `20180215`.
    package static let yearMonthDayCompact = DateFormat.pattern("yyyyMMdd")
    /// `05/06/2018` read month first (May 6).
    package static let monthDayYear = DateFormat.pattern("MM/dd/yyyy")
    /// `05/06/2018` read day first (5 June).
    package static let dayMonthYear = DateFormat.pattern("dd/MM/yyyy")
    /// `05-06-2018` read month first.
    package static let monthDayYearDashes = DateFormat.pattern("MM-dd-yyyy")
    /// `05-06-2018` read day first.
    package static let dayMonthYearDashes = DateFormat.pattern("dd-MM-yyyy")

    /// A Unicode date pattern (`yyyy MM dd HH mm ss SSS Z EEE MMM` and friends).
    ///
    /// Compiled once per distinct text and shared. A pattern with unsupported letters, or a
    /// field wider than the engine reads (`y` beyond 4 letters, `M` beyond 4, `d` `H` `h` `m`
    /// `s` beyond 2, `S` beyond 9), reads nothing and reports ``problem``; models declaring it
    /// fail their declaration check. So every date a pattern reads is one it can write.
    static func pattern(_ text: String) -> DateFormat {
        DateFormat(.pattern(DatePattern.compiled(text)))
    }

    /// The order in which reading tries the other formats after the declared one.
    ///
    /// Text: ISO 8601 (all its forms, date alone included), `yyyy/MM/dd`, the JavaScript
    /// form, `yyyyMMdd`, a numeric string as seconds since 1970 (milliseconds when that is the
    /// declared format), `MM/dd/yyyy`, `dd/MM/yyyy`, `MM-dd-yyyy`, `dd-MM-yyyy`. Numbers:
    /// seconds since 1970, or milliseconds when that is the declared format; a property whose
    /// declared pattern is digits alone (`yyyyMMdd`) reads a number's digits through the pattern
    /// instead, and one with another pattern reads seconds with a diagnostic.
    static let fallbackOrder: [DateFormat] = [
        .iso8601, .yearMonthDaySlashes, .javaScript, .yearMonthDayCompact, .secondsSince1970,
        .monthDayYear, .dayMonthYear, .monthDayYearDashes, .dayMonthYearDashes,
    ]

    /// Reads a format's name (`iso8601`, `secondsSince1970`, `millisecondsSince1970`,
    /// `iso8601WithMilliseconds`, `javaScript`) or else a Unicode pattern.
    public init(parsing text: String) {
        switch text {
        case "iso8601", "ISO8601": self = .iso8601
        case "secondsSince1970": self = .secondsSince1970
        case "millisecondsSince1970": self = .millisecondsSince1970
        case "iso8601WithMilliseconds": self = .iso8601WithMilliseconds
        case "javaScript": self = .javaScript
        default: self = .pattern(text)
        }
    }

    /// `dateFormat: "MM/dd/yyyy"` reads as ``init(parsing:)``.
    public init(stringLiteral value: String) {
        self.init(parsing: value)
    }

    /// The format's name or pattern.
    public var description: String {
        switch storage {
        case .iso8601: return "iso8601"
        case .secondsSince1970: return "secondsSince1970"
        case .millisecondsSince1970: return "millisecondsSince1970"
        case .pattern(let pattern): return pattern.text
        }
    }

    /// What is wrong with a pattern, or nil for a usable format.
    var problem: String? {
        if case .pattern(let pattern) = storage { return pattern.problem }
        return nil
    }

    // MARK: Reading and writing

    /// The date `text` spells in this format alone, or nil.
    ///
    /// - Complexity: O(*n*) in the length of the text; no allocation for ASCII text.
    package func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(fromUTF8: $0) }
    }

    /// Reads UTF-8 text in this format alone.
    func date(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        switch storage {
        case .iso8601: return ISO8601Parser.date(from: bytes)
        case .secondsSince1970: return DateFormat.epochDate(from: bytes, scale: 1)
        case .millisecondsSince1970: return DateFormat.epochDate(from: bytes, scale: 1000)
        case .pattern(let pattern): return pattern.date(from: bytes)
        }
    }

    /// Reads text with this format first, then ``fallbackOrder``.
    ///
    /// Text of digits alone under a pattern of digits alone (`yyyyMMdd`) is read by the pattern
    /// only: `20181345` gives nil, not a date in seconds since 1970.
    func dateTryingFallbacks(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { dateTryingFallbacks(fromUTF8: $0) }
    }

    func dateTryingFallbacks(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        if let date = date(fromUTF8: bytes) { return date }
        // Digits a declared pattern of digits only (`yyyyMMdd`) cannot read are a wrong date in
        // that pattern, not seconds since 1970.
        if case .pattern(let pattern) = storage, pattern.isDigitsOnly, bytes.allSatisfy(ByteScanner.isDigit) {
            return nil
        }
        for format in DateFormat.fallbackOrder where format != self {
            let used = format == .secondsSince1970 && self == .millisecondsSince1970 ? self : format
            if used == self { continue }
            if let date = used.date(fromUTF8: bytes) { return date }
        }
        return nil
    }

    /// The date a JSON number stands for: seconds since 1970, or milliseconds for that format.
    func date(fromNumber text: String) -> Date? {
        var text = text
        return text.withUTF8 { DateFormat.epochDate(from: $0, scale: storage == .millisecondsSince1970 ? 1000 : 1) }
    }

    /// Whether this format writes `date` so that it reads back.
    ///
    /// ISO 8601 and the patterns write years 0000 through 9999 in UTC, to the millisecond
    /// (`0000-01-01T00:00:00Z` up to, not including, `10000-01-01T00:00:00Z`);
    /// `secondsSince1970` and `millisecondsSince1970` write dates within ±253,402,300,800
    /// seconds of 1970, the range they read. No format writes a date that is not finite.
    ///
    /// A model's write of a date its format cannot write throws
    /// (``JSONModelError/unwritable(model:property:reason:)``), and reading one (a zone offset
    /// can move `0000-01-01T00:00+01:00` into year -1) gives the default with a diagnostic.
    func canWrite(_ date: Date) -> Bool {
        switch storage {
        case .secondsSince1970, .millisecondsSince1970:
            let seconds = date.timeIntervalSince1970
            return seconds.isFinite && abs(seconds) < DateFormat.epochLimit
        case .iso8601:
            return ISO8601Text.isWritable(date)
        case .pattern(let pattern):
            return pattern.canWrite(date)
        }
    }

    /// Why ``canWrite(_:)`` refuses `date`, for messages.
    func unwritableReason(_ date: Date) -> String {
        let range: String
        switch storage {
        case .secondsSince1970, .millisecondsSince1970: range = "within ±253402300800 seconds of 1970"
        case .iso8601: range = "years 0000 to 9999"
        case .pattern(let pattern) where pattern.hasTwoDigitYear:
            range = "years \(DatePattern.twoDigitYears.lowerBound) to \(DatePattern.twoDigitYears.upperBound), which two digits read back"
        case .pattern: range = "years 0000 to 9999"
        }
        return "the date \(date.timeIntervalSince1970) seconds since 1970 is outside what \(self) writes (\(range))"
    }

    /// Dates beyond ±10,000 years (in seconds) are not dates anyone means: the epoch formats
    /// neither read nor write them.
    static let epochLimit: Double = 253_402_300_800

    /// The text of `date` in this format (for the epoch formats, the number's text).
    ///
    /// For a date the format cannot write (a year outside 0000–9999 in UTC, or beyond
    /// ±253,402,300,800 seconds for the epoch formats) the text is a best effort that does not
    /// read back: never a trap.
    package func string(from date: Date) -> String {
        switch storage {
        case .iso8601: return ISO8601Text.string(from: date)
        case .secondsSince1970: return DateFormat.numberText(date.timeIntervalSince1970)
        // Whole milliseconds, as ISO 8601 text is written to the millisecond: readers of this
        // format take an integer (an `int64` in most languages).
        case .millisecondsSince1970: return DateFormat.numberText((date.timeIntervalSince1970 * 1000).rounded())
        case .pattern(let pattern): return pattern.string(from: date)
        }
    }

    /// The JSON of `date` in this format: a number for the epoch formats unless the
    /// stored value was a string, and for a pattern of digits only (`yyyyMMdd`) when the stored
    /// value was a number and the text is a JSON number (no leading zero); text otherwise.
    func json(from date: Date, replacing existing: JSONInput?) -> JSONValue {
        switch storage {
        case .secondsSince1970, .millisecondsSince1970:
            let text = string(from: date)
            if existing?.kind == .string { return .string(text) }
            return JSONNumber(text: text).map(JSONValue.number) ?? .string(text)
        case .pattern(let pattern) where pattern.isDigitsOnly && existing?.kind == .number:
            let text = string(from: date)
            return JSONNumber(text: text).map(JSONValue.number) ?? .string(text)
        default:
            return .string(string(from: date))
        }
    }

    // MARK: Epoch numbers

    /// Reads JSON-number text (`-12.5`, `1e9`) as seconds times `scale`.
    static func epochDate(from bytes: UnsafeBufferPointer<UInt8>, scale: Double) -> Date? {
        // JSON number grammar only: no spaces, no `+`, no hex, no `inf`; of any length, read in
        // time linear in it, as a `Double` property reads its number.
        guard !bytes.isEmpty, NumberParsing.isValid(bytes) else { return nil }
        let value = NumberParsing.double(bytes)
        guard value.isFinite else { return nil }
        let seconds = value / scale
        guard abs(seconds) < epochLimit else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Shortest text of a number of seconds: integral values without a fraction.
    static func numberText(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

extension DateFormat.Storage {
    static func == (lhs: DateFormat.Storage, rhs: DateFormat.Storage) -> Bool {
        switch (lhs, rhs) {
        case (.iso8601, .iso8601), (.secondsSince1970, .secondsSince1970),
            (.millisecondsSince1970, .millisecondsSince1970):
            return true
        case (.pattern(let a), .pattern(let b)): return a.text == b.text
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .iso8601: hasher.combine(0)
        case .secondsSince1970: hasher.combine(1)
        case .millisecondsSince1970: hasher.combine(2)
        case .pattern(let pattern): hasher.combine(pattern.text)
        }
    }
}

// MARK: - ISO 8601

/// A fast ISO 8601 reader over UTF-8 bytes, without allocation.
///
/// Reads `yyyy-MM-dd`, optionally followed by `T`, `t` or a space and `HH:mm`,
/// `HH:mm:ss` or `HH:mm:ss.fraction` (`,` too), then optionally `Z` or an offset
/// `±HH:mm`, `±HHmm`, `±HH`. No zone means UTC.
enum ISO8601Parser {
    static func date(from bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = ByteScanner(bytes: bytes)
        guard let year = scanner.digits(4), scanner.skip("-"), let month = scanner.digits(2), scanner.skip("-"),
            let day = scanner.digits(2), (1...12).contains(month), day >= 1,
            day <= ISO8601Text.daysIn(month: month, year: year)
        else { return nil }
        var seconds = Double(ISO8601Text.daysFromCivil(year: year, month: month, day: day)) * 86_400
        if scanner.atEnd { return Date(timeIntervalSince1970: seconds) }
        guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
            let hour = scanner.digits(2), hour < 24, scanner.skip(":"), let minute = scanner.digits(2), minute < 60
        else { return nil }
        var second = 0
        var fraction = 0.0
        if scanner.skip(":") {
            guard let value = scanner.digits(2), value <= 60 else { return nil }
            second = value
            if scanner.skip(".") || scanner.skip(",") {
                guard let value = scanner.fraction() else { return nil }
                fraction = value
            }
        }
        seconds += Double(hour * 3600 + minute * 60 + second) + fraction
        if !scanner.atEnd {
            guard let offset = scanner.zoneOffset(colon: .optional) else { return nil }
            seconds -= Double(offset)
        }
        guard scanner.atEnd else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}

/// A cursor over UTF-8 bytes with the small readers the date parsers share.
struct ByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    var atEnd: Bool { position == bytes.count }

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Exactly `count` digits.
    mutating func digits(_ count: Int) -> Int? {
        guard position + count <= bytes.count else { return nil }
        var value = 0
        for index in position..<position + count {
            let byte = bytes[index]
            guard ByteScanner.isDigit(byte) else { return nil }
            value = value * 10 + Int(byte &- UInt8(ascii: "0"))
        }
        position += count
        return value
    }

    /// Between `minimum` and `maximum` digits, as many as there are.
    mutating func digits(minimum: Int, maximum: Int) -> Int? {
        var value = 0
        var count = 0
        while count < maximum, let byte = peek, ByteScanner.isDigit(byte) {
            value = value * 10 + Int(byte &- UInt8(ascii: "0"))
            position += 1
            count += 1
        }
        return count >= minimum ? value : nil
    }

    /// One or more digits after a decimal point, as a fraction of one.
    mutating func fraction(exactly count: Int? = nil) -> Double? {
        var digits = 0
        var scale = 1.0
        let start = position
        while let byte = peek, ByteScanner.isDigit(byte), count.map({ position - start < $0 }) ?? true {
            if position - start < 15 {  // beyond that, digits cannot change a Double of seconds
                digits = digits * 10 + Int(byte &- UInt8(ascii: "0"))
                scale *= 10
            }
            position += 1
        }
        guard position > start, count.map({ position - start == $0 }) ?? true else { return nil }
        return Double(digits) / scale
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard let byte = peek, byte == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    /// ASCII letters compared without case.
    mutating func skip(word: String) -> Bool {
        let utf8 = word.utf8
        guard position + utf8.count <= bytes.count else { return false }
        var index = position
        for expected in utf8 {
            guard ByteScanner.lowercased(bytes[index]) == ByteScanner.lowercased(expected) else { return false }
            index += 1
        }
        position = index
        return true
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    enum Colon { case required, forbidden, optional }

    /// `Z` or `±HH[:]mm` / `±HH`, as seconds east of UTC.
    mutating func zoneOffset(colon: Colon, allowZ: Bool = true, minutes: Bool? = nil) -> Int? {
        if allowZ, skip("Z") || skip("z") { return 0 }
        let sign: Int
        if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
        guard let hours = digits(2), hours < 24 else { return nil }
        var offsetMinutes = 0
        let hadColon = colon != .forbidden && skip(":")
        if colon == .required && !hadColon && minutes != false { return nil }
        if hadColon || (minutes != false && peek.map(ByteScanner.isDigit) == true) {
            guard let value = digits(2), value < 60 else { return nil }
            offsetMinutes = value
        } else if minutes == true {
            return nil
        }
        return sign * (hours * 3600 + offsetMinutes * 60)
    }
}
