import Testing

/// How work grows with its input, as a ratio measured inside the test.
///
/// A test that guards against a quadratic (or worse) cost times the work at one size and at
/// four times that size on this thread's CPU clock, the best of three runs each, and expects the
/// larger to take less than eight times as long: linear work takes about four times as long,
/// quadratic work sixteen. A slow or busy machine slows both sizes alike, so the ratio holds
/// where a deadline would not.
package enum Scaling {
    /// The CPU time of `work(4 * size)` over that of `work(size)`, the best of `runs` each.
    package static func growth(from size: Int, runs: Int = 3, _ work: (Int) throws -> Void) rethrows -> Double {
        func best(_ n: Int) throws -> Double {
            var fastest = Double.infinity
            for _ in 0..<runs {
                fastest = min(fastest, try HostileInputs.threadCPUTime { try work(n) }.seconds)
            }
            return max(fastest, 1e-6)
        }
        let small = try best(size)
        let large = try best(4 * size)
        return large / small
    }

    /// Records an issue unless `work` grows less than eight times from `size` to four times it.
    package static func expectLinear(
        from size: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ work: (Int) throws -> Void
    ) rethrows {
        let ratio = try growth(from: size, work)
        print("scaling: \(what): \(HostileInputs.format(ratio))x the CPU time for 4x the input")
        #expect(ratio < 8, "\(what): \(ratio)x the time for 4x the input (linear is 4x, quadratic 16x)", sourceLocation: sourceLocation)
    }
}
