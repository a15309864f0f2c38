import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// Hostile inputs: each ends in a value or a clear error, never a crash, a hang or
/// unbounded memory. The million-level nesting cases live with the scanner tests
/// (`JSONDocumentTests.swift`, `millionOpenBracketsOnASmallStack`); 100 MB documents and their
/// memory are measured in child processes (`HostileInputMemoryTests.swift`).
///
/// A debug build scales down the cases that would take it too long; each such case says so, and
/// runs at full size in an optimized build (`swift test -c release --filter HostileInput`) or
/// with `JSONMODELKIT_HOSTILE_FULL=1`.
@Suite("Hostile inputs", .timeLimit(.minutes(10)))
struct HostileInputTests {
    // MARK: - One object with a million keys

    final class ManyKeys: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.values([String: Int].self)
            p.first(Int.self, jsonPath: "values.k0")
            p.last(Int?.self, jsonPath: "values.k999999")
            p.absent(Int.self, jsonPath: "values.nope", default: -1)
            p.tail(String.self)
        }
    }

    /// Parses `{"values": {"k0": 0, …}, "tail": "end"}` with `count` keys and looks up every
    /// fourth key in the document; with `everything`, also in its `JSONValue`, and reads the
    /// model's dictionary of all of them. Returns whether every check held.
    static func manyKeysWorkload(count: Int, everything: Bool = true) -> Bool {
        let bytes = HostileInputs.object(keys: count)
        guard let document = try? JSONDocument(bytes: bytes), let values = document.root["values"] else { return false }
        var ok = values.count == count
        for index in stride(from: 0, to: count, by: 4) where values["k\(index)"]?.intValue != index {
            ok = false
        }
        ok = ok && values["k\(count)"] == nil && document.root["tail"]?.stringValue == "end"
        guard let model = try? ManyKeys(json: document.root) else { return false }
        let first: Int = model.first
        let tail: String = model.tail
        ok = ok && first == 0 && tail == "end"
        guard everything else { return ok }
        guard case .object(let object) = values.value else { return false }
        for index in stride(from: 1, to: count, by: 4) where object["k\(index)"]?.intValue != index {
            ok = false
        }
        let all: [String: Int] = model.values
        return ok && all.count == count && all["k\(count - 1)"] == count - 1 && model.jsonModel.diagnostics.isEmpty
    }

    /// A million keys: in a debug build the document lookups and a few model reads (the
    /// `JSONValue` and the model's million-entry dictionary are covered at a quarter of the size
    /// by the next test); everything at full size.
    @Test func millionKeysReadThroughDocumentValueAndModel() throws {
        let count = 1_000_000
        let (ok, seconds) = HostileInputs.threadCPUTime { Self.manyKeysWorkload(count: count, everything: HostileInputs.fullSize) }
        #expect(ok)
        print("hostile: 1,000,000-key object, parse + 250,000 lookups\(HostileInputs.fullSize ? " + JSONValue + model dictionary" : "") + model reads: \(HostileInputs.format(seconds)) s CPU")

        let model = try ManyKeys(json: HostileInputs.object(keys: count))
        let last: Int? = model.last
        let absent: Int = model.absent
        #expect(last == count - 1)
        #expect(absent == -1)
    }

    /// Lookups are not quadratic: four times the keys cost about four times the work.
    ///
    /// Measured as this thread's CPU time (other tests and builds on the two cores do not count),
    /// the best of a few runs at each size. Linear work gives a ratio near 4 (a little more, as
    /// larger tables miss the caches more often); a search per lookup gives 16 and up.
    @Test func millionKeyLookupsAreNotQuadratic() {
        let small = HostileInputs.fullSize ? 250_000 : 31_250
        let large = small * 4
        let smallTime = (0..<3).map { _ in HostileInputs.threadCPUTime { Self.manyKeysWorkload(count: small) }.seconds }.min()!
        let largeTime = (0..<2).map { _ in HostileInputs.threadCPUTime { Self.manyKeysWorkload(count: large) }.seconds }.min()!
        let ratio = largeTime / smallTime
        print("hostile: many keys, \(large) vs \(small) keys: \(HostileInputs.format(largeTime)) s / \(HostileInputs.format(smallTime)) s = \(HostileInputs.format(ratio))x (linear 4x, quadratic 16x)")
        #expect(ratio < 9, "4x the keys took \(ratio)x the time")
    }

    /// A million members with the same key (200,000 in a debug build): the last one wins, and
    /// replacing it is one pass.
    @Test func millionDuplicateKeys() throws {
        let count = HostileInputs.fullSize ? 1_000_000 : 200_000
        var bytes: [UInt8] = Array(#"{"values": {"#.utf8)
        bytes.reserveCapacity(count * 12)
        for index in 0..<count {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += #""a":"#.utf8
            HostileInputs.appendDecimal(index, to: &bytes)
        }
        bytes += #"}, "tail": "end"}"#.utf8
        let document = try JSONDocument(bytes: bytes)
        let values = try #require(document.root["values"])
        #expect(values.count == count)
        #expect(values["a"]?.intValue == count - 1)
        guard case .object(var object) = values.value else {
            Issue.record("not an object")
            return
        }
        #expect(object.count == count)
        #expect(object["a"]?.intValue == count - 1)
        object["a"] = 7
        #expect(object.count == 1 && object["a"]?.intValue == 7)

        let model = try ManyKeys(json: document.root, options: .mutable)
        let all: [String: Int] = model.values
        #expect(all == ["a": count - 1])
        model.tail = "changed"
        let output = try JSONDocument(bytes: model.jsonModel.jsonBytes())
        #expect(output.root["values"]?.count == count)
        #expect(output.root["tail"]?.stringValue == "changed")
    }

    // MARK: - Deep nesting through models

    final class Deep: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.a(JSONValue.self)
            p.inner(Deep?.self, jsonPath: "a", readOnly: true)
            p.n(Int.self, default: 5)
        }
    }

    /// The scanner's million-level cases (`JSONDocumentTests.swift`) through models, on a
    /// 512 KiB stack: a million levels is a `tooDeep` error; 500 levels (within the default
    /// limit) read, describe, write and output without recursing per level.
    @Test func deepDocumentsThroughModels() {
        let outcome = onSmallStackThread { () -> [String] in
            var results: [String] = []
            let million = Array(String(repeating: #"{"a":"#, count: 1_000_000).utf8)
            do throws(JSONModelError) {
                _ = try Deep(json: million)
                results.append("accepted")
            } catch .invalidJSON(let error) {
                results.append("\(error.kind)")
            } catch {
                results.append("\(error)")
            }
            let levels = 500
            let text = String(repeating: #"{"a":"#, count: levels) + "1" + String(repeating: "}", count: levels)
            guard let model = try? Deep(json: text, options: .mutable) else { return results + ["no model"] }
            let value: JSONValue = model.a
            var node: JSONValue? = value
            var depth = 0
            while case .object = node { node = node?["a"]; depth += 1 }
            results.append("depth \(depth)")
            // Nested models: each level is a lazily created Deep, read 100 levels down.
            var current: Deep? = model
            for _ in 0..<100 { current = current?.inner }
            results.append(current?.jsonModel.jsonString().count == (levels - 100) * 6 + 1 ? "nested ok" : "nested \(current?.jsonModel.jsonString().count ?? -1)")
            results.append(model.jsonModel.fullDescription.isEmpty ? "no description" : "described")
            model.n = 6
            let output = model.jsonModel.jsonBytes()
            let again = try? JSONDocument(bytes: output)
            results.append(again?.depth == levels ? "written" : "lost depth \(again?.depth ?? -1)")
            return results
        }
        #expect(outcome == ["tooDeep(limit: 512)", "depth 499", "nested ok", "described", "written"])
    }

    // MARK: - Ten million escapes

    final class Text: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.text(String.self)
            p.other(Int.self, default: 1)
        }
    }

    /// `\n`, `\u00e9` and a surrogate pair `\ud83d\ude00`: four escapes, three characters.
    static let escapePattern = #"\n\u00e9\ud83d\ude00"#
    static let decodedPattern = "\n\u{E9}\u{1F600}"

    @Test func tenMillionEscapes() throws {
        let escapes = HostileInputs.fullSize ? 10_000_000 : 2_000_000
        let repeats = escapes / 4
        let bytes = HostileInputs.repeated(Self.escapePattern, times: repeats, prefix: #"{"text": ""#, suffix: #"", "n": 1}"#)
        let expected = String(repeating: Self.decodedPattern, count: repeats)
        let (decoded, seconds) = try HostileInputs.threadCPUTime { () throws -> String? in
            let document = try JSONDocument(bytes: bytes)
            return document.root["text"]?.stringValue
        }
        print("hostile: string of \(escapes) escapes (\(bytes.count / 1_000_000) MB), parse + decode: \(HostileInputs.format(seconds)) s CPU")
        #expect(decoded == expected)

        // Through a model: the read decodes the same; the untouched output keeps the escapes.
        let model = try Text(json: bytes)
        let text: String = model.text
        #expect(text == expected)
        #expect(model.jsonModel.jsonBytes() == Array(#"{"text":""#.utf8) + Array(bytes[10..<(bytes.count - 10)]) + Array(#"","n":1}"#.utf8))
        // Written back by the value writer (escapes only where JSON needs them) and read again.
        let rewritten = try JSONDocument(bytes: JSONValue.string(expected).jsonBytes())
        #expect(rewritten.root.stringValue == expected)
    }

    /// Escapes that are wrong only at the very end of a long run are found there.
    @Test func longEscapeRunWithABadEnd() {
        let repeats = 50_000
        let prefix = #"[""#
        for (tail, kind) in [
            (#"\ud83d""#, JSONParseError.Kind.loneSurrogate),
            (#"\ude00""#, .loneSurrogate),
            (#"\ud83d\u0041""#, .loneSurrogate),
            (#"\u00g0""#, .invalidUnicodeEscape),
            (#"\x""#, .invalidEscape),
        ] {
            let bytes = HostileInputs.repeated(Self.escapePattern, times: repeats, prefix: prefix, suffix: tail + "]")
            // Every error is reported at the backslash of the bad escape.
            let expectedOffset = prefix.utf8.count + repeats * Self.escapePattern.utf8.count
            do {
                _ = try JSONDocument(bytes: bytes)
                Issue.record("accepted a string ending in \(tail)")
            } catch {
                #expect(error.kind == kind, "\(tail)")
                #expect(error.offset == expectedOffset, "\(tail): \(error.offset) != \(expectedOffset)")
            }
        }
    }

    // MARK: - Numbers with 100,000 digits

    final class Numbers: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            // Every kind of property over the same number; one may write it.
            p.int(Int.self, jsonPath: "n")
            p.int64(Int64?.self, jsonPath: "n", readOnly: true)
            p.uint64(UInt64?.self, jsonPath: "n", readOnly: true)
            p.double(Double.self, jsonPath: "n", readOnly: true)
            p.float(Float?.self, jsonPath: "n", readOnly: true)
            p.decimal(Decimal?.self, jsonPath: "n", readOnly: true)
            p.string(String.self, jsonPath: "n", readOnly: true)
            p.raw(JSONValue.self, jsonPath: "n", readOnly: true)
            p.date(Date?.self, jsonPath: "n", readOnly: true, dateFormat: .secondsSince1970)
            p.bool(Bool?.self, jsonPath: "n", readOnly: true)
        }
    }

    static let digits = 100_000

    /// Number texts with 100,000 digits in the integer part, the fraction or the exponent, and
    /// what each must read as.
    static let hugeNumbers: [(name: String, text: String, int64: Int64?, double: Double)] = {
        let nines = String(repeating: "9", count: digits)
        let zeros = String(repeating: "0", count: digits)
        let sevens = String(repeating: "7", count: digits)
        return [
            ("integer", "1" + sevens, nil, .infinity),
            ("negative integer", "-" + sevens, nil, -.infinity),
            ("power of ten", "1" + zeros, nil, .infinity),
            ("fraction", "0." + sevens, nil, 0.7777777777777778),
            ("long zero fraction", "1." + zeros, 1, 1),
            ("exponent", "1e" + nines, nil, .infinity),
            ("negative exponent", "-2.5E-" + nines, nil, -0.0),
            ("all three", "9" + nines + "." + nines + "e-" + nines, nil, 0),
            // Exactly 1 and 10, spelled with 100,000 digits.
            ("one", "0." + String(zeros.dropLast()) + "1e" + String(digits), 1, 1),
            ("ten", "1" + zeros + "e-" + String(digits - 1), 10, 10),
        ]
    }()

    /// Reading a number's value takes time in proportion to its digits.
    @Test func longNumbersReadInLinearTime() throws {
        try Scaling.expectLinear(from: 25_000, "reading a number of n digits as Int64, Double and text") { digits in
            let nines = String(repeating: "9", count: digits)
            let document = try JSONDocument(string: #"{"n": "# + nines + "." + nines + "e-" + nines + "}")
            let node = try #require(document.root["n"])
            _ = (node.int64Value, node.doubleValue, node.value.jsonString())
        }
    }

    @Test func hundredThousandDigitNumbersReadAsValues() throws {
        for (name, text, int64, double) in Self.hugeNumbers {
            let json = #"{"n": "# + text + "}"
            let (outcome, seconds) = try HostileInputs.threadCPUTime { () throws -> Bool in
                let document = try JSONDocument(string: json)
                let node = try #require(document.root["n"])
                #expect(node.numberText == text, "\(name)")
                #expect(node.int64Value == int64, "\(name)")
                let value = try #require(node.doubleValue)
                #expect(value == double && value.sign == double.sign, "\(name): \(value)")
                // Exact-value equality and hashing work on the full text.
                let number = try #require(node.numberValue)
                #expect(number == number && number.hashValue == JSONNumber(text: text)?.hashValue, "\(name)")
                #expect(node.value.jsonString() == text, "\(name)")
                return true
            }
            #expect(outcome)
            print("hostile: \(name): \(text.utf8.count) bytes of number read in \(HostileInputs.format(seconds)) s CPU")

            // Model reads: a value where the number fits (integers rounded half away from zero,
            // with a "lossy" diagnostic), else the default and a diagnostic at `n`.
            let model = try Numbers(json: json)
            let rounded: Int64? = int64 ?? (double.isFinite && double.magnitude < 9e18 ? Int64(double.rounded(.toNearestOrAwayFromZero)) : nil)
            let int: Int = model.int
            let int64Read: Int64? = model.int64
            let doubleRead: Double = model.double
            let decimal: Decimal? = model.decimal
            let string: String = model.string
            let raw: JSONValue = model.raw
            let date: Date? = model.date
            let bool: Bool? = model.bool
            _ = model.uint64 as UInt64?
            _ = model.float as Float?
            #expect(int == Int(rounded ?? 0), "\(name)")
            #expect(int64Read == rounded, "\(name)")
            #expect(doubleRead == (double.isFinite ? double : 0), "\(name)")
            #expect(string == text && raw.numberValue?.text == text, "\(name)")
            // Seconds as a `Double` property reads them, when that is a date.
            let asSeconds = double.isFinite && double.magnitude < DateFormat.epochLimit ? Date(timeIntervalSince1970: double) : nil
            #expect(date == asSeconds, "\(name)")
            #expect(bool == (int64 == 1 ? true : int64 == 0 ? false : nil), "\(name)")
            #expect(model.jsonModel.diagnostics.allSatisfy { $0.path == "n" }, "\(name)")
            #expect(model.jsonModel.jsonString() == #"{"n":"# + text + "}", "\(name)")
            print("hostile: 100,000-digit \(name): Decimal \(decimal.map { "\($0)".prefix(24) + "…" } ?? "nil"), \(model.jsonModel.diagnostics.count) diagnostics, \(HostileInputs.format(seconds)) s CPU")
        }
    }

    /// Regression: a Bool read from a number was decided through `Double`, so
    /// `-2.5e-100000` read as false; only numbers exactly 0 or 1 count now.
    @Test func boolFromANumberIsExact() throws {
        let model = try Numbers(json: #"{"n": 1e-400}"#)
        #expect(model.bool as Bool? == nil)
        #expect(try Numbers(json: #"{"n": 1.00000000000000000000001}"#).bool as Bool? == nil)
        #expect(try Numbers(json: #"{"n": 10e-1}"#).bool as Bool? == true)
        #expect(try Numbers(json: #"{"n": -0.0}"#).bool as Bool? == false)
    }

    @Test func hundredThousandDigitNumbersThatAreNotNumbers() {
        let digits = String(repeating: "5", count: Self.digits)
        for (text, offset) in [
            ("0" + digits, 1),  // leading zero
            ("-" + digits + ".", 1),  // no fraction digits
            (digits + "e", 1),  // no exponent digits
            (digits + "e+", 1),
            ("1." + digits + "x", 1),
        ] {
            let bytes = Array(("[" + text + "]").utf8)
            do {
                _ = try JSONDocument(bytes: bytes)
                Issue.record("accepted \(text.prefix(8))… of \(text.utf8.count) bytes")
            } catch {
                switch error.kind {
                case .invalidNumber: #expect(error.offset == offset)
                case .unexpectedByte: #expect(error.offset == bytes.count - 2)  // the 'x'
                default: Issue.record("\(text.prefix(8))…: \(error.kind)")
                }
            }
        }
    }

    // MARK: - Invalid UTF-8 at every position

    /// A small document with every kind of token and multi-byte characters in keys and values.
    static let smallDocument = Array(#"{"name": "Zoë", "tags": ["a", "€", "😀"], "n": -12.5e3, "ok": true, "nil": null, "k\u00e9": [0]}"#.utf8)

    /// Invalid byte sequences: a lone continuation byte, bytes never in UTF-8, an overlong `/`,
    /// an encoded surrogate, a code point above U+10FFFF, and a lead byte missing its last
    /// continuation byte.
    static let badSequences: [[UInt8]] = [[0x80], [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]]

    /// Inserts every bad sequence before every byte of the document (and at its end), and
    /// overwrites every byte with 0x80 and 0xFF: each is an error at the right place, or, in one
    /// documented case, valid text.
    ///
    /// - In a string, at a character boundary: `invalidUTF8` at exactly that byte.
    /// - Splitting a multi-byte character: `invalidUTF8` within the broken character (a
    ///   continuation byte may pair with the lead byte into another valid character, so the
    ///   first bad byte can come later).
    /// - Inside an escape: an escape error at its backslash.
    /// - Outside strings: at the byte, or at the start of the number or literal it broke
    ///   (`tr\x80ue` is an invalid literal at its `t`).
    /// - Accepted: overwriting a continuation byte with 0x80 can give another valid character
    ///   (`ë`, C3 AB, becomes `À`, C3 80). That is well-formed UTF-8, so it is not an error.
    @Test func invalidUTF8AtEveryPosition() throws {
        let document = Self.smallDocument
        let roles = ByteRoles(document)
        var errors = 0
        var accepted = 0
        for position in 0...document.count {
            for bad in Self.badSequences {
                var bytes = document
                bytes.insert(contentsOf: bad, at: position)
                let outcome = Self.outcome(of: bytes)
                if case .failure(let error) = outcome {
                    errors += 1
                    let expected = roles.expectation(insertingAt: position, count: bad.count)
                    #expect(expected.accepts(error), "\(bad) inserted at \(position): \(error); expected \(expected)")
                } else {
                    Issue.record("accepted \(bad) inserted at \(position)")
                }
            }
        }
        for position in 0..<document.count {
            for byte: UInt8 in [0x80, 0xFF] {
                var bytes = document
                bytes[position] = byte
                let expected = roles.expectation(overwriting: position, with: byte)
                switch Self.outcome(of: bytes) {
                case .failure(let error):
                    errors += 1
                    #expect(expected.accepts(error), "\(byte) written at \(position): \(error); expected \(expected)")
                case .success:
                    accepted += 1
                    #expect(expected.mayBeValid, "accepted \(byte) written at \(position)")
                }
            }
        }
        #expect(errors + accepted == (document.count + 1) * Self.badSequences.count + document.count * 2)
        #expect(accepted <= 8)
        print("hostile: invalid UTF-8 at every position of a \(document.count)-byte document: \(errors) errors, \(accepted) documented acceptances")
    }

    /// Regression (found by the differential fuzzer's smoke run): Foundation skips a
    /// UTF-8 byte order mark and reads `{}`; we reject it at byte 0. RFC 8259 (section 8.1)
    /// forbids sending one and lets parsers choose; we stay strict, as for other encodings.
    @Test func utf8ByteOrderMarkIsRejected() {
        for bytes: [UInt8] in [[0xEF, 0xBB, 0xBF, 0x7B, 0x7D], [0xEF, 0xBB, 0xBF], [0xEF, 0xBB, 0x7B, 0x7D]] {
            guard case .failure(let error) = Self.outcome(of: bytes) else {
                Issue.record("accepted \(bytes)")
                continue
            }
            #expect(error.kind == .unexpectedByte(0xEF) && error.offset == 0, "\(bytes): \(error)")
        }
    }

    /// Parses `bytes` as a document and as a model, which must agree.
    static func outcome(of bytes: [UInt8]) -> Result<Void, JSONParseError> {
        let result: Result<Void, JSONParseError>
        do throws(JSONParseError) {
            _ = try JSONDocument(bytes: bytes)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        do {
            _ = try ManyKeys(json: bytes)
            #expect(throws: Never.self) { try result.get() }
        } catch .invalidJSON(let error) {
            #expect(throws: error) { try result.get() }
        } catch {
            Issue.record("the model threw \(error)")
        }
        return result
    }

    /// What a valid document's byte is, for placing errors caused by breaking it.
    struct ByteRoles {
        enum Role: Equatable {
            /// White space, punctuation, an opening quote, or the end of the input.
            case outside
            /// A byte of a number or a literal that starts at `start`.
            case word(start: Int)
            /// A byte of a string character (the closing quote included) that starts at `start`
            /// and ends before `end`.
            case character(start: Int, end: Int)
            /// A byte of an escape sequence that starts at `start`.
            case escape(start: Int)
        }

        /// Where the first error must be, and of what kind.
        struct Expectation: CustomStringConvertible {
            var offsets: ClosedRange<Int>
            var alsoAt: Int?
            var kinds: [JSONParseError.Kind]?
            var mayBeValid = false

            func accepts(_ error: JSONParseError) -> Bool {
                (offsets.contains(error.offset) || error.offset == alsoAt) && (kinds?.contains(error.kind) ?? true)
            }

            var description: String {
                "offset in \(offsets)\(alsoAt.map { " or \($0)" } ?? ""), kind \(kinds.map { "\($0)" } ?? "any")"
            }
        }

        let roles: [Role]

        init(_ bytes: [UInt8]) {
            var roles: [Role] = []
            var index = 0
            var inString = false
            while index < bytes.count {
                let byte = bytes[index]
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        let length = bytes[index + 1] == UInt8(ascii: "u") ? 6 : 2
                        roles += Array(repeating: .escape(start: index), count: length)
                        index += length
                        continue
                    }
                    let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                    roles += Array(repeating: .character(start: index, end: index + length), count: length)
                    if byte == UInt8(ascii: "\"") { inString = false }
                    index += length
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = true }
                let isWord = byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                if isWord, index > 0, case .word(let start) = roles[index - 1] {
                    roles.append(.word(start: start))
                } else {
                    roles.append(isWord ? .word(start: index) : .outside)
                }
                index += 1
            }
            roles.append(.outside)  // the end of the input
            self.roles = roles
        }

        private static let escapeKinds: [JSONParseError.Kind] = [.invalidEscape, .invalidUnicodeEscape]

        func expectation(insertingAt position: Int, count: Int) -> Expectation {
            switch roles[position] {
            case .character(let start, let end) where start == position:
                _ = end
                return Expectation(offsets: position...position, kinds: [.invalidUTF8])
            case .character(let start, let end):
                return Expectation(offsets: start...(end + count - 1), kinds: [.invalidUTF8])
            case .escape(let start) where start == position:
                return Expectation(offsets: position...position, kinds: [.invalidUTF8])
            case .escape(let start):
                return Expectation(offsets: start...start, kinds: Self.escapeKinds)
            case .outside, .word:
                if position > 0, case .word(let start) = roles[position - 1] {
                    return Expectation(offsets: position...position, alsoAt: start)
                }
                return Expectation(offsets: position...position)
            }
        }

        func expectation(overwriting position: Int, with byte: UInt8) -> Expectation {
            switch roles[position] {
            case .character(let start, _):
                // Another continuation byte in place of a continuation byte can be valid.
                var expectation = Expectation(offsets: start...start, kinds: [.invalidUTF8])
                expectation.mayBeValid = position != start && byte == 0x80
                return expectation
            case .escape(let start) where start == position:
                return Expectation(offsets: position...position, kinds: [.invalidUTF8])
            case .escape(let start):
                return Expectation(offsets: start...start, kinds: Self.escapeKinds)
            case .word(let start):
                return Expectation(offsets: position...position, alsoAt: start)
            case .outside:
                return Expectation(offsets: position...position)
            }
        }
    }
}
