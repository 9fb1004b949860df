import Foundation
import PerfKitCore

/// The results of one run of measured tests: environment plus every raw sample.
///
/// Stored as versioned JSON (`Documentation/RunFileSchema.md`); the schema version is read first.
public struct RunFile: Sendable, Codable, Equatable {
    /// The schema version this code writes.
    ///
    /// Version 2 added process labels to series (`processes`); version 3 added calls per sample (`callsPerSample`,
    /// batched fast bodies). Version 4 added simulated counts (`instructions` in unit `instructions`, with
    /// `callgrindDumps` and `profile` per series), `valgrind` and `valgrindCPU` in the environment and `countsOnly`; a
    /// version-3 series named `instructions` (hardware, unit `count`) is read as `retiredInstructions`. Version 5 added
    /// `threadsStarted` per count series and `countingSetup` in the environment. Version 6 added `testCase` to tests:
    /// each case of a parameterized test is a test of its own, `Suite/f(n:) n = 100`, with its function's ID and its
    /// arguments typed. Version 7 records the counting setup field by field (``CountingSetup``); an older file's
    /// sentence is read as the setup it describes. Version 8 stores those fields by identifier (`pinned`, `aslrOff`)
    /// instead of the phrases a report shows, so rewording a report never makes another setup; version 7's phrases
    /// are read as identifiers. Versions 1 to 7 are still read (version 1 and 2 series come from
    /// one process, one call a sample; before 6, a parameterized test's cases shared one ID and one case's samples
    /// were kept).
    public static let currentSchemaVersion = 8

    /// The file's schema version.
    public var schemaVersion: Int
    /// When the run started (ISO 8601).
    public var date: Date
    /// `measure` (every sample, release) or `smoke` (few samples).
    public var mode: String
    /// Where and how the run was made.
    public var environment: Environment
    /// Every measured test, sorted by id.
    public var tests: [TestResult]
    /// The test filter when the run measured a subset (`perfkit run --filter`); nil for a full run.
    ///
    /// A comparison then says "not measured in this run" for the baseline's other tests, not "removed".
    public var filter: String? = nil
    /// Whether the run took simulated counts only (`perfkit run --counts-only`).
    ///
    /// A comparison then says "not measured" for the baseline's timing series, not "removed".
    public var countsOnly: Bool? = nil
    /// For one shard of a suite (`perfkit run --shard I/N`): `I/N`; nil for a whole run or a merge of shards (`perfkit
    /// merge`).
    ///
    /// A comparison then says "not measured" for the other shards' tests.
    public var shard: String? = nil
    /// For one shard: the IDs of the tests it was assigned, so a merge can tell a shard that lost tests (or measured
    /// none) from a whole one.
    ///
    /// Nil in a whole run, a merge, and older shards.
    public var plannedTests: [String]? = nil

    /// Creates a run file.
    public init(date: Date, mode: String, environment: Environment, tests: [TestResult]) {
        schemaVersion = Self.currentSchemaVersion
        self.date = date
        self.mode = mode
        self.environment = environment
        self.tests = tests.sorted { $0.id < $1.id }
    }
}

extension RunFile: ValidatedOnLoad {
    package func validationProblem() -> String? { tests.validationProblem() }
}
