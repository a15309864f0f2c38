import Testing

@testable import JSONModelKit
import JSONModelKitCore

/// Comments inside a streamed element, with comments allowed: the framer passes over them, so
/// brackets, braces and quotes in a comment neither end an element nor keep it open, wherever
/// the reads cut the input.
@Suite("Stream comment framing")
struct StreamCommentFramingTests {
    static let commented = JSONStreamOptions().parsing(with: JSONParseOptions(allowsComments: true))

    static let elements = [
        "{\"a\": 1 // } ] { \" end\n}",
        #"{"b": /* } ] " { [ */ 2}"#,
        "[3, /* ] */ 4 // ]\n]",
        #"{"c": "/* not a comment */", "d": /**/ "x"/***/}"#,
        "{/* \n */\"e\": [/*}*/]}",
    ]

    @Test(arguments: [
        (JSONStreamFormat.array, "[" + elements.joined(separator: ",\n") + "]"),
        (JSONStreamFormat.values, elements.joined(separator: "\n")),
    ])
    func commentsInAnElementFrameAtEverySplit(format: JSONStreamFormat, text: String) {
        var options = Self.commented
        options.format = format
        let bytes = Array(text.utf8)
        let whole = frameInChunks(bytes, cuts: [], options: options)
        #expect(whole.error == nil && whole.elements == Self.elements, "\(String(describing: whole.error))")
        for cut in 1..<bytes.count {
            let split = frameInChunks(bytes, cuts: [cut], options: options)
            #expect(split.error == nil && split.elements == Self.elements, "cut at \(cut): \(String(describing: split.error))")
        }
        let oneByOne = frameInChunks(bytes, cuts: Array(1..<bytes.count), options: options)
        #expect(oneByOne.error == nil && oneByOne.elements == Self.elements, "\(String(describing: oneByOne.error))")
    }

    /// Lines and columns after an element whose comments hold line feeds stay right.
    @Test func positionsAfterCommentsStayRight() {
        let text = "[{\"a\": /* } x\ny\n*/ 1 // ] z\n}, {\"b\": 2}"
        var options = Self.commented
        options.format = .array
        let bytes = Array(text.utf8)
        for cut in [0] + Array(1..<bytes.count) {
            let error = frameInChunks(bytes, cuts: [cut], options: options).error
            #expect(error?.kind == .unexpectedEnd && error?.line == 4, "cut at \(cut): \(String(describing: error))")
        }
    }

    /// Without comments allowed, a `/` is only a byte for the parser to reject.
    @Test func withoutCommentsASlashIsNotSkipped() {
        let bytes = Array("[{\"a\": 1 /* } */}]".utf8)
        for cut in [0] + Array(1..<bytes.count) {
            let result = frameInChunks(bytes, cuts: [cut])
            #expect(result.error != nil || result.elements != ["{\"a\": 1 /* } */}"], "cut at \(cut)")
        }
    }
}
