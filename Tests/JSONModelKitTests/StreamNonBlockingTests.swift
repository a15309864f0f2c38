import Foundation
import Testing

@testable import JSONModelKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stream over a non-blocking descriptor waits for bytes that have not arrived yet, as over a
/// blocking one, instead of failing with "Resource temporarily unavailable".
@Suite("Stream non-blocking descriptor")
struct StreamNonBlockingTests {
    @Test func aNonBlockingPipeIsWaitedFor() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (reading, writing) = (ends[0], ends[1])
        defer { close(reading) }
        let flags = fcntl(reading, F_GETFL)
        try #require(fcntl(reading, F_SETFL, flags | O_NONBLOCK) == 0)
        // The writer sends its lines later, in two parts.
        let writer = Thread {
            usleep(50_000)
            let first = Array("{\"id\": 1}\n{\"id\":".utf8)
            _ = first.withUnsafeBytes { write(writing, $0.baseAddress, $0.count) }
            usleep(50_000)
            let second = Array(" 2}\n".utf8)
            _ = second.withUnsafeBytes { write(writing, $0.baseAddress, $0.count) }
            close(writing)
        }
        writer.start()
        let reader = JSONStreamReader(fileDescriptor: reading, options: JSONStreamOptions(format: .lines))
        var ids: [Int] = []
        while let element = try reader.read() {
            ids.append(element["id"]?.intValue ?? -1)
        }
        #expect(ids == [1, 2])
    }
}
