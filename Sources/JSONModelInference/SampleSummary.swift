import JSONModelKit
import JSONModelKitCore

/// What the samples hold at one place (a key of a model, the elements of an array), merged
/// over every value seen there.
///
/// Building a summary visits each value once and keeps only counts and small sets, so its size
/// depends on the shape of the samples, not on their length.
final class ValueSummary {
    /// Values seen here, nulls included.
    var count = 0
    var nulls = 0
    var bools = 0
    var numbers: NumberSummary?
    var strings: StringSummary?
    var objects: ObjectSummary?
    var arrays: ArraySummary?
    /// Containers below the depth limit, which are read as raw JSON.
    var opaque = 0

    /// The JSON kinds seen here other than null.
    var kindCount: Int {
        [bools > 0, numbers != nil, strings != nil, objects != nil, arrays != nil, opaque > 0].filter { $0 }.count
    }

    /// Adds one value, at `depth` containers below the sample's top.
    func add(_ value: JSONValue, depth: Int, limits: ModelInference.Options) {
        count += 1
        switch value {
        case .null:
            nulls += 1
        case .bool:
            bools += 1
        case .number(let number):
            if numbers == nil { numbers = NumberSummary() }
            numbers!.add(number.text)
        case .string(let text):
            if strings == nil { strings = StringSummary(maximumDistinct: limits.enumMaximumValues) }
            strings!.add(text)
        case .object(let object):
            guard depth < limits.maximumDepth else {
                opaque += 1
                return
            }
            if objects == nil { objects = ObjectSummary() }
            objects!.add(object, depth: depth, limits: limits)
        case .array(let elements):
            guard depth < limits.maximumDepth else {
                opaque += 1
                return
            }
            if arrays == nil { arrays = ArraySummary() }
            arrays!.count += 1
            for element in elements {
                arrays!.elements.add(element, depth: depth + 1, limits: limits)
            }
        }
    }
}

/// The members of the objects seen at one place.
final class ObjectSummary {
    /// Objects seen.
    var count = 0
    /// Keys in the order they first appeared.
    var keys: [String] = []
    /// For each key: how many of the objects had it, and its values. Keyed by the key's bytes,
    /// as the models read them: `"\u{E1}"` and `"a\u{301}"` are two keys, which a `String` key
    /// would take for one, so that one of them got no property.
    var members: [ExactKey: (count: Int, values: ValueSummary)] = [:]

    /// How many of the objects had `key`, and its values.
    subscript(key: String) -> (count: Int, values: ValueSummary)? { members[ExactKey(key)] }

    func add(_ object: JSONObject, depth: Int, limits: ModelInference.Options) {
        count += 1
        // A key given twice reads as its last value, as lookups do.
        var seen: Set<ExactKey> = []
        for key in object.keys where seen.insert(ExactKey(key)).inserted {
            guard let value = object[key] else { continue }
            add(key, count: 1) { $0.add(value, depth: depth + 1, limits: limits) }
        }
    }

    /// Counts `count` more objects with `key`, and adds their values with `addValues`.
    func add(_ key: String, count: Int, _ addValues: (ValueSummary) -> Void) {
        let exact = ExactKey(key)
        if members[exact] == nil {
            keys.append(key)
            members[exact] = (0, ValueSummary())
        }
        members[exact]!.count += count
        addValues(members[exact]!.values)
    }
}

/// The arrays seen at one place, their elements merged.
final class ArraySummary {
    var count = 0
    let elements = ValueSummary()
}

/// The numbers seen at one place: enough to choose the narrowest exact type.
struct NumberSummary {
    var count = 0
    /// Whether every number was written without a fraction or an exponent.
    var allIntegers = true
    var allFitInt64 = true
    var allFitUInt64 = true
    /// The most significant digits any number had (leading and trailing zeros left out).
    var maximumSignificantDigits = 0
    /// The range of decimal exponents, with each number read as digits × 10^exponent.
    var minimumExponent = Int.max
    var maximumExponent = Int.min
    /// The smallest and largest values, roughly: enough to tell seconds from milliseconds.
    var minimumMagnitude = Double.infinity
    var maximumMagnitude = 0.0
    var anyNegative = false

    mutating func add(_ text: String) {
        count += 1
        let digits = NumberDigits(text)
        if digits.hasFractionOrExponent { allIntegers = false }
        if !digits.hasFractionOrExponent {
            if Int64(text) == nil { allFitInt64 = false }
            if UInt64(text) == nil { allFitUInt64 = false }
        } else {
            allFitInt64 = false
            allFitUInt64 = false
        }
        maximumSignificantDigits = max(maximumSignificantDigits, digits.significant)
        if digits.significant > 0 {
            minimumExponent = min(minimumExponent, digits.exponent)
            maximumExponent = max(maximumExponent, digits.exponent)
        }
        if digits.negative { anyNegative = true }
        let magnitude = abs(Double(text) ?? .infinity)
        minimumMagnitude = min(minimumMagnitude, magnitude)
        maximumMagnitude = max(maximumMagnitude, magnitude)
    }
}

/// A JSON number's text read as significant digits × 10^exponent.
struct NumberDigits {
    var negative = false
    var hasFractionOrExponent = false
    /// Count of significant digits, leading and trailing zeros left out (0 for zero).
    var significant = 0
    /// The power of ten of the last significant digit.
    var exponent = 0

    init(_ text: String) {
        var digits: [UInt8] = []
        var fractionDigits = 0
        var exponentValue = 0
        var exponentSign = 1
        var inFraction = false
        var inExponent = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"):
                if inExponent { exponentSign = -1 } else { negative = true }
            case UInt8(ascii: "+"):
                continue
            case UInt8(ascii: "."):
                inFraction = true
                hasFractionOrExponent = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                inExponent = true
                hasFractionOrExponent = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent {
                    // Exponents past a few thousand are far beyond any type; cap to stay in range.
                    exponentValue = min(exponentValue * 10 + Int(byte - UInt8(ascii: "0")), 100_000)
                } else {
                    digits.append(byte)
                    if inFraction { fractionDigits += 1 }
                }
            default:
                continue
            }
        }
        // Drop leading zeros; trailing zeros move into the exponent.
        let firstNonZero = digits.firstIndex { $0 != UInt8(ascii: "0") }
        guard let first = firstNonZero else { return }
        var last = digits.count - 1
        var trailingZeros = 0
        while last > first && digits[last] == UInt8(ascii: "0") {
            last -= 1
            trailingZeros += 1
        }
        significant = last - first + 1
        exponent = exponentSign * exponentValue - fractionDigits + trailingZeros
    }
}

/// The strings seen at one place: the date formats all of them fit, and the distinct values
/// while there are few (what `TypeResolver.enumValues(_:key:)` decides on).
struct StringSummary {
    var count = 0
    /// Distinct values, by their bytes, and how often each was seen, while there are at most
    /// `maximumDistinct`: a value is one the model's enum check takes only as written.
    var distinct: [ExactKey: Int] = [:]
    /// Set once more than `maximumDistinct` values were seen.
    var tooManyDistinct = false
    let maximumDistinct: Int
    /// The date formats every string so far reads in, in order of preference.
    var dateFormats: [DateFormat] = DateInference.candidates

    init(maximumDistinct: Int) {
        self.maximumDistinct = maximumDistinct
    }

    mutating func add(_ text: String) {
        count += 1
        if !dateFormats.isEmpty {
            dateFormats.removeAll { $0.date(from: text) == nil }
        }
        if !tooManyDistinct {
            distinct[ExactKey(text), default: 0] += 1
            if distinct.count > maximumDistinct {
                tooManyDistinct = true
                distinct = [:]
            }
        }
    }
}
