import PerfKitCore

/// Why a row is not judged, inconclusive, or judged the way it is.
///
/// The typed cause beside the row's free-text note (as swift-testing keeps `Issue.Kind` beside its comments). Reports
/// group and count rows by it, never by parsing the note, so rewording a note cannot regroup an answer.
///
/// A struct over an enum adopters cannot name (``StoredCases``), so reasons can be added; stored as its identifier.
public struct VerdictReason: Hashable, Sendable, StoredCases, Comparable, CustomStringConvertible {
    /// The cases behind the static members (``StoredCases``).
    @_spi(StoredCases) public enum Value: String, CaseIterable, Sendable {
        // Not judged.
        case otherMachine, clockResolution, supportingCPU, notMeasured, onePerSide, countsFromAnotherSetup,
            noBetterDirection, armIdle, leakFixCost
        // Inconclusive.
        case tooNoisy, aboutTheBandsSize, significanceFloor, notSignificant, tooFew, notPaired, placementsDisagree
        // Within noise.
        case belowFloor
    }
    /// The case.
    @_spi(StoredCases) public let value: Value
    /// The value of a case.
    @_spi(StoredCases) public init(_ value: Value) { self.value = value }

    /// Timing or OS memory from two different machines.
    public static let otherMachine = VerdictReason(.otherMachine)
    /// A sample shorter than the clock can resolve.
    public static let clockResolution = VerdictReason(.clockResolution)
    /// Thread CPU of a series decided by its wall clock.
    public static let supportingCPU = VerdictReason(.supportingCPU)
    /// Not measured in the current run (a filtered or counts-only run).
    public static let notMeasured = VerdictReason(.notMeasured)
    /// One process per side: drift between processes cannot be estimated.
    public static let onePerSide = VerdictReason(.onePerSide)
    /// Simulated counts from another toolchain, valgrind or build.
    public static let countsFromAnotherSetup = VerdictReason(.countsFromAnotherSetup)
    /// A metric with no better direction (for example bytes freed): shown, not judged.
    public static let noBetterDirection = VerdictReason(.noBetterDirection)
    /// In an arm comparison, one arm does almost no work in the phase (a cache hit, an empty call) while the other
    /// does.
    ///
    /// The ratio says which arm works there, not how much faster one is.
    public static let armIdle = VerdictReason(.armIdle)
    /// A count that rose beside a leak fixed in the same arm and phase: what freeing the kept allocations costs.
    public static let leakFixCost = VerdictReason(.leakFixCost)
    /// The confidence interval is wider than the noise band.
    public static let tooNoisy = VerdictReason(.tooNoisy)
    /// A change about as large as the band: the interval crosses its edge.
    public static let aboutTheBandsSize = VerdictReason(.aboutTheBandsSize)
    /// The sample sizes cannot reach the p-value a lone change needs among the decisions.
    public static let significanceFloor = VerdictReason(.significanceFloor)
    /// Outside the band but not significant after Benjamini–Hochberg.
    public static let notSignificant = VerdictReason(.notSignificant)
    /// Too few values (processes, rounds or samples) to estimate.
    public static let tooFew = VerdictReason(.tooFew)
    /// On both sides but not comparable unit by unit.
    public static let notPaired = VerdictReason(.notPaired)

    /// An exact count whose placements moved in different directions (a count that follows code addresses).
    public static let placementsDisagree = VerdictReason(.placementsDisagree)
    /// A change no larger than the floor the user set (a noise file's `absolute`, or `--count-floor`).
    public static let belowFloor = VerdictReason(.belowFloor)

    /// A few plain words for grouping in an answer ("another machine", "too noisy to tell").
    public var description: String {
        switch value {
        case .otherMachine: "another machine"
        case .clockResolution: "at clock resolution"
        case .supportingCPU: "thread CPU beside its wall clock"
        case .notMeasured: "not measured in this run"
        case .onePerSide: "one process per side"
        case .countsFromAnotherSetup: "counted with another toolchain, valgrind, build or counting setup"
        case .noBetterDirection: "no better direction"
        case .armIdle: "one arm does no work in this phase"
        case .leakFixCost: "the cost of a leak fixed beside it"
        case .tooNoisy: "too noisy to tell"
        case .aboutTheBandsSize: "a change about the band's size"
        case .significanceFloor: "significance floor"
        case .notSignificant: "not significant after adjustment"
        case .tooFew: "too few values"
        case .notPaired: "not paired"
        case .placementsDisagree: "placements moved apart"
        case .belowFloor: "below your floor"
        }
    }

    /// Declaration order, for stable listings.
    public static func < (lhs: VerdictReason, rhs: VerdictReason) -> Bool {
        Value.allCases.firstIndex(of: lhs.value)! < Value.allCases.firstIndex(of: rhs.value)!
    }
}
