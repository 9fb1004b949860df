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
        /// Instructions (inclusive or exclusive) or calls into the allocator, per call of the body.
        public var value: Double
        /// In an exclusive list: the function that calls it most, so a function inlined on one side of a comparison
        /// is matched to its caller.
        public var caller: String? = nil
        /// An entry.
        /// - Parameters:
        ///   - function: The function's name.
        ///   - value: Its figure per call of the body.
        ///   - caller: The function that calls it most (exclusive lists only).
        public init(function: String, value: Double, caller: String? = nil) {
            self.function = function
            self.value = value
            self.caller = caller
        }
    }

    /// The functions with the most inclusive instructions, largest first (at most ``limit``).
    public var inclusive: [Entry]
    /// Functions that call the allocator (`malloc`, `swift_allocObject`, …) directly, with their
    /// calls per body call, most first (at most ``limit``).
    public var allocationCalls: [Entry]
    /// The samples (dumps) averaged.
    public var samples: Int
    /// The functions with the most exclusive instructions (their own lines), largest first (at most ``limit``).
    ///
    /// With ``otherExclusive`` and ``leftOut`` it adds up: the listed values, plus the other functions', less what
    /// the count leaves out, are the series' mean count per call. Nil in profiles stored before it was kept.
    public var exclusive: [Entry]? = nil
    /// The exclusive instructions per call of every function not in ``exclusive``.
    public var otherExclusive: Double? = nil
    /// The instructions per call callgrind counted that the count leaves out (the harness's frames around the
    /// body, the runtime's cache probes).
    public var leftOut: Double? = nil

    /// The frames left out of ``inclusive`` because they enclose the whole body, with their figure per call.
    ///
    /// The test's thunks and the body's own closure: a comparison matches a frame listed on one side to this on the
    /// other, so the body's own frame never reads as appearing from nothing. Nil in profiles stored before it was kept.
    public var enclosing: [Entry]? = nil

    /// The functions whose own instructions differed between the samples, with the range (highest − lowest), widest
    /// first (at most 3).
    ///
    /// It shows where a count that varies varies. Nil when every sample counted the same in every function.
    public var varying: [Entry]? = nil

    /// The call stacks below the body, in the folded format flamegraph.pl and speedscope read.
    ///
    /// Each entry's function is a path `outer;inner;…` and its value the instructions per call spent in the path's last
    /// frame itself.
    ///
    /// Expanded from callgrind's call graph (a callee's cost split among its callers' contexts in proportion), the
    /// largest ``stackLimit`` paths kept. Nil in profiles stored before it was kept.
    public var stacks: [Entry]? = nil

    /// How many folded paths a profile keeps.
    public static let stackLimit = 400

    /// How many functions each list keeps.
    public static let limit = 60

    /// The share of a series' instructions above which a function stays in the exclusive list past ``limit``.
    public static let exclusiveFloor = 0.001

    /// The most functions the exclusive list keeps.
    public static let exclusiveLimit = 400

    /// A profile.
    public init(inclusive: [Entry], allocationCalls: [Entry], samples: Int) {
        self.inclusive = inclusive
        self.allocationCalls = allocationCalls
        self.samples = samples
    }
}
