import Foundation
import Testing
@testable import JSONModelKit

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
}
