import Testing
@testable import JSONModelKitCore
import JSONModelKitTestSupport

/// The scanner reads white space, strings, UTF-8 and digits 16 bytes at a time and hands the
/// rest to byte-at-a-time code. These tests put every kind of content at every position
/// relative to the blocks (the padding before a value moves it through all 32 alignments) and
/// check the result, and every error's kind, offset, line and column, against a plain
/// byte-at-a-time reference written here.
@Suite("Scanning in blocks")
struct BlockScanningTests {
    // MARK: - ByteBlock

    @Test func everyByteIsClassifiedInEveryLane() {
        let isStop = { (byte: UInt8) in byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 }
        // Each test, a byte it does not flag to fill the other lanes, and the scalar test.
        let tests: [(name: String, filler: UInt8, mask: (ByteBlock) -> ByteBlock.Mask, flags: (UInt8) -> Bool)] = [
            ("nonWhitespace", 0x20, \.nonWhitespace, { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }),
            ("plainStringEnds", 0x61, \.plainStringEnds, { isStop($0) || $0 >= 0x80 }),
            ("stringStops", 0x61, \.stringStops, isStop),
            ("nonDigits", 0x35, \.nonDigits, { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            ("quotes", 0x61, \.quotes, { $0 == UInt8(ascii: "\"") }),
            ("nonASCII", 0x61, \.nonASCII, { $0 >= 0x80 }),
            ("plainStringEndsButQuotes", 0x61, \.plainStringEndsButQuotes, { $0 == UInt8(ascii: "\\") || $0 < 0x20 || $0 >= 0x80 }),
        ]
        for test in tests {
            for lane in 0..<ByteBlock.width {
                for value in 0...255 {
                    var bytes = SIMD16<UInt8>(repeating: test.filler)
                    bytes[lane] = UInt8(value)
                    let mask = test.mask(ByteBlock(bytes))
                    let flagged = test.flags(UInt8(value))
                    #expect(ByteBlock.firstLane(mask) == (flagged ? lane : ByteBlock.width), "\(test.name), byte \(value), lane \(lane)")
                    #expect(mask[lane] == flagged && ByteBlock.isEmpty(mask) == !flagged, "\(test.name), byte \(value), lane \(lane)")
                }
            }
        }
    }

    /// Two blocks are equal when all sixteen lanes are, whichever lane differs and by which bit;
    /// a line feed is found in every lane.
    @Test func equalBlocksAndLineFeedsInEveryLane() {
        let base = SIMD16<UInt8>((0..<16).map { UInt8($0 * 7 + 1) })
        #expect(ByteBlock.allEqual(base, base))
        #expect(ByteBlock(base).lineFeeds == 0)
        for lane in 0..<16 {
            for bit in 0..<8 {
                var other = base
                other[lane] ^= 1 << bit
                #expect(!ByteBlock.allEqual(base, other), "lane \(lane), bit \(bit)")
                #expect(!ByteBlock.allEqual(other, base), "lane \(lane), bit \(bit)")
            }
            var withLineFeed = SIMD16<UInt8>(repeating: 0x20)
            withLineFeed[lane] = 0x0A
            #expect(ByteBlock(withLineFeed).lineFeeds == 1 << lane, "lane \(lane)")
        }
    }

    /// Runs of blocks count their scalars (every byte but 0x80...0xBF) as a byte-by-byte count
    /// does, up to and past the 255 blocks a lane's count holds, and find a line feed in any
    /// block and lane.
    @Test func scalarsAndLineFeedsCountedOverRunsOfBlocks() {
        var random = SplitMix64(seed: 16)
        for blocks in [0, 1, 2, 15, 254, 255, 256, 510, 511, 600] {
            // Worst case for a lane's count first: every byte a continuation byte.
            for fill in ["continuations", "random"] {
                var bytes = (0..<(blocks * 16)).map { _ in
                    fill == "random" ? UInt8.random(in: 0...255, using: &random) : UInt8.random(in: 0x80...0xBF, using: &random)
                }
                for index in bytes.indices where bytes[index] == 0x0A { bytes[index] = 0x0B }
                let expected = bytes.filter { $0 & 0xC0 != 0x80 }.count
                var counted = bytes.withUnsafeBufferPointer { ByteBlock.scalarCount(from: $0.baseAddress ?? UnsafePointer(bitPattern: 16)!, blocks: blocks) }
                #expect(counted.scalars == expected && !counted.hasLineFeed, "\(blocks) blocks of \(fill) bytes")
                guard blocks > 0 else { continue }
                for position in [0, 15, 16 * blocks - 1, Int.random(in: 0..<(16 * blocks), using: &random)] {
                    var withLineFeed = bytes
                    let replaced = withLineFeed[position]
                    withLineFeed[position] = 0x0A
                    counted = withLineFeed.withUnsafeBufferPointer { ByteBlock.scalarCount(from: $0.baseAddress!, blocks: blocks) }
                    let scalars = expected + (replaced & 0xC0 == 0x80 ? 1 : 0)
                    #expect(counted.scalars == scalars && counted.hasLineFeed, "\(blocks) blocks, line feed at \(position)")
                }
            }
        }
    }

    @Test func firstLaneOfEveryMask() {
        #expect(ByteBlock.firstLane(ByteBlock.Mask(repeating: false)) == ByteBlock.width)
        #expect(ByteBlock.isEmpty(ByteBlock.Mask(repeating: false)))
        for first in 0..<ByteBlock.width {
            for later in first..<ByteBlock.width {
                var mask = ByteBlock.Mask(repeating: false)
                mask[first] = true
                mask[later] = true
                #expect(ByteBlock.firstLane(mask) == first)
                #expect(!ByteBlock.isEmpty(mask))
                #expect(ByteBlock.bits(of: mask) == UInt16(1) << first | UInt16(1) << later)
            }
        }
    }

    /// The portable readers of a mask, which every architecture but x86-64 reads masks with,
    /// answer as the architecture's own readers (on x86-64, SSE2's) and as a lane-by-lane
    /// reference do, on every one of the 65,536 masks, and on the masks of random blocks.
    @Test func portableMaskReadersMatchLaneForLane() {
        func expectAgreement(_ mask: ByteBlock.Mask, _ comment: @autoclosure () -> String) {
            let lanes = (0..<ByteBlock.width).filter { mask[$0] }
            let bits = lanes.reduce(UInt16(0)) { $0 | UInt16(1) << $1 }
            let first = lanes.first ?? ByteBlock.width
            let expected = (bits, first, lanes.isEmpty)
            let read = (ByteBlock.bits(of: mask), ByteBlock.firstLane(mask), ByteBlock.isEmpty(mask))
            let portable = (ByteBlock.portableBits(of: mask), ByteBlock.portableFirstLane(mask), ByteBlock.portableIsEmpty(mask))
            let nibbles = ByteBlock.nibbles(of: mask)
            if read != expected || portable != expected || nibbles != lanes.reduce(UInt64(0), { $0 | 0xF << (4 * $1) }) {
                Issue.record("\(comment()): lanes \(lanes): \(read), portably \(portable), nibbles \(nibbles)")
            }
        }
        for pattern in 0...Int(UInt16.max) {
            var mask = ByteBlock.Mask(repeating: false)
            for lane in 0..<ByteBlock.width where pattern & 1 << lane != 0 { mask[lane] = true }
            expectAgreement(mask, "mask \(pattern)")
        }
        // Masks made by the classifying comparisons rather than lane by lane, and the bits read
        // from them.
        var random = SplitMix64(seed: 17)
        for trial in 0..<20_000 {
            // Mostly bytes of the classes the tests flag, so that masks are neither all clear nor all set.
            let classes: [UInt8] = [0x0A, 0x20, 0x22, 0x30, 0x5C, 0x61, 0x80, 0xBF, 0xC3]
            let bytes = SIMD16<UInt8>((0..<16).map { _ in
                random.chance(0.5) ? random.pick(classes) : UInt8(truncatingIfNeeded: random.next())
            })
            let block = ByteBlock(bytes)
            for mask in [block.nonWhitespace, block.nonDigits, block.quotes, block.plainStringEnds, block.plainStringEndsButQuotes,
                block.nonASCII, block.stringStops, block.quotesAndBackslashes, block.framingStops, block.lineFeedLanes,
                block.continuationLanes] {
                expectAgreement(mask, "trial \(trial), block \(bytes)")
            }
            let lineFeeds = (0..<16).reduce(UInt16(0)) { bytes[$1] == 0x0A ? $0 | UInt16(1) << $1 : $0 }
            let continuations = (0..<16).reduce(UInt16(0)) { bytes[$1] & 0xC0 == 0x80 ? $0 | UInt16(1) << $1 : $0 }
            #expect(block.lineFeeds == lineFeeds && ByteBlock.portableBits(of: block.lineFeedLanes) == lineFeeds, "\(bytes)")
            #expect(block.continuations == continuations, "\(bytes)")
            #expect(ByteBlock.portableBits(of: block.continuationLanes) == continuations, "\(bytes)")
        }
    }

    @Test func hexQuadsMatchDigitByDigit() {
        for position in 0..<4 {
            for value in 0...255 {
                var digits: [UInt8] = Array("0aF9".utf8)
                digits[position] = UInt8(value)
                let word = digits.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * $1.offset) }
                let expected: UInt16? = digits.reduce(UInt16(0)) { value, digit in
                    guard let value, let digit = hexDigitValue(digit) else { return nil }
                    return value << 4 | UInt16(digit)
                }
                #expect(hexQuadValue(word) == expected, "\(digits)")
            }
        }
    }

    // MARK: - Strings

    /// Plain, escaped and non-ASCII strings of 0 to 70 bytes, at every alignment, in the middle
    /// of an array and as the last bytes of the input.
    @Test(arguments: Self.contentKinds)
    func stringsOfEveryLengthAtEveryAlignment(kind: String) throws {
        var random = SplitMix64(seed: 1)
        for length in 0...70 {
            let content = Self.content(kind, length: length, using: &random)
            let text = try #require(String(validating: content, as: UTF8.self))
            // Without escapes the value is the text itself; escapes are decoded apart from the scan.
            let decoded = kind == "escaped" ? try #require(JSONDocument(string: "\"\(text)\"").root.stringValue) : text
            for padding in 0..<32 {
                let bytes = Self.padded(padding) + Array("\"".utf8) + content + Array("\", 1]".utf8)
                let document = try JSONDocument(bytes: Array("[".utf8) + bytes)
                #expect(document.root[0]?.stringValue == decoded, "\(kind), length \(length), padding \(padding)")
                #expect(document.root[1]?.intValue == 1)
                let alone = try JSONDocument(bytes: Self.padded(padding) + Array("\"".utf8) + content + Array("\"".utf8))
                #expect(alone.root.stringValue == decoded, "\(kind), length \(length), padding \(padding), at the end")
            }
        }
    }

    /// Every bad UTF-8 sequence, control character and bad escape, written over every byte of
    /// strings 0 to 70 bytes long at every alignment: the error is the one the byte-at-a-time
    /// reference finds, at the same offset, line and column.
    @Test(arguments: Self.contentKinds)
    func errorsAtEveryOffsetMatchTheReference(kind: String) throws {
        var random = SplitMix64(seed: 2)
        let bad: [[UInt8]] = [
            [0x80], [0xBF], [0xFF], [0xF5, 0x80, 0x80, 0x80], [0xC0, 0xAF], [0xC1, 0xBF],
            [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3], [0x00], [0x1F], [0x0A],
            Array("\\x".utf8), Array("\\u12G4".utf8), Array("\\uD800".utf8), Array("\\uDC00x".utf8),
            Array("\\uD83D\\u0041".utf8), Array("\\".utf8),
        ]
        for length in [1, 15, 16, 17, 31, 32, 33, 47, 48, 70] {
            let content = Self.content(kind, length: length, using: &random)
            for position in 0..<content.count {
                let sequence = bad[(position + length) % bad.count]
                var corrupted = content
                corrupted.replaceSubrange(position..<min(position + sequence.count, content.count), with: sequence)
                for padding in 0..<32 {
                    let prefix = Array("[".utf8) + Self.padded(padding) + Array("\"".utf8)
                    let bytes = prefix + corrupted + Array("\"]".utf8)
                    Self.expectReferenceOutcome(bytes, contentStart: prefix.count, closingQuote: bytes.count - 2,
                        "\(kind) \(corrupted) at \(padding)")
                }
            }
        }
    }

    /// Every lead byte followed by every byte, then the continuation bytes the lead asks for,
    /// inside a string long enough to be read in blocks, at three alignments: the document is
    /// accepted exactly when the standard library finds the content well-formed. This covers
    /// the second-byte limits of 0xE0, 0xED, 0xF0 and 0xF4 byte by byte.
    @Test func everyLeadAndSecondByteIsJudgedAsTheStandardLibraryDoes() {
        for lead in UInt8(0x80)...0xFF {
            let more = lead >= 0xF0 ? 2 : lead >= 0xE0 ? 1 : 0
            for second in UInt8(0x20)...0xFF where second != UInt8(ascii: "\"") && second != UInt8(ascii: "\\") {
                let sequence = [lead, second] + Array(repeating: 0x80, count: more)
                let content = Array("abcd".utf8) + sequence + Array("efghijklmnopqrstuvwxyz".utf8)
                let wellFormed = String(validating: content, as: UTF8.self) != nil
                for padding in [0, 7, 15] {
                    let bytes = Self.padded(padding) + Array("[\"".utf8) + content + Array("\", 1]".utf8)
                    let accepted = (try? JSONDocument(bytes: bytes)) != nil
                    #expect(accepted == wellFormed, "\(sequence) at \(padding)")
                }
            }
        }
    }

    /// The same in strings long enough for the check of 32 bytes at a time (``UTF8KernelTests``),
    /// whose blocks start at the string's first non-ASCII byte: the sequence starts at lanes 29 to
    /// 31 of the first block, across its end, and at lane 8. A byte that is never valid (C0, C1,
    /// F5 to FF) at the end of a block is flagged only by the next block's look back.
    @Test func everyLeadAndSecondByteIsJudgedInLongStrings() {
        for lead in UInt8(0x80)...0xFF {
            let more = lead >= 0xF0 ? 2 : lead >= 0xE0 ? 1 : 0
            for second in UInt8(0x20)...0xFF where second != UInt8(ascii: "\"") && second != UInt8(ascii: "\\") {
                let sequence = [lead, second] + Array(repeating: 0x80, count: more)
                for lane in [29, 30, 31, 8] {
                    // "é" is the first non-ASCII character, then ASCII up to the lane.
                    let content = Array("é".utf8) + Array(repeating: UInt8(ascii: "a"), count: lane - 2) + sequence
                        + Array(String(repeating: "あ", count: 20).utf8)
                    let wellFormed = String(validating: content, as: UTF8.self) != nil
                    // At least three bytes before the string, which the first block looks back at.
                    let bytes = Array("[ \"".utf8) + content + Array("\", 1]".utf8)
                    let accepted = (try? JSONDocument(bytes: bytes)) != nil
                    #expect(accepted == wellFormed, "\(sequence) at lane \(lane)")
                }
            }
        }
    }

    /// Strings of 16 to 70 bytes, made without the standard library checking their UTF-8, are
    /// marked ASCII exactly when they are: one non-ASCII character at every position, or none.
    /// A string wrongly marked ASCII takes its bytes for UTF-16 code units.
    @Test func longStringsAreMarkedASCIIOnlyWhenTheyAre() throws {
        for length in 16...70 {
            for position in -1..<(length - 1) {
                var content = Array(repeating: UInt8(ascii: "a"), count: length)
                if position >= 0 { content.replaceSubrange(position..<(position + 2), with: Array("é".utf8)) }
                let expected = String(decoding: content, as: UTF8.self)
                let read = try #require(JSONDocument(bytes: Array("[\"".utf8) + content + Array("\"]".utf8)).root[0]?.stringValue)
                #expect(read == expected && read.count == expected.count && read.utf8.count == length, "\(length), é at \(position)")
                #expect(read.utf16.count == expected.utf16.count && Array(read.utf16) == Array(expected.utf16), "\(length), é at \(position)")
            }
        }
    }

    /// Strings cut off by the end of the input after every byte, at every alignment.
    @Test(arguments: Self.contentKinds)
    func stringsCutOffByTheEndOfInput(kind: String) {
        var random = SplitMix64(seed: 3)
        let content = Self.content(kind, length: 70, using: &random)
        for cut in 0...content.count {
            for padding in 0..<32 {
                let prefix = Self.padded(padding) + Array("\"".utf8)
                Self.expectReferenceOutcome(prefix + content[..<cut], contentStart: prefix.count, closingQuote: nil, "\(kind) cut at \(cut)")
            }
        }
    }

    /// Escapes and valid multi-byte characters at every offset of a block, among ASCII.
    @Test func escapesAndCharactersAtEveryOffset() throws {
        let pieces: [(bytes: [UInt8], value: String)] = [
            (Array(#"\n"#.utf8), "\n"), (Array(#"\""#.utf8), "\""), (Array(#"\\"#.utf8), "\\"),
            (Array(#"\u00e9"#.utf8), "é"), (Array(#"\uD83D\uDE00"#.utf8), "😀"), (Array(#"\/"#.utf8), "/"),
            (Array("é".utf8), "é"), (Array("€".utf8), "€"), (Array("😀".utf8), "😀"), (Array("\u{7FF}".utf8), "\u{7FF}"),
            (Array("\u{800}".utf8), "\u{800}"), (Array("\u{D7FF}".utf8), "\u{D7FF}"), (Array("\u{E000}".utf8), "\u{E000}"),
            (Array("\u{10000}".utf8), "\u{10000}"), (Array("\u{10FFFF}".utf8), "\u{10FFFF}"),
        ]
        for piece in pieces {
            for before in 0...33 {
                for padding in [0, 1, 2, 3, 7, 13] {
                    let text = String(repeating: "a", count: before) + piece.value + "bc"
                    let content = Array(repeating: UInt8(ascii: "a"), count: before) + piece.bytes + Array("bc".utf8)
                    let bytes = Self.padded(padding) + Array("[\"".utf8) + content + Array("\", \"".utf8) + piece.bytes + Array("\"]".utf8)
                    let document = try JSONDocument(bytes: bytes)
                    #expect(document.root[0]?.stringValue == text, "\(piece.value) after \(before), padding \(padding)")
                    #expect(document.root[1]?.stringValue == piece.value)
                }
            }
        }
    }

    /// A comment before a string may hold any bytes, and the UTF-8 blocks look back three
    /// bytes, past the opening quote: a four-byte lead there must not excuse a stray
    /// continuation byte that opens the string.
    @Test func leadBytesInACommentBeforeAString() {
        let options = JSONParseOptions(allowsComments: true)
        for lead: UInt8 in [0xC3, 0xE3, 0xF0, 0xF4] {
            for padding in 0..<20 {
                for gap in ["", " "] {
                    let bytes = Self.padded(padding) + Array("[//".utf8) + [lead] + Array("\n\(gap)\"".utf8)
                        + [0x80] + Array(repeating: UInt8(ascii: "a"), count: 20) + Array("\"]".utf8)
                    let stray = bytes.firstIndex(of: 0x80)!
                    let error = Self.failure(bytes, options)
                    #expect(error?.kind == .invalidUTF8 && error?.offset == stray, "\(lead), padding \(padding): \(String(describing: error))")
                }
            }
        }
    }

    // MARK: - White space, numbers and literals

    /// Runs of 0 to 70 white-space bytes (every mix of the four) between all tokens and at the
    /// end of the input, at every alignment.
    @Test func whitespaceRunsOfEveryLengthAtEveryAlignment() throws {
        var random = SplitMix64(seed: 4)
        let spaces: [UInt8] = [0x20, 0x0A, 0x0D, 0x09]
        for length in 0...70 {
            let run = (0..<length).map { _ in random.pick(spaces) }
            let text = String(decoding: run, as: UTF8.self)
            for padding in 0..<32 {
                let json = String(decoding: Self.padded(padding), as: UTF8.self)
                    + "{\(text)\"a\"\(text):\(text)[\(text)1\(text),\(text)true\(text)]\(text),\(text)\"b\":\(text)\"c\"\(text)}\(text)"
                let document = try JSONDocument(string: json)
                #expect(document.root["a"]?[1]?.boolValue == true, "run of \(length), padding \(padding)")
                #expect(document.root["b"]?.stringValue == "c")
                // One byte that is not white space, anywhere in a run, stops it there.
                if length > 0 {
                    var broken = Array(json.utf8)
                    let at = padding + 1 + random.next(below: length)
                    broken[at] = 0x0B
                    let error = try #require(Self.failure(broken))
                    #expect(error.offset == at && error.kind == .unexpectedByte(0x0B), "\(error)")
                    Self.expectPosition(of: error, in: broken)
                }
            }
        }
    }

    /// Containers whose values are indented alike, as pretty-printed JSON is, with runs of up
    /// to three blocks that change now and then: the scanner guesses each run from the one
    /// before it in the same container, and must stop where a scan of the bytes does, with the
    /// same errors.
    @Test func indentsGuessedFromTheValueBefore() throws {
        var random = SplitMix64(seed: 9)
        for trial in 0..<300 {
            var indent = random.next(below: 40)
            func run() -> String {
                if random.next(below: 4) == 0 { indent = random.next(below: 40) }
                guard indent > 0 else { return "" }
                return "\n" + String((1..<indent).map { _ in random.next(below: 5) == 0 ? "\t" : " " })
            }
            var json = "{"
            var expected: [[Int]] = []
            for key in 0..<4 {
                json += (key > 0 ? "," : "") + run() + "\"k\(key)\": ["
                let values = (0..<6).map { 10 * key + $0 }
                for (index, value) in values.enumerated() { json += (index > 0 ? "," : "") + run() + "\(value)" }
                json += run() + "]"
                expected.append(values)
            }
            json += run() + "}"
            let document = try JSONDocument(string: json)
            for key in 0..<4 {
                #expect(document.root["k\(key)"]?.elements.compactMap(\.intValue) == expected[key], "trial \(trial): \(json)")
            }
            // A byte that is not white space, anywhere in a run, stops the run there.
            let bytes = Array(json.utf8)
            let runBytes = bytes.indices.filter { [0x20, 0x0A, 0x09].contains(bytes[$0]) }
            for at in [random.pick(runBytes), random.pick(runBytes), runBytes.last!] {
                var broken = bytes
                broken[at] = 0x0B
                let error = try #require(Self.failure(broken))
                #expect(error.offset == at && error.kind == .unexpectedByte(0x0B), "trial \(trial): \(error)")
                Self.expectPosition(of: error, in: broken)
            }
        }
    }

    /// Nested containers pretty-printed with an indent of 1 to 8 spaces or tabs a level, now and
    /// then a line one byte off: the scanner guesses the run after an opener from how much
    /// deeper the last container opened indented its values, and the run before a closer from
    /// the line of its opener, and must stop where a scan of the bytes does, with the same errors.
    @Test func indentsGuessedAtOpenersAndClosers() throws {
        var random = SplitMix64(seed: 12)
        indirect enum Node {
            case number(Int), array([Node]), object([Node])
        }
        func node(_ depth: Int) -> Node {
            switch depth < 6 ? random.next(below: 3) : 0 {
            case 0: .number(random.next(below: 1000))
            case 1: .array((0..<random.next(below: 4)).map { _ in node(depth + 1) })
            default: .object((0..<random.next(below: 4)).map { _ in node(depth + 1) })
            }
        }
        func compact(_ node: Node) -> String {
            switch node {
            case .number(let value): "\(value)"
            case .array(let elements): "[" + elements.map(compact).joined(separator: ",") + "]"
            case .object(let members):
                "{" + members.enumerated().map { "\"k\($0.offset)\":" + compact($0.element) }.joined(separator: ",") + "}"
            }
        }
        for trial in 0..<400 {
            let unit = 1 + random.next(below: 8)
            let character = random.next(below: 3) == 0 ? "\t" : " "
            let offLines = random.next(below: 2) == 0 ? 0 : 6
            func line(_ level: Int) -> String {
                var width = level * unit
                if offLines > 0 && random.next(below: offLines) == 0 { width = max(0, width + random.next(below: 3) - 1) }
                return "\n" + String(repeating: character, count: width)
            }
            func pretty(_ node: Node, _ level: Int) -> String {
                switch node {
                case .number(let value): return "\(value)"
                case .array(let elements):
                    guard !elements.isEmpty else { return "[]" }
                    return "[" + elements.map { line(level + 1) + pretty($0, level + 1) }.joined(separator: ",") + line(level) + "]"
                case .object(let members):
                    guard !members.isEmpty else { return "{}" }
                    return "{" + members.enumerated().map { line(level + 1) + "\"k\($0.offset)\": " + pretty($0.element, level + 1) }
                        .joined(separator: ",") + line(level) + "}"
                }
            }
            let root = Node.object((0..<(1 + random.next(below: 4))).map { _ in node(1) })
            let json = pretty(root, 0)
            #expect(try JSONDocument(string: json).root.value == JSONDocument(string: compact(root)).root.value, "trial \(trial): \(json)")
            let bytes = Array(json.utf8)
            // A byte that is not white space, anywhere in a run, stops the run there.
            let runBytes = bytes.indices.filter { [0x20, 0x0A, 0x09].contains(bytes[$0]) }
            // A closer or a value where the guess expects one, after a run of the guessed length,
            // turned into a byte that is neither.
            let afterRuns = bytes.indices.filter { $0 > 0 && [0x20, 0x0A, 0x09].contains(bytes[$0 - 1]) && bytes[$0] != 0x20 && bytes[$0] != 0x09 }
            for at in [random.pick(runBytes), random.pick(runBytes), runBytes.last!, random.pick(afterRuns), random.pick(afterRuns)] {
                var broken = bytes
                broken[at] = 0x0B
                let error = try #require(Self.failure(broken))
                #expect(error.offset == at && error.kind == .unexpectedByte(0x0B), "trial \(trial): \(error)")
                Self.expectPosition(of: error, in: broken)
            }
        }
    }

    /// Comments among white space, with runs on both sides at every alignment.
    @Test func commentsAmongWhitespaceRuns() throws {
        let options = JSONParseOptions(allowsComments: true)
        for length in [0, 1, 15, 16, 17, 33] {
            let run = String(repeating: " ", count: length)
            for padding in 0..<20 {
                let json = String(repeating: " ", count: padding) + "[\(run)/* c */\(run)1\(run)// d\n\(run),2\(run)/**/]\(run)"
                #expect(try JSONDocument(string: json, options: options).root.count == 2)
                #expect(throws: JSONParseError.self) { try JSONDocument(string: json) }
            }
        }
    }

    /// Numbers with digit runs of 1 to 40 digits in each part, at every alignment and at the
    /// end of the input; bad numbers keep their error and offset.
    @Test func digitRunsOfEveryLength() throws {
        for digits in 1...40 {
            let run = String((0..<digits).map { Character(String(($0 * 7 + 1) % 10)) })
            let integer = run.first == "0" && digits > 1 ? "1" + run : run
            for padding in 0..<32 {
                let pad = String(repeating: " ", count: padding)
                for number in ["\(integer)", "-\(integer).\(run)", "\(integer)e\(run)", "0.\(run)E+\(run)"] {
                    let document = try JSONDocument(string: "\(pad)[\(number),\(number)]")
                    #expect(document.root[0]?.numberText == number && document.root[1]?.numberText == number)
                    #expect(try JSONDocument(string: pad + number).root.numberText == number, "\(number) at the end")
                }
                // Where each goes wrong, and how, with and without a closing bracket after it.
                let bad: [(text: String, kind: JSONParseError.Kind, offset: Int, closedKind: JSONParseError.Kind)] = [
                    ("0\(run)", .invalidNumber, 1, .invalidNumber), ("\(integer).", .invalidNumber, 1, .invalidNumber),
                    ("\(integer)e", .invalidNumber, 1, .invalidNumber), ("-", .unexpectedEnd, 2, .invalidNumber),
                ]
                for number in bad {
                    let cut = try #require(Self.failure(Array("\(pad)[\(number.text)".utf8)))
                    #expect(cut.kind == number.kind && cut.offset == padding + number.offset, "\(number.text): \(cut)")
                    let closed = try #require(Self.failure(Array("\(pad)[\(number.text)]".utf8)))
                    #expect(closed.kind == number.closedKind && closed.offset == padding + 1, "\(number.text)]: \(closed)")
                }
            }
        }
    }

    /// Literals whole, misspelt at every letter, and cut off by the end of the input.
    @Test func literalsWholeMisspeltAndCutOff() throws {
        for word in ["true", "false", "null"] {
            for padding in 0..<20 {
                let pad = String(repeating: " ", count: padding)
                #expect(try JSONDocument(string: "\(pad)[\(word)]").root.count == 1)
                #expect(try JSONDocument(string: pad + word).root.isNull == (word == "null"))
                for index in word.indices {
                    var misspelt = word
                    misspelt.replaceSubrange(index...index, with: "x")
                    let error = try #require(Self.failure(Array("\(pad)[\(misspelt)]".utf8)))
                    // A wrong first letter starts no value at all.
                    let kind: JSONParseError.Kind = index == word.startIndex ? .unexpectedByte(UInt8(ascii: "x")) : .invalidLiteral
                    #expect(error.kind == kind && error.offset == padding + 1, "\(misspelt): \(error)")
                }
                for cut in 1..<word.count {
                    let error = try #require(Self.failure(Array((pad + "[" + word.prefix(cut)).utf8)))
                    #expect(error.kind == .unexpectedEnd && error.offset == padding + 1 + cut, "\(word.prefix(cut)): \(error)")
                }
            }
        }
    }

    // MARK: - Content and the reference

    static let contentKinds = ["ascii", "latin", "japanese", "emoji", "mixed", "escaped"]

    /// `length` bytes of string content, no quote or backslash unless escaped, ending where a
    /// character ends (so a bit shorter when a character would not fit).
    static func content(_ kind: String, length: Int, using random: inout SplitMix64) -> [UInt8] {
        let characters: [String] = switch kind {
        case "ascii": ["a", "b", "Z", "0", " ", "~", "/", ":"]
        case "latin": ["é", "ü", "a", "ß", "Ω"]
        case "japanese": ["あ", "名", "前", "ー", "　"]
        case "emoji": ["😀", "🎉", "\u{10FFFF}", "\u{10000}"]
        case "mixed": ["a", "é", "前", "😀", " ", "\u{7FF}", "\u{800}", "\u{FFFD}", "\u{E000}"]
        default: ["a", #"\n"#, #"\""#, #"\\"#, #"\u00e9"#, #"\uD83D\uDE00"#, "é", "前", #"\/"#]
        }
        var bytes: [UInt8] = []
        var misses = 0
        while bytes.count < length && misses < 8 {
            let next = Array(random.pick(characters).utf8)
            if bytes.count + next.count <= length {
                bytes += next
            } else {
                misses += 1
            }
        }
        return bytes + Array(repeating: UInt8(ascii: "a"), count: length - bytes.count)
    }

    /// `count` bytes of white space with a line feed every seventh byte, so errors fall on
    /// lines and columns other than the first.
    static func padded(_ count: Int) -> [UInt8] {
        (0..<count).map { $0 % 7 == 6 ? 0x0A : 0x20 }
    }

    static func failure(_ bytes: [UInt8], _ options: JSONParseOptions = JSONParseOptions()) -> JSONParseError? {
        do {
            _ = try JSONDocument(bytes: bytes, options: options)
            return nil
        } catch {
            return error
        }
    }

    /// Checks the error's line and column against its offset, counted here.
    static func expectPosition(of error: JSONParseError, in bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let before = bytes[..<error.offset]
        let line = before.filter { $0 == 0x0A }.count + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = bytes[lineStart..<error.offset].filter { $0 & 0xC0 != 0x80 }.count + 1
        #expect(error.line == line && error.column == column, "\(error)", sourceLocation: sourceLocation)
    }

    /// Parses `bytes`, whose only string starts at `contentStart`, and expects what the
    /// reference finds: the error, or success when the string closes at `closingQuote`. (A
    /// corruption that closes the string early leaves the rest of the document to chance, and
    /// is only parsed.)
    static func expectReferenceOutcome(
        _ bytes: [UInt8], contentStart: Int, closingQuote: Int?, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let expected = Reference.scanString(bytes, contentStart: contentStart)
        switch (expected, failure(bytes)) {
        case (.closed(let at), let error):
            if at == closingQuote {
                #expect(error == nil, "\(comment): \(error.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
            }
        case (.failed(let kind, let offset), let error?):
            #expect(error.kind == kind && error.offset == offset, "\(comment): \(error), expected \(kind) at \(offset)",
                sourceLocation: sourceLocation)
            expectPosition(of: error, in: bytes, sourceLocation: sourceLocation)
        case (.failed(let kind, let offset), nil):
            Issue.record("\(comment): accepted, expected \(kind) at \(offset)", sourceLocation: sourceLocation)
        }
    }

    /// String scanning one byte at a time, as the scanner did before it read blocks: the
    /// reference for what the scanner must report.
    enum Reference {
        enum Outcome: Equatable {
            case closed(at: Int)
            case failed(JSONParseError.Kind, at: Int)
        }

        static func scanString(_ bytes: [UInt8], contentStart: Int) -> Outcome {
            var index = contentStart
            while true {
                guard index < bytes.count else { return .failed(.unexpectedEnd, at: contentStart - 1) }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    return .closed(at: index)
                } else if byte == UInt8(ascii: "\\") {
                    switch escape(bytes, at: index) {
                    case .closed(let next): index = next
                    case let failure: return failure
                    }
                } else if byte < 0x20 {
                    return .failed(.controlCharacterInString, at: index)
                } else if byte < 0x80 {
                    index += 1
                } else {
                    guard let length = sequenceLength(bytes, at: index) else { return .failed(.invalidUTF8, at: index) }
                    index += length
                }
            }
        }

        /// The escape at `index`: `.closed(at:)` the index after it, or its error.
        static func escape(_ bytes: [UInt8], at index: Int) -> Outcome {
            guard bytes.count - index >= 2 else { return .failed(.unexpectedEnd, at: index) }
            switch bytes[index + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                return .closed(at: index + 2)
            case UInt8(ascii: "u"):
                guard let unit = hexQuad(bytes, at: index + 2) else { return .failed(.invalidUnicodeEscape, at: index) }
                if unit & 0xFC00 == 0xDC00 { return .failed(.loneSurrogate, at: index) }
                guard unit & 0xFC00 == 0xD800 else { return .closed(at: index + 6) }
                let low = index + 6
                guard bytes.count - low >= 6, bytes[low] == UInt8(ascii: "\\"), bytes[low + 1] == UInt8(ascii: "u") else {
                    return .failed(.loneSurrogate, at: index)
                }
                guard let lowUnit = hexQuad(bytes, at: low + 2) else { return .failed(.invalidUnicodeEscape, at: low) }
                guard lowUnit & 0xFC00 == 0xDC00 else { return .failed(.loneSurrogate, at: index) }
                return .closed(at: low + 6)
            default:
                return .failed(.invalidEscape, at: index)
            }
        }

        static func hexQuad(_ bytes: [UInt8], at index: Int) -> UInt16? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt16 = 0
            for byte in bytes[index..<index + 4] {
                guard let digit = hexDigitValue(byte) else { return nil }
                value = value << 4 | UInt16(digit)
            }
            return value
        }

        /// The length of the well-formed sequence at `index` (the Unicode Standard, table 3-7).
        static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int? {
            let (length, low, high): (Int, UInt8, UInt8) = switch bytes[index] {
            case 0xC2...0xDF: (2, 0x80, 0xBF)
            case 0xE0: (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80, 0xBF)
            case 0xED: (3, 0x80, 0x9F)
            case 0xF0: (4, 0x90, 0xBF)
            case 0xF1...0xF3: (4, 0x80, 0xBF)
            case 0xF4: (4, 0x80, 0x8F)
            default: (0, 0, 0)
            }
            guard length > 0, bytes.count - index >= length, (low...high).contains(bytes[index + 1]) else { return nil }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return nil }
            return length
        }
    }
}
