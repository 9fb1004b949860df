/// Where a simulated count series' instructions went.
///
/// Per function, the instructions executed in it and everything it called (inclusive), and the calls it made into the
/// allocator, averaged over the series' samples. Read from the series' callgrind dumps at the end of a counting run
/// (``CallgrindDump``), so a comparison can say which functions changed.
public struct CountProfile: Sendable, Codable, Equatable {
    /// One function's figure, per call of the measured body.
    public struct Entry: Sendable, Codable, Equatable {
        /// The function's name, demangled when it is a Swift name.
        public var function: String
        /// Instructions (inclusive) or calls into the allocator, per call of the body.
        public var value: Double
        /// An entry.
        public init(function: String, value: Double) {
            self.function = function
            self.value = value
        }
    }

    /// The functions with the most inclusive instructions, largest first (at most ``limit``).
    public var inclusive: [Entry]
    /// Functions that call the allocator (`malloc`, `swift_allocObject`, …) directly, with their
    /// calls per body call, most first (at most ``limit``).
    public var allocationCalls: [Entry]
    /// The samples (dumps) averaged.
    public var samples: Int

    /// How many functions each list keeps.
    public static let limit = 60

    /// A profile.
    public init(inclusive: [Entry], allocationCalls: [Entry], samples: Int) {
        self.inclusive = inclusive
        self.allocationCalls = allocationCalls
        self.samples = samples
    }
}
