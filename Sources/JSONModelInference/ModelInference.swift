#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKit
import JSONModelKitCore

/// Infers models from sample JSON: property types, optionals, nested models, dates, small
/// string sets and Swift-style names.
///
/// Give it one object, or an array of objects whose members are merged:
///
/// ```swift
/// let inferred = try ModelInference.infer(from: sampleData, rootName: "Order")
/// print(inferred.swiftSource)               // JSONModel subclasses with registration blocks
/// print(inferred.schemaText)                // the same models as a schema
/// try ModelRegistry.shared.register(inferred.schema)
/// ```
///
/// The rules, each one a choice the samples cannot contradict:
///
/// - **The top level.** The root model, named by you, describes the sample object or the
///   elements of the sample array merged. A sample object that is a dictionary by the rules
///   for objects below (its keys are ids, or many names of records of one shape), with an
///   object for every value, is `[String: Root]` instead: the root model describes its values
///   merged, and ``InferredSchema/topLevel`` is ``InferredSchema/TopLevel/dictionary``.
/// - **Numbers.** `Int` when every value is an integer that fits `Int64`, `UInt64` beyond that,
///   `Double` when some value has a fraction or exponent and every value has at most 15
///   significant digits (so a `Double` holds each one exactly), `Decimal` up to 38 digits, and
///   `JSON` past that.
/// - **Optionals.** A property is optional when some sample had `null` there or, in an array of
///   objects, some element lacked the key. Dates are always optional (a `Date` has no natural
///   default), and so is a key that only ever held `null` (typed `JSON?`).
/// - **Mixed kinds** (a number here, a string there) read as raw `JSON`, which keeps every value.
/// - **Objects** become nested models named from their key (`shipping_address` →
///   `ShippingAddress`); elements of arrays take the singular (`line_items` → `LineItem`). An
///   object whose keys are all data (starting with a digit, like ids and dates, or UUIDs) is a
///   `[String: T]` dictionary instead, and so is one with many names as keys whose values are
///   records of one shape (see ``Options/dictionaryMinimumKeys``); an object that was always
///   empty is `[String: JSON]`.
/// - **Dates** are recognized by format; see `DateInference` (formats made only of digits need
///   a key that names a date).
/// - **Enum values** need few distinct values, each identifier-like, each seen many times; see
///   ``Options/enumMinimumOccurrences``.
/// - **Names.** Keys of any style become lowerCamelCase properties with a `jsonPath` to the key
///   when the two differ; see `InferenceNames`. Model names that collide are resolved by
///   reusing the model when the shapes are equal, else by putting the parent's name first
///   (`OrderCustomer`), else by a number. Keys are told apart by their bytes, as models read
///   them: `"\u{E1}"` and `"a\u{301}"`, one key to Swift's `String ==`, are two properties.
///
/// The same samples always give the same output.
package enum ModelInference {
    /// What inference may do.
    package struct Options: Sendable, Hashable {
        /// Put before the name of every nested model (the root is named by you): `Shop` makes
        /// `ShopCustomer`. Use it to keep generated models apart from your own types.
        package var modelNamePrefix: String
        /// A string property gets `enumValues` only when its values were seen at least this many
        /// times in all (default 4).
        ///
        /// The rule is *few distinct values, each identifier-like, each seen many times*: 2 to
        /// ``enumMaximumValues`` distinct values; every value 1 to 32 letters, digits, `_`, `-`
        /// and `.` starting with a letter, or every value digits only (`"404"`), so no `/` and no
        /// spaces; at least this many values, at least ``enumMinimumOccurrencesPerValue`` per
        /// distinct value on average and none seen only once; and a key that does not name an id,
        /// a name, free text, a language, a branch or a version (`id`, `name`, `title`, `url`,
        /// `message`, `lang`, `branch`, `ref`, `version`, …). Git refs, paths and a few branch
        /// names seen once or twice are free-form, not enums. The values are sorted.
        package var enumMinimumOccurrences: Int
        /// At most this many distinct values make an enum (default 10).
        package var enumMaximumValues: Int
        /// Each distinct value of an enum must have been seen this many times on average (default
        /// 3): `"state"` with `open` and `closed` over 30 items is an enum, four branch names seen
        /// once or twice each are not.
        package var enumMinimumOccurrencesPerValue: Int
        /// An object whose keys are names becomes a `[String: T]` dictionary only with at least
        /// this many keys (default 20), every value an object (or every value an array of
        /// objects) of one shape; see ``dictionaryMinimumSharedKeyFraction``.
        ///
        /// Twenty names of records of one kind (plugins, packages, languages) are past what a
        /// hand-written model lists as fields of that kind, and they would otherwise give twenty
        /// model classes. Objects whose keys are all data (ids, dates, UUIDs) are dictionaries at
        /// any size.
        package var dictionaryMinimumKeys: Int
        /// The values' objects have one shape when the keys present in at least half of them
        /// make up at least this fraction of all the keys present in them, counted with repeats
        /// (default 0.8).
        ///
        /// Records of one kind differ by a few optional keys: most of what they hold is shared.
        /// The fields of a model that hold objects of different kinds (an owner, a license, a
        /// parent) share few keys, if any, so they stay a model.
        package var dictionaryMinimumSharedKeyFraction: Double
        /// Objects and arrays nested deeper than this read as raw `JSON` (default 64), so
        /// inference never recurses without bound.
        package var maximumDepth: Int

        package init(
            modelNamePrefix: String = "", enumMinimumOccurrences: Int = 4, enumMaximumValues: Int = 10,
            enumMinimumOccurrencesPerValue: Int = 3, dictionaryMinimumKeys: Int = 20,
            dictionaryMinimumSharedKeyFraction: Double = 0.8, maximumDepth: Int = 64
        ) {
            self.modelNamePrefix = modelNamePrefix
            self.enumMinimumOccurrences = enumMinimumOccurrences
            self.enumMaximumValues = enumMaximumValues
            self.enumMinimumOccurrencesPerValue = enumMinimumOccurrencesPerValue
            self.dictionaryMinimumKeys = dictionaryMinimumKeys
            self.dictionaryMinimumSharedKeyFraction = dictionaryMinimumSharedKeyFraction
            self.maximumDepth = maximumDepth
        }
    }

    /// Infers models from a sample: an object, or an array of objects that are merged.
    ///
    /// - Parameters:
    ///   - sample: The sample JSON.
    ///   - rootName: The top model's name; any key style is turned into UpperCamelCase
    ///     (`"order item"` → `OrderItem`).
    ///   - options: The prefix for nested names and the enum thresholds.
    /// - Returns: The models, root first, and how the top level holds the root model.
    /// - Throws: ``ModelInferenceError`` when the sample is not an object or a non-empty array
    ///   of objects, or when a name is not usable.
    /// - Complexity: O(*n*) in the size of the sample, plus the number of distinct shapes squared
    ///   for naming.
    package static func infer(
        from sample: JSONValue, rootName: String, options: Options = Options()
    ) throws(ModelInferenceError) -> InferredSchema {
        let rootTypeName = try modelName(for: rootName, options: options)
        let prefix = options.modelNamePrefix
        var limits = options
        limits.maximumDepth = max(1, options.maximumDepth)
        limits.enumMaximumValues = max(0, options.enumMaximumValues)

        let summary = ValueSummary()
        var topLevel = InferredSchema.TopLevel.model
        switch sample {
        case .object:
            summary.add(sample, depth: 0, limits: limits)
        case .array(let elements):
            guard !elements.isEmpty else { throw .emptyArray }
            for (index, element) in elements.enumerated() {
                guard case .object = element else { throw .elementNotAnObject(index: index, found: element.inferenceKind) }
                summary.add(element, depth: 0, limits: limits)
            }
            topLevel = .array
        default:
            throw .notAnObject(found: sample.inferenceKind)
        }
        let resolver = TypeResolver(options: limits)
        var objects = summary.objects ?? ObjectSummary()
        if topLevel == .model, let records = resolver.topLevelRecords(of: objects) {
            objects = records
            topLevel = .dictionary
        }
        let root = resolver.modelNode(from: objects, candidateName: rootTypeName)
        var schema = ModelNaming(prefix: prefix).schema(root: root, rootName: rootTypeName)
        schema.topLevel = topLevel
        return schema
    }

    /// The name the root model gets for `rootName`, after checking it and the prefix.
    ///
    /// ```swift
    /// try ModelInference.modelName(for: "order item")   // "OrderItem"
    /// ```
    ///
    /// - Throws: ``ModelInferenceError/invalidName(_:reason:)`` for a name without letters or
    ///   digits, a name that would hide a Swift, Foundation or JSONModelKit type (`Data`, `URL`,
    ///   `JSONValue`), or a prefix that is not an identifier.
    package static func modelName(for rootName: String, options: Options = Options()) throws(ModelInferenceError) -> String {
        let rootTypeName = InferenceNames.typeName(for: rootName)
        guard !InferenceNames.words(of: rootName).isEmpty, InferenceNames.isIdentifier(rootTypeName) else {
            throw .invalidName(rootName, reason: "it has no letters or digits")
        }
        guard !InferenceNames.reservedTypeNames.contains(rootTypeName) else {
            throw .invalidName(rootName, reason: "\(rootTypeName) would hide a type of Swift, Foundation or JSONModelKit")
        }
        let prefix = options.modelNamePrefix
        guard prefix.isEmpty || InferenceNames.isIdentifier(prefix) else {
            throw .invalidName(prefix, reason: "a prefix must be letters, digits and _, not starting with a digit")
        }
        // A type named like a member of JSONModel (`keyStyle` of `key` and `Style`) is not the
        // type in a model's registration block, where the member is found first.
        guard prefix.first.map({ !$0.isLowercase }) ?? true else {
            throw .invalidName(prefix, reason: "a prefix starts the names of types, so it may not start with a lowercase letter")
        }
        return rootTypeName
    }

    /// Parses sample JSON and infers models from it; see ``infer(from:rootName:options:)-(JSONValue,_,_)``.
    ///
    /// - Throws: ``ModelInferenceError/invalidJSON(_:)`` with the line and column of a syntax error,
    ///   or the errors of the other overload.
    package static func infer(
        from data: Data, rootName: String, options: Options = Options()
    ) throws(ModelInferenceError) -> InferredSchema {
        let value: JSONValue
        do {
            value = try JSONDocument(data: data).root.value
        } catch {
            throw .invalidJSON(error)
        }
        return try infer(from: value, rootName: rootName, options: options)
    }
}

/// Why models could not be inferred from a sample.
package enum ModelInferenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sample is not valid JSON.
    case invalidJSON(JSONParseError)
    /// The sample is neither an object nor an array of objects.
    case notAnObject(found: JSONKind)
    /// The sample is an empty array: there is nothing to infer from.
    case emptyArray
    /// An element of the top-level array is not an object.
    case elementNotAnObject(index: Int, found: JSONKind)
    /// The root name or the prefix cannot name a Swift type.
    case invalidName(String, reason: String)

    package var description: String {
        switch self {
        case .invalidJSON(let error):
            return "invalid JSON at line \(error.line), column \(error.column): \(error.kind.message)"
        case .notAnObject(let found):
            return "the sample must be a JSON object or an array of objects, found \(found.nameWithArticle)"
        case .emptyArray:
            return "the sample is an empty array; give at least one object"
        case .elementNotAnObject(let index, let found):
            return "element [\(index)] of the sample is \(found.nameWithArticle), not an object"
        case .invalidName(let name, let reason):
            return "'\(name)' cannot name a model: \(reason)"
        }
    }
}

extension JSONValue {
    /// The value's JSON kind.
    var inferenceKind: JSONKind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }
}
