import PerfKit
import Testing

@Suite struct PairedComparisonTests {
    /// One test's series; time values are taken as microseconds, well above the clock's resolution.
    static func result(_ values: [Double], metric: Metric = .wallClock) -> [TestResult] {
        var series = SampleSeries(metric: metric, arm: "main", phase: .warm)
        let scale = metric.unit == .nanoseconds ? 1_000.0 : 1
        for (i, v) in values.enumerated() { series.append(v * scale, round: 0, position: 0, index: i) }
        return [
            TestResult(
                id: "S/t()", suite: "S",
                measurements: [
                    MeasurementResult(name: "m", arms: ["main"], order: [], series: [series], unavailable: [])
                ])
        ]
    }

    /// Rounds in ABBA order whose B/A ratio is `effect`, with a value `order` times larger in second
    /// position, and seeded noise of ±`noise`.
    static func rounds(count: Int, effect: Double, order: Double, noise: Double, seed: UInt64) -> [PairedSeries.Round] {
        var g = SeededGenerator(seed: seed)
        func jitter() -> Double { 1 + noise * (Double(g.index(below: 2_001)) / 1_000 - 1) }
        return RunOrder(armCount: 2, roundCount: count, seed: seed).rounds.map { arms in
            let bSecond = arms == [0, 1]
            let a = 100 * jitter() * (bSecond ? 1 : order)
            let b = 100 * effect * jitter() * (bSecond ? order : 1)
            return PairedSeries.Round(
                baseline: result([a, a, a]), current: result([b, b, b]), currentRanSecond: bSecond)
        }
    }

    @Test func roundsArePairedByProcessMedians() throws {
        let rounds = [
            PairedSeries.Round(
                baseline: Self.result([1, 2, 9]), current: Self.result([4, 5, 6]), currentRanSecond: true),
            PairedSeries.Round(
                baseline: Self.result([3, 3, 3]), current: Self.result([1, 7, 8]), currentRanSecond: false),
        ]
        let paired = try PairedSeries.pair(rounds).paired
        #expect(paired.count == 1)
        #expect(
            paired[0].baseline == [2_000, 3_000] && paired[0].current == [5_000, 7_000]
                && paired[0].currentRanSecond == [true, false])
    }

    @Test func anInjectedOrderEffectIsDetected() throws {
        let paired = try PairedSeries.pair(Self.rounds(count: 20, effect: 1, order: 1.05, noise: 0.005, seed: 3)).paired
        let diagnostics = try PairedDiagnostics(paired[0])
        #expect(diagnostics.orderEffectDetected)
        #expect(abs(diagnostics.orderEffect - 0.05) < 0.01)
        #expect(diagnostics.warnings.contains { $0.hasPrefix("order effect") })
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func noOrderEffectIsReportedWhenThereIsNone(seed: UInt64) throws {
        let paired = try PairedSeries.pair(Self.rounds(count: 20, effect: 1.03, order: 1, noise: 0.01, seed: seed))
            .paired
        let diagnostics = try PairedDiagnostics(paired[0])
        #expect(!diagnostics.orderEffectDetected)
        #expect(!diagnostics.warnings.contains { $0.hasPrefix("order effect") })
    }

    @Test func driftAcrossRoundsIsReported() throws {
        var series = PairedSeries(test: "S/t()", measurement: "m", arm: "main", phase: .warm, metric: .wallClock)
        for r in 0..<20 {
            series.baseline.append(100)
            series.current.append(100 * (1 + 0.01 * Double(r)))
            series.currentRanSecond.append(r % 2 == 0)
        }
        let diagnostics = try PairedDiagnostics(series)
        #expect(diagnostics.driftP < 0.05 && diagnostics.driftPerRound > 0.005)
        #expect(diagnostics.warnings.contains { $0.hasPrefix("drift") })
    }

    @Test func pairedVerdictsUseTheTwoGates() throws {
        let slower = try PairedSeries.pair(Self.rounds(count: 10, effect: 1.10, order: 1, noise: 0.005, seed: 9))
        let same = try PairedSeries.pair(Self.rounds(count: 10, effect: 1, order: 1, noise: 0.005, seed: 9))
        let bands = NoiseBands(defaultRelative: 0.02)
        #expect(
            try Comparison(paired: slower, bands: bands, environmentA: nil, environmentB: nil).rows.map(\.verdict) == [
                .regressed
            ])
        #expect(
            try Comparison(paired: same, bands: bands, environmentA: nil, environmentB: nil).rows.map(\.verdict) == [
                .withinNoise
            ])
        let few = try PairedSeries.pair(
            Array(Self.rounds(count: 10, effect: 1.10, order: 1, noise: 0.005, seed: 9).prefix(3)))
        #expect(
            try Comparison(paired: few, bands: bands, environmentA: nil, environmentB: nil).rows.map(\.verdict) == [
                .inconclusive
            ])
    }

    @Test func seriesOnOneSideOrMissingFromARoundAreListedNotDropped() throws {
        func result(_ id: String) -> [TestResult] {
            var test = Self.result([10, 20, 30])[0]
            test.id = id
            return [test]
        }
        let rounds = (0..<4).map { r in
            PairedSeries.Round(
                baseline: result("S/kept()") + result("S/gone()") + (r == 2 ? [] : result("S/flaky()")),
                current: result("S/kept()") + result("S/new()") + result("S/flaky()"), currentRanSecond: r % 2 == 0)
        }
        let pairing = try PairedSeries.pair(rounds)
        #expect(pairing.paired.map(\.test) == ["S/kept()"])
        #expect(pairing.unpaired.map(\.test) == ["S/flaky()", "S/gone()", "S/new()"])
        let comparison = try Comparison(
            paired: pairing, bands: NoiseBands(defaultRelative: 0.02), environmentA: nil, environmentB: nil)
        let verdicts = Dictionary(uniqueKeysWithValues: comparison.rows.map { ($0.test, $0.verdict) })
        #expect(
            verdicts == ["S/kept()": .withinNoise, "S/gone()": .removed, "S/new()": .added, "S/flaky()": .inconclusive])
        #expect(comparison.rows.first { $0.test == "S/flaky()" }?.reason == .notPaired)
        #expect(comparison.count(.added) == 1 && comparison.count(.removed) == 1)
    }

    @Test func calibrationStoresABandPerSeries() throws {
        let comparisons = try (1...5).map { seed in
            try Comparison(
                paired: PairedSeries.pair(Self.rounds(count: 10, effect: 1, order: 1, noise: 0.01, seed: UInt64(seed))),
                bands: NoiseBands(defaultRelative: 0.02), environmentA: nil, environmentB: nil)
        }
        let machine = MachineFingerprint(
            cpuModel: "cpu", cores: 2, kernel: "k", operatingSystem: "os", governor: nil, memoryBytes: 1 << 34)
        let calibration = NoiseCalibration(comparisons: comparisons, machine: machine, rounds: 10)
        let key = SeriesID(test: "S/t()", measurement: "m", arm: "main", phase: .warm, metric: "wallClock").storageKey
        let band = try #require(calibration.bands.perSeries[key])
        #expect(band >= 0.005 && band < 0.02)
        #expect(calibration.entries.first { $0.id.storageKey == key }?.repeats == 5)
    }

    @Test func calibratedBandsOnlyWidenTheCrossRunDefault() {
        var series = PairedSeries(test: "S/t()", measurement: "m", arm: "main", phase: .warm, metric: .wallClock)
        let key = SeriesID(test: "S/t()", measurement: "m", arm: "main", phase: .warm, metric: "wallClock").storageKey
        let calibrated = NoiseBands(defaultRelative: 0.02, perSeries: [key: 0.005])
        #expect(calibrated.band(for: series.id, metric: series.metric) == 0.005)
        #expect(calibrated.withCrossRunDefault.band(for: series.id, metric: series.metric) == 0.05)
        #expect(calibrated.withCrossRunDefault.band(for: .threadCPU) == 0.05)
        series.arm = "wide"
        let wide = NoiseBands(
            defaultRelative: 0.02,
            perSeries: [
                SeriesID(test: "S/t()", measurement: "m", arm: "wide", phase: .warm, metric: "wallClock").storageKey:
                    0.08
            ])
        #expect(wide.withCrossRunDefault.band(for: series.id, metric: series.metric) == 0.08)
    }

    @Test func tooFewFiniteRatiosAreInconclusive() throws {
        var series = PairedSeries(test: "S/t()", measurement: "m", arm: "main", phase: .warm, metric: .wallClock)
        for r in 0..<6 {
            series.baseline.append(r < 3 ? 0 : 100_000)
            series.current.append(100_000)
            series.currentRanSecond.append(r % 2 == 0)
        }
        let comparison = try Comparison(
            paired: Pairing(paired: [series], unpaired: []), bands: NoiseBands(defaultRelative: 0.02),
            environmentA: nil, environmentB: nil)
        #expect(comparison.rows.map(\.verdict) == [.inconclusive])
        #expect(comparison.rows[0].reason == .tooFew)
    }
}
