import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Rendering: what a row's note says for people.
///
/// The verdict tests assert the typed reason and figures; only these tests read the wording, so a rewording changes
/// nothing else.
@Suite struct NoteRenderingTests {
    typealias V = Build

    @Test func notesNameTheCauseAndTheFigureBehindIt() throws {
        let noisy = try Comparison(
            baseline: V.processTests(V.noisy(100, seed: 8, spread: 0.6, count: 5)),
            current: V.processTests(V.noisy(104, seed: 9, spread: 0.6, count: 5)))
        #expect(noisy.rows[0].note.contains("too noisy to tell: the CI spans about ±"))
        let atTheEdge = try Comparison(
            baseline: V.processTests(V.noisy(100, seed: 10)), current: V.processTests(V.noisy(105, seed: 11)))
        #expect(atTheEdge.rows[0].note.contains("a change about as large as the ±5% band"))
        let tooFew = try Comparison(baseline: V.processTests([100, 101]), current: V.processTests([150, 151]))
        #expect(tooFew.rows[0].note.hasSuffix("too few values (2 and 2; need 3 per side)"))
        let fast = try Comparison(
            baseline: V.processTests(V.noisy(0.1, seed: 1)), current: V.processTests(V.noisy(0.2, seed: 2)))
        #expect(fast.rows[0].note.hasPrefix("at clock resolution"))
    }

    @Test func exactAndDistributionNotesSayHowTheCountWasCompared() throws {
        let constant = try Comparison(
            baseline: V.processTests(Array(repeating: 161, count: 40), metric: .mallocs),
            current: V.processTests(Array(repeating: 161, count: 30), metric: .mallocs))
        #expect(constant.rows[0].note.hasPrefix("exact (every sample identical): 161 → 161"))
        let varying = try Comparison(
            baseline: V.processTests(V.noisy(170, seed: 1, spread: 0.2), metric: .mallocs),
            current: V.processTests(V.noisy(170, seed: 2, spread: 0.2), metric: .mallocs))
        #expect(varying.rows[0].note.hasPrefix("varies between samples, so compared as a distribution; "))
        let bytes = Metric("bytesAllocated", unit: .bytes, isDeterministic: true)
        let fromZero = try Comparison(
            baseline: V.processTests([0, 0, 0, 0, 0, 0, 0, 8], metric: bytes),
            current: V.processTests([3088, 4000, 85808, 3100, 3500, 3200, 3300, 3400], metric: bytes))
        #expect(fromZero.rows[0].note.contains("ratio undefined, difference of medians"))
        let significance = try Comparison(
            baseline: V.processTests([100, 101, 102]), current: V.processTests([130, 131, 132]))
        #expect(significance.rows[0].note.contains("not significant against its edge after Benjamini–Hochberg"))
    }

    @Test func countNotesNameTheToolchainAndTheCPUFeatures() throws {
        let toolchain = try SimulatedCountTests.row(
            [10_000, 10_000], [20_000, 20_000], current: SimulatedCountTests.counted(swift: "6.4"))
        #expect(toolchain.note.contains("toolchain"))
        var otherMachine = SimulatedCountTests.counted("amd64-sse3")
        otherMachine.machine.cpuModel = "another CPU"
        let cpu = try SimulatedCountTests.row([10_000, 10_000], [20_000, 20_000], current: otherMachine)
        #expect(cpu.note.contains("different features"))
        var older = SimulatedCountTests.counted()
        older.countingSetup = try JSONDecoder().decode(
            CountingSetup.self, from: Data(#""callgrind Ir, one process per run""#.utf8))
        #expect(
            try SimulatedCountTests.row([10_000, 10_000], [10_000, 10_000], current: older).note.contains(
                "counting setup"))
    }

    @Test func timingNotesSayWhatTheProcessesAllowed() throws {
        let other = try ReplicationTests.onAnotherMachine()
        let wall = try #require(other.rows.first { $0.metric == .wallClock })
        #expect(wall.note.hasPrefix("recorded on another machine (CPU model, kernel differ)"))
        let single = try Comparison(
            baseline: ReplicationTests.tests(wall: V.noisy(100, seed: 1), mallocs: 10, processes: nil),
            current: ReplicationTests.tests(wall: V.noisy(150, seed: 2), mallocs: 10, processes: nil))
        let one = try #require(single.rows.first { $0.metric == .wallClock })
        #expect(one.note.hasPrefix("one process per side: drift between processes is not estimable"))
    }

    /// An exact count's note gives its change a call with as many digits as it needs: +48 on 4 million is +0.0012%.
    @Test func anExactCountsNoteGivesItsChangeACall() throws {
        let small = try SimulatedCountTests.row([1_000_000, 1_000_000, 1_000_000], [1_000_300, 1_000_300, 1_000_300])
        #expect(small.note == "exact: +300 instructions a call (+0.03%)")
        let tiny = try SimulatedCountTests.row([4_000_000, 4_000_000], [4_000_048, 4_000_048])
        #expect(tiny.note == "exact: +48 instructions a call (+0.0012%)")
    }
}
