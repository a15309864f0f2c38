import Testing

@testable import JSONModelKit
import JSONModelKitCore

/// In JSON Lines, the carriage return of a CRLF line ending is not part of the element: an
/// element at the size limit passes with either line ending, wherever the reads cut.
@Suite("Stream line endings")
struct StreamLineEndingTests {
    static let element = #"{"id": 1, "name": "abc"}"#

    @Test(arguments: ["\n", "\r\n"])
    func anElementAtTheLimitPassesWithEitherLineEnding(ending: String) {
        let options = JSONStreamOptions(format: .lines, maxElementSize: Self.element.utf8.count)
        let bytes = Array((Self.element + ending + Self.element + ending + Self.element).utf8)
        for cut in [0] + Array(1..<bytes.count) {
            let result = frameInChunks(bytes, cuts: [cut], options: options)
            #expect(result.error == nil && result.elements.count == 3, "cut at \(cut): \(String(describing: result.error))")
        }
        let oneByOne = frameInChunks(bytes, cuts: Array(1..<bytes.count), options: options)
        #expect(oneByOne.error == nil && oneByOne.elements.count == 3, "\(String(describing: oneByOne.error))")
    }

    @Test func anElementOverTheLimitStillFailsWithCRLF() {
        let options = JSONStreamOptions(format: .lines, maxElementSize: Self.element.utf8.count - 1)
        let bytes = Array((Self.element + "\r\n").utf8)
        for cut in [0] + Array(1..<bytes.count) {
            let error = frameInChunks(bytes, cuts: [cut], options: options).error
            #expect(error?.kind == .elementTooLarge(limit: Self.element.utf8.count - 1), "cut at \(cut)")
        }
    }

    /// A carriage return inside a line is the element's own byte, counted.
    @Test func aCarriageReturnInsideALineCounts() {
        let options = JSONStreamOptions(format: .lines, maxElementSize: Self.element.utf8.count)
        let bytes = Array((Self.element + "\r \n").utf8)
        let error = frameInChunks(bytes, cuts: [], options: options).error
        #expect(error?.kind == .elementTooLarge(limit: Self.element.utf8.count))
    }
}
