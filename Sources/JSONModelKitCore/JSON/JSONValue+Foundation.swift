#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An error converting a Foundation or Swift value into a ``JSONValue``.
package struct JSONValueConversionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name of the type that has no JSON form, such as `Date`.
    package let typeName: String
    /// Where in the converted value the problem was found.
    package let path: JSONPath
    /// Why the value could not be converted.
    package let reason: String

    package init(typeName: String, path: JSONPath, reason: String) {
        self.typeName = typeName
        self.path = path
        self.reason = reason
    }

    /// A sentence naming the type and where it was found.
    package var description: String {
        "Cannot convert a value of type \(typeName) at \(path) to JSON: \(reason)"
    }
}

/// Lets `init(any:)` look inside an `Optional` held in an `Any`.
private protocol OptionalInAny {
    var wrappedAsAny: Any? { get }
}

extension Optional: OptionalInAny {
    fileprivate var wrappedAsAny: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
}

/// An instance of a class that ``JSONValue/init(any:)`` converts, one level at a time: the
/// JSONModelKitFoundation module makes Foundation's `NSNull`, `NSNumber`, `NSString`, `NSArray`
/// and `NSDictionary` conform, so that this module does not link all of Foundation.
package protocol JSONAnyConvertibleObject: AnyObject {
    /// The value if it is a scalar, else its elements or members, still to convert; `path` is
    /// where it was found, for errors.
    func shallowJSON(path: [JSONPath.Segment]) throws -> JSONValue.ShallowConversion
}

extension JSONValue {
    /// Creates a JSON value from Foundation or Swift values, such as the
    /// result of `JSONSerialization.jsonObject(with:)`.
    ///
    /// Accepted: `Optional.none` (null); `Bool`; every Swift integer type;
    /// `Double` and `Float` (finite only); `Decimal`; `String`; arrays
    /// (`[Any]`); dictionaries with string keys (`[String: Any]`); and
    /// `JSONValue`, `JSONObject` and `JSONNumber` themselves. Dictionary
    /// members follow the dictionary's own iteration order. Foundation's
    /// `NSNull`, `NSNumber` (Booleans recognised as such), `NSString`, `NSArray`
    /// and `NSDictionary`, which `JSONSerialization` returns, are accepted in a
    /// program that links the JSONModelKitFoundation module (this module does
    /// not link all of Foundation).
    ///
    /// ```swift
    /// let any = try JSONSerialization.jsonObject(with: data)
    /// let value = try JSONValue(any: any)
    /// ```
    ///
    /// - Parameter any: The value to convert.
    /// - Throws: An error naming the first unsupported
    ///   type (for example `Date`), a non-finite number, or a dictionary key
    ///   that is not a string, with the path where it was found.
    /// - Complexity: O(*n*) for *n* nested values. Uses an explicit stack, not
    ///   recursion.
    public init(any: Any) throws {
        /// A container being converted. Frames are updated in place on the
        /// stack so that the arrays being built stay uniquely referenced.
        struct Frame {
            var isObject: Bool
            var elements: [Any] = []
            var members: [(key: String, value: Any)] = []
            var next = 0
            var builtArray = JSONArray()
            var builtObject = JSONObject()
        }
        var stack: [Frame] = []
        var path: [JSONPath.Segment] = []
        var current: Any? = any
        var finished: JSONValue? = nil

        while true {
            if let input = current {
                current = nil
                switch try JSONValue.convertShallow(input, path: path) {
                case .value(let value):
                    finished = value
                case .array(let elements):
                    var frame = Frame(isObject: false, elements: elements)
                    frame.builtArray.buffer.reserveCapacity(elements.count)
                    stack.append(frame)
                    finished = nil
                case .object(let members):
                    var frame = Frame(isObject: true, members: members)
                    frame.builtObject.reserveCapacity(members.count)
                    stack.append(frame)
                    finished = nil
                }
            }
            let top = stack.count - 1
            guard top >= 0 else {
                self = finished ?? .null
                return
            }
            if let child = finished {
                finished = nil
                path.removeLast()
                if stack[top].isObject {
                    stack[top].builtObject.append(key: stack[top].members[stack[top].next - 1].key, value: child)
                } else {
                    stack[top].builtArray.buffer.append(child)
                }
            }
            let next = stack[top].next
            if stack[top].isObject {
                if next < stack[top].members.count {
                    current = stack[top].members[next].value
                    path.append(.key(stack[top].members[next].key))
                    stack[top].next = next + 1
                } else {
                    finished = .object(stack.removeLast().builtObject)
                }
            } else {
                if next < stack[top].elements.count {
                    current = stack[top].elements[next]
                    path.append(.index(next))
                    stack[top].next = next + 1
                } else {
                    finished = .array(stack.removeLast().builtArray)
                }
            }
        }
    }

    /// One level of a value being converted by ``init(any:)``.
    package enum ShallowConversion {
        case value(JSONValue)
        case array([Any])
        case object([(key: String, value: Any)])
    }

    /// Converts a scalar, or unpacks one level of a container.
    private static func convertShallow(_ input: Any, path: [JSONPath.Segment]) throws -> ShallowConversion {
        func failure(_ reason: String, _ value: Any) -> JSONValueConversionError {
            JSONValueConversionError(
                typeName: String(describing: type(of: value)), path: JSONPath(path), reason: reason)
        }
        func number(_ double: Double, _ original: Any) throws -> ShallowConversion {
            guard let number = JSONNumber(double) else {
                throw failure("JSON has no representation for \(double)", original)
            }
            return .value(.number(number))
        }

        if let optional = input as? any OptionalInAny {
            guard let wrapped = optional.wrappedAsAny else { return .value(.null) }
            return try convertShallow(wrapped, path: path)
        }

        // Swift types first, by exact type, so that no bridging to NSNumber
        // blurs Bool and integers.
        let inputType = type(of: input)
        if inputType == Bool.self { return .value(.bool(input as! Bool)) }
        if inputType == String.self { return .value(.string(input as! String)) }
        if inputType == Int.self { return .value(JSONValue(input as! Int)) }
        if inputType == Double.self { return try number(input as! Double, input) }
        if inputType == Float.self {
            guard let number = JSONNumber(input as! Float) else {
                throw failure("JSON has no representation for \(input as! Float)", input)
            }
            return .value(.number(number))
        }
        if inputType == Int8.self { return .value(JSONValue(input as! Int8)) }
        if inputType == Int16.self { return .value(JSONValue(input as! Int16)) }
        if inputType == Int32.self { return .value(JSONValue(input as! Int32)) }
        if inputType == Int64.self { return .value(JSONValue(input as! Int64)) }
        if inputType == UInt.self { return .value(JSONValue(input as! UInt)) }
        if inputType == UInt8.self { return .value(JSONValue(input as! UInt8)) }
        if inputType == UInt16.self { return .value(JSONValue(input as! UInt16)) }
        if inputType == UInt32.self { return .value(JSONValue(input as! UInt32)) }
        if inputType == UInt64.self { return .value(JSONValue(input as! UInt64)) }
        if inputType == Decimal.self { return try decimal(input as! Decimal, original: input, path: path) }
        if let value = input as? JSONValue { return .value(value) }
        if let object = input as? JSONObject { return .value(.object(object)) }
        if let number = input as? JSONNumber { return .value(.number(number)) }

        guard inputType is AnyObject.Type else {
            // A Swift value type. Never cast these to Foundation classes: that
            // bridges a Swift array or dictionary to NSArray/NSDictionary,
            // which converts every nested level, recursively.
            if let array = input as? [Any] { return .array(array) }
            if let dictionary = input as? [String: Any] {
                return .object(dictionary.map { (key: $0.key, value: $0.value) })
            }
            if input is [AnyHashable: Any] {
                throw failure("dictionary keys must be strings", input)
            }
            throw failure("the type has no JSON form", input)
        }

        // A class instance: Foundation's own types, when JSONModelKitFoundation is linked.
        if let object = input as? any JSONAnyConvertibleObject { return try object.shallowJSON(path: path) }
        throw failure("the type has no JSON form (Foundation's classes need the JSONModelKitFoundation module)", input)
    }

    package static func decimal(_ value: Decimal, original: Any, path: [JSONPath.Segment]) throws
        -> ShallowConversion
    {
        guard value.isFinite, let number = JSONNumber(text: value.description) else {
            throw JSONValueConversionError(
                typeName: String(describing: type(of: original)), path: JSONPath(path),
                reason: "JSON has no representation for \(value)")
        }
        return .value(.number(number))
    }

    /// Parses UTF-8 JSON data into a value.
    ///
    /// ```swift
    /// let value = try JSONValue(json: Data(#"{"a":[1,2]}"#.utf8))
    /// ```
    ///
    /// - Parameters:
    ///   - json: The JSON text as UTF-8 data.
    ///   - options: Parsing options such as the depth limit.
    /// - Throws: ``JSONParseError`` if the data is not valid JSON.
    /// - Complexity: O(*n*) in the length of the data.
    package init(json: Data, options: JSONParseOptions = JSONParseOptions()) throws(JSONParseError) {
        self = try JSONDocument(data: json, options: options).root.value
    }

    /// Parses JSON text into a value.
    ///
    /// ```swift
    /// let value = try JSONValue(json: #"[1, "two", null]"#)
    /// ```
    ///
    /// - Parameters:
    ///   - json: The JSON text.
    ///   - options: Parsing options such as the depth limit.
    /// - Throws: ``JSONParseError`` if the text is not valid JSON.
    /// - Complexity: O(*n*) in the length of the text.
    package init(json: String, options: JSONParseOptions = JSONParseOptions()) throws(JSONParseError) {
        self = try JSONDocument(string: json, options: options).root.value
    }
}
