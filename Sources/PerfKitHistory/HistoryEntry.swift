import Foundation
import PerfKit

/// One series' summary at one commit on one machine: a row of the history store.
///
/// The key is (machine, commit, series): recording a commit again on the same machine replaces its
/// rows, never adds to them. Series of different machines are different histories.
public struct HistoryEntry: Sendable, Codable, Equatable {
    /// The machine's fingerprint identifier (``MachineFingerprint/identifier``).
    public var machine: String
    /// The commit measured, and its first parent ("" for a root commit).
    public var commit: CommitInfo
    /// The series.
    public var series: SeriesID
    /// The metric's unit (`ns`, `instructions`, …).
    public var unit: String
    /// What the figure is evidence of (component cost, memory, …), never folded with another.
    public var kind: MetricKind
    /// How the value may be read: a deterministic count is compared exactly, timing statistically.
    public var measure: HistoryMeasure
    /// The value: for a count, its median per call over the run's samples; for timing, the median
    /// of the per-process medians.
    public var value: Double
    /// Timing: the 95% interval's lower end (Hodges–Lehmann over the process medians).
    ///
    /// A count: the lowest per-process median (a counting run's processes differ only in a shifted heap).
    public var lower: Double
    /// The interval's upper end, or a count's highest per-process median.
    public var upper: Double
    /// Fresh processes the value came from.
    public var processes: Int
    /// When it was recorded.
    public var recorded: Date
    /// The test function and size when the series is a sized case of a parameterized test (its growth is fitted across
    /// the commit's cases).
    ///
    /// Nil otherwise and in stores before schema 2.
    public var caseSize: CaseSize?
    /// What the point was measured with; nil for entries recorded before it was kept.
    public var environment: HistoryEnvironment? = nil

    /// A count's spread over its processes (``SampleSeries/processSpread`` when it was recorded).
    public var countSpread: Double { lower > 0 && upper > lower ? upper / lower - 1 : 0 }

    /// Creates an entry.
    public init(
        machine: String, commit: CommitInfo, series: SeriesID, unit: String, kind: MetricKind, measure: HistoryMeasure,
        value: Double, lower: Double,
        upper: Double, processes: Int, recorded: Date, caseSize: CaseSize? = nil,
        environment: HistoryEnvironment? = nil
    ) {
        self.machine = machine
        self.commit = commit
        self.series = series
        self.unit = unit
        self.kind = kind
        self.measure = measure
        self.value = value
        self.lower = lower
        self.upper = upper
        self.processes = processes
        self.recorded = recorded
        self.caseSize = caseSize
        self.environment = environment
    }

    /// The entries of a run file: one per series (every arm, phase and metric kept apart).
    /// - Parameters:
    ///   - run: The run.
    ///   - commit: The commit it measured (from git, ``CommitInfo/read(_:in:)``).
    ///   - recorded: When it is recorded.
    /// - Returns: Entries sorted by series.
    public static func entries(of run: RunFile, commit: CommitInfo, recorded: Date) -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        for test in run.tests {
            for measurement in test.measurements {
                for series in measurement.series where !series.values.isEmpty {
                    let id = SeriesID(
                        test: test.id, measurement: measurement.name, arm: series.arm, phase: series.phase,
                        metric: series.metric.name)
                    let measure: HistoryMeasure =
                        series.metric.isSimulated
                        ? .simulatedCount : series.metric.isDeterministic ? .exactCount : .timing
                    let value: Double, lower: Double, upper: Double
                    if measure == .timing {
                        let medians = series.processMedians()
                        let interval = medians.count >= 2 ? HodgesLehmann.interval(medians) : nil
                        value = Quantile.percentile(sorted: medians.sorted(), 50)
                        lower = interval?.lower ?? value
                        upper = interval?.upper ?? value
                    } else {
                        // A count's range is its per-process medians: for a counting run, the heap
                        // shift's effect, which widens the count tolerance as in a comparison.
                        value = Quantile.percentile(sorted: series.values.sorted(), 50)
                        let medians = series.processMedians()
                        (lower, upper) = (min(value, medians.min() ?? value), max(value, medians.max() ?? value))
                    }
                    entries.append(
                        HistoryEntry(
                            machine: run.environment.machine.identifier, commit: commit, series: id,
                            unit: series.metric.unit.symbol,
                            kind: series.metric.kind, measure: measure, value: value, lower: lower, upper: upper,
                            processes: series.processCount,
                            recorded: recorded,
                            caseSize: test.testCase.flatMap { c in
                                c.size.map { CaseSize(function: c.function, size: $0) }
                            }, environment: HistoryEnvironment(run.environment)))
                }
            }
        }
        return entries.sorted { $0.series < $1.series }
    }
}

/// Where a sized case of a parameterized test stands: its function and its size.
public struct CaseSize: Sendable, Codable, Equatable, Hashable {
    /// The test function's ID (`Suite/sort(n:)`), shared by its cases.
    public var function: String
    /// The case's size (``TestCase/size``).
    public var size: Double

    /// A sized case.
    public init(function: String, size: Double) {
        self.function = function
        self.size = size
    }
}

/// How a history value is read.
public enum HistoryMeasure: String, Sendable, Codable, CaseIterable {
    /// Simulated instructions under callgrind: deterministic, judged against the count tolerance.
    case simulatedCount
    /// An exact count (jemalloc allocations): deterministic, judged exactly.
    case exactCount
    /// A figure that varies between runs (time, CPU, resident memory): judged statistically.
    case timing

    /// Whether a commit's value is compared with its parent's directly.
    public var isDeterministic: Bool { self != .timing }
}

/// A commit on the recorded branch.
public struct CommitInfo: Sendable, Codable, Equatable, Hashable {
    /// The full hash.
    public var hash: String
    /// Its first parent's hash ("" for a root commit).
    public var parent: String
    /// Commits on the first-parent chain up to and including this one: the order of the history.
    public var position: Int
    /// The commit date.
    public var date: Date
    /// The subject line.
    public var subject: String

    /// A commit.
    public init(hash: String, parent: String, position: Int, date: Date, subject: String) {
        self.hash = hash
        self.parent = parent
        self.position = position
        self.date = date
        self.subject = subject
    }

    /// Reads a commit from git.
    /// - Parameters:
    ///   - revision: A revision git resolves (passed after `--end-of-options`, never as an option).
    ///   - directory: The repository.
    /// - Returns: The commit.
    /// - Throws: ``OrchestrationError/unknownRevision(_:said:)`` quoting git, or
    ///   ``OrchestrationError/cannotDo(_:)`` for a shallow clone (its positions would be wrong).
    package static func read(_ revision: String, in directory: String = ".") throws(OrchestrationError) -> CommitInfo {
        let line: String
        let count: String
        do {
            let hash = try Git.commit(revision, in: directory)
            line = try Git.run(["log", "-1", "--format=%H%x09%P%x09%ct%x09%s", hash, "--"], in: directory)
            count = try Git.run(["rev-list", "--count", "--first-parent", hash, "--"], in: directory)
        } catch {
            throw .unknownRevision(revision, said: ChildProcess.lastWords(error.said, lines: 1))
        }
        if Git.isShallow(in: directory) {
            throw .cannotDo(
                "\(directory == "." ? "this repository" : directory) is a shallow clone: a commit's place on the "
                    + "branch cannot be counted; deepen it first (git fetch --unshallow, or fetch-depth: 0 in "
                    + "actions/checkout)"
            )
        }
        let fields = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard let position = Int(count), fields.count >= 3, let seconds = TimeInterval(fields[2]) else {
            throw .unknownRevision(revision, said: "git log printed '\(line)'")
        }
        return CommitInfo(
            hash: fields[0], parent: String(fields[1].split(separator: " ").first ?? ""), position: position,
            date: Date(timeIntervalSince1970: seconds),
            subject: fields.count > 3 ? fields[3] : "")
    }
}

/// What a history point was measured with: the fields whose change can move a series by itself.
public struct HistoryEnvironment: Sendable, Codable, Equatable {
    /// The toolchain's version line.
    public var toolchain: String
    /// The machine's CPU model.
    public var cpu: String
    /// The allocator linked.
    public var allocator: String
    /// valgrind's version, for counts.
    public var valgrind: String?
    /// The counting setup, for counts.
    public var counting: CountingSetup?

    /// The fields of a run's environment.
    public init(_ environment: Environment) {
        toolchain = environment.swiftVersion
        cpu = environment.machine.cpuModel
        allocator = environment.allocator
        valgrind = environment.valgrind
        counting = environment.countingSetup
    }

    /// Reads the stored JSON; nil when it is not this shape.
    public init?(text: String) {
        // An environment this version cannot read is shown as unknown, never guessed.
        guard let value = try? JSONDecoder().decode(HistoryEnvironment.self, from: Data(text.utf8)) else { return nil }
        self = value
    }

    /// The stored JSON (sorted keys), or nil when it cannot be encoded.
    public static func text(_ environment: HistoryEnvironment) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Strings and numbers only: encoding cannot fail.
        return (try? encoder.encode(environment)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The fields that differ from `other`, each as `name: before → after`.
    public func differences(from other: HistoryEnvironment) -> [String] {
        var lines: [String] = []
        if toolchain != other.toolchain { lines.append("toolchain: \(other.toolchain) → \(toolchain)") }
        if cpu != other.cpu { lines.append("machine: \(other.cpu) → \(cpu)") }
        if allocator != other.allocator { lines.append("allocator: \(other.allocator) → \(allocator)") }
        if valgrind != other.valgrind {
            lines.append("valgrind: \(other.valgrind ?? "none") → \(valgrind ?? "none")")
        }
        if let a = counting, let b = other.counting, !a.differences(from: b).isEmpty {
            lines.append("counting setup: " + a.differences(from: b).joined(separator: ", "))
        }
        return lines
    }
}
