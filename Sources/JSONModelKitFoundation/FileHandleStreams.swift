import Foundation
import JSONModelKit

// Streams over a `FileHandle`: Foundation's, so here rather than in JSONModelKit, which reads
// descriptors (`fileDescriptor:`) without linking all of Foundation.

extension JSONStreamReader {
    /// A reader of an open file, pipe or standard input, read to its end. The handle is not
    /// closed, and is kept alive while the reader reads it.
    public convenience init(fileHandle: FileHandle, options: JSONStreamOptions = JSONStreamOptions()) {
        self.init(fileDescriptor: fileHandle.fileDescriptor, owner: fileHandle, options: options)
    }
}

extension ModelStreamReader {
    /// Reads models one at a time from an open file, pipe or standard input, to its end. The
    /// handle is not closed, and is kept alive while it is read.
    public convenience init(
        fileHandle: FileHandle, mutable: Bool = false, options: JSONStreamOptions = JSONStreamOptions()
    ) {
        self.init(fileDescriptor: fileHandle.fileDescriptor, owner: fileHandle, mutable: mutable, options: options)
    }
}

extension JSONModelProtocol {
    /// Models one at a time from an open file, pipe or standard input, read to its end in
    /// chunks. The handle is not closed, and is kept alive while it is read. Reads block the
    /// iterating thread while they wait.
    public static func stream(
        from fileHandle: FileHandle, mutable: Bool = false, options: JSONStreamOptions = JSONStreamOptions()
    ) -> ModelStream<Self> {
        stream(fromFileDescriptor: fileHandle.fileDescriptor, owner: fileHandle, mutable: mutable, options: options)
    }
}
