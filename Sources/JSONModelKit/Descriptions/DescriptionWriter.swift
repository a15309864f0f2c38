#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// Writing property values as text, in the two layouts of the descriptions:
// one line (`description`) and the indented custom-dump layout (`fullDescription`).
// Values arrive boxed (`Any`), as the engine converted them; the writer finds
// their shape by casting, passes the indent down as it recurses, and never
// re-indents text it already wrote.

/// Writes property values into a text stream, one line or in the full layout.
///
/// The full layout follows swift-custom-dump: a model is its name and `(`, one
/// `label: value` per line two spaces further in, commas between, then `)`;
/// a model with a single simple property stays on one line. Arrays show
/// `[index]: value` and dictionaries `"key": value` sorted by key, each up to
/// ``DescriptionLimits/maxItems`` and then `… 9,900 more`.
struct DescriptionWriter {
    let limits: DescriptionLimits
    /// The models being written, outermost first; meeting one of them again is a cycle (`↻ User`).
    var ancestors: [ObjectIdentifier] = []
    /// Full layout: the models written whole so far, held so that no identity is reused while
    /// the description is written. One model that several places refer to (models shared
    /// through an object store, `cachedObject`) is written once: written at every place, a
    /// dozen stored models that each refer to a few others made a description exponential in
    /// their depth.
    private var written: [ObjectIdentifier: JSONModel] = [:]
    /// The nested models left to look into for defaults, across the whole description.
    let defaultChecks = DefaultCheckBudget()
    /// Full layout: whether the value being written is (inside) a model property's default, made
    /// because the JSON has nothing for the property. A model's default can hold the model again
    /// (`p.child(Node.self)`), so a default met inside a default is written on one line.
    private var insideDefault = false

    init(limits: DescriptionLimits) {
        self.limits = limits.bounded
    }

    // MARK: One line

    /// Writes `value` on one line: nested models with their non-default properties, collections as counts.
    mutating func writeLine(_ value: Any, to out: inout CappedText) {
        switch DescribedShape(value) {
        case .absent:
            out.write("nil")
        case .model(let model):
            writeLine(model: model, to: &out)
        case .lazy(let lazy):
            // A property declared `[Item]` reads as an array, whatever stores it.
            out.write(DescriptionText.summary(count: lazy.lazyElementCount, isDictionary: false))
        case .array(let array):
            out.write(DescriptionText.summary(count: array.describedCount, isDictionary: false))
        case .dictionary(let dictionary):
            out.write(DescriptionText.summary(count: dictionary.describedCount, isDictionary: true))
        case .leaf(let leaf):
            out.write(
                DescriptionText.scalar(leaf, stringLimit: limits.maxStringLength)
                    ?? DescriptionText.cut(String(describing: leaf), limit: limits.maxStringLength))
        }
    }

    /// Writes `Name(label: value, …)`, cut at a property boundary when the line is full.
    ///
    /// Each property is written on its own first, into the room the line has left (a nested
    /// model cuts itself the same way inside that room). A property that does not fit ends the
    /// line: it and every later one that would have shown are counted instead, `… 12 more)`,
    /// and properties already written give up their place when the count needs it.
    mutating func writeLine(model: JSONModel, to out: inout CappedText) {
        let name = model.metadata.modelName
        let identity = ObjectIdentifier(model)
        if ancestors.contains(identity) {
            out.write("↻ " + name)
            return
        }
        if ancestors.count > limits.maxLineNesting {
            out.write(name + "(…)")
            return
        }
        ancestors.append(identity)
        defer { ancestors.removeLast() }
        out.write(name + "(")
        // What fits, as `label: value` each, and how many properties that would show do not.
        var pieces: [String] = []
        var used = out.count
        var hidden = 0
        let source = model.currentSource
        for property in model.metadata.properties {
            // A property with nothing in the JSON holds its default: left out without making it.
            if !model.hasJSON(for: property, in: source) { continue }
            let value = model.valueForDescription(at: property.ordinal)
            if !model.differsFromDefault(value, of: property, nesting: ancestors.count, budget: defaultChecks) { continue }
            if hidden > 0 {
                hidden += 1
                continue
            }
            let label = (pieces.isEmpty ? "" : ", ") + property.name + ": "
            // The room left, keeping one character for the closing parenthesis.
            let room = out.limit - used - label.count - 1
            if room > 0 {
                var piece = CappedText(limit: room)
                writeLine(value, to: &piece)
                if !piece.isFull {
                    pieces.append(label + piece.text)
                    used += label.count + piece.count
                    continue
                }
            }
            hidden = 1
        }
        if hidden > 0 {
            func more(_ count: Int) -> String { (pieces.isEmpty ? "" : ", ") + "… " + DescriptionText.grouped(count) + " more" }
            while !pieces.isEmpty, used + more(hidden).count + 1 > out.limit {
                used -= pieces.removeLast().count
                hidden += 1
            }
            pieces.append(more(hidden))
        }
        for piece in pieces { out.write(piece) }
        out.write(")")
    }

    // MARK: Full layout

    /// Writes `value` in the full layout; `indent` is the nesting level of the line it starts on.
    mutating func writeFull<Out: TextOutputStream>(_ value: Any, to out: inout Out, indent: Int) {
        switch DescribedShape(value) {
        case .absent:
            out.write("nil")
        case .model(let model):
            writeFull(model: model, to: &out, indent: indent)
        case .lazy(let lazy):
            let count = lazy.lazyElementCount
            if count == 0 {
                out.write("[]")
            } else if indent >= limits.maxDepth {
                out.write(DescriptionText.summary(count: count, isDictionary: false))
            } else {
                let shown = lazy.lazyElements(limits.maxItems)
                writeItems(
                    shown.enumerated().map { ("[\($0.offset)]", $0.element) }, hidden: count - shown.count,
                    open: "[", close: "]", to: &out, indent: indent)
            }
        case .array(let array):
            let count = array.describedCount
            if count == 0 {
                out.write("[]")
            } else if indent >= limits.maxDepth {
                out.write(DescriptionText.summary(count: count, isDictionary: false))
            } else {
                let shown = array.describedElements(limits.maxItems)
                writeItems(
                    shown.enumerated().map { ("[\($0.offset)]", $0.element) }, hidden: count - shown.count,
                    open: "[", close: "]", to: &out, indent: indent)
            }
        case .dictionary(let dictionary):
            let count = dictionary.describedCount
            if count == 0 {
                out.write("[:]")
            } else if indent >= limits.maxDepth {
                out.write(DescriptionText.summary(count: count, isDictionary: true))
            } else {
                let shown = dictionary.describedEntries(limits.maxItems)
                writeItems(
                    shown.map { (DescriptionText.quoted($0.key, limit: limits.maxFullStringLength), $0.value) },
                    hidden: count - shown.count, open: "[", close: "]", to: &out, indent: indent)
            }
        case .leaf(let leaf):
            out.write(
                DescriptionText.scalar(leaf, stringLimit: limits.maxFullStringLength)
                    ?? DescriptionText.cut(String(describing: leaf), limit: limits.maxFullStringLength))
        }
    }

    /// Writes a model: every declared property, in declaration order.
    mutating func writeFull<Out: TextOutputStream>(model: JSONModel, to out: inout Out, indent: Int) {
        let name = model.metadata.modelName
        let identity = ObjectIdentifier(model)
        if ancestors.contains(identity) {
            out.write("↻ " + name)
            return
        }
        let properties = model.metadata.properties
        if properties.isEmpty {
            out.write(name + "()")
            return
        }
        if indent >= limits.maxDepth {
            out.write(name + "(…)")
            return
        }
        if written[identity] != nil {
            out.write("↑ " + name)
            return
        }
        written[identity] = model
        ancestors.append(identity)
        defer { ancestors.removeLast() }
        let source = model.currentSource
        var values = properties.map { property in
            (label: property.name, value: model.valueForDescription(at: property.ordinal) as Any,
             isDefault: !model.hasJSON(for: property, in: source))
        }
        // Back-references last (`order (inverse): ↻ Order` when written from the order down).
        let inverses = model.inverseReferencesForDescription()
        values += inverses.map { (label: $0.name + " (inverse)", value: $0.model as Any, isDefault: false) }
        if values.count == 1, inverses.isEmpty, isSimple(values[0].value) {
            out.write(name + "(" + values[0].label + ": ")
            writeFull(values[0].value, to: &out, indent: indent)
            out.write(")")
            return
        }
        writeItems(values, hidden: 0, open: name + "(", close: ")", to: &out, indent: indent)
    }

    /// Writes `open`, one `label: value` line per item one level in, a `… N more` line, and `close`.
    private mutating func writeItems<Out: TextOutputStream>(
        _ items: [(label: String, value: Any)], hidden: Int, open: String, close: String, to out: inout Out, indent: Int
    ) {
        writeItems(items.map { ($0.label, $0.value, false) }, hidden: hidden, open: open, close: close, to: &out, indent: indent)
    }

    /// ``writeItems(_:hidden:open:close:to:indent:)`` for a model's properties, each marked when
    /// it holds its default: a model default inside a default is written on one line.
    private mutating func writeItems<Out: TextOutputStream>(
        _ items: [(label: String, value: Any, isDefault: Bool)], hidden: Int, open: String, close: String,
        to out: inout Out, indent: Int
    ) {
        out.write(open)
        for (index, item) in items.enumerated() {
            DescriptionText.newline(indent + 1, to: &out)
            out.write(item.label + ": ")
            let outer = insideDefault
            if item.isDefault, outer, case .model(let model) = DescribedShape(item.value) {
                out.write(DescriptionWriter.defaultLine(model, limits: limits))
            } else {
                insideDefault = outer || item.isDefault
                writeFull(item.value, to: &out, indent: indent + 1)
                insideDefault = outer
            }
            if index < items.count - 1 || hidden > 0 { out.write(",") }
        }
        if hidden > 0 {
            DescriptionText.newline(indent + 1, to: &out)
            out.write("… " + DescriptionText.grouped(hidden) + " more")
        }
        DescriptionText.newline(indent, to: &out)
        out.write(close)
    }

    /// A model property's default on one line, as `description` writes it: only the properties
    /// whose JSON (the default's) has something that differs from their own defaults.
    static func defaultLine(_ model: JSONModel, limits: DescriptionLimits) -> String {
        var writer = DescriptionWriter(limits: limits)
        var text = CappedText(limit: limits.maxLineLength)
        writer.writeLine(model: model, to: &text)
        return text.result
    }

    /// Whether a value fits on its label's line in the full layout: not a model, not a non-empty collection.
    private func isSimple(_ value: Any) -> Bool {
        switch DescribedShape(value) {
        case .absent, .leaf: return true
        case .model: return false
        case .lazy(let lazy): return lazy.lazyElementCount == 0
        case .array(let array): return array.describedCount == 0
        case .dictionary(let dictionary): return dictionary.describedCount == 0
        }
    }
}

/// What a boxed value is, for the writer, found from its dynamic type.
///
/// Checks go through metatypes (`type(of:) is JSONModel.Type`) rather than value casts:
/// with Foundation on Linux, `value as? SomeClass` on an array first bridges the whole
/// array to `NSArray`.
/// PERF: describing values that hold arrays, on Linux; see callgrind of `jsonmodel describe`.
enum DescribedShape {
    /// nil, at any level of `Optional`.
    case absent
    case model(JSONModel)
    case lazy(any LazyDescribable)
    case array(any DescribableArray)
    case dictionary(any DescribableDictionary)
    /// A string, number, date, JSON value or anything else shown as text.
    case leaf(Any)

    init(_ boxed: Any) {
        var value = boxed
        var type = Swift.type(of: value)
        // The most common leaves first, by identity: each protocol check below is a lookup.
        if type == String.self || type == Int.self || type == Bool.self || type == Double.self {
            self = .leaf(value)
            return
        }
        // Any optional, of a type the engine converts itself or of the user's (an enum, a
        // `Codable` type), which `String(describing:)` would write `Optional(App.Status.active)`.
        while type is any DescribedOptional.Type {
            guard let wrapped = (value as! any DescribedOptional).describedWrapped else {
                self = .absent
                return
            }
            value = wrapped
            type = Swift.type(of: wrapped)
        }
        if type is JSONModel.Type {
            self = .model(value as! JSONModel)
        } else if type is any LazyDescribable.Type {
            self = .lazy(value as! any LazyDescribable)
        } else if type is any DescribableArray.Type {
            self = .array(value as! any DescribableArray)
        } else if type is any DescribableDictionary.Type {
            self = .dictionary(value as! any DescribableDictionary)
        } else {
            self = .leaf(value)
        }
    }
}

/// An optional of any type, for descriptions: its value, or nil.
protocol DescribedOptional {
    var describedWrapped: Any? { get }
}

extension Optional: DescribedOptional {
    var describedWrapped: Any? {
        switch self {
        case .some(let value): value
        case .none: nil
        }
    }
}

/// A text buffer for one-line descriptions that stops growing past its limit.
struct CappedText: TextOutputStream {
    /// The most characters the result may have.
    let limit: Int
    private(set) var text = ""
    private(set) var count = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether more was written than fits; later writes are dropped.
    var isFull: Bool { count > limit }

    mutating func write(_ string: String) {
        guard !isFull else { return }
        text += string
        count += string.count
    }

    /// The text, or when it went past the limit its first `limit - 2` characters and `…)`: only
    /// for a model name longer than the line, since models cut themselves at a property boundary.
    var result: String {
        isFull ? String(text.prefix(max(0, limit - 2))) + "…)" : text
    }
}

/// A collection that describes itself without building its elements (a lazy model array).
///
/// In a model's descriptions it shows like the array its property declares (`[3 items]`,
/// `[0]: …`), using elements already built and making the others only for the description.
/// Checked before ``DescribableArray``, so a collection conforming to both is described lazily.
protocol LazyDescribable {
    /// One line that builds nothing: `ModelArray<Shape>(count: 3, built: 1)`.
    var lineDescription: String { get }
    /// The number of elements.
    var lazyElementCount: Int { get }
    /// The first `limit` elements, for the full layout, without keeping any that were not built.
    func lazyElements(_ limit: Int) -> [Any]
}

/// An array the writer can count and take the first elements of without converting it whole.
protocol DescribableArray {
    var describedCount: Int { get }
    func describedElements(_ limit: Int) -> [Any]
}

extension Array: DescribableArray {
    var describedCount: Int { count }

    func describedElements(_ limit: Int) -> [Any] {
        prefix(limit).map { $0 as Any }
    }
}

/// A dictionary with string keys the writer can count and list sorted by key.
protocol DescribableDictionary {
    var describedCount: Int { get }
    func describedEntries(_ limit: Int) -> [(key: String, value: Any)]
}

extension Dictionary: DescribableDictionary where Key == String {
    var describedCount: Int { count }

    func describedEntries(_ limit: Int) -> [(key: String, value: Any)] {
        keys.sorted().prefix(limit).map { (key: $0, value: self[$0]! as Any) }
    }
}

extension ModelDictionary: DescribableDictionary {
    var describedCount: Int { count }

    /// The entries as `describedModels` gives them: describing builds no value of the dictionary.
    func describedEntries(_ limit: Int) -> [(key: String, value: Any)] {
        keys.sorted().prefix(limit).compactMap { key in valueForDescription(key).map { (key: key, value: $0 as Any) } }
    }
}

/// Text pieces of the descriptions.
enum DescriptionText {
    /// A line break followed by two spaces per level.
    static func newline<Out: TextOutputStream>(_ level: Int, to out: inout Out) {
        out.write("\n" + String(repeating: "  ", count: level))
    }

    /// The text of a value that has no parts, or nil for models and collections.
    ///
    /// Strings are quoted and escaped; a date, URL or UUID shows its type around
    /// its text (`Date(2018-05-06T00:00:00Z)`; a date outside years 0000 to 9999 its
    /// seconds, `Date(1e+300 seconds since 1970)`), `Data` its size, a JSON value its
    /// compact text.
    static func scalar(_ value: Any, stringLimit: Int) -> String? {
        let type = Swift.type(of: value)
        if type == String.self { return quoted(value as! String, limit: stringLimit) }
        if type == Bool.self { return (value as! Bool) ? "true" : "false" }
        if type is any BinaryInteger.Type || type == Double.self || type == Float.self || type == Decimal.self {
            return "\(value)"
        }
        if type == Date.self {
            let date = value as! Date
            guard ISO8601Text.isWritable(date) else { return "Date(\(date.timeIntervalSince1970) seconds since 1970)" }
            return "Date(" + ISO8601Text.string(from: date) + ")"
        }
        if type == URL.self { return "URL(" + cut((value as! URL).absoluteString, limit: stringLimit) + ")" }
        if type == UUID.self { return "UUID(" + (value as! UUID).uuidString + ")" }
        if type == Data.self {
            let count = (value as! Data).count
            return "Data(" + grouped(count) + (count == 1 ? " byte)" : " bytes)")
        }
        if type == JSONValue.self { return cut((value as! JSONValue).description, limit: stringLimit) }
        return nil
    }

    /// Whether two strings, `Int`s or bools are equal; nil for other types (compare their JSON instead).
    static func plainValue(_ lhs: Any, equals rhs: Any) -> Bool? {
        let type = Swift.type(of: lhs)
        guard type == Swift.type(of: rhs) else { return nil }
        if type == String.self { return (lhs as! String) == (rhs as! String) }
        if type == Int.self { return (lhs as! Int) == (rhs as! Int) }
        if type == Bool.self { return (lhs as! Bool) == (rhs as! Bool) }
        return nil
    }

    /// `[]`, `[1 item]`, `[2 items]`; for dictionaries `[:]`, `[1 entry]`, `[2 entries]`.
    static func summary(count: Int, isDictionary: Bool) -> String {
        if count == 0 { return isDictionary ? "[:]" : "[]" }
        let noun = isDictionary ? (count == 1 ? "entry" : "entries") : (count == 1 ? "item" : "items")
        return "[" + grouped(count) + " " + noun + "]"
    }

    /// How many Unicode scalars a string cut after `limit` characters may show at most: one
    /// character may hold any number of them (an `e` with a million accents), and the limits
    /// bound the line. Eight a character leaves flags, emoji sequences and accented text whole.
    /// A limit past `Int.max / 8` (`.max`, for no cut) gives `Int.max`: wrapping would make it
    /// negative and cut every string before its first character.
    static func scalarLimit(forCharacters limit: Int) -> Int {
        let (scalars, overflow) = limit.multipliedReportingOverflow(by: 8)
        return overflow ? .max : scalars
    }

    /// `string` in double quotes with Swift escapes, cut with `…` after `limit` characters, or
    /// before the character that would take it past ``scalarLimit(forCharacters:)`` scalars.
    ///
    /// Escapes `"`, `\`, `\n`, `\r`, `\t`, `\0`, and as `\u{…}` the other control
    /// characters and the line and paragraph separators; everything else shows as is.
    static func quoted(_ string: String, limit: Int) -> String {
        var result = "\""
        var taken = 0
        var scalarsTaken = 0
        let scalarLimit = scalarLimit(forCharacters: limit)
        for character in string {
            let scalars = character.unicodeScalars.count
            if taken == limit || scalars > scalarLimit - scalarsTaken {
                result += "…"
                break
            }
            taken += 1
            scalarsTaken += scalars
            if !character.unicodeScalars.contains(where: TextEscapes.needsEscape) {
                result.append(character)
                continue
            }
            for scalar in character.unicodeScalars { TextEscapes.appendEscaped(scalar, quotes: true, to: &result) }
        }
        return result + "\""
    }

    /// `text` on one line (``TextEscapes/oneLine(_:)``), cut with `…` after `limit` characters,
    /// or before the character that would take it past ``scalarLimit(forCharacters:)`` scalars.
    ///
    /// For text that is not a string of the input but may hold one: a JSON value's text, which
    /// leaves U+2028, U+2029 and the C1 controls as they are, or what a value of another type
    /// says of itself (an unknown string enum value is the input's text).
    static func cut(_ text: String, limit: Int) -> String {
        let scalarLimit = scalarLimit(forCharacters: limit)
        var taken = 0
        var scalarsTaken = 0
        var end = text.startIndex
        for index in text.indices {
            let scalars = text[index].unicodeScalars.count
            if taken == limit || scalars > scalarLimit - scalarsTaken {
                return TextEscapes.oneLine(String(text[..<end])) + "…"
            }
            taken += 1
            scalarsTaken += scalars
            end = text.index(after: index)
        }
        return TextEscapes.oneLine(text)
    }

    /// A count with thousands separators: `9,900`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = number < 0 ? "-" : ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }
}
