import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Sharded runs: a deterministic, balanced part of the tests, and a merge that refuses what is not
/// one suite's shards.
@Suite struct ShardTests {
    @Test func shardsPartitionTheSortedTestsRoundRobin() throws {
        var generator = SeededGenerator(seed: 42)
        let ids = (0..<11).map { "M.S/t\($0)()" }.shuffled(using: &generator)
        let parts = (1...3).map { Shard(index: $0, count: 3)!.select(ids) }
        #expect(parts.map(\.count) == [4, 4, 3])
        #expect(Set(parts.flatMap { $0 }) == Set(ids))
        #expect(parts.flatMap { $0 }.count == ids.count)
        #expect(parts == (1...3).map { Shard(index: $0, count: 3)!.select(ids.reversed()) })
        #expect(Shard(parsing: "2/3") == Shard(index: 2, count: 3))
        for bad in ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3", ""] { #expect(Shard(parsing: bad) == nil, "\(bad)") }
    }

    @Test func aShardsFilterMatchesExactlyItsTests() throws {
        let filter = Shard.filter(matching: ["M.S/f()", "M.S/g(x:)"])
        let regex = try NSRegularExpression(pattern: filter)
        func matches(_ id: String) -> Bool { regex.firstMatch(in: id, range: NSRange(id.startIndex..., in: id)) != nil }
        #expect(matches("M.S/f()") && matches("M.S/g(x:)"))
        #expect(!matches("M.S/f2()") && !matches("M.S/g()") && !matches("M.T/h()"))
    }

    static func shard(
        _ ids: [String], part: Int, of count: Int, countsOnly: Bool = true, cpu: String = "cpu", swift: String = "6.3.1"
    ) -> RunFile {
        let environment = Environment(
            commit: "abc", branch: "main", dirty: false, swiftVersion: swift, buildConfiguration: "release",
            machine: MachineFingerprint(
                cpuModel: cpu, cores: 2, kernel: "k", operatingSystem: "os", governor: nil, memoryBytes: 1 << 34),
            allocator: "jemalloc"
        )
        let tests = ids.map { id in
            var series = Build.series(.instructions, values: (0..<3).map { i in 1_000 + Double(i) })
            series.callgrindDumps = [1, 2, 3]
            return TestResult(
                id: id, suite: "S",
                measurements: [
                    MeasurementResult(name: "m", arms: ["main"], order: [], series: [series], unavailable: [])
                ])
        }
        var run = RunFile(
            date: Date(timeIntervalSince1970: Double(part)), mode: "count", environment: environment, tests: tests)
        run.countsOnly = countsOnly ? true : nil
        run.shard = "\(part)/\(count)"
        return run
    }

    @Test func mergingShardsGivesTheWholeSuiteWithDumpsRenumbered() throws {
        let merge = try RunFile.merging([
            ("a.json", Self.shard(["S/a()", "S/c()"], part: 1, of: 2)),
            ("b.json", Self.shard(["S/b()"], part: 2, of: 2)),
        ])
        #expect(merge.run.tests.map(\.id) == ["S/a()", "S/b()", "S/c()"])
        #expect(merge.run.filter == nil)
        #expect(merge.run.shard == nil)
        #expect(merge.run.countsOnly == true)
        #expect(merge.dumpOffsets.map(\.offset) == [0, 3])
        #expect(merge.run.tests[1].measurements[0].series[0].callgrindDumps == [4, 5, 6])
        #expect(merge.run.tests[0].measurements[0].series[0].values == [1_000, 1_001, 1_002])
    }

    @Test func countsOnlyShardsMergeAcrossMachinesButTimingAndOtherSetupsDoNot() throws {
        let other = try RunFile.merging([
            ("a.json", Self.shard(["S/a()"], part: 1, of: 2)),
            ("b.json", Self.shard(["S/b()"], part: 2, of: 2, cpu: "other")),
        ])
        #expect(other.run.tests.count == 2)
        let timing = #expect(throws: FileError.self) {
            try RunFile.merging([
                ("a.json", Self.shard(["S/a()"], part: 1, of: 2, countsOnly: false)),
                ("b.json", Self.shard(["S/b()"], part: 2, of: 2, countsOnly: false, cpu: "other")),
            ])
        }
        #expect(
            timing?.description
                == "b.json: timing from another machine than a.json (CPU model); shards of other machines merge with "
                + "--counts-only"
        )
        let toolchain = #expect(throws: FileError.self) {
            try RunFile.merging([
                ("a.json", Self.shard(["S/a()"], part: 1, of: 2)),
                ("b.json", Self.shard(["S/b()"], part: 2, of: 2, swift: "6.2")),
            ])
        }
        #expect(
            toolchain?.description
                == "b.json: simulated counts from another toolchain than a.json: not one suite's shards")
        let overlap = #expect(throws: FileError.self) {
            try RunFile.merging([
                ("a.json", Self.shard(["S/a()"], part: 1, of: 2)), ("b.json", Self.shard(["S/a()"], part: 2, of: 2)),
            ])
        }
        #expect(overlap?.description == "b.json: test S/a() is also in a.json: shards must not overlap")
        let partial = try RunFile.merging([
            ("a.json", Self.shard(["S/a()"], part: 1, of: 3)), ("b.json", Self.shard(["S/b()"], part: 2, of: 3)),
        ])
        #expect(partial.run.filter != nil)
    }

    /// F8 (issue 63): a debug timing shard is named as timing from another build configuration,
    /// never as simulated counts.
    @Test func aDebugTimingShardIsNamedAsTiming() throws {
        var debug = Self.shard(["S/b()"], part: 2, of: 2, countsOnly: false)
        debug.mode = "measure"
        debug.environment.buildConfiguration = "debug"
        var release = Self.shard(["S/a()"], part: 1, of: 2, countsOnly: false)
        release.mode = "measure"
        let error = #expect(throws: FileError.self) { try RunFile.merging([("a.json", release), ("b.json", debug)]) }
        #expect(
            error?.description
                == "b.json: timing from another build configuration than a.json (debug against release): not one "
                + "suite's shards")
    }

    /// F7: a shard missing assigned tests, or an empty shard naming none, makes the merge partial.
    ///
    /// F7 (issue 63): a shard that holds fewer tests than it was assigned, or an empty shard that
    /// names none, makes the merge partial: the tests no shard holds are "not measured", never "removed".
    @Test func aShardMissingPlannedTestsMakesTheMergePartial() throws {
        var first = Self.shard(["S/a()", "S/c()"], part: 1, of: 2)
        first.plannedTests = ["S/a()", "S/c()"]
        var emptied = Self.shard([], part: 2, of: 2)
        emptied.plannedTests = ["S/b()", "S/d()"]
        let lacking = try RunFile.merging([("a.json", first), ("b.json", emptied)])
        #expect(lacking.missing == ["S/b()", "S/d()"])
        #expect(lacking.run.filter != nil)
        let unplanned = try RunFile.merging([("a.json", first), ("b.json", Self.shard([], part: 2, of: 2))])
        #expect(unplanned.unplanned == ["b.json"])
        #expect(unplanned.run.filter != nil)
        var whole = Self.shard(["S/b()"], part: 2, of: 2)
        whole.plannedTests = ["S/b()"]
        let complete = try RunFile.merging([("a.json", first), ("b.json", whole)])
        #expect(complete.missing.isEmpty && complete.unplanned.isEmpty && complete.run.filter == nil)
    }
}
