import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// Faults a stream finds are reported where they are, whatever the chunks around them.
@Suite("Streams: faults where they are")
struct StreamFaultPlacementTests {
    private func secondError(_ text: String, options: ModelOptions = ModelOptions()) throws -> JSONStreamError? {
        let reader = ModelStreamReader<StreamEvent>(bytes: Array(text.utf8), options: options)
        _ = try reader.read()
        do {
            _ = try reader.read()
            return nil
        } catch {
            return error
        }
    }

    @Test func aWrongByteNearTheEndOfTheInputIsReportedAtIt() throws {
        let error = try #require(try secondError("{\"id\":1}\n{\"id\":2\n{\"id\":3}\n"))
        #expect(error.kind == .invalidJSON(.unexpectedByte(UInt8(ascii: "{"))))
        #expect(error.line == 3)
        #expect(error.column == 1)
        #expect(error.offset == 17)
    }

    @Test func aStreamThatStopsEarlyLetsGoOfTheElementItGathered() throws {
        var framer = ElementFramer(options: JSONStreamOptions())
        framer.gathered = [1, 2, 3]
        framer.pending = [4]
        framer.release()
        #expect(framer.gathered.isEmpty && framer.pending.isEmpty)
    }

    @Test func aValueLeftOpenInValuesArrivingLineByLineIsReportedWhereTheNextBegins() async throws {
        let text = "{\"id\":1}\n{\"id\":2\n{\"id\":3}\n{\"id\":4}\n"
        let bytes = AsyncStream<UInt8> { continuation in
            for byte in text.utf8 { continuation.yield(byte) }
            continuation.finish()
        }
        var iterator = StreamEvent.stream(from: bytes).makeAsyncIterator()
        _ = try await iterator.next()
        do {
            _ = try await iterator.next()
            Issue.record("the broken element was read")
        } catch let error as JSONStreamError {
            #expect(error.kind == .invalidJSON(.unexpectedByte(UInt8(ascii: "{"))))
            #expect(error.line == 3)
            #expect(error.column == 1)
            #expect(error.offset == 17)
        }
    }

    /// A value left open in `.values`, and more values arriving after it without end: the fault
    /// is reported where the next value begins as soon as it arrives, not once the element has
    /// gathered the limit's worth of the values after it (or the input has ended).
    @Test(arguments: [JSONStreamFormat.values, .automatic])
    func aValueLeftOpenBeforeAnEndlessStreamIsReportedWhenTheNextArrives(format: JSONStreamFormat) async throws {
        let source = EndlessLines(prefix: Array("{\"id\":1}\n{\"id\":2\n{\"id\":3}\n".utf8))
        let options = ModelOptions(streamOptions: JSONStreamOptions(format: format, maxElementSize: 1 << 20))
        var iterator = StreamEvent.stream(from: source, options: options).makeAsyncIterator()
        #expect(try await iterator.next()?.id == 1)
        let error = try await #require(throws: JSONStreamError.self) { try await iterator.next() }
        #expect(error.kind == .invalidJSON(.unexpectedByte(UInt8(ascii: "{"))))
        #expect(error.element == 1)
        #expect(error.line == 3)
        #expect(error.column == 1)
        #expect(error.offset == 17)
        // What was read past the fault: the size of the element then, not the limit.
        #expect(source.produced.count < 1 << 12, "\(source.produced.count) bytes read")
    }

    /// Gathered across many chunks, a valid element is never taken for a broken one, wherever the
    /// chunks cut it: inside strings, escapes, numbers, literals and characters.
    @Test func aLargeValidElementArrivingInPiecesIsRead() async throws {
        var text = "{\"id\": 7, \"name\": \""
        for index in 0..<3_000 { text += "caf\u{E9} \\u00e9 \\n \(index) " }
        text += "\", \"tags\": [" + (0..<2_000).map { "\($0).25e-1, true, null, \"t\\\"\($0)\"" }.joined(separator: ", ") + "]}\n{\"id\": 8}"
        let bytes = Array(text.utf8)
        // Batches end after each `}`, `]` and line feed; pieces of 1 to 97 bytes cut the rest.
        let slow = SlowBytes(bytes: bytes, breaks: Set(stride(from: 0, to: bytes.count, by: 1).filter { $0 % 97 == 0 || $0 % 13 == 5 }))
        var ids: [Int] = []
        for try await event in StreamEvent.stream(from: slow, options: ModelOptions(streamOptions: JSONStreamOptions(format: .values))) {
            ids.append(event.id)
        }
        #expect(ids == [7, 8])
    }

    @Test func aTrailingCommaIsReportedAtTheComma() throws {
        for (text, line, column) in [
            ("[{\"id\":1},\n]", 1, 10), ("[{\"id\":1}  ,  ]", 1, 12), ("[\n  {\"id\":1},\n\n]", 2, 11),
            ("[\n  {\"id\":1, \"name\": \"é\"},\n]", 2, 24),
        ] {
            let error = try #require(try secondError(text), "\(text)")
            #expect(error.kind == .invalidJSON(.trailingComma), "\(text)")
            #expect(error.offset == Array(text.utf8).lastIndex(of: UInt8(ascii: ",")), "\(text)")
            #expect(error.line == line, "\(text)")
            #expect(error.column == column, "\(text)")
        }
    }

    /// The same, with the comma and the bracket in different chunks: an async stream's batches
    /// end after each `}`, `]` and line feed, and a slow one at any byte.
    @Test(arguments: [
        ("[{\"id\":1},\n]", 1, 10), ("[{\"id\":1}  ,  ]", 1, 12), ("[\n  {\"id\":1},\n\n]", 2, 11),
        ("[\n  {\"id\":1, \"name\": \"é\"},\n]", 2, 24),
    ])
    func aTrailingCommaInAnotherChunkIsReportedAtTheComma(text: String, line: Int, column: Int) async throws {
        let bytes = Array(text.utf8)
        let comma = try #require(bytes.lastIndex(of: UInt8(ascii: ",")))
        for breaks in [nil, Set([comma + 1]), Set([comma + 1, comma + 2])] as [Set<Int>?] {
            var iterator = StreamEvent.stream(from: SlowBytes(bytes: bytes, breaks: breaks)).makeAsyncIterator()
            #expect(try await iterator.next()?.id == 1)
            let error = try await #require(throws: JSONStreamError.self) { try await iterator.next() }
            #expect(error.kind == .invalidJSON(.trailingComma), "\(text)")
            #expect(error.offset == comma, "\(text)")
            #expect(error.line == line, "\(text)")
            #expect(error.column == column, "\(text)")
        }
    }
}
