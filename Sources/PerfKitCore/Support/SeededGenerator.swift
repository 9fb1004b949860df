/// A fast, seeded pseudo-random generator (xoshiro256**), so every bootstrap, workload and
/// property test reproduces from its seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Hashable {
    private var s0, s1, s2, s3: UInt64

    /// Creates a generator whose whole sequence is determined by `seed`.
    /// - Parameter seed: Any 64-bit value; it is expanded with SplitMix64.
    public init(seed: UInt64) {
        var x = seed
        func splitMix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix()
        s1 = splitMix()
        s2 = splitMix()
        s3 = splitMix()
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// A uniformly distributed index in `0..<upperBound` (fast, slightly biased for huge bounds).
    /// - Parameter upperBound: A positive bound.
    /// - Returns: An index below `upperBound`.
    @inline(__always)
    public mutating func index(below upperBound: Int) -> Int {
        Int((UInt64(truncatingIfNeeded: next() >> 32) &* UInt64(upperBound)) >> 32)
    }
}
