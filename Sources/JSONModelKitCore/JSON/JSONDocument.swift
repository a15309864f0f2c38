#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("JSONDocument needs the C library: no Glibc, Musl or Darwin module here")
#endif

/// Options for scanning JSON text, set when they are created.
///
/// ```swift
/// let lenient = JSONParseOptions(allowsTrailingCommas: true, allowsComments: true)
/// let document = try JSONDocument(string: "[1, 2, /* three */]", options: lenient)
/// ```
public struct JSONParseOptions: Sendable, Hashable {
    /// The deepest nesting of arrays and objects accepted; deeper input is an error.
    package var maxDepth: Int
    /// Whether a comma may stand before `]` or `}` (not JSON; off by default).
    package var allowsTrailingCommas: Bool
    /// Whether `//` and `/* */` comments count as white space (not JSON; off by default).
    package var allowsComments: Bool

    /// Creates options; the defaults are strict RFC 8259 with a nesting limit of 512.
    ///
    /// - Parameters:
    ///   - maxDepth: The deepest nesting of arrays and objects accepted (negative counts as 0);
    ///     deeper input is a ``JSONParseError/Kind/tooDeep(limit:)`` error.
    ///   - allowsTrailingCommas: Whether a comma may stand before `]` or `}` (not JSON).
    ///   - allowsComments: Whether `//` and `/* */` comments count as white space (not JSON).
    public init(maxDepth: Int = 512, allowsTrailingCommas: Bool = false, allowsComments: Bool = false) {
        self.maxDepth = max(0, maxDepth)
        self.allowsTrailingCommas = allowsTrailingCommas
        self.allowsComments = allowsComments
    }
}

/// Validated JSON held as its bytes plus a flat tape of offsets.
///
/// Creating a document scans the input once, checks it against RFC 8259 (grammar, escapes,
/// UTF-8) and records where every value lies. Nothing is decoded: strings and numbers are read
/// from the bytes when asked for, through ``JSONNode`` views.
///
/// ```swift
/// let document = try JSONDocument(string: #"{"name": "Ann", "id": 12345678901234567890}"#)
/// document.root["name"]?.stringValue        // "Ann"
/// document.root["id"]?.numberValue          // 12345678901234567890, exactly
/// ```
///
/// A document is immutable and `Sendable`; its views can be read from any thread. Lookups into
/// large objects and arrays build an index on first use, shared by all views.
///
/// Duplicate keys are kept: lookup by key finds the last member with that key, while iteration
/// and output keep every member in document order.
///
/// Limits: documents up to 4 GiB; a single string or number, and the element count of a single
/// container, below 2^28.
public final class JSONDocument: Sendable {
    /// The input, kept as it was given (an array, `Data`, a mapped file); never copied, except
    /// for a value scanned from a larger buffer (``DocumentStorage/afterTape(_:)``).
    @usableFromInline package let storage: DocumentStorage
    /// The tape, which the document frees. Where the bytes are kept after it
    /// (``DocumentStorage/afterTape(_:)``), they are in the same memory, past its last word.
    @usableFromInline package let tape: TapeWords
    /// The number of JSON values in the document (object keys are not counted).
    package let valueCount: Int
    /// The deepest nesting of arrays and objects: 0 for a top-level scalar, 1 for `[]`.
    package let depth: Int
    /// Memory for the caches of the models read from this document, which hold it; only
    /// documents over ``copiedTapeLimit`` have any, up to ``arenaBudget(tapeWords:)``.
    package let arena: DocumentArena
    /// The short strings this document's reads make in the standard library's two words
    /// directly (``SmallStrings``), found once here rather than at each read.
    package let smallStrings: SmallStrings.Kinds
    /// Indexes of large containers, built on first lookup; read and written only through
    /// ``withIndexes(_:)``, under the striped lock this document's address picks.
    nonisolated(unsafe) private var indexes = ContainerIndexes()

    /// Calls `body` with exclusive access to the indexes of large containers.
    func withIndexes<Result>(_ body: (inout ContainerIndexes) -> Result) -> Result {
        StripedLocks.withLock(for: self) { body(&indexes) }
    }

    /// Scans and validates `bytes`, keeping them.
    ///
    /// - Parameters:
    ///   - bytes: UTF-8 JSON text. The document keeps this array; no copy is made.
    ///   - options: Limits and leniency; strict by default.
    /// - Throws: ``JSONParseError`` with the position of the first fault.
    /// - Complexity: O(*n*) in the size of the input.
    @inlinable
    public convenience init(bytes: [UInt8], options: JSONParseOptions = JSONParseOptions()) throws(JSONParseError) {
        try self.init(storage: .array(bytes), options: options)
    }

    /// How far a scan of a mapped file goes between two hand-backs of the pages behind it.
    ///
    /// Small against the 64 KiB the kernel commonly maps in around a page that a read touches,
    /// so that the pages behind the scan add little to what is mapped ahead of it; large enough
    /// that the hand-backs (one system call each, over the new pages only) cost nothing against
    /// the scan. Input in memory is never handed back.
    static let mappedReleaseInterval = 16 << 10

    /// Documents up to this size are scanned into a temporary tape and copied (see
    /// ``init(storage:options:)``); larger ones into the tape's own storage.
    static let copiedTapeLimit = 16 << 10

    /// Input from this size starts its tape at one word per eight bytes, below it at one word per
    /// four (see ``init(storage:options:)``).
    static let sparseTapeLimit = 1 << 20

    /// Documents from this size keep their tape in pages of its own, backed by huge pages where
    /// the system allows it (``DocumentPages``), and so do their arenas' chunks past the first
    /// mebibyte (``DocumentArena``); smaller ones take memory from `malloc`, which the next
    /// document of their size can take again. The last 2 MiB the scan reaches are taken whole,
    /// up to 2 MiB more than a tape of 4 KiB pages, which is why only documents this large ask.
    static let hugePageTapeLimit = 16 << 20

    /// The most tape words a document of `byteCount` bytes can need: one word a value or key,
    /// and each takes at least two bytes with what separates it from the next (`0,`, `[]`,
    /// `"":`), but for the last.
    static func densestTape(byteCount: Int) -> Int { byteCount / 2 + 16 }

    /// One scan of a document's bytes into a tape.
    private struct TapeScan {
        /// The tape, when the scan succeeded.
        var tape: TapeWords?
        var values = 0
        var depth = 0
        var failure: JSONParseError?

        /// Scans into `buffer` while the tape fits it, copying the tape out at its size; or,
        /// without a buffer, into storage of the tape's own of `capacity` words, grown as needed
        /// (``TapeBuilder/takeWords()`` says what it keeps).
        init(_ storage: DocumentStorage, options: JSONParseOptions, into buffer: UnsafeMutableBufferPointer<UInt64>?, capacity: Int) {
            // A mapped file hands back the pages the scan is done with, so its pages are never
            // all in memory at once: a lazy read later brings back only the pages it touches.
            var pages: ReleasedPages?
            if case .mapped(let file) = storage { pages = ReleasedPages(file: file) }
            storage.withUnsafeBufferPointer { input in
                let reserve = input.count >= JSONDocument.hugePageTapeLimit
                    ? JSONDocument.densestTape(byteCount: input.count) : nil
                var scanner = JSONScanner(
                    bytes: input, options: options, tapeBuffer: buffer, tapeCapacity: capacity, tapeReserve: reserve,
                    releaseInterval: pages == nil ? 0 : JSONDocument.mappedReleaseInterval,
                    release: pages.map { pages in { offset in pages.release(to: offset) } })
                do throws(JSONParseError) {
                    try scanner.scan()
                    values = scanner.valueCount
                    depth = scanner.deepest
                    tape = scanner.takeTape()
                } catch {
                    failure = error
                }
            }
            pages?.release(to: storage.count)
        }
    }

    /// A mapped file, and how far its pages have been handed back.
    private final class ReleasedPages {
        let file: MappedFile
        var offset = 0

        init(file: MappedFile) { self.file = file }

        func release(to end: Int) { offset = file.releasePages(from: offset, to: end) }
    }

    /// Scans and validates the bytes of `storage`, keeping it.
    @usableFromInline
    init(storage: DocumentStorage, options: JSONParseOptions) throws(JSONParseError) {
        // The scanner writes straight into the tape's own storage, which starts at one word per
        // eight input bytes, what typical JSON needs (one per four below 1 MiB, where that is
        // little memory and fits nearly every document), and grows as the scan goes, up to
        // `[0,0,…]`'s one word per two bytes, without copying a large tape's words: `realloc`
        // moves its pages, and a document of 16 MiB or more grows its tape in place in address
        // space reserved for the densest input (``DocumentPages``). Only the storage a typical tape
        // needs is asked for up front: a limit on the address space (`ulimit -v`) that refuses
        // the reservation leaves the tape in memory from `malloc`. The tape is never copied; a
        // tape that grew gives back what it does not need beyond its first storage
        // (``TapeBuilder/takeWords()``).
        // PERF: peak memory of large and dense input; see HostileInputMemoryTests.
        //
        // Input over the size limit is refused before anything is allocated.
        let byteCount = storage.count
        guard UInt(byteCount) <= UInt(UInt32.max) else {
            throw storage.withUnsafeBufferPointer { input in
                JSONParseError(.documentTooLarge, at: 0, in: UnsafeBufferPointer(rebasing: input.prefix(64)))
            }
        }
        let capacity = byteCount / (byteCount < Self.sparseTapeLimit ? 4 : 8) + 16
        let scan: TapeScan
        if byteCount <= Self.copiedTapeLimit {
            // A small document's tape is scanned into a temporary buffer and copied at its size:
            // the copy is a few hundred bytes, and the tape keeps no unused capacity.
            // PERF: the parse of a small document, such as a JSON line; see jsonmodel-bench
            // --section stream, rows (c) and (d).
            scan = withUnsafeTemporaryAllocation(of: UInt64.self, capacity: capacity) { buffer in
                TapeScan(storage, options: options, into: buffer, capacity: capacity)
            }
        } else {
            scan = TapeScan(storage, options: options, into: nil, capacity: capacity)
        }
        if let failure = scan.failure { throw failure }
        self.storage = storage
        self.tape = scan.tape!
        self.valueCount = scan.values
        self.depth = scan.depth
        arena = DocumentArena(
            budget: byteCount > Self.copiedTapeLimit ? Self.arenaBudget(tapeWords: tape.count) : 0,
            hugePages: byteCount >= Self.hugePageTapeLimit)
        smallStrings = SmallStrings.kinds(textIsFixed: Self.textIsFixed(storage))
    }

    /// The most memory the arena of a document whose tape has `tapeWords` words hands out:
    /// four times the tape. The caches of the benchmark's bulk records, every property read,
    /// take about half of that; and it bounds what models made again and again over one
    /// document keep.
    static func arenaBudget(tapeWords: Int) -> Int {
        tapeWords * 4 * MemoryLayout<UInt64>.stride
    }

    /// Scans and validates the bytes of `data`, keeping it: no copy is made.
    ///
    /// The document holds `data` itself (a copy of a `Data` shares its storage), so memory and
    /// time are those of ``init(bytes:options:)``. A slice of a larger `Data` keeps the whole
    /// storage alive while the document lives; pass `Data(slice)` to keep only its bytes.
    ///
    /// - Complexity: O(*n*) in the size of the input.
    public convenience init(data: Data, options: JSONParseOptions = JSONParseOptions()) throws(JSONParseError) {
        try self.init(storage: .of(data), options: options)
    }

    /// Files smaller than this are read into memory rather than mapped: a mapping costs system
    /// calls and at least a page, and saves nothing on a file that small.
    static let smallestMappedFile = 16 << 10

    /// Scans and validates the file at `url`, mapping it into memory rather than reading it.
    ///
    /// ```swift
    /// let document = try JSONDocument(contentsOf: URL(fileURLWithPath: "feed.json"))
    /// let users = try User.array(from: document.root["users"]!)   // pages read as elements are
    /// ```
    ///
    /// A regular file of 16 KiB or more is mapped read-only. The scan hands back the pages it has
    /// read as it goes, so afterwards the document costs its tape plus the pages that reads touch
    /// (a lazy array over a large file reads only the pages of the elements it builds). Smaller
    /// files, other URLs and files that cannot be mapped are read as `Data`; other kinds of
    /// files (a named pipe, `/dev/stdin`) are read to their end, up to the 4 GiB limit (a file
    /// that never ends, such as `/dev/zero`, is ``JSONParseError/Kind/documentTooLarge``). The file must not be truncated or rewritten in place while the document (or a
    /// model over it) lives: reading a page that is no longer in the file stops the program,
    /// and a page rewritten in place reads its new bytes. For a file others may change, read it
    /// with `Data(contentsOf:)` and use ``init(data:options:)``.
    ///
    /// - Throws: The error of `Data(contentsOf:)` for a file that cannot be read (a
    ///   `POSIXError` for a failed read of a pipe or device), or ``JSONParseError``.
    /// - Complexity: O(*n*) in the size of the file.
    public convenience init(contentsOf url: URL, options: JSONParseOptions = JSONParseOptions()) throws {
        if url.isFileURL, let bytes = try UnmappableFile.read(path: url.path) {
            try self.init(storage: .array(bytes), options: options)
        } else if url.isFileURL, let file = MappedFile.map(path: url.path, minimumSize: Self.smallestMappedFile) {
            try self.init(storage: .mapped(file), options: options)
        } else {
            try self.init(storage: .of(try Data(contentsOf: url)), options: options)
        }
    }

    /// Whether the document reads a mapped file (for tests).
    var isMapped: Bool {
        if case .mapped = storage { return true }
        return false
    }

    /// Scans and validates the UTF-8 of `string`.
    public convenience init(string: String, options: JSONParseOptions = JSONParseOptions()) throws(JSONParseError) {
        try self.init(bytes: Array(string.utf8), options: options)
    }

    /// Scans and validates a copy of the bytes in `buffer`.
    package convenience init(buffer: UnsafeRawBufferPointer, options: JSONParseOptions = JSONParseOptions()) throws(JSONParseError) {
        try self.init(bytes: Array(buffer), options: options)
    }

    deinit { tape.free() }

    /// A document of bytes and a tape scanned elsewhere.
    init(bytes: [UInt8], tape: TapeWords, valueCount: Int, depth: Int) {
        self.storage = .array(bytes)
        self.tape = tape
        self.valueCount = valueCount
        self.depth = depth
        arena = DocumentArena(budget: 0)
        smallStrings = SmallStrings.kinds(textIsFixed: Self.textIsFixed(storage))
    }

    /// A document of a tape scanned elsewhere with its bytes after it, in the same memory:
    /// `tape`, then `byteCount` bytes.
    init(tape: TapeWords, bytesAfter byteCount: Int, valueCount: Int, depth: Int) {
        self.storage = .afterTape(TapeTail(after: tape, byteCount: byteCount))
        self.tape = tape
        self.valueCount = valueCount
        self.depth = depth
        arena = DocumentArena(budget: 0)
        smallStrings = SmallStrings.kinds(textIsFixed: Self.textIsFixed(storage))
    }

    /// Scans the value at the start of `buffer`, ignoring what follows it, into a document
    /// holding a copy of that value's bytes only; the tape is written to `scratch` and copied,
    /// with the bytes after it, into one allocation (``TapeTail``).
    ///
    /// - Returns: The document and the length of the value in `buffer`.
    package static func scanningFirstValue(
        of buffer: UnsafeBufferPointer<UInt8>, options: JSONParseOptions, scratch: UnsafeMutableBufferPointer<UInt64>
    ) throws(JSONParseError) -> (document: JSONDocument, length: Int) {
        var scanner = JSONScanner(bytes: buffer, options: options, tapeBuffer: scratch)
        scanner.stopsAfterValue = true
        try scanner.scan()
        let length = scanner.valueEnd
        let tapeCount = scanner.tape.count
        let byteWords = (length + 7) / 8
        guard scanner.tape.isUsingLentBuffer, length > 0, let base = scratch.baseAddress else {
            let document = JSONDocument(
                bytes: Array(UnsafeBufferPointer(rebasing: buffer[..<length])), tape: scanner.takeTape(),
                valueCount: scanner.valueCount, depth: scanner.deepest)
            return (document, length)
        }
        let words = allocatePlain(UInt64.self, capacity: tapeCount + byteWords)
        words.initialize(from: base, count: tapeCount)
        (words + tapeCount + byteWords - 1).initialize(to: 0)  // the padding after the last byte
        UnsafeMutableRawPointer(words + tapeCount).copyMemory(from: buffer.baseAddress!, byteCount: length)
        let document = JSONDocument(
            tape: TapeWords(base: words, count: tapeCount), bytesAfter: length, valueCount: scanner.valueCount,
            depth: scanner.deepest)
        return (document, length)
    }

    /// The top-level value.
    public var root: JSONNode { JSONNode(document: self, index: 0) }

    /// The size of the input in bytes.
    package var byteCount: Int { storage.count }

    /// The memory taken by the tape, in bytes: 8 per value and per object key, except that most
    /// members whose value is a scalar take 8 for both.
    package var tapeByteCount: Int { tape.count * MemoryLayout<UInt64>.stride }

    // Inlinable, with the tape and the storage they read: the models' first reads and lazy
    // collections, in another module, read entries and bytes in their loops.
    @inlinable @inline(__always)
    package func entry(_ index: Int) -> TapeEntry { TapeEntry(bits: tape[index]) }

    /// The tape index just past the value at `index`.
    @inlinable @inline(__always)
    package func next(after index: Int) -> Int {
        let entry = entry(index)
        return entry.isContainer ? entry.containerEnd : index + 1
    }

    /// The entry of the key of the object member that starts at tape index `position`: a
    /// string, whether the key has an entry of its own or shares its value's (``TapeEntry``).
    @inlinable @inline(__always)
    package func memberKey(at position: Int) -> TapeEntry {
        let entry = entry(position)
        return entry.isPackedMember ? entry.packedKey : entry
    }

    /// The tape index of the value of the object member that starts at `position`.
    @inlinable @inline(__always)
    package func memberValue(at position: Int) -> Int {
        entry(position).isPackedMember ? position : position + 1
    }

    /// The tape index where the object member after the one at `position` starts.
    @inlinable @inline(__always)
    package func nextMember(after position: Int) -> Int {
        next(after: memberValue(at: position))
    }

    /// Whether the bytes stay as the scanner validated them for as long as the document lives:
    /// an array or a `Data` it keeps. A mapped file's pages read what the file holds, which
    /// another process may rewrite, so strings and integers from those are checked again as
    /// they are read.
    @inlinable
    package var textIsFixed: Bool { Self.textIsFixed(storage) }

    /// ``textIsFixed`` for a document over `storage`, for the initializers, which set
    /// ``smallStrings`` from it before the document is whole.
    @inlinable
    static func textIsFixed(_ storage: DocumentStorage) -> Bool {
        if case .mapped = storage { return false }
        return true
    }

    /// The sign and magnitude of the number `entry` stands for when it is integral and fits in
    /// 64 bits (`1.0` and `1e2` count); nil for other numbers and other kinds. A number the
    /// scanner tagged an integer is read without checking its bytes again, unless they may have
    /// changed since (``textIsFixed``): a mapped file's are checked, as its strings are.
    @inlinable @inline(__always)
    package func exactInteger(of entry: TapeEntry) -> (negative: Bool, magnitude: UInt64)? {
        switch entry.tag {
        case .integer where textIsFixed: withBytes(entry.byteRange, NumberParsing.scannedInteger)
        case .integer, .decimal: withBytes(entry.byteRange, NumberParsing.exactInteger)
        default: nil
        }
    }

    /// Calls `body` with the bytes of a scalar.
    @inlinable @inline(__always)
    package func withBytes<R>(_ range: ByteRange, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer {
            try body(UnsafeBufferPointer(rebasing: $0[range.offset..<range.upperBound]))
        }
    }
}

/// Lookup tables for large containers, keyed by the container's tape index.
struct ContainerIndexes: Sendable {
    /// Containers with more members or elements than this get an index on first lookup;
    /// smaller ones are searched in place, which is faster at that size. Model reads look up
    /// a handful of keys in objects of 20 to 50 members once each, where building an index
    /// costs more than it saves.
    static let threshold = 64

    /// Object tape index → (key → tape index of the value; the last duplicate wins).
    var objects: [Int: [ExactKey: Int]] = Dictionary()
    /// Array tape index → tape indexes of its elements.
    var arrays: [Int: [UInt32]] = Dictionary()
}
