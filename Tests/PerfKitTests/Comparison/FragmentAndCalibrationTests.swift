import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

@Suite struct ResultFragmentTests {
    static func result(id: String, measurement: String, value: Double, budget: String) -> TestResult {
        let series = Build.series(.mallocs, values: [value])
        let outcome = BudgetOutcome(
            measurement: measurement, arm: "main", phase: .warm, metric: "mallocs", budget: budget, status: .passed,
            detail: "")
        return TestResult(
            id: id, suite: "S",
            measurements: [
                MeasurementResult(name: measurement, arms: ["main"], order: [[0]], series: [series], unavailable: [])
            ],
            budgets: [outcome])
    }

    /// Parameterized cases of one test share its id.
    ///
    /// Each writes its own fragment, and reading merges them back into one test with every case's measurements and
    /// budgets.
    @Test func casesOfOneTestAreWrittenApartAndMergedBack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "perfkit-fragments-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for days in [90, 1, 7] {
            try ResultFragments.write(
                Self.result(
                    id: "S/layout(days:)", measurement: "history-\(days)d", value: Double(days), budget: "max ≤ \(days)"
                ), into: directory)
        }
        try ResultFragments.write(
            Self.result(id: "S/other()", measurement: "m", value: 5, budget: "max ≤ 5"), into: directory)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).count == 4,
            "one fragment per case, none overwritten")
        let tests = try ResultFragments.readAll(from: directory)
        #expect(tests.map(\.id) == ["S/layout(days:)", "S/other()"])
        // Measurements in natural order (1d, 7d, 90d), each with its own values; budgets of every case kept.
        #expect(tests[0].measurements.map(\.name) == ["history-1d", "history-7d", "history-90d"])
        #expect(tests[0].measurements.map { $0.series[0].values } == [[1], [7], [90]])
        #expect(Set(tests[0].budgets.map(\.budget)) == ["max ≤ 1", "max ≤ 7", "max ≤ 90"])
    }

    /// Two scopes that would write one series (one ID, one measurement name) are an error naming the test, never an
    /// overwrite.
    ///
    /// Before run file schema 6 a parameterized test's cases did this and the last case's samples were the only ones
    /// kept.
    @Test func twoScopesWritingOneSeriesAreAnErrorNotAnOverwrite() throws {
        let folder = TemporaryFolder("perfkit-fragments")
        try ResultFragments.write(
            Self.result(id: "S/sort(n:)", measurement: "sort", value: 1, budget: "max ≤ 1"), into: folder.path)
        #expect {
            try ResultFragments.write(
                Self.result(id: "S/sort(n:)", measurement: "sort", value: 2, budget: "max ≤ 2"), into: folder.path)
        } throws: { error in
            String(describing: error).contains("S/sort(n:) (sort) was already written by another scope")
        }
        #expect(try ResultFragments.readAll(from: folder.path).first?.measurements.first?.series.first?.values == [1])
    }

    @Test func aCorruptFragmentIsRefusedNamingIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "perfkit-fragments-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("{\"schemaVersion\": 1, \"test\": ".utf8).write(to: URL(fileURLWithPath: directory + "/broken.json"))
        #expect {
            try ResultFragments.readAll(from: directory)
        } throws: { error in
            String(describing: error).contains("broken.json")
        }
    }
}

@Suite struct CalibrationDiagnosticsTests {
    static let machine = MachineFingerprint(
        cpuModel: "cpu", cores: 2, kernel: "k", operatingSystem: "os", governor: nil, memoryBytes: 1 << 34)
    static let key = SeriesID(test: "S/t()", measurement: "m", arm: "main", phase: .warm, metric: "wallClock")
        .storageKey

    /// A/A repeats with an injected effect in some of them.
    ///
    /// The entry counts false alarms in both directions; with 20 repeats or more the band is the 95th percentile of
    /// |change − 1|, with fewer the farthest CI bound from no change over the repeats (at least the floor either way);
    /// the resolvable change is the median CI half-width plus that band.
    @Test(arguments: [10, 20])
    func entriesCountFalseAlarmsInBothDirectionsAndStateWhatTheyCanResolve(repeats: Int) throws {
        let effects = [1.0, 1.0, 1.08, 0.92] + [Double](repeating: 1.0, count: repeats - 4)
        let comparisons = try effects.enumerated().map { i, effect in
            try Comparison(
                paired: PairedSeries.pair(
                    PairedComparisonTests.rounds(count: 10, effect: effect, order: 1, noise: 0.002, seed: UInt64(i + 1))
                ),
                bands: NoiseBands(defaultRelative: 0.01), environmentA: nil, environmentB: nil)
        }
        let verdicts: [Verdict] = comparisons.map { $0.rows[0].verdict }
        let flagged = verdicts.filter { $0 == .regressed || $0 == .improved }
        #expect(flagged.count == 2)
        let calibration = NoiseCalibration(comparisons: comparisons, machine: Self.machine, rounds: 10)
        let entry = try #require(calibration.entries.first { $0.id.storageKey == Self.key })
        #expect(entry.repeats == repeats)
        #expect(entry.falseAlarms == 2, "one regressed and one improved repeat both count")
        let changes: [Estimate] = comparisons.map { $0.rows[0].change! }
        let offsets: [Double] = changes.map { abs($0.value - 1) }.sorted()
        let farthestBounds: [Double] = changes.map { max(abs($0.lower - 1), abs($0.upper - 1)) }
        let raw: Double =
            repeats >= NoiseCalibration.empiricalRepeats
            ? Quantile.percentile(sorted: offsets, 95) : farthestBounds.max()!
        let expectedBand: Double = (max(0.005, raw) * 1_000).rounded(.up) / 1_000
        #expect(entry.band == expectedBand)
        #expect(entry.band > 0.05, "the injected ±8% repeats widen the band")
        let halfWidths: [Double] = changes.map { ($0.upper - $0.lower) / 2 }.sorted()
        let resolvable: Double = Quantile.percentile(sorted: halfWidths, 50) + entry.band
        #expect(abs(entry.resolvableChange - resolvable) < 1e-12)
        #expect(calibration.bands.perSeries[Self.key] == entry.band)
        #expect(calibration.bands.defaultRelative == 0.01)
    }

    @Test func aQuietSeriesGetsTheFloorNotZero() throws {
        let comparisons = try (1...5).map { seed in
            try Comparison(
                paired: PairedSeries.pair(
                    PairedComparisonTests.rounds(count: 10, effect: 1, order: 1, noise: 0, seed: UInt64(seed))),
                bands: NoiseBands(defaultRelative: 0.01), environmentA: nil, environmentB: nil)
        }
        let calibration = NoiseCalibration(comparisons: comparisons, machine: Self.machine, rounds: 10, floor: 0.005)
        #expect(calibration.entries.first { $0.id.storageKey == Self.key }?.band == 0.005)
    }
}
