#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("DescriptorRead needs the C library: no Glibc, Musl or Darwin module here")
#endif

/// Reads up to `count` bytes of `descriptor` into `buffer`, as a blocking `read` would, whatever
/// the descriptor's mode: a read cut short by a signal is made again, and a descriptor set
/// non-blocking (a pipe or terminal someone else opened) is waited on until it has bytes.
///
/// - Returns: The bytes read, 0 at the end of the input, or the negated `errno` of a failure.
package func readWaiting(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    while true {
        let read = systemRead(descriptor, buffer, count)
        if read >= 0 { return read }
        let failure = errno
        if failure == EINTR { continue }
        if failure == EAGAIN || failure == EWOULDBLOCK {
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&request, 1, -1) >= 0 || errno == EINTR { continue }
            return -Int(errno)
        }
        return -Int(failure)
    }
}

@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
