/// Something a measurement fell back on that changes what its figures cover, recorded per sample so a report can say
/// so instead of passing over it.
public struct Fallback: Sendable, Codable, Equatable {
    /// What happened.
    public struct Kind: Hashable, Sendable, StoredCases, CustomStringConvertible {
        /// The cases behind the static members (``StoredCases``).
        @_spi(StoredCases) public enum Value: String, CaseIterable, Sendable {
            case offThread, ringOverflow, settleRanOut
        }
        /// The case.
        @_spi(StoredCases) public let value: Value
        /// The value of a case.
        @_spi(StoredCases) public init(_ value: Value) { self.value = value }

        /// Part of the body ran on another thread (a continuation resumed from Dispatch or the pool): per-thread
        /// counts miss it.
        public static let offThread = Kind(.offThread)
        /// The measured thread's job ring was full, and jobs went to Dispatch's threads instead.
        public static let ringOverflow = Kind(.ringOverflow)
        /// The settle wait after a call ran out before the body's jobs did.
        public static let settleRanOut = Kind(.settleRanOut)
        /// Words for reports.
        public var description: String {
            switch value {
            case .offThread: "part of the body ran on another thread"
            case .ringOverflow: "the measured thread's job ring overflowed to Dispatch"
            case .settleRanOut: "the settle wait ran out before the body's jobs did"
            }
        }
    }

    /// What happened.
    public var kind: Kind
    /// The pass it happened in (`exact`, `timed`, `counted`, `leak`).
    public var pass: String
    /// The samples (calls of that pass, from 0) it happened in.
    public var samples: [Int]
    /// How many samples the pass took.
    public var of: Int

    /// A record.
    public init(kind: Kind, pass: String, samples: [Int], of: Int) {
        self.kind = kind
        self.pass = pass
        self.samples = samples
        self.of = of
    }

    /// "the settle wait ran out before the body's jobs did in 2 of 3 calls of the exact pass (calls 1, 3)".
    public var sentence: String {
        "\(kind) in \(samples.count) of \(of) calls of the \(pass) pass (calls "
            + samples.map { String($0 + 1) }.joined(separator: ", ") + ")"
    }
}
