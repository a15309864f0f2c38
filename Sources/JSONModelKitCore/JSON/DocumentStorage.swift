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
#error("DocumentStorage needs the C library: no Glibc, Musl or Darwin module here")
#endif

/// Where a ``JSONDocument``'s bytes live: the array or `Data` it was given, kept as they are,
/// or a file mapped into memory.
///
/// The scanner never reads past the last byte (it loads 16-byte blocks only where 16 bytes
/// remain; see `JSONScanner`), so any of these serves as it is: nothing is copied to add
/// padding.
///
/// Each access goes through ``withUnsafeBufferPointer(_:)``. An array is asked for its bytes
/// each time (cheap: a load). A `Data` is asked once, when the document is made (see
/// ``DataBytes``), because asking it costs dynamic exclusivity checks inside Foundation's
/// accessors, on every read.
///
/// PERF: reads from a document made from `Data`; see jsonmodel-bench --section bulk, row (b).
@usableFromInline
package enum DocumentStorage: Sendable {
    case array([UInt8])
    case data(DataBytes)
    case mapped(MappedFile)
    /// A copy of a small value's bytes kept after its tape, in the tape's own array.
    case afterTape(TapeTail)

    /// The storage of `data`: its own buffer, or an array for the few bytes a `Data` may hold
    /// inline (``DataBytes`` needs a buffer outside the value).
    static func of(_ data: Data) -> DocumentStorage {
        data.count <= DataBytes.inlineLimit ? .array([UInt8](data)) : .data(DataBytes(data))
    }

    /// The number of bytes.
    var count: Int {
        switch self {
        case .array(let bytes): bytes.count
        case .data(let data): data.buffer.count
        case .mapped(let file): file.count
        case .afterTape(let tail): tail.buffer.count
        }
    }

    /// Calls `body` with the bytes.
    @inlinable @inline(__always)
    package func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch self {
        case .array(let bytes):
            return try bytes.withUnsafeBufferPointer(body)
        case .data(let data):
            return try body(data.buffer)
        case .mapped(let file):
            return try body(file.buffer)
        case .afterTape(let tail):
            return try body(tail.buffer)
        }
    }
}

/// The bytes of a document kept in its tape's memory, after the tape's words: one allocation
/// for both where a document of its own is made for each of many small values (the elements
/// of a stream), each of which had an array for its bytes and another for its tape.
///
/// The bytes are copied in as raw memory, and their words then bound to `UInt8`: they are read
/// as bytes only, never as words, and the memory is never written again; the document frees it
/// with its tape.
/// PERF: jsonmodel-bench --section stream, row (a).
@usableFromInline
package struct TapeTail: @unchecked Sendable {
    // @unchecked Sendable: the bytes are immutable and live as long as the document's tape.
    @usableFromInline let buffer: UnsafeBufferPointer<UInt8>

    /// The `byteCount` bytes copied in as raw memory after the words of `tape`, in memory
    /// allocated for both. Valid while the document that holds `tape` lives.
    init(after tape: TapeWords, byteCount: Int) {
        precondition(byteCount >= 0)
        let tail = UnsafeMutableRawPointer(tape.base + tape.count)
        buffer = UnsafeBufferPointer(start: tail.bindMemory(to: UInt8.self, capacity: byteCount), count: byteCount)
    }
}

/// A `Data` kept by a document, with the address of its bytes.
///
/// `Data` promises that address only inside `withUnsafeBytes`; this keeps it beyond, which holds
/// for the `Data` kept here: more than ``inlineLimit`` bytes live in a buffer outside the value,
/// which does not move while a `Data` refers to it, and which is not changed in place while it
/// is shared (a write through another copy makes that copy a buffer of its own). The document
/// holds its copy until it goes, and never writes to it.
@usableFromInline
package struct DataBytes: @unchecked Sendable {
    // @unchecked Sendable: the buffer is read-only and lives as long as `data`.
    /// The most bytes a `Data` holds inside the value itself (14 on 64-bit platforms), rounded up.
    static let inlineLimit = 64

    let data: Data
    @usableFromInline let buffer: UnsafeBufferPointer<UInt8>

    init(_ data: Data) {
        precondition(data.count > Self.inlineLimit)
        self.data = data
        self.buffer = data.withUnsafeBytes { $0.bindMemory(to: UInt8.self) }
    }
}

/// A regular file mapped read-only into memory, unmapped when the last document using it goes.
///
/// Pages are read from the file when first touched, and the kernel may drop them again under
/// memory pressure (they are clean: it reads them back on the next touch), so a document over a
/// mapped file costs its tape plus the pages its reads touch. ``releasePages(from:to:)`` hands
/// pages back at once; reading them again reads them from the page cache. How much one read
/// maps in is the kernel's choice: at least a page, often 64 KiB around it; on Linux the file is
/// mapped where a read cannot take a whole 2 MiB huge page (``mapOffHugePages(_:size:)``).
@usableFromInline
package final class MappedFile: Sendable {
    // Sendable: immutable after init; the mapping is read-only.
    @usableFromInline nonisolated(unsafe) let base: UnsafeRawPointer
    /// The size of the file, in bytes (more than zero).
    @usableFromInline let count: Int

    /// Maps the regular file at `path`, or returns nil when it is not one, is smaller than
    /// `minimumSize` (or empty: nothing to map), or cannot be mapped; the caller then reads it
    /// as `Data`, which reports the error of a file that cannot be read.
    static func map(path: String, minimumSize: Int) -> MappedFile? {
        #if os(Windows)
        return nil
        #else
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }  // the mapping keeps the file open
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        guard size > 0, size >= minimumSize else { return nil }
        guard let address = mapOffHugePages(descriptor, size: size) else { return nil }
        return MappedFile(base: UnsafeRawPointer(address), count: size)
        #endif
    }

    #if !os(Windows)
    /// Maps `size` bytes of the file open as `descriptor`, read-only; nil when it cannot.
    ///
    /// On Linux, at an address 64 KiB past a 2 MiB boundary, where the file's bytes cannot line
    /// up with a huge page: a kernel that caches a file in 2 MiB folios maps such a folio whole
    /// into a mapping where it lines up, so that each lazy read of a large file mapped in 2 MiB
    /// (100 reads scattered over a 20 MB file held all of it). Off the boundary a read maps in
    /// what the kernel maps around a fault, 64 KiB; and 64 KiB stretches of the file stay
    /// aligned in memory, as ``releaseUnit`` needs. The address space is reserved first and what
    /// the file does not use of it is unmapped.
    /// PERF: peak memory of lazy reads of mapped files; see jsonmodel-bench --section input.
    private static func mapOffHugePages(_ descriptor: Int32, size: Int) -> UnsafeMutableRawPointer? {
        #if os(Linux)
        guard let start = DocumentPages.reserveAddressSpace(size, alignment: DocumentPages.hugePage, offset: releaseUnit) else {
            return nil
        }
        guard let mapped = mmap(start, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, descriptor, 0), mapped != MAP_FAILED else {
            munmap(start, DocumentPages.pageRounded(size))
            return nil
        }
        return mapped
        #else
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            return nil
        }
        return address
        #endif
    }
    #endif

    private init(base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    deinit {
        #if !os(Windows)
        munmap(UnsafeMutableRawPointer(mutating: base), count)
        #endif
    }

    /// The mapped bytes.
    @inlinable var buffer: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// The stretch of address space that pages are handed back in: whole stretches, aligned in
    /// memory, of the 64 KiB that Linux maps in around a read that faults.
    ///
    /// Handing back part of such a stretch does not last on kernels that cache files in large
    /// folios: a later fault maps in the folio's other pages again, so a scan that handed back
    /// every 16 KiB still held most of a file. Whole aligned stretches stay handed back.
    /// PERF: peak memory of mapped files; see jsonmodel-bench --section input.
    static let releaseUnit = max(64 << 10, DocumentPages.pageSize)

    /// Drops the pages from byte `start` to before byte `end` from this process's memory, in
    /// whole ``releaseUnit`` stretches, and returns where the next call should start; the pages
    /// stay in the file (and, usually, the page cache), and a later read brings them back
    /// unchanged.
    ///
    /// Up to the end of the file when `end` reaches it (the kernel rounds the last page up);
    /// otherwise only stretches that end at or before `end`, as the bytes from `end` may still
    /// be read.
    @discardableResult
    func releasePages(from start: Int, to end: Int) -> Int {
        let address = Int(bitPattern: base)
        let stop = end >= count ? count : ((address + end) & ~(Self.releaseUnit - 1)) - address
        guard stop > start else { return start }
        #if !os(Windows)
        _ = madvise(UnsafeMutableRawPointer(mutating: base + start), stop - start, MADV_DONTNEED)
        #endif
        return stop
    }
}
