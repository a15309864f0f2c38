import Foundation

/// Builders and measurements shared by the hostile-input tests, and the CPU clock ``Scaling`` reads.
package enum HostileInputs {
    /// Whether every case runs at full size: in optimized builds, or with
    /// `JSONMODELKIT_HOSTILE_FULL=1`. Debug builds scale the slowest cases down.
    package static let fullSize: Bool = {
        #if DEBUG
        return ProcessInfo.processInfo.environment["JSONMODELKIT_HOSTILE_FULL"] == "1"
        #else
        return true
        #endif
    }()

    /// `{"values": {"k0": 0, "k1": 1, …}, "tail": "end"}`, built without intermediate strings.
    package static func object(keys count: Int) -> [UInt8] {
        var bytes: [UInt8] = Array(#"{"values": {"#.utf8)
        bytes.reserveCapacity(count * 20 + 40)
        for index in 0..<count {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += #""k"#.utf8
            appendDecimal(index, to: &bytes)
            bytes += #"":"#.utf8
            appendDecimal(index, to: &bytes)
        }
        bytes += #"}, "tail": "end"}"#.utf8
        return bytes
    }

    /// `prefix`, then `pattern` `times` times, then `suffix`, as UTF-8; copies double in size.
    package static func repeated(_ pattern: String, times: Int, prefix: String = "", suffix: String = "") -> [UInt8] {
        var bytes: [UInt8] = Array(prefix.utf8)
        bytes.reserveCapacity(prefix.utf8.count + pattern.utf8.count * times + suffix.utf8.count)
        var chunk = Array(pattern.utf8)
        var remaining = times
        while remaining > 0 {
            if remaining & 1 == 1 { bytes += chunk }
            remaining >>= 1
            if remaining > 0 { chunk += chunk }
        }
        bytes += suffix.utf8
        return bytes
    }

    package static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Runs `body` and returns its result with the CPU time this thread spent, in seconds.
    ///
    /// Thread CPU time leaves out the time other tests and processes on the same cores take.
    package static func threadCPUTime<T>(_ body: () throws -> T) rethrows -> (value: T, seconds: Double) {
        let start = cpuNow()
        let value = try body()
        return (value, cpuNow() - start)
    }

    private static func cpuNow() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    package static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
