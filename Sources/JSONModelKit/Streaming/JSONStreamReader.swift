#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// Reads the elements of a top-level JSON array, or of JSON Lines, one at a time, each as a
/// document of its own.
///
/// ```swift
/// let reader = try JSONStreamReader(contentsOfFile: "events.jsonl")
/// while let element = try reader.read() {
///     print(element["type"]?.stringValue ?? "?")
/// }
/// ```
///
/// Memory is bounded by the largest element, not by the input: the reader holds one chunk of
/// the input and the element in progress. Each element is validated by the same parser as
/// ``JSONDocument``.
///
/// A reader is used from one thread at a time; the nodes it returns are `Sendable`.
package final class JSONStreamReader {
    // Unchecked exclusivity: a reader is used from one thread at a time and never passes these
    // to a closure that could reach them again, and the run-time checks would be a call per
    // access, several per element.
    // PERF: framing a stream's elements; see jsonmodel-bench --section stream, row (a).
    @exclusivity(unchecked) private var framer: ElementFramer
    private let parseOptions: JSONParseOptions
    private let source: Source
    /// The bytes of a reader of bytes in memory; empty for a file. Kept out of ``Source``, whose
    /// payload a read copied out, a retain and a release per element.
    private let memory: [UInt8]
    /// Where the framer is in the current chunk.
    @exclusivity(unchecked) private var index = 0
    /// Whether the framer has used up the current chunk.
    @exclusivity(unchecked) private var chunkDone = true
    @exclusivity(unchecked) private var ended = false

    private enum Source {
        case memory
        case file(ChunkReader)
    }

    /// A reader of bytes in memory (for example JSON Lines, which `array(from:)` does not read).
    package init(bytes: [UInt8], options: JSONStreamOptions = JSONStreamOptions()) {
        framer = ElementFramer(options: options)
        parseOptions = options.parseOptions
        source = .memory
        memory = bytes
        chunkDone = bytes.isEmpty
    }

    /// A reader of an open descriptor, keeping `owner` (what closes it, such as a `FileHandle`) alive.
    package init(fileDescriptor: Int32, owner: AnyObject? = nil, options: JSONStreamOptions = JSONStreamOptions()) {
        framer = ElementFramer(options: options)
        parseOptions = options.parseOptions
        source = .file(ChunkReader(descriptor: fileDescriptor, closes: false, owner: owner))
        memory = []
    }

    /// A reader of the file at `path`, which it closes at the end of the input or when it goes.
    ///
    /// With the ``JSONStreamFormat/automatic`` format, a file named `.jsonl` or `.ndjson` is
    /// read as ``JSONStreamFormat/lines``.
    ///
    /// - Throws: ``JSONStreamError/Kind/readFailed(_:)`` when the file cannot be opened.
    package init(contentsOfFile path: String, options: JSONStreamOptions = JSONStreamOptions()) throws(JSONStreamError) {
        framer = ElementFramer(options: options.forFile(at: path))
        parseOptions = options.parseOptions
        source = .file(try ChunkReader(path: path))
        memory = []
    }

    /// The number of elements read so far.
    package var count: Int { framer.count }

    /// The number of input bytes the reader has consumed so far.
    package var bytesRead: Int { framer.streamOffset }

    /// The next element, the root of a document of its own; nil at the end of the input.
    ///
    /// - Throws: ``JSONStreamError`` for invalid JSON (with the element's index and the line and
    ///   column in the whole input), a truncated input, an element over the size limit, or a
    ///   failed read. After an error, or the end, the reader returns nil.
    package func read() throws(JSONStreamError) -> JSONNode? {
        guard var element = try nextElement() else { return nil }
        do {
            return try takeDocument(of: &element).root
        } catch {
            end()
            throw error
        }
    }

    /// Stops reading: the reader returns nil from now on (after an error in an element).
    func end() {
        ended = true
        framer.release()
        if case .file(let reader) = source { reader.close() }
    }

    /// The bytes of the next element.
    func nextElement() throws(JSONStreamError) -> FramedElement? {
        guard !ended else { return nil }
        do throws(JSONStreamError) {
            while true {
                if !chunkDone {
                    let element: FramedElement?
                    switch source {
                    case .memory:
                        element = try memory.withUnsafeBufferPointer { chunk in
                            Result { () throws(JSONStreamError) in try framer.next(in: chunk, at: &index, isLast: true) }
                        }.get()
                    case .file(let reader):
                        element = try framer.next(in: reader.chunk, at: &index)
                    }
                    if let element { return element }
                    chunkDone = true
                }
                switch source {
                case .memory:
                    ended = true
                    return try memory.withUnsafeBufferPointer { chunk in
                        Result { () throws(JSONStreamError) in try framer.finish(after: chunk) }
                    }.get()
                case .file(let reader):
                    do {
                        try reader.readChunk()
                    } catch {
                        throw framer.failure(.readFailed(error.reason))
                    }
                    if reader.count == 0 {
                        ended = true
                        return try framer.finish()
                    }
                    index = 0
                    chunkDone = false
                }
            }
        } catch {
            end()
            throw error
        }
    }

    /// `kind`, an error of `element`, the last one framed, placed at its start.
    func error(_ kind: JSONStreamError.Kind, of element: FramedElement) -> JSONStreamError {
        switch source {
        case .memory:
            memory.withUnsafeBufferPointer { chunk in framer.error(kind, of: element, in: chunk) }
        case .file(let reader):
            framer.error(kind, of: element, in: reader.chunk)
        }
    }

    /// The document of `element`, the last one framed, moved out of it, or the parser's error
    /// placed in the whole stream.
    func takeDocument(of element: inout FramedElement) throws(JSONStreamError) -> JSONDocument {
        try framer.takeDocument(of: &element)
    }
}
