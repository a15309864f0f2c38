import Foundation
import Testing
@testable import JSONModelKitCore
#if canImport(Glibc)
import Glibc
#endif
import JSONModelKitTestSupport

@Suite("Scanning and validation")
struct ScanningTests {
    func parse(_ text: String, _ options: JSONParseOptions = JSONParseOptions()) throws -> JSONDocument {
        try JSONDocument(string: text, options: options)
    }

    func failure(_ text: String, _ options: JSONParseOptions = JSONParseOptions()) -> JSONParseError? {
        do {
            _ = try JSONDocument(string: text, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func topLevelScalars() throws {
        #expect(try parse("true").root.boolValue == true)
        #expect(try parse(" null ").root.isNull)
        #expect(try parse("\"x\"").root.stringValue == "x")
        #expect(try parse("-0").root.numberText == "-0")
        #expect(try parse("0e1").root.doubleValue == 0)
    }

    @Test func emptyContainers() throws {
        let document = try parse(#"{"a": [], "b": {}}"#)
        #expect(document.root["a"]?.count == 0)
        #expect(document.root["b"]?.kind == .object)
        #expect(document.root["b"]?.count == 0)
        #expect(document.valueCount == 3)
        #expect(document.depth == 2)
    }

    @Test(arguments: [
        "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[-]", "[1e]", "[+1]", "[NaN]", "[Infinity]",
        "['a']", "[\"a\tb\"]", "[\"\\x\"]", "[\"\\u12\"]", "[\"\\uD800\"]", "[\"\\uDC00\"]",
        "[\"\\uD800\\u0041\"]", "// c\n1", "[1 2]", "{\"a\" 1}", "{1: 2}", "[", "{", "\"abc", "[tru]",
        "", "   ", "1 2", "[1]]", "{\"a\":1}}", "nul",
    ])
    func rejects(_ text: String) {
        #expect(failure(text) != nil, "accepted \(text.debugDescription)")
    }

    @Test func invalidUTF8IsRejectedEverywhere() throws {
        let bad: [[UInt8]] = [
            [0xC0, 0xAF],  // overlong "/"
            [0xE0, 0x80, 0xAF],  // overlong
            [0xED, 0xA0, 0x80],  // encoded surrogate U+D800
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xFF],
            [0x80],  // lone continuation
            [0xE2, 0x82],  // truncated
        ]
        for sequence in bad {
            let inString = Array("[\"ab".utf8) + sequence + Array("cd\"]".utf8)
            #expect(throws: JSONParseError.self) { try JSONDocument(bytes: inString) }
            let outside = Array("[".utf8) + sequence + Array("]".utf8)
            #expect(throws: JSONParseError.self) { try JSONDocument(bytes: outside) }
        }
        let good = Array("[\"é€😀\"]".utf8)
        #expect(try JSONDocument(bytes: good).root[0]?.stringValue == "é€😀")
    }

    /// Found by the differential fuzzer: Foundation guesses UTF-32 from these NUL bytes and
    /// accepts "2"; JSON between systems must be UTF-8 (RFC 8259, 8.1), so this is an error.
    @Test func otherEncodingsAreNotGuessed() {
        for bytes: [UInt8] in [[0, 0, 0, 0x32, 0x0D], [0xFE, 0xFF, 0, 0x32], [0x32, 0]] {
            #expect(throws: JSONParseError.self) { try JSONDocument(bytes: bytes) }
        }
        #expect(failure("\u{0}1")?.kind == .unexpectedByte(0))
    }

    @Test func errorKindsAndPositions() throws {
        let text = "{\n  \"a\": 1,\n  \"b\": 2,}\n"
        let error = try #require(failure(text))
        #expect(error.kind == .trailingComma)
        #expect(error.line == 3)
        #expect(error.column == 9)
        #expect(error.offset == 20)
        #expect(error.description.contains("line 3, column 9"))
        #expect(error.description.contains("trailing comma"))
        #expect(error.excerpt.contains("\"b\": 2,}"))

        #expect(failure("[1, 2")?.kind == .unexpectedEnd)
        #expect(failure("[\"\\uD800x\"]")?.kind == .loneSurrogate)
        #expect(failure("[\"\\q\"]")?.kind == .invalidEscape)
        #expect(failure("[\"\\u00G0\"]")?.kind == .invalidUnicodeEscape)
        #expect(failure("[\"a\u{01}\"]")?.kind == .controlCharacterInString)
        #expect(failure("[01]")?.kind == .invalidNumber)
        #expect(failure("1 x")?.kind == .trailingContent)
        #expect(failure("")?.kind == .emptyInput)
        #expect(failure("[}")?.kind == .unexpectedByte(UInt8(ascii: "}")))
        let literal = try #require(failure("{\"price\": twelve}"))
        #expect(literal.kind == .invalidLiteral)
        #expect(literal.column == 11)
    }

    @Test func columnsCountScalarsNotBytes() throws {
        let error = try #require(failure("[\"é\", x]"))
        #expect(error.column == 7)
        #expect(error.offset == 7)
    }

    @Test func leniencyFlags() throws {
        let lenient = JSONParseOptions(allowsTrailingCommas: true, allowsComments: true)
        let document = try parse("// head\n[1, /* two */ 2, {\"a\": 3,},]", lenient)
        #expect(document.root.count == 3)
        #expect(document.root[2]?["a"]?.intValue == 3)
        #expect(failure("[1 /* open", lenient)?.kind == .unexpectedEnd)
    }

    /// Compact JSON has the colon right after a key and the separator or closer right after a
    /// value, and the scan checks for those first; white space, comments and the end of the
    /// input in those places still take the general path, with the same results and errors.
    @Test func colonsAndSeparatorsWithAndWithoutSpace() throws {
        let compact = try parse(#"{"a":1,"b":[true,"x"],"c":{}}"#)
        let spaced = try parse("{ \"a\" :\t1 ,\n\"b\" : [ true , \"x\" ] , \"c\" : { } }")
        for document in [compact, spaced] {
            #expect(document.root["a"]?.intValue == 1)
            #expect(document.root["b"]?[1]?.stringValue == "x")
            #expect(document.root["c"]?.count == 0)
            #expect(document.root.count == 3)
        }
        let commented = try parse(#"{"a"/* k */:1/* v */,"b":[2/* e */]}"#, JSONParseOptions(allowsComments: true))
        #expect(commented.root["a"]?.intValue == 1)
        #expect(commented.root["b"]?[0]?.intValue == 2)
        #expect(failure(#"{"a"/* k */:1}"#)?.kind == .unexpectedByte(UInt8(ascii: "/")))
        #expect(failure(#"{"a""#)?.kind == .unexpectedEnd)
        #expect(failure(#"{"a":1"#)?.kind == .unexpectedEnd)
        #expect(failure(#"{"a" 1}"#)?.kind == .unexpectedByte(UInt8(ascii: "1")))
        #expect(failure("[1 2]")?.kind == .unexpectedByte(UInt8(ascii: "2")))
        #expect(failure("[1,]")?.kind == .trailingComma)
    }

    /// The scan is compiled once for input with comments and once without, and the quick checks
    /// for white space look for a slash only in the first. A comment where those checks run
    /// (after one space, after a colon, after a comma at the indent of the values before it)
    /// parses where comments are allowed, and is an unexpected slash, at its offset, where not.
    @Test func aCommentWhereTheQuickWhitespaceChecksRun() throws {
        let documents: [(text: String, without: String)] = [
            ("{\"a\": /* c */1}", #"{"a":1}"#),
            ("{\"a\":/* c */ 1}", #"{"a":1}"#),
            ("{\"a\": 1, /* c */\"b\": 2}", #"{"a":1,"b":2}"#),
            ("[ /* c */1]", "[1]"),
            ("[1, /* c */2]", "[1,2]"),
            ("[1,// c\n2]", "[1,2]"),
            ("{\n  \"a\": 1,\n  \"b\": 2,\n  /* c */\"c\": 3\n}", #"{"a":1,"b":2,"c":3}"#),
            ("[\n    1,\n    2,\n    // c\n    3\n]", "[1,2,3]"),
            ("[\n    1,\n    2,\n    /**/3\n]", "[1,2,3]"),
        ]
        let comments = JSONParseOptions(allowsComments: true)
        for (document, without) in documents {
            // Blocks of sixteen bytes go on past every comment, so the indent's guess is tried.
            let text = document + String(repeating: " ", count: 16)
            #expect(try parse(text, comments).root.value == parse(without).root.value, "\(text)")
            let slash = Array(text.utf8).firstIndex(of: UInt8(ascii: "/"))!
            let error = failure(text)
            #expect(error?.kind == .unexpectedByte(UInt8(ascii: "/")) && error?.offset == slash, "\(text): \(String(describing: error))")
        }
    }

    @Test func depthLimit() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try parse(ok).depth == 512)
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(failure(deep)?.kind == .tooDeep(limit: 512))
        #expect(failure(String(repeating: "[", count: 513))?.kind == .tooDeep(limit: 512))
        #expect(try parse("[[1]]", JSONParseOptions(maxDepth: 2)).depth == 2)
        #expect(failure("[[[1]]]", JSONParseOptions(maxDepth: 2))?.kind == .tooDeep(limit: 2))
    }

    /// A value scanned at the start of a buffer keeps its bytes after its tape, in one
    /// allocation: every length modulo a word, a string that ends the value, bytes longer than
    /// the scratch buffer, and a tape too long for it (kept apart then) read back what a
    /// document of the same bytes reads.
    #if canImport(Glibc)
    /// A tape that grew past the storage it started with gives the rest back, down to its
    /// words; one that did not keeps that storage, which the next document of its size can be
    /// handed again (glibc's `malloc_usable_size` says how much a block holds), for sparse and
    /// dense input on both sides of 1 MiB.
    @Test(arguments: [(20_000, false), (20_000, true), (3_000_000, false), (3_000_000, true)])
    func aTapeThatGrewIsCutToItsSize(bytes: Int, dense: Bool) throws {
        let element = dense ? "0," : #"{"name": "a record of a few words", "id": 1},"#
        let text = "[" + String(repeating: element, count: bytes / element.utf8.count) + "0]"
        let document = try parse(text)
        // Found with `dlsym`: the C library's module does not declare it.
        let usableSize = try #require(dlsym(nil, "malloc_usable_size"))
        let held = unsafeBitCast(usableSize, to: (@convention(c) (UnsafeMutableRawPointer?) -> Int).self)(UnsafeMutableRawPointer(document.tape.base))
        let started = (text.utf8.count / (text.utf8.count < JSONDocument.sparseTapeLimit ? 4 : 8) + 16) * 8
        #expect(held >= document.tapeByteCount)
        if dense {
            #expect(document.tapeByteCount > started, "dense input outgrows the tape it starts with")
            #expect(held < document.tapeByteCount + 8192, "\(held) bytes held for a tape of \(document.tapeByteCount)")
        } else {
            #expect(document.tapeByteCount <= started, "sparse input fits the tape it starts with")
            #expect(held >= started && held < started + 8192, "\(held) bytes held, \(started) started with")
        }
    }
    #endif

    @Test func aValueScannedFirstKeepsItsBytesAfterItsTape() throws {
        var texts: [String] = []
        for pad in 0..<9 { texts.append("{\"k\": \"\(String(repeating: "é", count: pad))x\", \"n\": [1, 2.5, true, null]}") }
        texts.append("\"a string alone ends here\"")
        texts.append("12345")
        texts.append("\"" + String(repeating: "x", count: 1024 * 8) + "\"")
        texts.append("[" + (0..<3000).map { "[\($0)]" }.joined(separator: ",") + "]")
        let scratch = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 1024)
        defer { scratch.deallocate() }
        for text in texts {
            let expected = try JSONDocument(string: text)
            let bytes = Array((text + " ,\"after\"").utf8)
            let scanned = try bytes.withUnsafeBufferPointer { buffer in
                try JSONDocument.scanningFirstValue(of: buffer, options: JSONParseOptions(), scratch: scratch)
            }
            #expect(scanned.length == text.utf8.count, "\(text.prefix(40))")
            let document = scanned.document
            #expect(document.byteCount == text.utf8.count, "\(text.prefix(40))")
            #expect(document.tapeByteCount == expected.tapeByteCount, "\(text.prefix(40))")
            #expect(document.root.jsonBytes() == expected.root.jsonBytes(), "\(text.prefix(40))")
            #expect(document.root.value == expected.root.value, "\(text.prefix(40))")
            if case .afterTape = document.storage {
                #expect(expected.tapeByteCount <= 1024 * 8, "\(text.prefix(40)): kept after a tape that could not fit")
            } else {
                #expect(expected.tapeByteCount > 1024 * 8, "\(text.prefix(40)): kept apart though its tape fit")
            }
        }
    }

    @Test func millionOpenBracketsOnASmallStack() {
        let outcome = onSmallStackThread { () -> String in
            let arrays = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
            let objects = Array(String(repeating: "{\"a\":", count: 1_000_000).utf8)
            var kinds: [String] = []
            for input in [arrays, objects] {
                do throws(JSONParseError) {
                    _ = try JSONDocument(bytes: input)
                    kinds.append("accepted")
                } catch {
                    kinds.append("\(error.kind)")
                }
            }
            return kinds.joined(separator: ",")
        }
        #expect(outcome == "tooDeep(limit: 512),tooDeep(limit: 512)")
    }

    @Test func millionLevelsWithARaisedLimitParseWriteAndFree() {
        let ok = onSmallStackThread { () -> Bool in
            let levels = 1_000_000
            let text = [UInt8](repeating: UInt8(ascii: "["), count: levels) + [UInt8](repeating: UInt8(ascii: "]"), count: levels)
            guard let document = try? JSONDocument(bytes: text, options: JSONParseOptions(maxDepth: levels)) else {
                return false
            }
            var node = document.root
            for _ in 0..<(levels - 1) { node = node[0]! }
            return document.depth == levels && node.count == 0 && document.root.jsonBytes() == text
        }
        #expect(ok)
    }

    /// A large document as dense as JSON gets, `[0,0,…]`, needs four times the tape a typical
    /// one starts with: the tape grows in the pages reserved for it (on Linux, from a 2 MiB
    /// boundary) and keeps every value. The size is one where doubling the tape twice passes the
    /// page-rounded reservation by a few hundred bytes: the last growth stops at its end.
    @Test func theDensestLargeDocumentGrowsItsTapeInItsOwnPages() throws {
        let count = 8_389_103
        var text = [UInt8](repeating: UInt8(ascii: ","), count: count * 2 + 1)
        text[0] = UInt8(ascii: "[")
        for index in 0..<count { text[1 + index * 2] = UInt8(ascii: "0") + UInt8(index % 10) }
        text[text.count - 1] = UInt8(ascii: "]")
        let document = try JSONDocument(bytes: text)
        #expect(document.root.count == count)
        #expect(document.tape.count == count + 1)
        #expect(document.root[count - 1]?.intValue == (count - 1) % 10)
        #expect(document.root[count / 2]?.intValue == (count / 2) % 10)
        #if os(Linux)
        let base = document.tape.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress!) }
        #expect(base % DocumentPages.hugePage == 0, "the tape does not start on a huge page")
        let pages = try #require(document.tape.pages, "the tape is not in pages of its own")
        #expect(pages.usable >= (count + 1) * 8 && pages.bytes >= pages.usable)
        #endif
    }
}

@Suite("Reading values")
struct ReadingTests {
    @Test func exactNumbers() throws {
        let document = try JSONDocument(string: "[9007199254740993, 12345678901234567890, -9223372036854775808, 0.1, 1e400, 1.0, 1e2, 2.5, -0, 18446744073709551616]")
        let root = document.root
        #expect(root[0]?.int64Value == 9_007_199_254_740_993)
        #expect(root[1]?.uint64Value == 12_345_678_901_234_567_890)
        #expect(root[1]?.int64Value == nil)
        #expect(root[1]?.numberText == "12345678901234567890")
        #expect(root[2]?.int64Value == Int64.min)
        #expect(root[3]?.doubleValue == 0.1)
        #expect(root[3]?.intValue == nil)
        #expect(root[4]?.doubleValue == .infinity)
        #expect(root[4]?.numberText == "1e400")
        #expect(root[5]?.intValue == 1)
        #expect(root[6]?.intValue == 100)
        #expect(root[7]?.intValue == nil)
        #expect(root[8]?.intValue == 0)
        #expect(root[9]?.uint64Value == nil)
        #expect(root[9]?.doubleValue == 18446744073709551616)
    }

    @Test(arguments: [
        "0.1", "1e-7", "123456789012345678901234567890", "2.2250738585072011e-308", "4.9e-324",
        "1.7976931348623157e308", "0.30000000000000004", "9007199254740993", "1e23", "8.41e21",
        "-1.5e-5", "3.14159265358979323846264338327950288",
    ])
    func doublesAreCorrectlyRounded(_ text: String) throws {
        let document = try JSONDocument(string: text)
        #expect(document.root.doubleValue == Double(text)!)
    }

    @Test func escapesAndSurrogates() throws {
        let document = try JSONDocument(string: #"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20AC", "\ud83d\ude00", "plain", "\u0000"]"#)
        #expect(document.root[0]?.stringValue == "a\"b\\c/d\u{08}\u{0C}\n\r\t")
        #expect(document.root[1]?.stringValue == "é€")
        #expect(document.root[2]?.stringValue == "😀")
        #expect(document.root[3]?.stringValue == "plain")
        #expect(document.root[4]?.stringValue == "\u{0}")
        #expect(document.root[0]?.kind == .string)
        #expect(document.root[0]?.numberText == nil)
    }

    /// Escaped scalars at each end of every UTF-8 length, alone and between text and other
    /// escapes, decode to the scalar.
    @Test func escapedScalarsOfEveryUTF8Length() throws {
        let scalars: [UInt32] = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x1_0000,
                                 0x1_F600, 0x10_FFFF]
        func escaped(_ value: UInt32) -> String {
            func quad(_ unit: UInt32) -> String {
                let hex = String(unit, radix: 16)
                return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            guard value >= 0x1_0000 else { return quad(value) }
            return quad(0xD800 + (value - 0x1_0000) >> 10) + quad(0xDC00 + (value - 0x1_0000) & 0x3FF)
        }
        for value in scalars {
            let character = String(Unicode.Scalar(value)!)
            for (json, expected) in [
                (escaped(value), character), ("a" + escaped(value) + "b", "a" + character + "b"),
                (escaped(value) + escaped(value) + "\\n", character + character + "\n"),
                ("long text before it " + escaped(value), "long text before it " + character),
            ] {
                let document = try JSONDocument(string: "\"" + json + "\"")
                #expect(document.root.stringValue == expected, "\(json)")
                #expect(document.root.stringValue?.utf8.elementsEqual(expected.utf8) == true)
            }
        }
    }

    @Test func duplicateKeysLastWinsIterationKeepsAll() throws {
        let document = try JSONDocument(string: #"{"a": 1, "b": 2, "a": 3}"#)
        #expect(document.root["a"]?.intValue == 3)
        #expect(document.root.count == 3)
        #expect(document.root.members.map(\.key) == ["a", "b", "a"])
        #expect(document.root.jsonString() == #"{"a":1,"b":2,"a":3}"#)
    }

    @Test func escapedKeysMatch() throws {
        let document = try JSONDocument(string: #"{"caf\u00e9": 1, "a\"b": 2}"#)
        #expect(document.root["café"]?.intValue == 1)
        #expect(document.root["a\"b"]?.intValue == 2)
        #expect(document.root["cafe"] == nil)
    }

    @Test func bigObjectLookupsUseAnIndex() throws {
        let count = 100_000
        let text = "{" + (0..<count).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + ", \"k7\": -7}"
        let document = try JSONDocument(string: text)
        for index in stride(from: 0, to: count, by: 97) {
            #expect(document.root["k\(index)"]?.intValue == (index == 7 ? -7 : index))
        }
        #expect(document.root["k7"]?.intValue == -7)
        #expect(document.root["missing"] == nil)
        // Without an index, n lookups in an object of n members would take quadratic time.
        try Scaling.expectLinear(from: 10_000, "looking up every 97th key of an object of n members") { count in
            let document = try JSONDocument(string: "{" + (0..<count).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + "}")
            for index in stride(from: 0, to: count, by: 97) { _ = document.root["k\(index)"] }
        }
    }

    @Test func bigArrayIndexAndIteration() throws {
        let count = 50_000
        let text = "[" + (0..<count).map { "[\($0), {\"v\": \($0)}]" }.joined(separator: ",") + "]"
        let document = try JSONDocument(string: text)
        #expect(document.root.count == count)
        #expect(document.root[count - 1]?[1]?["v"]?.intValue == count - 1)
        #expect(document.root[count] == nil)
        #expect(document.root[-1] == nil)
        var sum = 0
        for element in document.root.elements { sum += element[0]!.intValue! }
        #expect(sum == (0..<count).reduce(0, +))
    }

    @Test func paths() throws {
        let document = try JSONDocument(string: #"{"items": [{"owner": {"id": 7}}], "a.b": 1}"#)
        #expect(document.root[JSONPath(parsing: "items[0].owner.id")]?.intValue == 7)
        #expect(document.root[JSONPath([.key("a.b")])]?.intValue == 1)
        #expect(document.root[JSONPath(parsing: "items[1]")] == nil)
    }

    @Test func wrongKindQueriesGiveNil() throws {
        let document = try JSONDocument(string: #"{"s": "x", "n": 1, "a": [1]}"#)
        #expect(document.root["s"]?.intValue == nil)
        #expect(document.root["n"]?.stringValue == nil)
        #expect(document.root["a"]?["x"] == nil)
        #expect(document.root[0] == nil)
        #expect(document.root["s"]?.count == 0)
        #expect(Array(document.root["s"]!.elements).isEmpty)
    }
}

@Suite("Output and materializing")
struct DocumentOutputTests {
    @Test func roundTripKeepsTextExactly() throws {
        let text = #"{"big":12345678901234567890,"tenth":0.1,"huge":1e400,"esc":"\u00e9\n","list":[1,2.50,true,null],"o":{}}"#
        let document = try JSONDocument(string: text)
        #expect(document.root.jsonString() == text)
        let pretty = document.root.jsonString(options: .prettyPrinted)
        #expect(try JSONDocument(string: pretty).root.jsonString() == text)
    }

    @Test func sortedKeysFromTheTape() throws {
        let document = try JSONDocument(string: #"{"b": 1, "a": {"d": 1, "c": 2}, "B": 0}"#)
        #expect(document.root.jsonString(options: .sortedKeys) == #"{"B":0,"a":{"c":2,"d":1},"b":1}"#)
    }

    @Test func materializedValueMatches() throws {
        let document = try JSONDocument(string: #"{"a": [1, "two", null, {"b": false}], "": {"": []}, "n": -1.5e3}"#)
        let value = document.root.value
        #expect(value == ["a": [1, "two", nil, ["b": false]], "": ["": []], "n": -1500])
        #expect(value["n"]?.numberValue?.text == "-1.5e3")
        #expect(try JSONDocument(string: "7").root.value == 7)
    }
}

/// Escapes whose bytes changed after the scan (a mapped file rewritten in place) decode to
/// U+FFFD where they no longer make sense, and never trap or read past the string.
@Suite("Escapes that changed after the scan")
struct ChangedEscapeTests {
    static func decode(_ text: String) -> String {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { JSONNode.unescape($0, validated: false, small: SmallStrings.kinds(textIsFixed: false)) }
    }

    @Test func surrogatesWithoutPartnersAndCutEscapesBecomeReplacements() {
        #expect(Self.decode(#"a\uD83D\uDE00b"#) == "a😀b")
        #expect(Self.decode(#"a\uD83D\u0041b"#) == "a\u{FFFD}Ab")
        #expect(Self.decode(#"a\uDE00b"#) == "a\u{FFFD}b")
        #expect(Self.decode(#"a\uD83D"#) == "a\u{FFFD}")
        #expect(Self.decode(#"a\uD83Dxyz"#) == "a\u{FFFD}xyz")
        #expect(Self.decode(#"a\u00"#) == "a\u{FFFD}")
        #expect(Self.decode(#"a\"#) == "a")  // no room for U+FFFD in one byte: dropped
        #expect(Self.decode(#"\n\t\""#) == "\n\t\"")
    }

    /// Every string of escapes and bytes from a small alphabet, up to five pieces: no trap.
    @Test func anyMixOfPiecesDecodes() {
        let pieces = [#"\"#, "u", "D83D", "DE00", "00", "\\u", "\\uDE00", "x", "é"]
        var texts = [""]
        for _ in 0..<4 {
            texts = texts.flatMap { text in pieces.map { text + $0 } }
        }
        for text in texts {
            let decoded = Self.decode(text)
            #expect(decoded.utf8.count <= text.utf8.count)
        }
    }
}
