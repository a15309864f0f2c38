import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitCore
import JSONModelKitTestSupport

/// Inputs where a stream's error, or the memory it keeps, once depended on how the bytes
/// arrived: an element that never ends in memory, a cut inside a value, a stray separator, a
/// scalar cut short by its separator; and the tool's names of JSON Lines files.
@Suite("Stream edge cases")
struct StreamEdgeCaseTests {
    /// Frames `bytes` as one chunk that ends the input, as `ModelStreamReader(bytes:)` does: the
    /// error that stops it and the framer after it.
    private static func frameInOneChunk(_ bytes: [UInt8], options: JSONStreamOptions) -> (error: JSONStreamError?, framer: ElementFramer) {
        var framer = ElementFramer(options: options)
        var caught: JSONStreamError?
        bytes.withUnsafeBufferPointer { chunk in
            var index = 0
            do throws(JSONStreamError) {
                while try framer.next(in: chunk, at: &index, isLast: true) != nil {}
                _ = try framer.finish(after: chunk)
            } catch {
                caught = error
            }
        }
        return (caught, framer)
    }

    // MARK: An element that does not end in memory

    /// "A larger element is refused as too large as soon as a reader has seen more than that of
    /// it, whatever follows, so memory stays bounded by the limit even for bytes already in
    /// memory." In memory the input is one chunk: an element that does not end in it (a
    /// truncated input, a last JSON line without its newline) is kept no further than one byte
    /// past the limit, not copied (and parsed) whole.
    @Test(arguments: [JSONStreamFormat.values, .array, .lines])
    func anElementThatDoesNotEndInMemoryIsRefusedHavingKeptNoMoreThanTheLimit(format: JSONStreamFormat) {
        let text = (format == .array ? "[" : "") + "{\"id\": 1, \"name\": \"" + String(repeating: "x", count: 1 << 20)
        let (error, framer) = Self.frameInOneChunk(Array(text.utf8), options: JSONStreamOptions(format: format, maxElementSize: 16))
        #expect(error?.kind == .elementTooLarge(limit: 16), "\(format): \(String(describing: error))")
        #expect(framer.pending.count <= 17, "\(format): \(framer.pending.count) bytes kept under a limit of 16")
    }

    /// The same element, left open and followed by more values: refused as too large however
    /// the bytes arrive, a piece at a time or all in memory, never for the fault that lies past
    /// the limit (where the next value starts, byte 47).
    @Test func aFaultPastTheLimitIsNotReportedInsteadOfTheElementBeingTooLarge() throws {
        let text = "{\"id\": 1, \"name\": \"abcdefghijklmnopqrstuvwxyz\"\n{\"id\": 2}\n{\"id\": 3}\n"
        let bytes = Array(text.utf8)
        let options = ModelOptions(streamOptions: JSONStreamOptions(format: .values, maxElementSize: 16))
        // A byte at a time: too large, at the element's start.
        let pieces = frameInChunks(bytes, cuts: Array(1..<bytes.count), options: options.framing)
        #expect(pieces.error?.kind == .elementTooLarge(limit: 16))
        // In memory: the same.
        let reader = ModelStreamReader<StreamEvent>(bytes: bytes, options: options)
        let error = try #require(throws: JSONStreamError.self) { try reader.read() }
        #expect(error.kind == .elementTooLarge(limit: 16), "\(error)")
        #expect(error.element == 0 && error.offset == 0)
    }

    // MARK: A stream cut inside a number, an escape or a character

    static let cutInside: [[UInt8]] = [
        Array(#"[{"id": 1."#.utf8),
        Array(#"[{"id": 1e+"#.utf8),
        Array(#"[{"id": 1, "name": "\u00"#.utf8),
        Array(#"[{"id": 1, "name": "\ud83d"#.utf8),
        Array(Array("[{\"id\": 1, \"name\": \"caf\u{E9}".utf8).dropLast()),  // the first byte of é
        Array("[1, 2.".utf8),
    ]

    /// `JSONStreamError.Kind.unexpectedEnd`: "The stream ended inside an element". Cut after
    /// `{"id": 1.` it is, as after `{"id": 1`: not an invalid number at the number (nor an
    /// invalid escape, a lone surrogate or invalid UTF-8), which more bytes would have mended.
    @Test(arguments: StreamEdgeCaseTests.cutInside)
    func aStreamCutInsideAValueEndsUnexpectedlyAtItsEnd(bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self).debugDescription
        let error = frameInChunks(bytes, cuts: []).error
        #expect(error?.kind == .unexpectedEnd, "\(text): \(String(describing: error))")
        #expect(error?.offset == bytes.count, "\(text)")
        // The reader over the bytes in memory says the same.
        let reader = ModelStreamReader<StreamEvent>(bytes: bytes)
        var readError: JSONStreamError?
        do throws(JSONStreamError) {
            while try reader.read() != nil {}
        } catch {
            readError = error
        }
        #expect(readError?.kind == .unexpectedEnd || readError?.kind == .notAnObject(model: "StreamEvent", found: .number), "\(text): \(String(describing: readError))")
    }

    // MARK: The tool's JSON Lines files

    /// `jsonmodel validate` streams a file named `.jsonl` or `.ndjson` in any case, as the library
    /// matches those names (`JSONStreamOptions.forFile(at:)`): `EVENTS.JSONL` is not parsed as one
    /// document whose second line is "not valid JSON".
    @Test(arguments: ["EVENTS.JSONL", "events.NDJSON", "Events.Jsonl"])
    func theToolStreamsAJSONLinesFileWhateverTheCaseOfItsName(name: String) throws {
        let schema = try TemporaryFile(contents: #"""
            {"models": [{"name": "Item", "properties": [
              {"name": "id", "type": "Int"},
              {"name": "name", "type": "String?"}]}]}
            """#)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-case-\(UUID().uuidString)-\(name)")
        try Data("{\"id\": 1}\n{\"id\": 2}\n".utf8).write(to: url)
        defer {
            schema.remove()
            try? FileManager.default.removeItem(at: url)
        }
        guard let result = try Tool.run(["validate", "--schema", schema.path, "--model", "Item", url.path]) else { return }
        #expect(result.status == 0, "\(name): \(result.standardOutput)")
        #expect(result.standardOutput == "\(url.path): valid in 2 Item objects\n")
    }

    // MARK: Memory of gathered elements

    /// `gathered` is "the text of the last element gathered from its bytes, until the next
    /// element is framed": the 100 KB of element 0 are let go once element 1 (parsed in place) is
    /// framed, not held until another element is gathered.
    @Test func theLastGatheredElementIsLetGoOnceTheNextOneIsFramed() {
        var framer = ElementFramer(options: JSONStreamOptions(format: .lines))
        let first = Array("{\"id\": 1, \"name\": \"".utf8) + Array(repeating: UInt8(ascii: "x"), count: 100_000)
        let second = Array("\"}\n{\"id\": 2}\n".utf8)
        var framed = 0
        for chunk in [first, second] {
            chunk.withUnsafeBufferPointer { buffer in
                var index = 0
                while (try? framer.next(in: buffer, at: &index)) != nil { framed += 1 }
            }
        }
        #expect(framed == 2)
        #expect(framer.gathered.count == 0, "bytes of element 0 still held")
    }

    // MARK: Stray separators between values

    /// In an array, a byte that cannot be between elements is `.unexpectedByte`; between values it
    /// is too, not a one-byte scalar element (counted) whose parse fails.
    @Test(arguments: [(#"{"id": 1},{"id": 2}"#, ","), (#"{"id": 1}}"#, "}"), (#"{"id": 1}]"#, "]")])
    func aStraySeparatorBetweenValuesIsAByteBetweenElements(text: String, stray: String) throws {
        let byte = UInt8(ascii: Unicode.Scalar(stray)!)
        let reader = ModelStreamReader<StreamEvent>(bytes: Array(text.utf8))  // automatic: values
        #expect(try reader.read()?.id == 1)
        let error = try #require(throws: JSONStreamError.self) { try reader.read() }
        #expect(error.kind == .unexpectedByte(byte), "\(text): \(error)")
        #expect(error.element == 1 && error.offset == 9 && error.line == 1 && error.column == 10, "\(text): \(error)")
    }

    // MARK: A scalar cut short by its separator

    /// An array's scalar element is framed up to its separator and parsed alone: `tru,` is not
    /// "unexpected end of input" at the separator, though the input goes on, but what the whole
    /// document says, and the same literal inside an object: `invalidLiteral` at `t`.
    @Test(arguments: [
        (#"[{"id": 1}, tru, {"id": 2}]"#, JSONParseError.Kind.invalidLiteral),
        (#"[{"id": 1}, nul]"#, .invalidLiteral),
        (#"[{"id": 1}, -, {"id": 2}]"#, .invalidNumber),
    ])
    func aScalarCutShortByASeparatorIsReportedAsTheDocumentReportsIt(text: String, kind: JSONParseError.Kind) throws {
        let bytes = Array(text.utf8)
        var documentError: JSONParseError?
        do throws(JSONParseError) {
            _ = try JSONDocument(bytes: bytes)
        } catch {
            documentError = error
        }
        #expect(documentError?.kind == kind && documentError?.offset == 12, "\(String(describing: documentError))")
        let reader = ModelStreamReader<StreamEvent>(bytes: bytes)
        #expect(try reader.read()?.id == 1)
        let error = try #require(throws: JSONStreamError.self) { try reader.read() }
        #expect(error.kind == .invalidJSON(kind), "\(text): \(error)")
        #expect(error.element == 1 && error.offset == 12 && error.column == 13, "\(text): \(error)")
    }
}
