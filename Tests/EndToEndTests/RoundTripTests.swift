import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// "Nothing lost": random JSON → model → write some properties → output → parse, and
/// every member no write touched is byte for byte what it was.
///
/// The inputs come from our own seeded generator: unknown keys (some duplicated), declared keys
/// holding values of the wrong kind, integers beyond 64 bits, long fractions and exponents,
/// text with astral characters, control characters and escapes, nested objects and arrays, and
/// white space between tokens.
///
/// What "the same" means. Output is compact, so white space between tokens is gone; and a
/// model that was written to writes strings in one spelling: UTF-8 as is, with only `\"`, `\\`,
/// `\b`, `\f`, `\n`, `\r`, `\t` and `\u00XX` for other control characters. An input string spelled
/// otherwise (`\u00e9`, `\/`, `\uD83D\uDE00`) keeps its value and gets that spelling. So each
/// untouched member is compared byte for byte with its input text after removing white space
/// and re-spelling its strings that way, by code of this file; numbers, literals, member order
/// and duplicate keys are never changed. A model with no writes keeps even the spelling of
/// escapes. Most generated members are already in that form: for them the comparison is with the
/// input bytes themselves, and the test counts them.
///
/// A failure names its seed; rerun one with `JSONMODELKIT_ROUNDTRIP_SEED=<seed>`, or run more
/// documents with `JSONMODELKIT_ROUNDTRIP_COUNT=<n>`.
@Suite("Round trip: nothing lost")
struct RoundTripTests {
    static let iterations = 400
    static let firstSeed: UInt64 = 0x5EED_0008

    final class Envelope: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.id(Int64.self)
            p.count(Int.self, default: 0)
            p.price(Double?.self)
            p.amount(Decimal?.self)
            p.name(String?.self)
            p.flag(Bool.self)
            p.tags([String].self)
            p.scores([String: Double].self)
            p.when(Date?.self, dateFormat: .iso8601)
            p.big(UInt64?.self)
            p.city(String?.self, jsonPath: "address.city")
            p.zip(Int?.self, jsonPath: "address.zip")
            p.child(Child?.self)
            p.raw(JSONValue?.self)
            p.kind(String?.self, enumValues: ["small", "large"])
            p.alt(Int?.self, anyOf: ["alt", "alternative"])
            p.firstLabel(String?.self, jsonPath: ["labels", 0])
        }
    }

    final class Child: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.label(String?.self)
            p.n(Int.self)
        }
    }

    /// The declared top-level keys, for the generator.
    static let declaredKeys = ["id", "count", "price", "amount", "name", "flag", "tags", "scores", "when", "big",
                               "address", "child", "raw", "kind", "alt", "alternative", "labels"]

    @Test func untouchedMembersSurviveWrites() throws {
        var stats = RoundTripStats()
        let seeds: [UInt64]
        if let given = ProcessInfo.processInfo.environment["JSONMODELKIT_ROUNDTRIP_SEED"].flatMap({ UInt64($0) }) {
            seeds = [given]
        } else {
            let count = ProcessInfo.processInfo.environment["JSONMODELKIT_ROUNDTRIP_COUNT"].flatMap { Int($0) } ?? Self.iterations
            seeds = (0..<UInt64(count)).map { Self.firstSeed &+ $0 }
        }
        for seed in seeds {
            let failures = Self.check(seed: seed, stats: &stats)
            for failure in failures {
                Issue.record("seed \(seed) (JSONMODELKIT_ROUNDTRIP_SEED=\(seed)): \(failure)")
            }
            if !failures.isEmpty { return }  // one failing document is enough to read
        }
        print("round trip: \(seeds.count) documents, \(stats.writes) writes, \(stats.untouched) untouched members compared (\(stats.identical) byte-identical to the input, \(stats.respelled) after re-spelling), \(stats.unwrittenDocuments) documents with no write compared whole")
        #expect(stats.untouched > seeds.count * 5)
        #expect(stats.identical > stats.untouched / 2)
        #expect(stats.respelled > 0 || seeds.count == 1)
    }

    /// One document: returns what went wrong, empty when nothing did.
    static func check(seed: UInt64, stats: inout RoundTripStats) -> [String] {
        var random = SplitMix64(seed: seed)
        var generator = JSONTextGenerator(random: random)
        let input = generator.document(declaredKeys: declaredKeys)
        random = generator.random
        var failures: [String] = []

        let model: Envelope
        do {
            model = try Envelope(json: Array(input.utf8), options: .mutable)
        } catch {
            return ["the generated document does not parse: \(error)\n\(input)"]
        }
        // Read some properties first, so writes meet a warm cache.
        for name in Envelope.modelMetadata.properties.map(\.name) where random.chance(0.5) {
            _ = model.jsonModel.value(forProperty: name)
        }

        var writes = RoundTripWrites()
        let writeCount = random.next(below: 5)
        for _ in 0..<writeCount { writes.apply(random: &random, to: model) }
        stats.writes += writes.log.count

        let output = model.jsonModel.jsonString()
        let context = "\ninput:  \(input)\noutput: \(output)\nwrites: \(writes.log.joined(separator: "; "))"
        guard let outputMembers = RawJSON.members(ofObject: output) else {
            return ["the output is not one object" + context]
        }
        let inputMembers = RawJSON.members(ofObject: RawJSON.compact(input))!

        // A model never written to writes its original JSON: escapes keep their spelling.
        let written = model.jsonModel.hasMutations
        if !written {
            stats.unwrittenDocuments += 1
            if output != RawJSON.compact(input) { failures.append("unwritten model changed its JSON" + context) }
        }
        var touched = writes.touchedKeys
        if let labels = writes.labels, labels.changed {
            touched.insert("labels")
            failures += compareLabels(labels, inputMembers, outputMembers, stats: &stats).map { $0 + context }
        }
        failures += compareUntouched(inputMembers, outputMembers, touched: touched, nested: writes.nestedTouches,
                                     respell: written, stats: &stats).map { $0 + context }

        // Every write reads back: from the model, and from its output parsed again.
        do {
            let reread = try Envelope(json: output)
            for (name, expected) in writes.expected.sorted(by: { $0.key < $1.key }) {
                for (label, source) in [("the model", model), ("the output", reread)] {
                    let actual = source.jsonModel.jsonValue(forProperty: name)
                    if actual != expected {
                        failures.append("\(name) reads from \(label) as \(actual.map { "\($0)" } ?? "nothing"), written \(expected)" + context)
                    }
                }
            }
        } catch {
            failures.append("the output does not parse: \(error)" + context)
        }
        return failures
    }

    /// Compares the `labels` array written through `["labels", 0]` with what the writes left of the
    /// input's elements: a write replaces element 0, nil removes it and the rest move up
    /// (`JSONValue`'s documented rule for a path that ends in an index).
    static func compareLabels(_ labels: RoundTripWrites.Labels, _ input: [RawJSON.Member], _ output: [RawJSON.Member],
                              stats: inout RoundTripStats) -> [String] {
        let news = output.filter { $0.key == "labels" }
        guard news.count == 1, let newElements = RawJSON.elements(ofArray: news[0].text) else {
            return ["labels is no longer one array: \(news.map(\.text))"]
        }
        let oldElements = input.last { $0.key == "labels" }.flatMap { RawJSON.elements(ofArray: $0.text) } ?? []
        guard newElements.count == labels.elements.count else {
            return ["labels has \(newElements.count) elements, expected \(labels.elements.count): \(news[0].text)"]
        }
        var failures: [String] = []
        for (position, origin) in labels.elements.enumerated() {
            guard let origin else { continue }  // written
            stats.untouched += 1
            let expected = RawJSON.respelled(oldElements[origin])
            if expected == oldElements[origin] { stats.identical += 1 } else { stats.respelled += 1 }
            if newElements[position] != expected {
                failures.append("labels[\(position)] was labels[\(origin)] \(oldElements[origin]), expected \(expected), now \(newElements[position])")
            }
        }
        return failures
    }

    /// Compares the members of `input` and `output` whose keys no write touched; for keys
    /// written below the top level, compares their untouched members one level down.
    static func compareUntouched(
        _ input: [RawJSON.Member], _ output: [RawJSON.Member], touched: Set<String>, nested: [String: Set<String>],
        respell: Bool, stats: inout RoundTripStats
    ) -> [String] {
        var failures: [String] = []
        let keep = { (member: RawJSON.Member) in !touched.contains(member.key) && nested[member.key] == nil }
        let before = input.filter(keep)
        let after = output.filter(keep)
        if before.map(\.key) != after.map(\.key) {
            failures.append("untouched keys changed: \(before.map(\.key)) → \(after.map(\.key))")
        } else {
            for (old, new) in zip(before, after) {
                stats.untouched += 1
                let expected = respell ? RawJSON.respelled(old.text) : old.text
                let expectedKey = respell ? RawJSON.respelled(old.keyText) : old.keyText
                if expected == old.text && expectedKey == old.keyText { stats.identical += 1 } else { stats.respelled += 1 }
                if new.text != expected || new.keyText != expectedKey {
                    failures.append("member \(old.key.debugDescription) was \(old.keyText):\(old.text), expected \(expected), now \(new.keyText):\(new.text)")
                }
            }
        }
        // Written below the top level: the last input member with the key is the one written into.
        for (key, innerTouched) in nested {
            guard let old = input.last(where: { $0.key == key }), let oldInner = RawJSON.members(ofObject: old.text) else { continue }
            let news = output.filter { $0.key == key }
            guard news.count == 1, let newInner = RawJSON.members(ofObject: news[0].text) else {
                failures.append("\(key) is no longer one object: \(news.map(\.text))")
                continue
            }
            failures += compareUntouched(oldInner, newInner, touched: innerTouched, nested: [:], respell: respell, stats: &stats)
        }
        return failures
    }
}

struct RoundTripStats {
    var writes = 0
    var untouched = 0
    var identical = 0
    var respelled = 0
    var unwrittenDocuments = 0
}

/// Random writes to an ``RoundTripTests/Envelope``, and what they touch.
struct RoundTripWrites {
    /// Top-level keys whose whole value a write replaced or removed.
    var touchedKeys: Set<String> = []
    /// Top-level keys written below: key → the keys written inside it.
    var nestedTouches: [String: Set<String>] = [:]
    /// Each written property's value as JSON, as the property turns it into JSON (`null`: nil).
    var expected: [String: JSONValue] = [:]
    var log: [String] = []
    /// What writes through `["labels", 0]` left; nil until the first one.
    var labels: Labels?

    /// The `labels` array after writes at index 0: per element, the input element it still is
    /// (its index there), or nil for a written one.
    struct Labels {
        var elements: [Int?]
        /// Whether the array is no longer the input's (it had no array there, or lost or
        /// replaced an element).
        var changed = false
    }

    mutating func apply(random: inout SplitMix64, to model: RoundTripTests.Envelope) {
        let remove = random.chance(0.15)
        switch random.next(below: 20) {
        case 0:
            let value = Int64(bitPattern: random.next())
            write("id", value, model) { $0.id = value }
        case 1:
            let value = Int(random.next(below: 2_000)) - 1_000
            write("count", value, model) { $0.count = value }
        case 2:
            let value: Double? = remove ? nil : Double(Int(random.next(below: 1_000_000))) / 64
            write("price", value, model, removing: value == nil) { $0.price = value }
        case 3:
            let value: Decimal? = remove ? nil : Decimal(string: "12345678901234567890.125")
            write("amount", value, model, removing: value == nil) { $0.amount = value }
        case 4:
            var text = JSONTextGenerator(random: random)
            let value: String? = remove ? nil : text.plainText()
            random = text.random
            write("name", value, model, removing: value == nil) { $0.name = value }
        case 5:
            let value = random.chance(0.5)
            write("flag", value, model) { $0.flag = value }
        case 6:
            let value = ["x", "ü", "😀", "a\nb"].filter { _ in random.chance(0.6) }
            write("tags", value, model) { $0.tags = value }
        case 7:
            let value = ["a": 1.5, "𝄞": -2.0, "z": 1e300].filter { _ in random.chance(0.6) }
            write("scores", value, model) { $0.scores = value }
        case 8:
            let value: Date? = remove ? nil : Date(timeIntervalSince1970: Double(random.next(below: 2_000_000_000)))
            write("when", value, model, removing: value == nil) { $0.when = value }
        case 9:
            let value: UInt64? = remove ? nil : random.next()
            write("big", value, model, removing: value == nil) { $0.big = value }
        case 10:
            let value: String? = remove ? nil : "Zürich 🏔"
            writeNested("city", value, model) { $0.city = value }
        case 11:
            let value: Int? = remove ? nil : Int(random.next(below: 99_999))
            writeNested("zip", value, model) { $0.zip = value }
        case 12:
            // Through the nested model, which writes its object back into the parent.
            let child: RoundTripTests.Child? = model.child
            if let child {
                let label: String? = remove ? nil : "new label é"
                let present = child.jsonModel.json()["label"] != nil
                child.label = label
                log.append("child.label = \(label.debugDescription)")
                if !touchedKeys.contains("child") && (label != nil || present) { nestedTouches["child", default: []].insert("label") }
                expected["child"] = model.jsonModel.jsonValue(forProperty: "child")
            } else {
                let value: RoundTripTests.Child? = remove ? nil : try? RoundTripTests.Child(json: ["label": "made", "n": 3] as JSONValue)
                write("child", value, model, removing: value == nil) { $0.child = value }
            }
        case 13:
            let value: JSONValue? = remove ? nil : ["k": [1, 2.5, "ß"], "big": .number(JSONNumber(text: "123456789012345678901234567890e-5")!)]
            write("raw", value, model, removing: value == nil) { $0.raw = value }
        case 14:
            let value: String? = remove ? nil : (random.chance(0.5) ? "small" : "large")
            write("kind", value, model, removing: value == nil) { $0.kind = value }
        case 15:
            // Alternatives: a write goes where the value was read from, nil removes them all.
            let value: Int? = remove ? nil : Int(random.next(below: 1_000))
            write("alt", value, model, removing: value == nil) { $0.alt = value }
        case 16, 17, 18:
            // Through an array index: a write replaces element 0, nil removes it.
            if labels == nil {
                if case .array(let elements)? = model.jsonModel.originalJSON["labels"] {
                    labels = Labels(elements: Array(0..<elements.count))
                } else {
                    labels = Labels(elements: [], changed: false)
                }
            }
            let value: String? = remove || random.chance(0.3) ? nil : "label \(random.next(below: 100)) ✓"
            if value != nil, let holder = model.jsonModel.json()["labels"], holder.arrayValue == nil, !holder.isNull {
                // An index into a string, number, bool or object is refused and changes nothing.
                if (try? model.jsonModel.set(value, forProperty: "firstLabel")) != nil {
                    Issue.record("a write of labels[0] through \(holder) was not refused")
                }
                log.append("firstLabel = \(value.debugDescription) (refused)")
                return
            }
            model.firstLabel = value
            log.append("firstLabel = \(value.debugDescription)")
            if value != nil {
                if labels!.elements.isEmpty { labels!.elements = [nil] } else { labels!.elements[0] = nil }
                labels!.changed = true
                expected["firstLabel"] = Self.json(of: value as Any, for: "firstLabel")
            } else {
                if !labels!.elements.isEmpty {
                    labels!.elements.removeFirst()
                    labels!.changed = true
                }
                // The next element moves up and reads in its place: no value to expect.
                expected["firstLabel"] = nil
            }
        default:
            // The dynamic API, with a value that converts (text for an integer).
            let value = String(random.next(below: 1_000))
            write("count", value, model) { try? $0.jsonModel.set(value, forProperty: "count") }
            expected["count"] = .number(JSONNumber(Int(value)!))
        }
    }

    /// Writes a top-level property and notes its key: the one the value was read from (the
    /// first path when none), or every alternative's when removing.
    private mutating func write<T>(
        _ name: String, _ value: T, _ model: RoundTripTests.Envelope, removing: Bool = false, _ body: (RoundTripTests.Envelope) -> Void
    ) {
        let property = RoundTripTests.Envelope.modelMetadata.properties.first { $0.name == name }!
        let writePath = property.writePath(in: model.currentSource)
        body(model)
        log.append("\(name) = \(value)")
        for path in removing ? property.paths : [writePath] {
            if case .key(let key)? = path.segments.first { touchedKeys.insert(key) }
        }
        nestedTouches[name] = nil
        expected[name] = Self.json(of: value, for: name)
    }

    /// The written value as the property turns it into JSON.
    private static func json(of value: Any, for name: String) -> JSONValue {
        let property = RoundTripTests.Envelope.modelMetadata.properties.first { $0.name == name }!
        if let model = value as? JSONModel { return model.jsonModel.json() }
        return (property.valueType.jsonValue(ofAny: value, replacing: nil) ?? nil) ?? .null
    }

    /// Writes `address.city` or `address.zip`.
    private mutating func writeNested<T>(_ name: String, _ value: T?, _ model: RoundTripTests.Envelope, _ body: (RoundTripTests.Envelope) -> Void) {
        // Removing a value that is not there changes nothing, duplicates of "address" included.
        let present = model.jsonModel.json()[JSONPath([.key("address"), .key(name)])] != nil
        if value != nil, let holder = model.jsonModel.json()["address"], holder.objectValue == nil, !holder.isNull {
            // A path through a string, number, bool or array is refused and changes nothing.
            if (try? model.jsonModel.set(value, forProperty: name)) != nil {
                Issue.record("a write of address.\(name) through \(holder) was not refused")
            }
            log.append("address.\(name) = \(value.map { "\($0)" } ?? "nil") (refused)")
            return
        }
        body(model)
        log.append("address.\(name) = \(value.map { "\($0)" } ?? "nil")")
        if !touchedKeys.contains("address") && (value != nil || present) { nestedTouches["address", default: []].insert(name) }
        expected[name] = Self.json(of: value as Any, for: name)
    }
}

// MARK: - Random JSON text

/// Writes random JSON text, choosing spellings as well as values.
struct JSONTextGenerator {
    var random: SplitMix64
    private var depth = 0

    init(random: SplitMix64) { self.random = random }

    /// An object with a random mix of declared keys (some holding the wrong kind of value) and
    /// unknown keys, a few of them repeated.
    mutating func document(declaredKeys: [String]) -> String {
        var members: [String] = []
        for key in declaredKeys where random.chance(0.45) {
            members.append(member(key: key, value: declaredValue(for: key)))
        }
        for _ in 0..<random.next(below: 8) {
            members.append(member(key: unknownKey(), value: value()))
        }
        if !members.isEmpty, random.chance(0.3) {
            // A duplicate of an earlier member's key, with another value.
            let repeated = members[random.next(below: members.count)]
            let keyEnd = repeated.firstIndex(of: ":")!
            members.append(String(repeated[..<keyEnd]) + ":" + space() + value())
        }
        members.shuffle(using: &random)
        return space() + "{" + space() + members.joined(separator: space() + "," + space()) + space() + "}" + space()
    }

    private mutating func member(key: String, value: String) -> String {
        string(key) + space() + ":" + space() + value
    }

    /// Mostly a value of the property's kind, sometimes anything.
    private mutating func declaredValue(for key: String) -> String {
        if random.chance(0.2) { return value() }
        switch key {
        case "id", "count", "big", "alt", "alternative": return number()
        case "price", "amount": return number()
        case "name", "kind": return string(random.chance(0.3) ? random.pick(["small", "large", "medium"]) : plainText())
        case "flag": return random.pick(["true", "false", "1", #""yes""#])
        case "tags": return "[" + (0..<random.next(below: 4)).map { _ in string(plainText()) }.joined(separator: ",") + "]"
        case "scores": return "{" + (0..<random.next(below: 4)).map { _ in string(plainText()) + ":" + number() }.joined(separator: ",") + "}"
        case "labels": return "[" + (0..<random.next(below: 4)).map { _ in random.chance(0.7) ? string(plainText()) : value() }.joined(separator: "," + space()) + "]"
        case "when": return random.pick([#""2024-02-29T12:34:56Z""#, #""2024-02-29T12:34:56.789+02:00""#, "1700000000", #""not a date""#])
        case "address", "child":
            var members: [String] = []
            for inner in ["city", "zip", "label", "n"] where random.chance(0.5) { members.append(member(key: inner, value: value())) }
            for _ in 0..<random.next(below: 4) { members.append(member(key: unknownKey(), value: value())) }
            members.shuffle(using: &random)
            return "{" + space() + members.joined(separator: "," + space()) + "}"
        default: return value()
        }
    }

    mutating func value() -> String {
        let nested = depth < 3
        switch random.next(below: nested ? 9 : 6) {
        case 0: return random.pick(["null", "true", "false"])
        case 1, 2: return number()
        case 3, 4, 5: return string(plainText())
        case 6, 7:
            depth += 1
            defer { depth -= 1 }
            return "[" + space() + (0..<random.next(below: 4)).map { _ in value() }.joined(separator: space() + "," + space()) + space() + "]"
        default:
            depth += 1
            defer { depth -= 1 }
            return "{" + space() + (0..<random.next(below: 4)).map { _ in member(key: unknownKey(), value: value()) }
                .joined(separator: "," + space()) + space() + "}"
        }
    }

    /// Number text of many shapes: beyond 64 bits, long fractions, exponents, negative zero.
    mutating func number() -> String {
        func digits(_ count: Int, _ random: inout SplitMix64) -> String {
            String((0..<count).map { _ in Character(String(random.next(below: 10))) })
        }
        let sign = random.chance(0.3) ? "-" : ""
        let integer: String
        switch random.next(below: 4) {
        case 0: integer = "0"
        case 1: integer = String(1 + random.next(below: 9)) + digits(random.next(below: 4), &random)
        case 2: integer = String(1 + random.next(below: 9)) + digits(18 + random.next(below: 3), &random)  // around 2^64
        default: integer = String(1 + random.next(below: 9)) + digits(20 + random.next(below: 40), &random)  // beyond
        }
        var text = sign + integer
        if random.chance(0.35) { text += "." + digits(1 + random.next(below: random.chance(0.2) ? 40 : 6), &random) }
        if random.chance(0.25) {
            text += random.pick(["e", "E"]) + random.pick(["", "+", "-"]) + String(random.next(below: random.chance(0.1) ? 100_000 : 400))
        }
        return text
    }

    /// A key not declared by the model (keys may look alike but never equal a declared one).
    mutating func unknownKey() -> String {
        random.pick(["x", "extra", "ünïcödé", "😀 key", "Name", "id_", "a.b", "", "tab\tkey", "meta", "𝄞"]) + (random.chance(0.5) ? String(random.next(below: 100)) : "")
    }

    /// Text with ASCII, two- to four-byte characters, controls, quotes and backslashes.
    mutating func plainText() -> String {
        var text = ""
        for _ in 0..<random.next(below: 12) {
            text += random.pick(["a", "Zoë", "€", "中文", "😀", "𝄞", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", "\"", "\\", "/", " ", "\u{2028}", "é"])
        }
        return text
    }

    /// `text` as a JSON string: mostly spelled as our writer spells it, sometimes with escapes
    /// it would not use (`\u00e9`, `\/`, surrogate pairs, upper-case hex).
    mutating func string(_ text: String) -> String {
        var out = "\""
        let respell = random.chance(0.25)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += respell && random.chance(0.5) ? "\\u000A" : "\\n"
            case "\t": out += "\\t"
            case "/": out += respell && random.chance(0.5) ? "\\/" : "/"
            case _ where scalar.value < 0x20: out += "\\u00" + hex(scalar.value, width: 2, upper: false)
            case _ where respell && random.chance(0.5):
                if scalar.value > 0xFFFF {
                    let value = scalar.value - 0x10000
                    let upper = random.chance(0.5)
                    out += "\\u" + hex(0xD800 + (value >> 10), width: 4, upper: upper) + "\\u" + hex(0xDC00 + (value & 0x3FF), width: 4, upper: upper)
                } else {
                    out += "\\u" + hex(scalar.value, width: 4, upper: random.chance(0.5))
                }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private func hex(_ value: UInt32, width: Int, upper: Bool) -> String {
        let digits = String(value, radix: 16, uppercase: upper)
        return String(repeating: "0", count: width - digits.count) + digits
    }

    /// White space between tokens, usually none.
    mutating func space() -> String {
        random.chance(0.15) ? random.pick([" ", "\n", "\t", "\r\n", "  "]) : ""
    }
}

// MARK: - Raw JSON text, read by this file's own code

/// Splits and re-spells JSON text without the library, as the test's independent judge.
enum RawJSON {
    struct Member {
        /// The key as decoded text.
        var key: String
        /// The key's JSON text, quotes included.
        var keyText: String
        /// The value's JSON text.
        var text: String
    }

    /// `text` without white space outside strings.
    static func compact(_ text: String) -> String {
        var out: [UInt8] = []
        var inString = false
        var escaped = false
        for byte in text.utf8 {
            if inString {
                out.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if ![0x20, 0x0A, 0x0D, 0x09].contains(byte) {
                out.append(byte)
                if byte == UInt8(ascii: "\"") { inString = true }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The members of compact object text, in order, or nil when it is not an object.
    static func members(ofObject text: String) -> [Member]? {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        var members: [Member] = []
        var index = 1
        while index < bytes.count - 1 {
            let keyStart = index
            index = endOfValue(bytes, from: index)
            let keyText = String(decoding: bytes[keyStart..<index], as: UTF8.self)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            let valueStart = index
            index = endOfValue(bytes, from: index)
            members.append(Member(key: decode(keyText), keyText: keyText, text: String(decoding: bytes[valueStart..<index], as: UTF8.self)))
            if index < bytes.count - 1 {
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
        }
        return members
    }

    /// The elements of compact array text, in order, or nil when it is not an array.
    static func elements(ofArray text: String) -> [String]? {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return nil }
        var elements: [String] = []
        var index = 1
        while index < bytes.count - 1 {
            let start = index
            index = endOfValue(bytes, from: index)
            elements.append(String(decoding: bytes[start..<index], as: UTF8.self))
            if index < bytes.count - 1 {
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
        }
        return elements
    }

    /// The index just past the value starting at `start` in compact text.
    private static func endOfValue(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        var depth = 0
        var inString = false
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return index }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return index }
                if depth < 0 { return index - 1 }
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                if depth == 0 { return index - 1 }
            default: break
            }
        }
        return index
    }

    /// Compact text with every string re-spelled the way the library's writer spells strings.
    static func respelled(_ text: String) -> String {
        var out = ""
        var chars = Array(text.unicodeScalars)[...]
        while let scalar = chars.popFirst() {
            guard scalar == "\"" else {
                out.unicodeScalars.append(scalar)
                continue
            }
            var raw = "\""
            var escaped = false
            while let next = chars.popFirst() {
                raw.unicodeScalars.append(next)
                if escaped { escaped = false } else if next == "\\" { escaped = true } else if next == "\"" { break }
            }
            out += spell(decode(raw))
        }
        return out
    }

    /// Decodes a JSON string's text (quotes included).
    static func decode(_ quoted: String) -> String {
        var scalars = Array(quoted.unicodeScalars.dropFirst().dropLast())[...]
        var out = String.UnicodeScalarView()
        func hexQuad() -> UInt32 {
            let digits = String(String.UnicodeScalarView(scalars.prefix(4)))
            scalars = scalars.dropFirst(4)
            return UInt32(digits, radix: 16) ?? 0xFFFD
        }
        while let scalar = scalars.popFirst() {
            guard scalar == "\\", let code = scalars.popFirst() else {
                out.append(scalar)
                continue
            }
            switch code {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "b": out.append("\u{8}")
            case "f": out.append("\u{C}")
            case "u":
                var value = hexQuad()
                if (0xD800..<0xDC00).contains(value) {
                    scalars = scalars.dropFirst(2)  // \u
                    value = 0x10000 + ((value - 0xD800) << 10) + (hexQuad() - 0xDC00)
                }
                out.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            default: out.append(code)  // \" \\ \/
            }
        }
        return String(out)
    }

    /// `text` as the library's writer spells a string (documented in `JSONWriter.swift`).
    static func spell(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let digits = String(scalar.value, radix: 16)
                out += "\\u00" + (digits.count == 1 ? "0" : "") + digits
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
