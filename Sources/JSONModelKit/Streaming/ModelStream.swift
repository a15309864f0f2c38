#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// Models read one at a time from a top-level JSON array or JSON Lines, as they arrive.
///
/// ```swift
/// let (bytes, _) = try await URLSession.shared.bytes(from: url)
/// for try await event in Event.stream(from: bytes) {
///     handle(event)
/// }
/// ```
///
/// Each element is parsed as a document of its own as soon as its last byte arrives, and made
/// a model the way ``JSONModel/make(json:options:)`` does it: ``JSONModel/modelClass(for:)``,
/// embedded paths and every read rule work as on any model. Memory is bounded by the largest
/// element, not by the input.
///
/// Iterating throws ``JSONStreamError`` for invalid JSON (with the element's index and the line
/// and column in the whole input), a truncated input, an element over
/// ``JSONStreamOptions/maxElementSize``, an element that is not an object, or with
/// ``ModelOptions/validating-property``, a model that does not validate; the models before it have
/// been delivered. Errors of the byte sequence itself are passed on as they are.
/// When the task is cancelled, the next call throws `CancellationError`, stops reading and lets
/// go of the input and the element in progress.
public struct ModelStream<Model: JSONModel>: AsyncSequence {
    public typealias Failure = any Error

    /// Kept as a function returning a `Result`, not one that throws `JSONStreamError`: the
    /// metadata of a typed-throws function type needs the Swift 6.0 runtime (macOS 15, iOS 18),
    /// and reflecting a stream (`dump`, `Mirror`) would ask for it.
    private let makeSource: () -> Result<any ChunkSource, JSONStreamError>
    private let options: ModelOptions
    private let framing: JSONStreamOptions

    init(
        options: ModelOptions, framing: JSONStreamOptions, source: @escaping () throws(JSONStreamError) -> any ChunkSource
    ) {
        self.makeSource = { Result { () throws(JSONStreamError) in try source() } }
        self.options = options
        self.framing = framing
    }

    /// A stream of the bytes that the function `makeFill` returns hands out, a batch at a time.
    @usableFromInline
    init(options: ModelOptions, makeFill: @escaping () -> ModelStreamByteFill) {
        self.init(options: options, framing: options.framing) { AsyncByteSource(makeFill()) }
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(self)
    }

    /// Reads the input one element at a time.
    public struct Iterator: AsyncIteratorProtocol {
        private var source: (any ChunkSource)?
        /// An error opening the input, thrown by the first call.
        private var openingError: JSONStreamError?
        private var framer: ElementFramer
        private let options: ModelOptions
        private var index = 0
        private var chunkDone = true

        init(_ stream: ModelStream) {
            framer = ElementFramer(options: stream.framing)
            options = stream.options
            do {
                source = try stream.makeSource().get()
            } catch {
                openingError = error
            }
        }

        /// The next model; nil at the end of the input.
        public mutating func next() async throws -> Model? {
            try await next(isolation: nil)
        }

        /// The next model, read on the caller's actor; nil at the end of the input.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Model? {
            if let openingError {
                self.openingError = nil
                throw openingError
            }
            guard var source else { return nil }
            // Leave the source out while it is used, so that it is released on every exit but success.
            self.source = nil
            do {
                if Task.isCancelled { throw CancellationError() }
                while true {
                    if !chunkDone {
                        if let element = try framer.next(in: source.chunk, at: &index) {
                            let model = try framer.model(Model.self, of: element, in: source.chunk, options: options)
                            self.source = source
                            return model
                        }
                        chunkDone = true
                    }
                    if Task.isCancelled { throw CancellationError() }
                    guard try await source.read(isolation: actor) else {
                        // An `AsyncStream` ends when the task is cancelled, as if the input did:
                        // that is a cancellation, not the end of the elements.
                        if Task.isCancelled { throw CancellationError() }
                        guard let element = try framer.finish() else { return nil }
                        return try framer.model(Model.self, of: element, in: source.chunk, options: options)
                    }
                    index = 0
                    chunkDone = false
                }
            } catch let error as ChunkReader.ReadFailure {
                framer.release()
                throw framer.failure(.readFailed(error.reason))
            } catch {
                framer.release()
                throw error
            }
        }
    }
}

/// Where a stream's bytes come from: a chunk at a time, valid until the next read.
protocol ChunkSource {
    /// The current chunk.
    var chunk: UnsafeBufferPointer<UInt8> { get }
    /// Reads the next chunk; false at the end of the input.
    mutating func read(isolation actor: isolated (any Actor)?) async throws -> Bool
}

/// Fills a buffer with the next bytes of an async sequence, on the iterating task's actor when
/// it has one; returns how many (0 at the end).
@usableFromInline
typealias ModelStreamByteFill = (UnsafeMutableBufferPointer<UInt8>, isolated (any Actor)?) async throws -> Int

/// The iterator of an async byte sequence, read in batches into a buffer.
///
/// A batch ends after a byte that can end an element (`}`, `]`, a line feed; in JSON Lines, a
/// line feed only), when the buffer is full, or at the end, so an element is delivered as soon
/// as its last byte arrives, however long the next one takes. In JSON Lines a line is
/// delivered at its line feed, and a batch that ends there holds whole lines, which are parsed
/// in place rather than gathered from pieces. Inlinable, so that the loop over the bytes is
/// compiled for the caller's sequence, without a dynamic call per byte.
@usableFromInline
final class AsyncByteBatches<Bytes: AsyncIteratorProtocol> where Bytes.Element == UInt8 {
    @usableFromInline var iterator: Bytes
    @usableFromInline let linesOnly: Bool

    @inlinable
    init(_ iterator: Bytes, linesOnly: Bool) {
        self.iterator = iterator
        self.linesOnly = linesOnly
    }

    /// A batch read off any actor, for an iteration on none (a task of its own, as servers
    /// iterate): the sequence's nonisolated `next()` is called with no switch of executors. From
    /// an isolated function each call of it switched executors twice a byte, six times the time of
    /// reading the bytes alone.
    @inlinable
    func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>) async throws -> Int {
        // A local copy, so that the loop does not check exclusive access to the property per byte.
        var bytes = iterator
        defer { iterator = bytes }
        var count = 0
        while count < buffer.count {
            guard let byte = try await bytes.next() else { break }
            buffer[count] = byte
            count &+= 1
            if endsBatch(byte) { break }
        }
        return count
    }

    /// A batch read on `actor`, the iterating task's: an iterator that keeps state with that
    /// actor (`next(isolation:)`) is used where it expects to be.
    @inlinable
    func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>, isolation actor: isolated (any Actor)) async throws -> Int {
        var bytes = iterator
        defer { iterator = bytes }
        var count = 0
        while count < buffer.count {
            let next: UInt8?
            if #available(macOS 15, iOS 18, tvOS 18, visionOS 2, *) {
                next = try await bytes.next(isolation: actor)
            } else {
                // Before these releases `next()` runs off the caller's actor. The iterator is this
                // loop's alone and used by one call at a time, so handing it over is safe.
                nonisolated(unsafe) var unisolated = bytes
                next = try await unisolated.next()
                bytes = unisolated
            }
            guard let byte = next else { break }
            buffer[count] = byte
            count &+= 1
            if endsBatch(byte) { break }
        }
        return count
    }

    @inlinable
    func endsBatch(_ byte: UInt8) -> Bool {
        byte == 0x0A || (!linesOnly && (byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")))
    }
}

/// The bytes of an async sequence, a batch at a time.
final class AsyncByteSource: ChunkSource {
    private let fill: ModelStreamByteFill
    private let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4096)
    private var count = 0

    init(_ fill: @escaping ModelStreamByteFill) {
        self.fill = fill
    }

    deinit {
        buffer.deallocate()
    }

    var chunk: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[..<count]) }

    func read(isolation actor: isolated (any Actor)?) async throws -> Bool {
        count = try await fill(buffer, actor)
        return count > 0
    }
}

/// A file read a chunk at a time. Reads block the calling thread while they wait (on a pipe);
/// for sockets and other sources that can take long, give an async byte sequence instead.
extension ChunkReader: ChunkSource {
    func read(isolation actor: isolated (any Actor)?) async throws -> Bool {
        try readChunk()
        return count > 0
    }
}

// MARK: - Creating streams

extension JSONModelProtocol {
    /// Models one at a time from an async sequence of bytes (such as `URLSession.bytes`):
    /// a top-level JSON array, JSON Lines, or values one after another.
    ///
    /// ```swift
    /// for try await event in Event.stream(from: bytes) {
    ///     handle(event)
    /// }
    /// let lines = ModelOptions(validating: true, streamOptions: JSONStreamOptions(format: .lines))
    /// for try await event in Event.stream(from: bytes, options: lines) { … }
    /// ```
    ///
    /// To read a file, use ``ModelStreamReader``, which reads it in chunks without an async
    /// sequence in between.
    ///
    /// - Parameters:
    ///   - bytes: The input, read once, as the stream is iterated.
    ///   - options: Mutability, validation and parsing of each model, and the stream's format and
    ///     largest element (``ModelOptions/streamOptions``).
    /// - Complexity: O(*n*) in the size of the input over the whole iteration; memory in the
    ///   size of the largest element.
    @inlinable
    public static func stream<Bytes: AsyncSequence>(from bytes: Bytes, options: ModelOptions = ModelOptions())
        -> ModelStream<Self> where Bytes.Element == UInt8
    {
        ModelStream(options: options) {
            // Used by one iteration, one call at a time, on the iterating task's actor, or off
            // any actor when the task has none.
            nonisolated(unsafe) let batches = AsyncByteBatches(
                bytes.makeAsyncIterator(), linesOnly: options.streamOptions.format == .lines)
            return { buffer, actor in
                // The buffer is the source's alone, used by one read at a time.
                nonisolated(unsafe) let buffer = buffer
                guard let actor else { return try await batches.fill(buffer) }
                return try await batches.fill(buffer, isolation: actor)
            }
        }
    }

    /// Models one at a time from an open descriptor, read to its end in chunks, keeping `owner`
    /// (what closes the descriptor) alive; the descriptor is not closed. Reads block the
    /// iterating thread while they wait.
    package static func stream(
        fromFileDescriptor descriptor: Int32, owner: AnyObject? = nil, options: ModelOptions = ModelOptions()
    ) -> ModelStream<Self> {
        ModelStream(options: options, framing: options.framing) {
            ChunkReader(descriptor: descriptor, closes: false, owner: owner)
        }
    }

    /// Models one at a time from the file at `url`, read in chunks; the file is opened when
    /// iteration starts (an error opening it is thrown by the first `next()`) and closed at the end.
    package static func stream(contentsOf url: URL, options: ModelOptions = ModelOptions()) -> ModelStream<Self> {
        let path = url.path
        return ModelStream(options: options, framing: options.framing.forFile(at: path)) { () throws(JSONStreamError) in
            try ChunkReader(path: path)
        }
    }
}
