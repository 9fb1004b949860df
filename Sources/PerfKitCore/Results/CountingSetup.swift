/// How a counting run's processes were set up, field by field, as a run file records it.
///
/// Counts are compared only between runs of one setup. Each field is one decision that can move a count
/// (the heap, what is left out of the count, the process's settings), so a comparison of two setups names
/// the fields that differ. Run files before schema 7 recorded the setup as one sentence (``sentence``);
/// such a sentence is read back as the setup it describes, or kept as written (``recordedSentence``)
/// when this PerfKit knows no setup that reads so.
public struct CountingSetup: Sendable, Equatable, Codable {
    /// What is counted: `callgrind Ir` (instructions executed, simulated).
    public var counter: String
    /// How many counting processes a test gets.
    public var processes: String
    /// Samples per arm and phase in each counting process.
    public var samplesPerArmAndPhase: Int
    /// Where the measured thread's allocations come from.
    public var heap: String
    /// Work inside a sample that the count leaves out, one phrase each.
    public var uncounted: [String]
    /// The counting process's settings that keep counts still, one phrase each.
    public var processSettings: [String]
    /// How a test's second process is placed (the check of a count that follows addresses).
    public var checks: String
    /// An older run file's sentence that matches no setup this PerfKit knows; the other fields are then empty.
    public var recordedSentence: String? = nil

    /// Creates a setup from its fields.
    /// - Parameters:
    ///   - counter: What is counted.
    ///   - processes: How many counting processes a test gets.
    ///   - samplesPerArmAndPhase: Samples per arm and phase.
    ///   - heap: Where the measured thread's allocations come from.
    ///   - uncounted: Work a count leaves out.
    ///   - processSettings: The counting process's settings.
    ///   - checks: How a test's second process is placed.
    public init(
        counter: String, processes: String, samplesPerArmAndPhase: Int, heap: String, uncounted: [String],
        processSettings: [String], checks: String
    ) {
        self.counter = counter
        self.processes = processes
        self.samplesPerArmAndPhase = samplesPerArmAndPhase
        self.heap = heap
        self.uncounted = uncounted
        self.processSettings = processSettings
        self.checks = checks
    }

    /// The setup as one sentence, as run files before schema 7 recorded it.
    public var sentence: String {
        if let recordedSentence { return recordedSentence }
        return
            ([counter, processes, "\(samplesPerArmAndPhase) samples per arm and phase", heap] + uncounted
            + processSettings + [checks]).joined(separator: ", ")
    }

    /// The names of the fields in which `other` differs from this setup, in declaration order.
    ///
    /// The samples per arm and phase are recorded as run but are not a difference: a count per call does not depend
    /// on how many calls were counted.
    /// - Parameter other: The other run's setup.
    /// - Returns: Field names (`heap`, `uncounted work`, …); `recorded setup` when either is an unknown older one.
    public func differences(from other: CountingSetup) -> [String] {
        if recordedSentence != nil || other.recordedSentence != nil {
            return sentence == other.sentence ? [] : ["recorded setup"]
        }
        let fields: [(String, Bool)] = [
            ("counter", counter == other.counter), ("processes", processes == other.processes),
            ("heap", heap == other.heap), ("uncounted work", uncounted == other.uncounted),
            ("process settings", processSettings == other.processSettings), ("checks", checks == other.checks),
        ]
        return fields.filter { !$0.1 }.map(\.0)
    }

    private enum CodingKeys: String, CodingKey {
        case counter, processes, samplesPerArmAndPhase, heap, uncounted, processSettings, checks, recordedSentence
    }

    /// Reads a setup: its fields, or an older run file's sentence.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when it is neither.
    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = Self.known.first { $0.sentence == text } ?? Self(recorded: text)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        counter = try container.decode(String.self, forKey: .counter)
        processes = try container.decode(String.self, forKey: .processes)
        samplesPerArmAndPhase = try container.decode(Int.self, forKey: .samplesPerArmAndPhase)
        heap = try container.decode(String.self, forKey: .heap)
        uncounted = try container.decode([String].self, forKey: .uncounted)
        processSettings = try container.decode([String].self, forKey: .processSettings)
        checks = try container.decode(String.self, forKey: .checks)
        recordedSentence = try container.decodeIfPresent(String.self, forKey: .recordedSentence)
    }

    /// An older setup known only by its sentence.
    init(recorded text: String) {
        self.init(
            counter: "", processes: "", samplesPerArmAndPhase: 0, heap: "", uncounted: [], processSettings: [],
            checks: "")
        recordedSentence = text
    }
}
