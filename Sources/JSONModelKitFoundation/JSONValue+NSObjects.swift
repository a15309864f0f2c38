import Foundation
import JSONModelKit

// Foundation's object tree (what JSONSerialization reads and writes) to and from JSONValue.
//
// JSONModelKit itself builds on FoundationEssentials where the toolchain has it, and does not link
// Foundation's internationalization libraries (about 45 MB on Linux). What needs Foundation's
// classes lives here: `JSONValue(any:)` accepts them when this module is linked.

/// The class Foundation uses for Boolean `NSNumber`s (`__NSCFBoolean` on both Apple platforms
/// and Linux), used to tell `true` from `1`.
private let booleanNumberClass: AnyClass = type(of: NSNumber(value: true))

extension NSNull: JSONAnyConvertibleObject {
    package func shallowJSON(path: [JSONPath.Segment]) throws -> JSONValue.ShallowConversion {
        .value(.null)
    }
}

extension NSNumber: JSONAnyConvertibleObject {
    package func shallowJSON(path: [JSONPath.Segment]) throws -> JSONValue.ShallowConversion {
        if let decimalNumber = self as? NSDecimalNumber {
            return try JSONValue.decimal(decimalNumber.decimalValue, original: self, path: path)
        }
        if type(of: self) == booleanNumberClass { return .value(.bool(boolValue)) }
        switch UInt8(bitPattern: objCType.pointee) {
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            guard let number = JSONNumber(doubleValue) else {
                throw JSONValueConversionError(
                    typeName: String(describing: type(of: self)), path: JSONPath(path),
                    reason: "JSON has no representation for \(doubleValue)")
            }
            return .value(.number(number))
        case UInt8(ascii: "C"), UInt8(ascii: "S"), UInt8(ascii: "I"), UInt8(ascii: "L"), UInt8(ascii: "Q"):
            return .value(JSONValue(uint64Value))
        default:
            return .value(JSONValue(int64Value))
        }
    }
}

extension NSString: JSONAnyConvertibleObject {
    package func shallowJSON(path: [JSONPath.Segment]) throws -> JSONValue.ShallowConversion {
        .value(.string(String(self)))
    }
}

extension NSArray: JSONAnyConvertibleObject {
    package func shallowJSON(path: [JSONPath.Segment]) throws -> JSONValue.ShallowConversion {
        .array(map { $0 })
    }
}

extension NSDictionary: JSONAnyConvertibleObject {
    package func shallowJSON(path: [JSONPath.Segment]) throws -> JSONValue.ShallowConversion {
        var members: [(key: String, value: Any)] = []
        members.reserveCapacity(count)
        for (key, value) in self {
            guard let key = key as? String else {
                throw JSONValueConversionError(
                    typeName: String(describing: type(of: self)), path: JSONPath(path),
                    reason: "dictionary keys must be strings, found \(type(of: key))")
            }
            members.append((key: key, value: value))
        }
        return .object(members)
    }
}

extension JSONValue {
    /// The value as Foundation-compatible values, as `JSONSerialization`
    /// accepts them.
    ///
    /// Objects become `[String: Any]` (each key's last value), arrays `[Any]`,
    /// `null` becomes `NSNull()`, strings `String`, Booleans `Bool`. Numbers
    /// become `Int` when exactly integral and in range, else `UInt64` (large
    /// positive integers), else `Int64`, else `Double`.
    ///
    /// ```swift
    /// let data = try JSONSerialization.data(withJSONObject: value.anyValue)
    /// ```
    ///
    /// - Complexity: O(*n*) for *n* nested values. Uses an explicit stack, not
    ///   recursion.
    public var anyValue: Any {
        /// A container being converted, updated in place on the stack so that
        /// the collections being built stay uniquely referenced.
        struct Frame {
            var elements: JSONArray?
            var object: JSONObject?
            var next = 0
            var builtArray: [Any] = []
            var builtObject: [String: Any] = [:]
        }
        func scalar(_ value: JSONValue) -> Any? {
            switch value {
            case .null: return NSNull()
            case .bool(let b): return b
            case .string(let s): return s
            case .number(let n):
                if let int = n.intValue { return int }
                if let uint = n.uint64Value { return uint }
                if let int64 = n.int64Value { return int64 }
                return n.doubleValue
            case .array, .object: return nil
            }
        }
        var stack: [Frame] = []
        var current: JSONValue? = self
        var finished: Any? = nil
        while true {
            if let value = current {
                current = nil
                if let result = scalar(value) {
                    finished = result
                } else if case .array(let elements) = value {
                    var frame = Frame(elements: elements)
                    frame.builtArray.reserveCapacity(elements.count)
                    stack.append(frame)
                    finished = nil
                } else if case .object(let object) = value {
                    var frame = Frame(object: object)
                    frame.builtObject.reserveCapacity(object.count)
                    stack.append(frame)
                    finished = nil
                }
            }
            let top = stack.count - 1
            guard top >= 0 else { return finished ?? NSNull() }
            let next = stack[top].next
            if let child = finished {
                finished = nil
                if let object = stack[top].object {
                    stack[top].builtObject[object.members[next - 1].key] = child
                } else {
                    stack[top].builtArray.append(child)
                }
            }
            if let object = stack[top].object {
                if next < object.members.count {
                    current = object.members[next].value
                    stack[top].next = next + 1
                } else {
                    finished = stack.removeLast().builtObject
                }
            } else if let elements = stack[top].elements {
                if next < elements.count {
                    current = elements[next]
                    stack[top].next = next + 1
                } else {
                    finished = stack.removeLast().builtArray
                }
            }
        }
    }
}
