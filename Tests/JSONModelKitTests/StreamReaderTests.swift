import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitFoundation

final class StreamEvent: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
        p.name(String?.self)
        p.city(String?.self, jsonPath: "place.city")
    }
}

/// Frames `bytes` given in the chunks that `cuts` (ascending offsets) make, as the readers do,
/// calling `body` with each element and the chunk it was framed in (empty for an element the
/// end of the input gave).
func forEachElement(
    _ bytes: [UInt8], cuts: [Int], options: JSONStreamOptions,
    _ body: (inout ElementFramer, FramedElement, UnsafeBufferPointer<UInt8>) throws(JSONStreamError) -> Void
) throws(JSONStreamError) {
    var framer = ElementFramer(options: options)
    let bounds = Array(Set([0] + cuts.filter { $0 > 0 && $0 < bytes.count } + [bytes.count])).sorted()
    for (lower, upper) in zip(bounds, bounds.dropFirst()) {
        let chunk = Array(bytes[lower..<upper])
        try chunk.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONStreamError) in
                var index = 0
                while let element = try framer.next(in: buffer, at: &index) { try body(&framer, element, buffer) }
            }
        }.get()
    }
    while let element = try framer.finish() { try body(&framer, element, UnsafeBufferPointer(start: nil, count: 0)) }
}

/// Frames `bytes` given in the chunks that `cuts` make; the elements or the error. An element's
/// text leaves out the white space after its value: an element parsed in place holds its value
/// alone, a gathered JSON line all of the line.
func frameInChunks(_ bytes: [UInt8], cuts: [Int], options: JSONStreamOptions = JSONStreamOptions()) -> (
    elements: [String], error: JSONStreamError?
) {
    var elements: [String] = []
    do throws(JSONStreamError) {
        try forEachElement(bytes, cuts: cuts, options: options) { (framer, element, _) throws(JSONStreamError) in
            // Elements parsed in place hold their bytes in their document; the framer keeps the
            // others' until the next element.
            let bytes = element.document.map { document in document.storage.withUnsafeBufferPointer { Array($0) } }
            elements.append(trimmed(bytes ?? framer.gathered))
        }
    } catch {
        return (elements, error)
    }
    return (elements, nil)
}

/// `bytes` as text, without the JSON white space at its end.
private func trimmed(_ bytes: [UInt8]) -> String {
    var end = bytes.count
    while end > 0 && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
    return String(decoding: bytes[..<end], as: UTF8.self)
}

@Suite("Stream reader")
struct StreamReaderTests {
    static let array = #"""
        [
          {"id": 1, "name": "a \"quoted\" [name]", "place": {"city": "Oslo"}},
          {"id": 2, "tags": ["x", {"y": "}"}], "name": "\\"},
          {"id": 3, "name": "Zoë ✓"}
        ]
        """#
    static let arrayElements = [
        #"{"id": 1, "name": "a \"quoted\" [name]", "place": {"city": "Oslo"}}"#,
        #"{"id": 2, "tags": ["x", {"y": "}"}], "name": "\\"}"#,
        #"{"id": 3, "name": "Zoë ✓"}"#,
    ]
    static let lines = "{\"id\": 1}\n\n  {\"id\": 2, \"name\": \"b\"}\r\n{\"id\": 3}"

    @Test func readsAnArray() throws {
        let reader = ModelStreamReader<StreamEvent>(bytes: Array(Self.array.utf8))
        var ids: [Int] = []
        while let event = try reader.read() { ids.append(event.id) }
        #expect(ids == [1, 2, 3])
        #expect(reader.count == 3)
        #expect(try reader.read() == nil)
    }

    @Test func readsJSONLinesSkippingBlankLines() throws {
        for format in [JSONStreamFormat.lines, .values, .automatic] {
            let reader = ModelStreamReader<StreamEvent>(bytes: Array(Self.lines.utf8), options: ModelOptions(streamOptions: JSONStreamOptions(format: format)))
            let events = try reader.map { try $0.get() }
            #expect(events.map { $0.id as Int } == [1, 2, 3])
            #expect(events[1].name == "b")
        }
        // A broken line is found at that line with `.lines`.
        let broken = Array("{\"id\": 1}\n{\"id\": \n{\"id\": 3}\n".utf8)
        let error = try #require(throws: JSONStreamError.self) {
            for result in ModelStreamReader<StreamEvent>(bytes: broken, options: ModelOptions(streamOptions: JSONStreamOptions(format: .lines))) {
                _ = try result.get()
            }
        }
        #expect(error.element == 1 && error.line == 2 && error.kind == .invalidJSON(.unexpectedEnd))
    }

    @Test func pathsAndPolymorphismWorkAsOnAnyModel() throws {
        let first = try #require(try ModelStreamReader<StreamEvent>(bytes: Array(Self.array.utf8)).read())
        #expect(first.city == "Oslo")
        let shapes = #"[{"type": "circle", "radius": 2}, {"type": "square", "side": 3}, {"type": "circle", "ring": true, "inner": 1}]"#
        let models = try ModelStreamReader<PolyShape>(bytes: Array(shapes.utf8)).map { try $0.get() }
        #expect(models[0] is PolyCircle && models[1] is PolySquare && models[2] is PolyRing)
        let circle = try #require(models[0] as? PolyCircle)
        let radius: Double = circle.radius
        #expect(radius == 2)
    }

    @Test func everySplitOfTheInputFramesTheSame() {
        let lines = JSONStreamOptions(format: .lines)
        let values = JSONStreamOptions(format: .values)
        for (text, options, expected) in [
            (Self.array, JSONStreamOptions(), Self.arrayElements),
            (Self.lines, lines, [#"{"id": 1}"#, #"{"id": 2, "name": "b"}"#, #"{"id": 3}"#]),
            (Self.lines, values, [#"{"id": 1}"#, #"{"id": 2, "name": "b"}"#, #"{"id": 3}"#]),
            ("{\n  \"id\": 1\n}{\"id\":2} 3 \"x\"[4]\ntrue", values, ["{\n  \"id\": 1\n}", #"{"id":2}"#, "3", #""x""#, "[4]", "true"]),
            (#"[1, "a,]", true,null , [2]]"#, JSONStreamOptions(), ["1", #""a,]""#, "true", "null", "[2]"]),
            // Scalars with nothing between them and the next value (aScalarEndsWhereTheNextValueStarts).
            (
                #"1{"id":2}null"x"true[1]-2.5e3"y"false"#, values,
                ["1", #"{"id":2}"#, "null", #""x""#, "true", "[1]", "-2.5e3", #""y""#, "false"]
            ),
        ] {
            let bytes = Array(text.utf8)
            let whole = frameInChunks(bytes, cuts: [], options: options)
            #expect(whole.error == nil)
            #expect(whole.elements == expected)
            for cut in 1..<bytes.count {
                let split = frameInChunks(bytes, cuts: [cut], options: options)
                #expect(split.elements == expected && split.error == nil, "cut at \(cut)")
            }
            let oneByOne = frameInChunks(bytes, cuts: Array(1..<bytes.count), options: options)
            #expect(oneByOne.elements == expected && oneByOne.error == nil)
        }
    }

    /// A number or a literal ends where the next value starts, even with nothing between them:
    /// values one after another are read as `jq -j` writes them, whichever side the scalar is
    /// on (`1{"id":2}null"x"…`, framed at every cut in ``everySplitOfTheInputFramesTheSame()``).
    /// It was read up to the next white space, so `1{"id":2}` was one broken element. In an
    /// array such a value is the missing comma it is, and a comment after a scalar is refused
    /// as one after white space is.
    @Test func aScalarEndsWhereTheNextValueStarts() {
        for (array, byte) in [(#"[1{"a":1}]"#, "{"), (#"[1"a"]"#, "\""), ("[true[2]]", "["), (#"[1}"#, "}")] {
            let framed = frameInChunks(Array(array.utf8), cuts: [], options: JSONStreamOptions(format: .array))
            #expect(framed.elements == ["1"] || framed.elements == ["true"], "\(array)")
            #expect(framed.error?.kind == .unexpectedByte(UInt8(ascii: Unicode.Scalar(byte)!)), "\(array)")
        }
        var comments = JSONStreamOptions(format: .array)
        comments.parseOptions = JSONParseOptions(allowsComments: true)
        for text in ["[1//c\n,2]", "[1 //c\n,2]", "[1/*,*/,2]"] {
            let framed = frameInChunks(Array(text.utf8), cuts: [], options: comments)
            #expect(framed.error?.kind == .unexpectedByte(UInt8(ascii: "/")), "\(text)")
        }
    }

    /// Numbers as Python, JavaScript and Swift print them (17 significant digits and an
    /// exponent) are longer than the lookout at a chunk's end: cut anywhere, even just after
    /// the `.`, `e` or sign, they frame as when read whole.
    @Test func longNumbersCutAnywhereFrameTheSame() {
        let elements = [
            #"{"x": 1.2345678901234567e-05, "y": -98765432109876543e+300}"#,
            #"[123456789012345678901234567890.5E-7, 0.000000000000000000001]"#,
            #"{"a": [1.5, -2.25e10], "b": 12345678901234567890123}"#,
        ]
        let texts = [
            (JSONStreamOptions(), "[" + elements.joined(separator: ",") + "]"),
            (JSONStreamOptions(format: .lines), elements.joined(separator: "\n")),
        ]
        for (options, text) in texts {
            let bytes = Array(text.utf8)
            let whole = frameInChunks(bytes, cuts: [], options: options)
            #expect(whole.error == nil && whole.elements == elements)
            for cut in 1..<bytes.count {
                let split = frameInChunks(bytes, cuts: [cut], options: options)
                #expect(split.error == nil && split.elements == elements, "cut at \(cut): \(String(describing: split.error))")
            }
        }
        // A number that is wrong where it lies, followed by more than the lookout, is reported
        // at once, where it starts.
        let tail = String(repeating: #", {"x": 1}"#, count: 4)
        let bad = Array((#"[{"x": 1.2345678901234567e-05}, {"x": 1.2e+}"# + tail + "]").utf8)
        let error = frameInChunks(bad, cuts: []).error
        #expect(error?.description.contains("invalid number") == true, "\(String(describing: error))")
    }

    @Test func valuesThatDoNotConvertGiveTheUsualDiagnostics() throws {
        let reader = ModelStreamReader<StreamEvent>(bytes: Array("{\"id\": \"seven\"}\n{\"id\": 8}\n".utf8))
        let first = try #require(try reader.read())
        let id: Int = first.id
        #expect(id == 0)
        #expect(first.jsonModel.diagnostics.map(\.path) == [JSONPath(["id"])])
        #expect(throws: ModelValidationError.self) { try first.jsonModel.validate() }
        #expect(try reader.read()?.id == 8)  // the stream goes on
    }

    @Test func emptyInputs() throws {
        #expect(try ModelStreamReader<StreamEvent>(bytes: []).read() == nil)
        #expect(try ModelStreamReader<StreamEvent>(bytes: Array(" \n\n ".utf8)).read() == nil)
        #expect(try ModelStreamReader<StreamEvent>(bytes: Array("[ ]".utf8)).read() == nil)
        #expect(throws: JSONStreamError.self) {
            try ModelStreamReader<StreamEvent>(bytes: [], options: ModelOptions(streamOptions: JSONStreamOptions(format: .array))).read()
        }
    }

    @Test func invalidJSONNamesTheElementAndItsPlaceInTheWholeStream() throws {
        let text = "{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3, \"name\": tru}\n{\"id\": 4}\n"
        let reader = ModelStreamReader<StreamEvent>(bytes: Array(text.utf8))
        #expect(try reader.read()?.id == 1)
        #expect(try reader.read()?.id == 2)
        let error = try #require(throws: JSONStreamError.self) { try reader.read() }
        #expect(error.kind == .invalidJSON(.invalidLiteral))
        #expect(error.element == 2)
        #expect(error.line == 3)
        #expect(error.column == 19)
        #expect(error.offset == 20 + 18)
        #expect(error.description.hasPrefix("JSON stream error in element 2 at line 3, column 19 (byte 38): invalid literal"))
        #expect(try reader.read() == nil)  // nothing after an error

        // In an array, a fault on a later line of a pretty-printed element.
        let pretty = "[\n  {\"id\": 1},\n  {\n    \"id\": 2,\n    \"name\": \"x\",,\n  }\n]"
        let prettyError = try #require(throws: JSONStreamError.self) {
            for result in ModelStreamReader<StreamEvent>(bytes: Array(pretty.utf8)) { _ = try result.get() }
        }
        #expect(prettyError.element == 1)
        #expect(prettyError.line == 5)
        #expect(prettyError.column == 17)
        // On the element's first line, after other text on that line.
        let oneLine = Array(#"[{"id": 1}, {"id": 2, "ü": "\x"}]"#.utf8)
        let oneLineError = try #require(throws: JSONStreamError.self) {
            for result in ModelStreamReader<StreamEvent>(bytes: oneLine) { _ = try result.get() }
        }
        #expect(oneLineError.element == 1)
        #expect(oneLineError.kind == .invalidJSON(.invalidEscape))
        #expect(oneLineError.line == 1)
        #expect(oneLineError.column == 29)
    }

    @Test func garbageBetweenElementsAndAfterTheArray() throws {
        func failure(_ text: String, options: ModelOptions = ModelOptions()) -> (Int, JSONStreamError?) {
            let reader = ModelStreamReader<StreamEvent>(bytes: Array(text.utf8), options: options)
            var read = 0
            do {
                while try reader.read() != nil { read += 1 }
                return (read, nil)
            } catch {
                return (read, error)
            }
        }
        let (read1, garbage) = failure(#"[{"id": 1} x {"id": 2}]"#)
        #expect(read1 == 1)
        #expect(garbage?.kind == .unexpectedByte(UInt8(ascii: "x")))
        #expect(garbage?.column == 12 && garbage?.element == 1)
        #expect(garbage?.description.contains("unexpected 'x' between elements") == true)
        // Columns count Unicode scalars, across chunks too.
        let wide = "[{\"id\": 1, \"name\": \"\(String(repeating: "é✓", count: 40))\"} ?]"
        let (_, wideError) = failure(wide)
        #expect(wideError?.column == 104 && wideError?.offset == 20 + 40 * 5 + 3)
        for cut in [5, 20, 40, 100, 200] {
            var framer = ElementFramer(options: JSONStreamOptions())
            let bytes = Array(wide.utf8)
            var caught: JSONStreamError?
            for chunk in [Array(bytes[..<cut]), Array(bytes[cut...])] {
                do throws(JSONStreamError) {
                    try chunk.withUnsafeBufferPointer { buffer in
                        Result { () throws(JSONStreamError) in
                            var index = 0
                            while try framer.next(in: buffer, at: &index) != nil {}
                        }
                    }.get()
                } catch {
                    caught = error
                    break
                }
            }
            #expect(caught?.column == 104, "cut at \(cut)")
        }
        let (read2, trailing) = failure(#"[{"id": 1}] {"id": 2}"#)
        #expect(read2 == 1 && trailing?.kind == .trailingContent)
        let (_, comma) = failure(#"[{"id": 1},]"#)
        #expect(comma?.kind == .invalidJSON(.trailingComma))
        let (read3, allowed) = failure(
            #"[{"id": 1},]"#, options: ModelOptions(parseOptions: JSONParseOptions(allowsTrailingCommas: true)))
        #expect(read3 == 1 && allowed == nil)
        let (_, leading) = failure(#"[,{"id": 1}]"#)
        #expect(leading?.kind == .unexpectedByte(UInt8(ascii: ",")))
        let (_, notArray) = failure(#"{"id": 1}"#, options: ModelOptions(streamOptions: JSONStreamOptions(format: .array)))
        #expect(notArray?.kind == .unexpectedByte(UInt8(ascii: "{")))
        let (read4, notObject) = failure("{\"id\": 1}\n[1]\n")
        #expect(read4 == 1 && notObject?.kind == .notAnObject(model: "StreamEvent", found: .array))
        #expect(notObject?.line == 2)
    }

    /// The column after an element that spans lines counts Unicode scalars from the element's
    /// last line feed, whether that feed and the scalars after it fall in a 16-byte block or in
    /// the bytes after the last whole one, in one chunk or cut in two.
    @Test func columnsAfterAnElementThatSpansLines() throws {
        for before in [0, 3, 17, 40] {
            for after in [0, 1, 5, 16, 33] {
                let text = "[{\"id\": 1, \"a\": \"" + String(repeating: "é", count: before) + "\",\n  \"b\": \""
                    + String(repeating: "✓x", count: after) + "\"} ?]"
                let bytes = Array(text.utf8)
                let mark = try #require(bytes.firstIndex(of: UInt8(ascii: "?")))
                let lineStart = try #require(bytes[..<mark].lastIndex(of: 0x0A)) + 1
                let column = String(decoding: bytes[lineStart..<mark], as: UTF8.self).unicodeScalars.count + 1
                for cut in [bytes.count, mark - 3, lineStart + 1, 10] {
                    var framer = ElementFramer(options: JSONStreamOptions())
                    var caught: JSONStreamError?
                    var read = 0
                    for chunk in [Array(bytes[..<cut]), Array(bytes[cut...])] where !chunk.isEmpty {
                        do throws(JSONStreamError) {
                            try chunk.withUnsafeBufferPointer { buffer in
                                Result { () throws(JSONStreamError) in
                                    var index = 0
                                    while try framer.next(in: buffer, at: &index) != nil { read += 1 }
                                }
                            }.get()
                        } catch {
                            caught = error
                            break
                        }
                    }
                    let place = "\(before) before, \(after) after, cut at \(cut)"
                    #expect(read == 1, "\(place)")
                    #expect(caught?.kind == .unexpectedByte(UInt8(ascii: "?")), "\(place)")
                    #expect(caught?.line == 2 && caught?.column == column, "\(place): \(String(describing: caught))")
                    #expect(caught?.offset == mark, "\(place)")
                }
            }
        }
    }

    @Test func aTruncatedStreamIsAnError() throws {
        let whole = Array(Self.array.utf8)
        for end in [1, 10, 60, whole.count - 3, whole.count - 1] {
            let reader = ModelStreamReader<StreamEvent>(bytes: Array(whole[..<end]))
            var read = 0
            let error = try #require(throws: JSONStreamError.self) {
                while try reader.read() != nil { read += 1 }
            }
            #expect(error.kind == .unexpectedEnd || error.kind == .invalidJSON(.unexpectedEnd), "end \(end)")
            #expect(error.element == read)
        }
        // JSON Lines: the last line may lack its newline, but not its end.
        let lines = Array("{\"id\": 1}\n{\"id\": 2, \"na".utf8)
        let reader = ModelStreamReader<StreamEvent>(bytes: lines, options: ModelOptions(streamOptions: JSONStreamOptions(format: .lines)))
        #expect(try reader.read()?.id == 1)
        let error = try #require(throws: JSONStreamError.self) { try reader.read() }
        #expect(error.kind == .invalidJSON(.unexpectedEnd) && error.element == 1 && error.line == 2)
        // Values: the same, found by the framer.
        let valuesReader = ModelStreamReader<StreamEvent>(bytes: lines, options: ModelOptions(streamOptions: JSONStreamOptions(format: .values)))
        #expect(try valuesReader.read()?.id == 1)
        let valuesError = try #require(throws: JSONStreamError.self) { try valuesReader.read() }
        #expect(valuesError.kind == .unexpectedEnd && valuesError.element == 1 && valuesError.line == 2)
        #expect(valuesError.column == 14)
    }

    @Test func anElementOverTheLimitIsAnError() throws {
        let big = "{\"id\": 1, \"name\": \"\(String(repeating: "x", count: 5000))\"}"
        let text = "{\"id\": 0}\n" + big + "\n"
        let options = JSONStreamOptions(maxElementSize: 1000)
        let reader = ModelStreamReader<StreamEvent>(bytes: Array(text.utf8), options: ModelOptions(streamOptions: options))
        #expect(try reader.read()?.id == 0)
        let error = try #require(throws: JSONStreamError.self) { try reader.read() }
        #expect(error.kind == .elementTooLarge(limit: 1000) && error.element == 1 && error.line == 2)

        // The same from a file read in chunks, with an element far larger than a chunk.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-limit-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let huge = "[{\"id\": 0}, {\"id\": 1, \"name\": \"\(String(repeating: "y", count: 1 << 20))\"}]"
        try Data(huge.utf8).write(to: url)
        let fileReader = try ModelStreamReader<StreamEvent>(contentsOf: url, options: ModelOptions(streamOptions: JSONStreamOptions(maxElementSize: 100_000)))
        #expect(try fileReader.read()?.id == 0)
        let fileError = try #require(throws: JSONStreamError.self) { try fileReader.read() }
        #expect(fileError.kind == .elementTooLarge(limit: 100_000) && fileError.element == 1 && fileError.column == 13)
    }

    @Test func readsFilesAndHandles() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(Self.lines.utf8).write(to: url)
        #expect(try ModelStreamReader<StreamEvent>(contentsOf: url).map { try $0.get().id as Int } == [1, 2, 3])
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        #expect(try ModelStreamReader<StreamEvent>(fileDescriptor: handle.fileDescriptor, owner: handle).map { try $0.get().id as Int } == [1, 2, 3])
        let missing = try #require(throws: JSONStreamError.self) {
            try ModelStreamReader<StreamEvent>(contentsOf: URL(fileURLWithPath: "/nonexistent/stream.json"))
        }
        guard case .readFailed(let reason) = missing.kind else {
            Issue.record("expected a read failure, got \(missing.kind)")
            return
        }
        #expect(reason.contains("/nonexistent/stream.json"))
    }

    @Test func aMillionSmallElementsFromAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-million-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var text: [UInt8] = []
        text.reserveCapacity(20_000_000)
        for id in 0..<1_000_000 { text.append(contentsOf: "{\"id\":\(id)}\n".utf8) }
        try Data(text).write(to: url)
        let reader = try ModelStreamReader<StreamEvent>(contentsOf: url)
        var expected = 0
        var sum = 0
        while let event = try reader.read() {
            if event.id != expected { break }
            expected += 1
            sum &+= event.id
        }
        #expect(expected == 1_000_000)
        #expect(sum == 999_999 * 1_000_000 / 2)
        #expect(reader.bytesRead == text.count)
    }

    @Test func elementsLargerThanTheInPlaceWindow() throws {
        // Elements in memory are parsed in place up to 16 MiB ahead; a larger one is gathered.
        let long = String(repeating: "x", count: (1 << 24) + 100)
        let text = "[{\"id\": 0}, {\"id\": 1, \"name\": \"\(long)\"}, {\"id\": 2}]"
        let events = try ModelStreamReader<StreamEvent>(bytes: Array(text.utf8)).map { try $0.get() }
        #expect(events.map { $0.id as Int } == [0, 1, 2])
        let name: String? = events[1].name
        #expect(name?.utf8.count == long.utf8.count)
    }

    @Test func nodesOfTheValueReader() throws {
        let reader = JSONStreamReader(bytes: Array(#"[1, "two", {"three": 3}]"#.utf8))
        #expect(try reader.read()?.numberText == "1")
        #expect(try reader.read()?.stringValue == "two")
        #expect(try reader.read()?["three"]?.numberText == "3")
        #expect(try reader.read() == nil)
    }
}
