import JSONModelKit
import JSONModelKitCore

/// Swift-style names for JSON keys: properties in lowerCamelCase, models in UpperCamelCase.
///
/// A key is split into words at anything that is not a letter or a digit (`first_name`,
/// `first-name`, `first name`), at a lowercase letter or digit followed by an uppercase one
/// (`firstName`), and before the last capital of a run of capitals followed by a lowercase letter
/// (`HTTPServer` → `HTTP`, `Server`). Then:
///
/// - the first word of a property is lowercased (`URL` → `url`, `FirstName` → `firstName`);
/// - known initialisms are written in capitals after the first word (`user_id` → `userID`,
///   `avatar_urls` → `avatarURLs`), as the Swift API Design Guidelines ask;
/// - a run of capitals in a key that also has lowercase letters is kept (`productSKU`), while a key
///   written all in capitals is read as ordinary words (`FIRST_NAME` → `firstName`);
/// - a name that would start with a digit gets a leading underscore (`2fa` → `_2fa`);
/// - only letters Swift accepts in identifiers are kept (an emoji or a symbol separates words);
/// - a key with no letters or digits at all becomes `unnamed`.
enum InferenceNames {
    /// Initialisms written in capitals when they are not the first word of a property name.
    static let initialisms: Set<String> = [
        "id", "url", "uri", "uuid", "json", "html", "http", "https", "api", "ip", "xml", "sql", "css",
        "pdf", "os", "utc", "gps", "sku", "ui",
    ]

    /// The words of a key, in order, with the case they had.
    static func words(of key: String) -> [String] {
        var words: [String] = []
        var current: [Unicode.Scalar] = []
        let scalars = Array(key.unicodeScalars)

        func flush() {
            if !current.isEmpty { words.append(String(String.UnicodeScalarView(current))) }
            current = []
        }
        for (index, scalar) in scalars.enumerated() {
            guard isWordScalar(scalar) else {
                flush()
                continue
            }
            if let previous = current.last {
                let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                if isUppercase(scalar) && (isLowercase(previous) || isDigit(previous)) {
                    flush()  // firstName, utf8Bytes
                } else if isUppercase(scalar) && isUppercase(previous), let next, isLowercase(next) {
                    // HTTPServer: the S starts a word; but URLs and IDs are one word with a plural s.
                    let afterNext = index + 2 < scalars.count ? scalars[index + 2] : nil
                    let pluralS = next == "s" && !(afterNext.map(isLowercase) ?? false)
                    if !pluralS { flush() }
                }
            }
            current.append(scalar)
        }
        flush()
        return words
    }

    /// The lowerCamelCase property name for a key.
    static func propertyName(forKey key: String) -> String {
        let parts = words(of: key)
        guard let first = parts.first else { return "unnamed" }
        let keepsCapitals = key.unicodeScalars.contains(where: isLowercase)
        var name = wordScalars(first.lowercased())
        for word in parts.dropFirst() {
            name += render(word, keepsCapitals: keepsCapitals)
        }
        return leadingDigitGuarded(name)
    }

    /// `text` without what case mapping added that is no letter or digit: lowercasing the
    /// Turkish `İ` gives `i` and a combining dot (U+0307), which a schema's names do not take.
    private static func wordScalars(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy(isWordScalar) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter(isWordScalar)))
    }

    /// The UpperCamelCase type name for a key or a name given by the user.
    static func typeName(for text: String) -> String {
        typeName(words: words(of: text), keepsCapitals: text.unicodeScalars.contains(where: isLowercase))
    }

    /// The UpperCamelCase name of one element of the collection at `key`: the last word made
    /// singular (`lineItems` → `LineItem`, `people` → `Person`), `…List` dropped (`tagList` →
    /// `Tag`), and `Item` added when the word has no singular (`data` → `DataItem`).
    static func elementTypeName(forKey key: String) -> String {
        var parts = words(of: key)
        let keepsCapitals = key.unicodeScalars.contains(where: isLowercase)
        guard let last = parts.last else { return "Item" }
        if parts.count > 1, ["list", "array", "collection", "set"].contains(last.lowercased()) {
            parts.removeLast()
            let previous = parts.removeLast()
            parts.append(singular(of: previous.lowercased()).map { matchCase($0, like: previous) } ?? previous)
            return typeName(words: parts, keepsCapitals: keepsCapitals)
        }
        if let single = singular(of: last.lowercased()) {
            parts[parts.count - 1] = matchCase(single, like: last)
        } else {
            parts.append("Item")
        }
        return typeName(words: parts, keepsCapitals: keepsCapitals)
    }

    private static func typeName(words parts: [String], keepsCapitals: Bool) -> String {
        guard !parts.isEmpty else { return "Unnamed" }
        return leadingDigitGuarded(parts.map { render($0, keepsCapitals: keepsCapitals) }.joined())
    }

    /// A word after the first: an initialism in capitals, a deliberate run of capitals kept,
    /// anything else capitalized.
    private static func render(_ word: String, keepsCapitals: Bool) -> String {
        wordScalars(renderedCase(word, keepsCapitals: keepsCapitals))
    }

    private static func renderedCase(_ word: String, keepsCapitals: Bool) -> String {
        let lower = word.lowercased()
        if initialisms.contains(lower) { return lower.uppercased() }
        if lower.hasSuffix("s"), initialisms.contains(String(lower.dropLast())) {
            return String(lower.dropLast()).uppercased() + "s"
        }
        if keepsCapitals, word.count > 1, !word.unicodeScalars.contains(where: isLowercase),
            word.unicodeScalars.contains(where: isUppercase)
        {
            return word
        }
        guard let head = lower.first else { return lower }
        return head.uppercased() + lower.dropFirst()
    }

    /// `single` with the first letter capitalized when `original`'s was.
    private static func matchCase(_ single: String, like original: String) -> String {
        guard let first = original.unicodeScalars.first, isUppercase(first), let head = single.first else { return single }
        if !original.unicodeScalars.contains(where: isLowercase) { return single.uppercased() }
        return head.uppercased() + single.dropFirst()
    }

    /// `name` with a leading underscore when it starts with a digit (or a mark that cannot
    /// start an identifier).
    private static func leadingDigitGuarded(_ name: String) -> String {
        guard let first = name.unicodeScalars.first, !isIdentifierHead(first) else { return name }
        return "_" + name
    }

    // MARK: Singular forms

    /// Plural words whose singular the suffix rules would get wrong.
    static let irregularPlurals: [String: String] = [
        "people": "person", "children": "child", "men": "man", "women": "woman", "mice": "mouse",
        "geese": "goose", "feet": "foot", "teeth": "tooth", "indices": "index", "matrices": "matrix",
        "vertices": "vertex", "criteria": "criterion", "phenomena": "phenomenon", "analyses": "analysis",
        "axes": "axis", "leaves": "leaf", "lives": "life", "knives": "knife", "wives": "wife", "wolves": "wolf",
        "halves": "half", "shelves": "shelf", "movies": "movie", "cookies": "cookie", "pies": "pie",
        "ties": "tie", "lies": "lie", "zombies": "zombie", "rookies": "rookie", "selfies": "selfie",
        "calories": "calorie", "quizzes": "quiz", "buses": "bus", "statuses": "status", "bonuses": "bonus",
        "campuses": "campus", "viruses": "virus", "censuses": "census", "aliases": "alias", "canvases": "canvas",
        "atlases": "atlas", "biases": "bias", "heroes": "hero", "potatoes": "potato", "tomatoes": "tomato",
        "echoes": "echo", "vetoes": "veto", "caches": "cache", "niches": "niche", "avalanches": "avalanche",
        "headaches": "headache",
    ]

    /// Words that end in `s` but are not plurals, or have no singular.
    static let notPlurals: Set<String> = [
        "news", "series", "species", "physics", "mathematics", "gas", "yes", "this", "has", "was", "its",
        "is", "us", "as", "os", "ios", "macos", "alias", "canvas", "atlas", "bias", "chaos", "lens", "plus",
        "bonus", "campus", "virus", "status", "census",
    ]

    /// The singular of a lowercase word, or nil when it is not a plural this knows.
    static func singular(of word: String) -> String? {
        if let irregular = irregularPlurals[word] { return irregular }
        guard word.hasSuffix("s"), !notPlurals.contains(word), word.count >= 3 else { return nil }
        if word.hasSuffix("ss") || word.hasSuffix("us") || word.hasSuffix("is") { return nil }
        if word.hasSuffix("ies"), word.count > 4 { return String(word.dropLast(3)) + "y" }
        for ending in ["sses", "xes", "ches", "shes", "zzes"] where word.hasSuffix(ending) {
            return String(word.dropLast(2))
        }
        return String(word.dropLast())
    }

    // MARK: Names that would not work

    /// Names a generated property must not take: ``JSONModel/reservedPropertyNames``, which a
    /// registration block or schema may not declare. `ModelValue`, which chained reads
    /// return, has no public member those leave out.
    static let reservedPropertyNames: Set<String> = JSONModel.reservedPropertyNames

    /// Suffix added to a property name that is reserved.
    static let reservedPropertySuffix = "Field"

    /// Type names a generated model must not take: they would shadow the standard library,
    /// Foundation or JSONModelKit types the generated code (or its module) uses, or are the
    /// built-in types of schemas (`JSON`), which a schema model may not be named. A test checks
    /// that every public type of JSONModelKit is here.
    static let reservedTypeNames: Set<String> = listedTypeNames.union(ModelRegistry.builtinTypeNames)

    private static let listedTypeNames: Set<String> = [
        // Swift
        "Any", "AnyObject", "Array", "Bool", "Character", "Codable", "Collection", "Decodable", "Decoder",
        "Dictionary", "Double", "Encodable", "Encoder", "Equatable", "Error", "Float", "Hashable", "Hasher",
        "Identifiable", "Int", "Int8", "Int16", "Int32", "Int64", "Mirror", "Never", "Optional", "Protocol",
        "Range", "Result", "Self", "Sendable", "Sequence", "Set", "String", "Substring", "Swift", "Task",
        "Type", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Void", "Actor", "MainActor",
        // Foundation
        "Foundation", "Bundle", "Calendar", "Data", "Date", "DateComponents", "Decimal", "FileManager",
        "Locale", "Measurement", "Notification", "NSObject", "Process", "TimeZone", "URL", "URLRequest",
        "UUID",
        // JSONModelKit
        "JSONModelKit", "DateFormat", "DescriptionLimits", "DynamicModel", "InternedString", "JSONConversionError",
        "JSONConverter", "JSONConverters", "JSONConvertible", "JSONDocument", "JSONKind", "JSONModel",
        "JSONModelError", "JSONNode", "JSONNumber", "JSONObject", "JSONObjectStore", "JSONOutputOptions",
        "JSONParseError", "JSONParseOptions", "JSONPath", "JSONStringEnum", "JSONUnknownCase", "JSONValue",
        "JSONView", "JSONWriteOptions", "ModelArray", "ModelDiagnostic", "ModelDictionary", "ModelInference",
        "ModelMetadata", "ModelRegistry", "ModelSchema", "ModelSchemaError", "ModelStorage",
        "ModelValidationError", "ModelValue", "PropertyDeclarator", "PropertyRegistrar", "InferredSchema",
        "InferredModel", "InferredProperty", "InferredType", "ConverterReference", "DynamicMembers", "JSONArray",
        "JSONModelPlugin", "JSONModelProtocol", "JSONModelView", "JSONSource", "JSONStreamError", "JSONStreamFormat",
        "JSONStreamOptions", "KeyStyle", "ModelDeclarationError", "ModelOptions", "ModelStream", "ModelStreamReader",
        "ParsedJSON", "PluginLoadError", "PluginRegistrar", "SchemaLoadingError",
    ]

    // MARK: Scalars

    /// A letter or digit that Swift also accepts inside an identifier.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if isDigit(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) { return true }
        guard scalar.properties.isAlphabetic else { return false }
        return isIdentifierHead(scalar) || identifierContinuations.contains { $0.contains(scalar.value) }
    }

    /// The ranges of non-ASCII scalars The Swift Programming Language allows to start an identifier.
    private static let identifierHeads: [ClosedRange<UInt32>] = [
        0xA8...0xA8, 0xAA...0xAA, 0xAD...0xAD, 0xAF...0xAF, 0xB2...0xB5, 0xB7...0xBA, 0xBC...0xBE, 0xC0...0xD6,
        0xD8...0xF6, 0xF8...0xFF, 0x100...0x2FF, 0x370...0x167F, 0x1681...0x180D, 0x180F...0x1DBF, 0x1E00...0x1FFF,
        0x200B...0x200D, 0x202A...0x202E, 0x203F...0x2040, 0x2054...0x2054, 0x2060...0x206F, 0x2070...0x20CF,
        0x2100...0x218F, 0x2460...0x24FF, 0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF, 0x3004...0x3007,
        0x3031...0x303F, 0x3040...0xD7FF, 0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE1F,
        0xFE30...0xFE44, 0xFE47...0xFFF8, 0x10000...0x1FFFD, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
        0x40000...0x4FFFD, 0x50000...0x5FFFD, 0x60000...0x6FFFD, 0x70000...0x7FFFD, 0x80000...0x8FFFD,
        0x90000...0x9FFFD, 0xA0000...0xAFFFD, 0xB0000...0xBFFFD, 0xC0000...0xCFFFD, 0xD0000...0xDFFFD,
        0xE0000...0xEFFFD,
    ]

    /// Non-ASCII scalars Swift allows after the first one: combining marks, and the Hangzhou
    /// numerals (U+3021 to U+302F), which the grammar lets start a name but the compiler reads as
    /// an operator there (`p.〡(…)` does not build).
    private static let identifierContinuations: [ClosedRange<UInt32>] = [
        0x300...0x36F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F, 0x3021...0x302F,
    ]

    /// Whether Swift accepts `scalar` as the first character of an identifier.
    static func isIdentifierHead(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) { return true }
        return identifierHeads.contains { $0.contains(scalar.value) }
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isUppercase
    }

    static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isLowercase
    }

    /// Whether `text` is usable as a Swift identifier as it stands (letters, digits and `_`,
    /// not starting with a digit).
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isIdentifierHead(first) else { return false }
        return text.unicodeScalars.allSatisfy { isWordScalar($0) || $0 == "_" }
    }
}
