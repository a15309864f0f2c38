import JSONModelKit

/// Turns summaries of the samples into types: the rules of ``ModelInference``.
struct TypeResolver {
    let options: ModelInference.Options

    /// Where a value sits, which names its model and hints at dates.
    enum Place {
        /// The value of a key.
        case key(String)
        /// An element of the array (or a value of the dictionary) at a key.
        case element(ofKey: String)

        var key: String {
            switch self {
            case .key(let key), .element(ofKey: let key): key
            }
        }

        var modelName: String {
            switch self {
            case .key(let key): InferenceNames.typeName(for: key)
            case .element(let key): InferenceNames.elementTypeName(forKey: key)
            }
        }
    }

    /// Keys whose strings are identities, free text or open-ended lists (a language or a branch
    /// seen often in a sample is not the only one), never enum values; matched on the key's last
    /// word (`default_branch`, `headRef`).
    static let nonEnumWords: Set<String> = [
        "id", "ids", "uuid", "guid", "name", "title", "email", "url", "uri", "link", "href", "description",
        "text", "message", "comment", "note", "notes", "label", "key", "token", "hash", "password", "path",
        "phone", "address", "summary", "body", "content", "lang", "language", "locale", "timezone", "zone",
        "login", "username", "user", "author", "owner", "branch", "ref", "sha", "commit", "version", "slug",
        "host", "domain", "file", "filename",
    ]

    /// The model for the objects of `summary`, its properties in key order.
    func modelNode(from summary: ObjectSummary, candidateName: String) -> ModelNode {
        let node = ModelNode(candidateName: candidateName)
        for key in summary.keys {
            guard let member = summary[key] else { continue }
            var (type, enumValues) = resolve(member.values, at: .key(key))
            if member.count < summary.count { type = type.optional }
            node.properties.append(PropertyNode(key: key, type: type, enumValues: enumValues))
        }
        return node
    }

    /// The type of the values of `summary`, and their enum values when they form a small set.
    func resolve(_ summary: ValueSummary, at place: Place) -> (NodeType, [String]?) {
        var type: NodeType
        var enumValues: [String]?
        var optional = summary.nulls > 0
        if summary.kindCount == 0 {
            // Only nulls (or nothing): no type to give but raw JSON.
            type = .scalar(.json)
            optional = true
        } else if summary.kindCount > 1 || summary.opaque > 0 {
            type = .scalar(.json)
        } else if summary.bools > 0 {
            type = .scalar(.bool)
        } else if let numbers = summary.numbers {
            if let format = DateInference.format(of: numbers, key: place.key) {
                type = .scalar(.date(format))
                optional = true
            } else {
                type = .scalar(numberType(numbers))
            }
        } else if let strings = summary.strings {
            if let format = DateInference.format(of: strings, key: place.key) {
                type = .scalar(.date(format))
                optional = true
            } else {
                type = .scalar(.string)
                enumValues = self.enumValues(strings, key: place.key)
            }
        } else if let objects = summary.objects {
            type = objectType(objects, at: place)
        } else if let arrays = summary.arrays {
            if arrays.elements.count == 0 {
                type = .array(.scalar(.json))
            } else {
                let (element, _) = resolve(arrays.elements, at: .element(ofKey: place.key))
                type = .array(element)
            }
        } else {
            type = .scalar(.json)
        }
        return (optional ? type.optional : type, enumValues)
    }

    /// A nested model, or a dictionary when the keys are data; see ``dictionaryValues(of:)``.
    private func objectType(_ objects: ObjectSummary, at place: Place) -> NodeType {
        if objects.keys.isEmpty { return .dictionary(.scalar(.json)) }
        guard let values = dictionaryValues(of: objects) else {
            return .model(modelNode(from: objects, candidateName: place.modelName))
        }
        let (value, _) = resolve(values, at: .element(ofKey: place.key))
        return .dictionary(value)
    }

    /// The values of an object that is a dictionary, merged into one summary, or nil when the
    /// object is a model.
    ///
    /// An object is a `[String: T]` dictionary, at any level, when its keys are data rather than
    /// the names of fields. That is so when either
    ///
    /// - **every key is data**: ids, years, dates, versions, UUIDs (see ``isDataKey(_:)``), whatever
    ///   the values are; or
    /// - **the keys are names of many records of one kind**, like the plugins of an update center
    ///   keyed by plugin name (`{"git": {…}, "ant": {…}, …}`): there are at least
    ///   ``ModelInference/Options/dictionaryMinimumKeys`` keys, every value is an object (or every
    ///   value an array of objects), and those objects share one shape. They share one shape when
    ///   the keys found in at least half of them make up at least
    ///   ``ModelInference/Options/dictionaryMinimumSharedKeyFraction`` of all the keys found in
    ///   them, counted with repeats.
    ///
    /// The second rule needs the values to be objects, so a wide model of many differently named
    /// scalar fields stays a model; and it needs one shape, so a model whose fields hold objects
    /// of different kinds (an owner, a license, a parent) stays a model too. Many records of one
    /// shape under distinct names would otherwise give one model class per name.
    ///
    /// - Complexity: O(*k*) in the keys of the values' objects to decide, plus the cost of
    ///   merging the values' summaries when the object is a dictionary.
    func dictionaryValues(of objects: ObjectSummary) -> ValueSummary? {
        guard !objects.keys.isEmpty,
            objects.keys.allSatisfy(Self.isDataKey) || holdsRecordsOfOneShape(objects)
        else { return nil }
        let values = ValueSummary()
        for key in objects.keys {
            if let member = objects[key] { values.merge(member.values) }
        }
        return values
    }

    /// The merged objects of a top-level object that is a dictionary of models, or nil when the
    /// top level is itself a model.
    ///
    /// The top level is a dictionary by the rules of ``dictionaryValues(of:)`` when, besides,
    /// every value is an object: the root model then describes the values merged, and the file
    /// reads as `ModelDictionary<Root>`. A top-level object of data keys whose values are
    /// scalars, arrays or nulls stays a model with one property per key, since no model class
    /// can stand for its values.
    func topLevelRecords(of objects: ObjectSummary) -> ObjectSummary? {
        guard let values = dictionaryValues(of: objects), values.kindCount == 1, values.nulls == 0 else { return nil }
        return values.objects
    }

    /// Whether `objects` has many keys whose values are all objects (or all arrays of objects)
    /// of one shape; see ``dictionaryValues(of:)``.
    private func holdsRecordsOfOneShape(_ objects: ObjectSummary) -> Bool {
        guard objects.keys.count >= max(1, options.dictionaryMinimumKeys) else { return false }
        var inArrays: Bool?
        var records = 0
        var occurrences: [ExactKey: Int] = [:]
        for key in objects.keys {
            guard let values = objects[key]?.values, let (summary, isArray) = Self.records(in: values),
                inArrays == nil || inArrays == isArray
            else { return false }
            inArrays = isArray
            guard let summary else { continue }
            records += summary.count
            for inner in summary.keys {
                occurrences[ExactKey(inner), default: 0] += summary[inner]?.count ?? 0
            }
        }
        let all = occurrences.values.reduce(0, +)
        let shared = occurrences.values.filter { 2 * $0 >= records }.reduce(0, +)
        return all > 0 && Double(shared) >= options.dictionaryMinimumSharedKeyFraction * Double(all)
    }

    /// The objects `values` holds when it holds objects only, or arrays of objects only (nil
    /// summary when every array was empty), and which of the two; nil for anything else.
    private static func records(in values: ValueSummary) -> (ObjectSummary?, isArray: Bool)? {
        guard values.kindCount == 1, values.nulls == 0 else { return nil }
        if let objects = values.objects { return (objects, false) }
        guard let elements = values.arrays?.elements else { return nil }
        if elements.count == 0 { return (nil, true) }
        guard elements.kindCount == 1, elements.nulls == 0, let objects = elements.objects else { return nil }
        return (objects, true)
    }

    /// Whether a key is data rather than a name: it starts with a digit (ids, years, dates,
    /// versions), optionally after a minus sign, or it is a UUID.
    static func isDataKey(_ key: String) -> Bool {
        var scalars = key.unicodeScalars[...]
        if scalars.first == "-" { scalars = scalars.dropFirst() }
        if let first = scalars.first, InferenceNames.isDigit(first) { return true }
        return isUUID(key)
    }

    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
                else { return false }
            }
        }
        return true
    }

    /// The narrowest type that holds every number exactly.
    func numberType(_ numbers: NumberSummary) -> InferredType {
        let fitsDecimal = numbers.maximumSignificantDigits <= 38
            && (numbers.maximumSignificantDigits == 0
                || (numbers.minimumExponent >= -128 && numbers.maximumExponent <= 127))
        if numbers.allIntegers {
            if numbers.allFitInt64 { return .int }
            if numbers.allFitUInt64 { return .uint64 }
            return fitsDecimal ? .decimal : .json
        }
        let fitsDouble = numbers.maximumSignificantDigits <= 15
            && (numbers.maximumSignificantDigits == 0
                || (numbers.minimumExponent >= -300 && numbers.maximumExponent + numbers.maximumSignificantDigits <= 300))
        if fitsDouble { return .double }
        return fitsDecimal ? .decimal : .json
    }

    /// The sorted values of a string property when they look like a closed set, else nil.
    ///
    /// The rule: *few distinct values, each identifier-like, each seen many times*, under a key
    /// that does not name something open-ended. All of these must hold:
    ///
    /// - **Few.** 2 to ``ModelInference/Options/enumMaximumValues`` distinct values.
    /// - **Identifier-like.** Every value is 1 to 32 letters, digits, `_`, `-` and `.`, and starts
    ///   with a letter (`open`, `in_progress`, `DHL`, `full-time`); or every value is digits
    ///   only, like the status codes `"200"` and `"404"`. A `/`, a space or any other character
    ///   marks free-form text: paths, git refs (`refs/heads/main`), branch names
    ///   (`feature/login-form`), labels and sentences. So does a value starting with a digit
    ///   among words (`4k`, `2.0`), which is usually a version or a size.
    /// - **Seen many times.** At least ``ModelInference/Options/enumMinimumOccurrences`` values in
    ///   all, at least ``ModelInference/Options/enumMinimumOccurrencesPerValue`` per distinct value
    ///   on average, and no value seen only once. A handful of names each seen once or twice
    ///   (`main`, `dev`, `release-2`) is a glimpse of an open set, not the whole set; a wrong
    ///   enum rejects valid data, while a missed one only leaves a plain `String`.
    /// - **Not an open-ended key.** The key's last word is not one of ``nonEnumWords``: ids,
    ///   names, free text, languages, branches, versions and the like.
    ///
    /// ```swift
    /// // "state" over 30 issues: "open" 20 times, "closed" 10 times  → ["closed", "open"]
    /// // "branch": "main", "dev", "main", "fix-login"                → nil (a branch is open-ended)
    /// // "ref": "refs/heads/main" 12 times, "refs/heads/dev" 8 times → nil (not identifier-like)
    /// ```
    func enumValues(_ strings: StringSummary, key: String) -> [String]? {
        guard !strings.tooManyDistinct, strings.distinct.count >= 2, strings.distinct.count <= options.enumMaximumValues,
            strings.count >= options.enumMinimumOccurrences,
            strings.count >= options.enumMinimumOccurrencesPerValue * strings.distinct.count,
            strings.distinct.values.allSatisfy({ $0 >= 2 })
        else { return nil }
        if let last = InferenceNames.words(of: key).last?.lowercased(), Self.nonEnumWords.contains(last) { return nil }
        let values = strings.distinct.keys.map(\.string)
        guard values.allSatisfy(Self.isEnumWord) || values.allSatisfy(Self.isNumericCode) else { return nil }
        // Sorted, and by bytes where `String` finds two values equal.
        return values.sorted { $0 < $1 || ($0 == $1 && $0.utf8.lexicographicallyPrecedes($1.utf8)) }
    }

    /// 1 to 32 letters, digits, `_`, `-` and `.`, starting with a letter: `in_progress`, `DHL`.
    static func isEnumWord(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, first.properties.isAlphabetic, text.count <= 32 else { return false }
        return scalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark: true  // accents written as separate scalars
            default: scalar.properties.isAlphabetic || InferenceNames.isDigit(scalar) || "_-.".unicodeScalars.contains(scalar)
            }
        }
    }

    /// 1 to 32 ASCII digits: a numeric code such as `"404"`.
    static func isNumericCode(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 32 && text.unicodeScalars.allSatisfy(InferenceNames.isDigit)
    }
}
