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
#endif

/// Where a ``JSONDocument``'s bytes live: the array or `Data` it was given, kept as they are,
/// or a file mapped into memory.
///
/// The scanner never reads past the last byte (it loads 16-byte blocks only where 16 bytes
/// remain; see `JSONScanner`), so any of these serves as it is: nothing is copied to add
/// padding.
///
/// Each access goes through ``withUnsafeBufferPointer(_:)``, which asks the array or the `Data`
/// for its bytes each time instead of keeping a pointer that escaped their closures: `Data`
/// promises its address only inside `withUnsafeBytes` (small values live inline, and are
/// copied to the stack to be read).
enum DocumentStorage: Sendable {
    case array([UInt8])
    case data(Data)
    case mapped(MappedFile)

    /// The number of bytes.
    var count: Int {
        switch self {
        case .array(let bytes): bytes.count
        case .data(let data): data.count
        case .mapped(let file): file.count
        }
    }

    /// Calls `body` with the bytes.
    @inline(__always)
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch self {
        case .array(let bytes):
            return try bytes.withUnsafeBufferPointer(body)
        case .data(let data):
            return try data.withUnsafeBytes { try body($0.bindMemory(to: UInt8.self)) }
        case .mapped(let file):
            return try body(file.buffer)
        }
    }
}

/// A regular file mapped read-only into memory, unmapped when the last document using it goes.
///
/// Pages are read from the file when first touched, and the kernel may drop them again under
/// memory pressure (they are clean: it reads them back on the next touch), so a document over a
/// mapped file costs its tape plus the pages its reads touch. ``releasePages(from:to:)`` hands
/// pages back at once; reading them again reads them from the page cache. How much one read
/// maps in is the kernel's choice: at least a page, often up to 64 KiB around it, and on kernels
/// that cache files in large folios, as much as a folio.
final class MappedFile: Sendable {
    // Sendable: immutable after init; the mapping is read-only.
    nonisolated(unsafe) private let base: UnsafeRawPointer
    /// The size of the file, in bytes (more than zero).
    let count: Int

    /// The size of a memory page.
    static let pageSize: Int = {
        #if os(Windows)
        return 4096
        #else
        return max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
        #endif
    }()

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
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            return nil
        }
        return MappedFile(base: UnsafeRawPointer(address), count: size)
        #endif
    }

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
    var buffer: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// Drops the whole pages from byte `start` (a page boundary) to byte `end` from this
    /// process's memory, and returns where the next call should start; the pages stay in the
    /// file (and, usually, the page cache), and a later read brings them back unchanged.
    ///
    /// Up to the end of the file when `end` reaches it (the kernel rounds the last page up);
    /// otherwise whole pages only, as the page holding `end` may still be read.
    @discardableResult
    func releasePages(from start: Int, to end: Int) -> Int {
        let stop = end >= count ? count : end / Self.pageSize * Self.pageSize
        guard stop > start else { return start }
        #if !os(Windows)
        _ = madvise(UnsafeMutableRawPointer(mutating: base + start), stop - start, MADV_DONTNEED)
        #endif
        return stop
    }
}
