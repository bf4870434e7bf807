import Foundation

/// A seeded pseudo-random generator (SplitMix64) for tests: the same seed gives the same sequence, so a failure
/// can be replayed. `fromEnvironment` takes the seed from an environment variable when set (to reproduce a
/// failure) and otherwise picks one; print `seed` in every failure message.
package struct TestRandom: RandomNumberGenerator, Sendable {
    package let seed: UInt64
    private var state: UInt64

    package init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A fixed seed derived from `label` (FNV-1a), e.g. a fixture's version: stable across runs, different per label.
    package init(label: String) {
        self.init(seed: label.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 })
    }

    /// The seed in `$variable` (decimal) when set, else a fresh random one.
    package static func fromEnvironment(_ variable: String) -> TestRandom {
        let fixed = ProcessInfo.processInfo.environment[variable].flatMap { UInt64($0) }
        return TestRandom(seed: fixed ?? UInt64.random(in: 0...UInt64.max))
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
