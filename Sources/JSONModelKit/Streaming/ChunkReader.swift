#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("ChunkReader needs the C library: no Glibc, Musl or Darwin module here")
#endif

/// Reads a file descriptor a chunk at a time into a buffer of its own.
///
/// Only the current chunk is held, so reading a file of any size takes the same memory.
final class ChunkReader {
    /// The size of a chunk.
    static let chunkSize = 128 << 10

    private let descriptor: Int32
    private let closesDescriptor: Bool
    /// Keeps what owns the descriptor (a `FileHandle`) alive while it is read.
    private let owner: AnyObject?
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The bytes of the current chunk.
    private(set) var count = 0
    /// Whether the end of the input has been read.
    private(set) var atEnd = false

    init(descriptor: Int32, closes: Bool, owner: AnyObject? = nil) {
        self.descriptor = descriptor
        self.closesDescriptor = closes
        self.owner = owner
        buffer = .allocate(capacity: Self.chunkSize)
    }

    /// Opens the file at `path` for reading.
    ///
    /// - Throws: The system's reason when it cannot be opened.
    convenience init(path: String) throws(JSONStreamError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw JSONStreamError(.readFailed("\(path): \(Self.reason(errno))"), element: 0, offset: 0, line: 1, column: 1)
        }
        self.init(descriptor: descriptor, closes: true)
    }

    deinit {
        buffer.deallocate()
        close()
    }

    /// The current chunk.
    var chunk: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[..<count]) }

    /// Reads the next chunk; at the end of the input, sets ``atEnd`` and an empty chunk.
    ///
    /// - Throws: The system's reason, as a string, when reading fails.
    func readChunk() throws(ReadFailure) {
        count = 0
        guard !atEnd else { return }
        let read = readWaiting(descriptor, into: buffer.baseAddress!, count: buffer.count)
        if read > 0 {
            count = read
            return
        }
        atEnd = true
        close()
        if read < 0 { throw ReadFailure(reason: Self.reason(Int32(-read))) }
    }

    /// A failed read, with the system's reason.
    struct ReadFailure: Error {
        let reason: String
    }

    private var closed = false

    /// Closes the descriptor if this reader opened it; reading it again gives nothing.
    func close() {
        guard !closed else { return }
        closed = true
        atEnd = true
        if closesDescriptor { _ = systemClose(descriptor) }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

// The C function, under a name that does not clash with the method above.
@inline(__always)
private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
