// A seedable random number generator shared by the tests that generate data.

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny, fast, seedable generator.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    package mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with probability `p`.
    package mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }

    package mutating func pick<T>(_ choices: [T]) -> T { choices[next(below: choices.count)] }
}
