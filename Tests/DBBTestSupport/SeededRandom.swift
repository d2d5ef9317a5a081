import Foundation

/// A small deterministic generator (SplitMix64): tests that draw random inputs print their seed,
/// and `DBB_TEST_SEED=<seed>` replays a failure.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A generator seeded from `DBB_TEST_SEED`, or from the clock (printed either way).
    public init(label: String) {
        let seed =
            ProcessInfo.processInfo.environment["DBB_TEST_SEED"].flatMap(UInt64.init)
            ?? UInt64(Date().timeIntervalSince1970 * 1000) ^ UInt64(bitPattern: Int64(label.hashValue))
        print("\(label): seed \(seed) (replay with DBB_TEST_SEED=\(seed))")
        self.init(seed: seed)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func next(upTo bound: UInt64) -> UInt64 { next() % bound }
}
