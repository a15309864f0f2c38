#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// Values JSON cannot hold.
//
// A write checks its value before encoding it: a `Double` or `Float` that is NaN or infinite, a
// `Decimal` NaN, or a date the property's format cannot write (`DateFormat.canWrite(_:)`), at
// any depth of optionals, arrays and dictionaries, makes `set(_:forProperty:)` throw
// `JSONModelError.unwritable` and the member syntax stop with its message. Nothing is ever
// written as a silent `null`. A converter of the user's writes what it likes (it may spell NaN
// as "NaN"), so the values of a property it converts are not checked, except for the date
// converters JSONModelKit provides. A model that allows non-finite numbers
// (`JSONModel.allowsNonFiniteNumbers`) writes a `Double` or `Float` NaN or infinity as the
// string it reads back ("NaN", "Infinity", "-Infinity") instead.

extension PropertyConversion {
    /// Why `value`, of the property's Swift type, cannot be written as JSON; nil when it can.
    ///
    /// - Parameters:
    ///   - value: The value about to be written.
    ///   - existing: The JSON at the property's path now (a built-in date stored as a number is
    ///     written back as one).
    ///   - allowingNonFinite: Whether `Double` and `Float` NaN and infinities are written as strings.
    func unwritableReason(_ value: Any, replacing existing: JSONInput?, allowingNonFinite: Bool = false) -> String? {
        if case .converter(let converter) = choice, let check = converter.unwritableReason {
            return check(value)
        }
        guard type.mayHoldUnwritableValues else { return nil }
        let dateFormat: DateFormat?
        switch choice {
        case .builtin, .problem:
            dateFormat = nil
        case .converter(let converter):
            guard let format = converter.dateFormat else { return nil }
            dateFormat = format
        }
        var segments: [JSONPath.Segment] = []
        guard
            let reason = Self.unwritableReason(
                value, type: type, dateFormat: dateFormat, existing: existing, allowingNonFinite: allowingNonFinite,
                at: &segments)
        else { return nil }
        return segments.isEmpty ? reason : "\(JSONPath(segments)): \(reason)"
    }

    private static func unwritableReason(
        _ value: Any, type: PropertyType, dateFormat: DateFormat?, existing: JSONInput?, allowingNonFinite: Bool,
        at segments: inout [JSONPath.Segment]
    ) -> String? {
        switch type {
        case .double:
            guard !allowingNonFinite, let number = value as? Double, !number.isFinite else { return nil }
            return "JSON has no number for \(number)"
        case .float:
            guard !allowingNonFinite, let number = value as? Float, !number.isFinite else { return nil }
            return "JSON has no number for \(number)"
        case .decimal:
            guard let number = value as? Decimal, number.isNaN else { return nil }
            return "JSON has no number for \(number)"
        case .date:
            guard let date = value as? Date else { return nil }
            // The built-in conversion writes ISO 8601, or seconds over a number.
            let format = dateFormat ?? (existing?.kind == .number ? .secondsSince1970 : .iso8601)
            return format.canWrite(date) ? nil : format.unwritableReason(date)
        case .optional(let inner):
            if let optional = value as? any OptionalPropertyValue {
                guard let wrapped = optional.wrappedValue else { return nil }
                return unwritableReason(wrapped, type: inner, dateFormat: dateFormat, existing: existing, allowingNonFinite: allowingNonFinite,
                    at: &segments)
            }
            return unwritableReason(value, type: inner, dateFormat: dateFormat, existing: existing, allowingNonFinite: allowingNonFinite,
                    at: &segments)
        case .array(let inner):
            guard inner.mayHoldUnwritableValues else { return nil }
            if !allowingNonFinite, let numbers = value as? [Double] {
                guard let index = numbers.firstIndex(where: { !$0.isFinite }) else { return nil }
                segments.append(.index(index))
                return "JSON has no number for \(numbers[index])"
            }
            guard let elements = value as? [Any] else { return nil }
            for (index, element) in elements.enumerated() {
                segments.append(.index(index))
                if let reason = unwritableReason(
                    element, type: inner, dateFormat: dateFormat, existing: existing?[index],
                    allowingNonFinite: allowingNonFinite, at: &segments)
                {
                    return reason
                }
                segments.removeLast()
            }
            return nil
        case .dictionary(let inner):
            guard inner.mayHoldUnwritableValues, let members = value as? [String: Any] else { return nil }
            for key in members.keys.sorted() {
                segments.append(.key(key))
                if let reason = unwritableReason(
                    members[key]!, type: inner, dateFormat: dateFormat, existing: existing?[key],
                    allowingNonFinite: allowingNonFinite, at: &segments)
                {
                    return reason
                }
                segments.removeLast()
            }
            return nil
        default:
            return nil
        }
    }
}

extension PropertyType {
    /// Whether a value of this type may be one JSON cannot hold (NaN, infinity, a far date).
    var mayHoldUnwritableValues: Bool {
        switch self {
        case .double, .float, .decimal, .date: return true
        case .optional(let inner), .array(let inner), .dictionary(let inner): return inner.mayHoldUnwritableValues
        default: return false
        }
    }
}
