import Foundation
@testable import JSONModelKitCore
import Testing
@testable import JSONModelKit
import JSONModelKitFoundation
import JSONModelKitTestSupport

/// Bytes handed out one at a time, suspending before each byte or only where `breaks` says.
struct SlowBytes: AsyncSequence, Sendable {
    typealias Element = UInt8
    let bytes: [UInt8]
    /// The offsets before which the sequence suspends; nil for every byte.
    let breaks: Set<Int>?

    struct AsyncIterator: AsyncIteratorProtocol {
        let bytes: [UInt8]
        let breaks: Set<Int>?
        var index = 0

        mutating func next() async -> UInt8? {
            guard index < bytes.count else { return nil }
            if breaks?.contains(index) ?? true { await Task.yield() }
            defer { index += 1 }
            return bytes[index]
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes, breaks: breaks) }
}

/// Held by the iterator of ``EndlessLines``, to see when the stream lets go of it.
final class StreamHold: Sendable {}

/// JSON Lines without end, after the bytes of `prefix`, counting the bytes handed out.
final class EndlessLines: AsyncSequence, Sendable {
    typealias Element = UInt8
    let produced: SharedWord
    let hold: Locked<StreamHold?>
    /// When set, an array whose first element, a string, never ends.
    let unterminated: Bool
    let prefix: [UInt8]

    init(unterminated: Bool = false, prefix: [UInt8] = []) {
        produced = SharedWord()
        hold = Locked(nil)
        self.unterminated = unterminated
        self.prefix = prefix
    }

    final class AsyncIterator: AsyncIteratorProtocol {
        let owner: EndlessLines
        let held = StreamHold()
        var line: [UInt8] = []
        var index = 0
        var id = 0

        init(_ owner: EndlessLines) {
            self.owner = owner
            line = owner.prefix
        }

        func next() async -> UInt8? {
            owner.produced.add(1)
            if owner.unterminated {
                // `["xxx…`: a string, valid however far it goes, that never ends.
                defer { index += 1 }
                return index == 0 ? UInt8(ascii: "[") : index == 1 ? UInt8(ascii: "\"") : UInt8(ascii: "x")
            }
            if index == line.count {
                line = Array("{\"id\": \(id)}\n".utf8)
                id += 1
                index = 0
                await Task.yield()
            }
            defer { index += 1 }
            return line[index]
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        let iterator = AsyncIterator(self)
        hold.withLock { $0 = iterator.held }
        return iterator
    }
}

/// What a reading gave: the ids read, then the error (its kind, element, line and column).
struct StreamOutcome: Equatable, CustomStringConvertible {
    var ids: [Int] = []
    var error: String?
    var description: String { "\(ids) \(error ?? "")" }

    static func of(_ error: any Error) -> String {
        guard let error = error as? JSONStreamError else { return "\(error)" }
        return "\(error.kind) #\(error.element) \(error.line):\(error.column) @\(error.offset)"
    }
}

func readSync(_ bytes: [UInt8]) -> StreamOutcome {
    var outcome = StreamOutcome()
    let reader = ModelStreamReader<StreamEvent>(bytes: bytes)
    do {
        while let event = try reader.read() { outcome.ids.append(event.id) }
    } catch {
        outcome.error = StreamOutcome.of(error)
    }
    return outcome
}

func readAsync<Bytes: AsyncSequence>(_ bytes: Bytes) async -> StreamOutcome where Bytes.Element == UInt8 {
    var outcome = StreamOutcome()
    do {
        for try await event in StreamEvent.stream(from: bytes) { outcome.ids.append(event.id) }
    } catch {
        outcome.error = StreamOutcome.of(error)
    }
    return outcome
}

@Suite("Stream, async")
struct StreamAsyncTests {
    static let inputs = [
        "[\n  {\"id\": 1, \"name\": \"a,]}\\\"\"},\n  {\"id\": 2, \"tags\": [{\"x\": [1]}]},\n  {\"id\": 3}\n]\n",
        "{\"id\": 1}\n\n{\"id\": 2, \"name\": \"ü\\n\"}\r\n  {\"id\": 3}",
    ]

    @Test func oneByteAtATimeEveryPrefixMatchesTheReaderOverTheWhole() async {
        for input in Self.inputs {
            let bytes = Array(input.utf8)
            let complete = await readAsync(SlowBytes(bytes: bytes, breaks: nil))
            #expect(complete == StreamOutcome(ids: [1, 2, 3]))
            // Every prefix is a stream that stops there: the same models, then the same error.
            for end in 0..<bytes.count {
                let prefix = Array(bytes[..<end])
                let expected = readSync(prefix)
                let outcome = await readAsync(SlowBytes(bytes: prefix, breaks: nil))
                #expect(outcome == expected, "prefix of \(end) bytes")
            }
        }
        // A prefix ending inside an element is an error, not a silent end.
        let stopped = await readAsync(SlowBytes(bytes: Array(Self.inputs[0].utf8.prefix(40)), breaks: nil))
        #expect(stopped.ids == [1])
        #expect(stopped.error?.hasPrefix("unexpectedEnd #1") == true)
    }

    @Test func randomChunksGiveTheSameModels() async {
        var generator = SystemRandomNumberGenerator()
        for input in Self.inputs {
            let bytes = Array(input.utf8)
            for _ in 0..<50 {
                let breaks = Set((0..<Int.random(in: 1...8, using: &generator)).map { _ in
                    Int.random(in: 0..<bytes.count, using: &generator)
                })
                let outcome = await readAsync(SlowBytes(bytes: bytes, breaks: breaks))
                #expect(outcome == StreamOutcome(ids: [1, 2, 3]), "breaks \(breaks.sorted())")
            }
        }
    }

    @Test func aPipeWrittenInRandomChunks() async throws {
        var text = "["
        for id in 0..<2000 { text += (id == 0 ? "" : ",\n") + "{\"id\": \(id), \"name\": \"n\\\"\(id)\"}" }
        text += "]"
        let bytes = Array(text.utf8)
        let pipe = Pipe()
        let writer = Thread {
            var offset = 0
            while offset < bytes.count {
                let size = min(Int.random(in: 1...3000), bytes.count - offset)
                pipe.fileHandleForWriting.write(Data(bytes[offset..<offset + size]))
                offset += size
            }
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        var ids: [Int] = []
        for try await event in StreamEvent.stream(fromFileDescriptor: pipe.fileHandleForReading.fileDescriptor, owner: pipe.fileHandleForReading) { ids.append(event.id) }
        #expect(ids == Array(0..<2000))
    }

    @Test func filesByURL() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-async-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(Self.inputs[1].utf8).write(to: url)
        var ids: [Int] = []
        for try await event in StreamEvent.stream(contentsOf: url) { ids.append(event.id) }
        #expect(ids == [1, 2, 3])
        let missing = URL(fileURLWithPath: "/nonexistent/stream.jsonl")
        await #expect(throws: JSONStreamError.self) {
            for try await _ in StreamEvent.stream(contentsOf: missing) {}
        }
    }

    @Test func cancellingStopsReadingAndLetsGo() async throws {
        let endless = EndlessLines()
        weak var held: StreamHold?
        let task = Task {
            var iterator = StreamEvent.stream(from: endless).makeAsyncIterator()
            for expected in 0..<5 {
                let event = try await iterator.next()
                #expect(event?.id == expected)
            }
            held = endless.hold.withLock { $0 }
            endless.hold.withLock { $0 = nil }
            #expect(held != nil)
            withUnsafeCurrentTask { $0?.cancel() }
            let before = endless.produced.count
            await #expect(throws: CancellationError.self) { try await iterator.next() }
            // Nothing more was read, and the input and the element in progress were let go.
            #expect(endless.produced.count <= before + 1)
            #expect(held == nil)
            #expect(try await iterator.next() == nil)
        }
        try await task.value
    }

    /// An `AsyncStream` ends its iteration when the task is cancelled, as if its input ended: the
    /// stream throws `CancellationError` all the same, rather than ending quietly between values
    /// or handing out a line whose line feed never came.
    @Test(arguments: [JSONStreamFormat.values, .lines])
    func cancellingWhileWaitingForBytesThrowsRatherThanEnding(format: JSONStreamFormat) async throws {
        let (bytes, continuation) = AsyncStream<UInt8>.makeStream()
        for byte in Array("{\"id\": 0}\n{\"id\": 1}".utf8) { continuation.yield(byte) }
        let options = ModelOptions(streamOptions: JSONStreamOptions(format: format))
        let waiting = SharedWord()
        let task = Task {
            var iterator = StreamEvent.stream(from: bytes, options: options).makeAsyncIterator()
            #expect(try await iterator.next()?.id == 0)
            waiting.store(1)
            // `.values` delivers the second value and then waits; `.lines` waits for its line feed.
            if format == .values { #expect(try await iterator.next()?.id == 1) }
            return try await iterator.next()?.id
        }
        // Cancelled while it waits for bytes that do not come (or, on a slow machine, before it
        // asks for them: the same error).
        while waiting.value == 0 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        continuation.finish()
    }

    @Test func cancellingAFileStreamStopsAtTheNextElement() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-cancel-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data((0..<100).map { "{\"id\": \($0)}\n" }.joined().utf8).write(to: url)
        let task = Task { () async throws in
            var iterator = StreamEvent.stream(contentsOf: url).makeAsyncIterator()
            #expect(try await iterator.next()?.id == 0)
            withUnsafeCurrentTask { $0?.cancel() }
            // The next elements are already read, in the same chunk: cancelled all the same.
            await #expect(throws: CancellationError.self) { try await iterator.next() }
            #expect(try await iterator.next() == nil)
        }
        try await task.value
    }

    @Test func anElementThatNeverEndsIsAnErrorNotRunawayMemory() async throws {
        let endless = EndlessLines(unterminated: true)
        let options = JSONStreamOptions(format: .array, maxElementSize: 1 << 20)
        let error = try await #require(throws: JSONStreamError.self) {
            for try await _ in StreamEvent.stream(from: endless, options: ModelOptions(streamOptions: options)) {}
        }
        #expect(error.kind == .elementTooLarge(limit: 1 << 20))
        #expect(endless.produced.count < (1 << 20) + 4096 + 10)  // one batch over at most
    }
}

/// Bytes whose iterator keeps state with an actor: it expects `next(isolation:)` on that actor,
/// and counts the calls made on it and off it.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct ActorBoundBytes: AsyncSequence, Sendable {
    typealias Element = UInt8
    let bytes: [UInt8]
    let calls: Locked<(onActor: Int, offActor: Int)>

    struct AsyncIterator: AsyncIteratorProtocol {
        let bytes: [UInt8]
        let calls: Locked<(onActor: Int, offActor: Int)>
        var index = 0

        mutating func next() async -> UInt8? {
            calls.withLock { $0.offActor += 1 }
            return take()
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> UInt8? {
            calls.withLock { if actor == nil { $0.offActor += 1 } else { $0.onActor += 1 } }
            return take()
        }

        private mutating func take() -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes, calls: calls) }
}

/// Iterates a stream on itself.
actor StreamCollector {
    func ids(_ bytes: some AsyncSequence<UInt8, Never>, options: ModelOptions) async throws -> [Int] {
        var ids: [Int] = []
        for try await event in StreamEvent.stream(from: bytes, options: options) { ids.append(event.id) }
        return ids
    }
}

@Suite("Streams on an actor")
struct StreamIsolationTests {
    /// Iterated on an actor, a stream takes the bytes on that actor, through the iterator's
    /// `next(isolation:)`; iterated on none, through `next()`, as a loop there would.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [JSONStreamFormat.lines, .array])
    func bytesAreTakenWhereTheIterationRuns(format: JSONStreamFormat) async throws {
        let text = format == .lines ? "{\"id\": 1}\n{\"id\": 2}\n" : "[{\"id\": 1}, {\"id\": 2}]"
        let options = ModelOptions(streamOptions: JSONStreamOptions(format: format))
        let onActor = ActorBoundBytes(bytes: Array(text.utf8), calls: Locked((0, 0)))
        #expect(try await StreamCollector().ids(onActor, options: options) == [1, 2])
        let counted = onActor.calls.withLock { $0 }
        #expect(counted.offActor == 0 && counted.onActor == text.utf8.count + 1, "\(counted)")

        let offActor = ActorBoundBytes(bytes: Array(text.utf8), calls: Locked((0, 0)))
        var ids: [Int] = []
        for try await event in StreamEvent.stream(from: offActor, options: options) { ids.append(event.id) }
        #expect(ids == [1, 2])
        let off = offActor.calls.withLock { $0 }
        #expect(off.onActor == 0 && off.offActor == text.utf8.count + 1, "\(off)")
    }
}
