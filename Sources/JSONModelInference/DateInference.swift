import JSONModelKit

/// Which strings and numbers of a sample are dates, and in which ``DateFormat``.
///
/// A place holds dates when every string seen there reads in one format, tried in this order:
/// `yyyy-MM-dd`, ISO 8601 (every form our reader takes), `yyyy/MM/dd`, the JavaScript form,
/// `MM/dd/yyyy`, `dd/MM/yyyy`, `MM-dd-yyyy`, `dd-MM-yyyy`, `yyyyMMdd`. When both the month-first
/// and the day-first form fit every value (`05/06/2018`), month first wins, as in
/// ``DateFormat/fallbackOrder``.
///
/// Forms made of digits alone are too often ids or codes, so they count only under a key that
/// names a date (`created_at`, `birth_date`, `updatedOn`, `timestamp`; see ``hintWords``):
/// `yyyyMMdd` strings, and numbers as seconds since 1970 (every value between 1e8 and 1e10, so
/// 1973 to 2286) or milliseconds (between 1e11 and 1e13).
enum DateInference {
    /// The string formats tried, most specific first.
    static let candidates: [DateFormat] = [
        .yearMonthDayDashes, .iso8601, .yearMonthDaySlashes, .javaScript, .monthDayYear, .dayMonthYear,
        .monthDayYearDashes, .dayMonthYearDashes, .yearMonthDayCompact,
    ]

    /// Formats that need a date-like key.
    static let needsHint: Set<DateFormat> = [.yearMonthDayCompact]

    /// Words of a key that say it holds a date, anywhere in the key.
    static let hintWords: Set<String> = [
        "date", "time", "timestamp", "ts", "created", "updated", "modified", "deleted", "expires", "expiry",
        "birthday", "dob", "since", "until", "when",
    ]

    /// Words that name a date only as the key's last word (`created_at`, `published_on`).
    static let lastHintWords: Set<String> = ["at", "on"]

    /// Whether the key names a date.
    static func keySuggestsDate(_ key: String?) -> Bool {
        guard let key else { return false }
        let words = InferenceNames.words(of: key).map { $0.lowercased() }
        if let last = words.last, lastHintWords.contains(last) { return true }
        return words.contains { hintWords.contains($0) }
    }

    /// The format every string of `strings` reads in, or nil.
    static func format(of strings: StringSummary, key: String?) -> DateFormat? {
        let hinted = keySuggestsDate(key)
        return strings.dateFormats.first { hinted || !needsHint.contains($0) }
    }

    /// The epoch format of numbers under a date-like key, or nil.
    static func format(of numbers: NumberSummary, key: String?) -> DateFormat? {
        guard keySuggestsDate(key), !numbers.anyNegative, numbers.maximumSignificantDigits <= 15 else { return nil }
        if numbers.minimumMagnitude >= 1e8 && numbers.maximumMagnitude < 1e10 { return .secondsSince1970 }
        if numbers.allIntegers && numbers.minimumMagnitude >= 1e11 && numbers.maximumMagnitude < 1e13 {
            return .millisecondsSince1970
        }
        return nil
    }
}
