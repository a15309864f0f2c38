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
#error("UnmappableFile needs the C library: no Glibc, Musl or Darwin module here")
#endif

/// Reads a file that is not a regular file (a named pipe, a character device such as
/// `/dev/stdin` or `/dev/zero`, a socket) by reading it to its end.
///
/// `Data(contentsOf:)` refuses such files on Linux, calling them a permission problem even
/// for root; their size is not known before they end, and some never end, so reading stops
/// with ``JSONParseError/Kind/documentTooLarge`` once it passes the limit.
package enum UnmappableFile {
    /// The most a document can hold: 4 GiB less a byte.
    package static let documentLimit = Int(UInt32.max)

    /// The bytes of the file at `path` when it is not a regular file or a folder; nil for
    /// those and for a path that cannot be opened, which `Data(contentsOf:)` then reads or
    /// reports.
    ///
    /// - Throws: ``JSONParseError`` (`documentTooLarge`) past `limit` bytes, or a `POSIXError`
    ///   when reading fails.
    package static func read(path: String, limit: Int = documentLimit) throws -> [UInt8]? {
        #if os(Windows)
        return nil
        #else
        // The kind is asked of the path, not of an open descriptor: opening a named pipe
        // connects to its writer, and closing it again would lose what the writer sends.
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        guard type != S_IFREG && type != S_IFDIR else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let read = readWaiting(descriptor, into: chunk.baseAddress!, count: chunk.count)
            if read == 0 { return bytes }
            guard read > 0 else { throw POSIXError(POSIXErrorCode(rawValue: Int32(-read)) ?? .EIO) }
            guard bytes.count + read <= limit else {
                throw bytes.withUnsafeBufferPointer { read in
                    JSONParseError(.documentTooLarge, at: 0, in: UnsafeBufferPointer(rebasing: read.prefix(64)))
                }
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<read]))
        }
        #endif
    }
}
