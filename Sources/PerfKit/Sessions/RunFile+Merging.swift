import Foundation
import PerfKitCore

/// Joining the run files of a suite's shards (`perfkit run --shard I/N`) into one.
extension RunFile {
    /// A merge: the joined run file, and where each shard's callgrind dumps go in it.
    package struct Merge: Sendable {
        /// The joined run file (every test of every shard, sorted by ID).
        package var run: RunFile
        /// Per shard: the dump-number offset its series were renumbered by, and its highest dump number.
        ///
        /// Per shard: the dump-number offset its series were renumbered by (its `callgrind.out.N` is
        /// the merge's `callgrind.out.(N + offset)`) and its highest dump number.
        package var dumpOffsets: [(offset: Int, highest: Int)]
        /// Tests a shard was assigned that no shard holds, sorted; the merge is then partial.
        package var missing: [String] = []
        /// Shards that hold no test and record no plan (older run files), by path: what they were
        /// assigned is unknown, so the merge is partial.
        package var unplanned: [String] = []
    }

    /// Joins shards of one commit.
    ///
    /// Simulated counts join across machines when the toolchain, valgrind, build and allocator
    /// match (they are deterministic); timing and OS figures join only from one machine, since a
    /// run file describes one machine and a comparison would read the mixture as that machine's.
    /// - Parameter shards: The run files with their paths, at least two.
    /// - Returns: The merge.
    /// - Throws: ``FileError`` naming the file: another commit, a test already in an earlier shard,
    ///   counts from another setup, or timing from another machine.
    package static func merging(_ shards: [(path: String, run: RunFile)]) throws(FileError) -> Merge {
        guard let (firstPath, first) = shards.first, shards.count >= 2 else {
            throw FileError(shards.first?.path ?? "-", "merge needs the run files of two or more shards")
        }
        var tests: [TestResult] = []
        var owner: [String: String] = [:]
        var offsets: [(offset: Int, highest: Int)] = []
        var offset = 0
        for (path, run) in shards {
            try checkJoinable(run, at: path, with: first, at: firstPath)
            var shardTests = run.tests
            let highest = CountingRun.offsetDumps(&shardTests, by: offset)
            offsets.append((offset, highest))
            offset += highest
            for test in shardTests {
                if let earlier = owner[test.id] {
                    throw FileError(path, "test \(test.id) is also in \(earlier): shards must not overlap")
                }
                owner[test.id] = path
                tests.append(test)
            }
        }
        // Every shard's state is carried: one dirty shard makes the merge dirty, and one timing shard
        // makes it a timing run.
        var environment = first.environment
        environment.dirty = shards.contains { $0.run.environment.dirty }
        let mode = shards.contains { $0.run.mode == "measure" } ? "measure" : first.mode
        var merged = RunFile(
            date: shards.map(\.run.date).min() ?? first.date, mode: mode, environment: environment, tests: tests)
        merged.countsOnly = shards.allSatisfy { $0.run.countsOnly == true } ? true : nil
        let parts = Set(shards.compactMap { $0.run.shard.flatMap(Shard.init(parsing:)) })
        let missing = Set(shards.flatMap { $0.run.plannedTests ?? [] }).subtracting(owner.keys).sorted()
        let unplanned = shards.filter { $0.run.plannedTests == nil && $0.run.tests.isEmpty }.map(\.path)
        let whole =
            parts.count == shards.count && parts.allSatisfy { $0.count == shards.count } && missing.isEmpty
            && unplanned.isEmpty
        // Every part of one N, each with every test it was assigned: the whole suite. Anything else
        // stays marked partial, so a comparison says "not measured" for the tests no shard holds,
        // never "removed".
        merged.filter = whole ? nil : Shard.filter(matching: tests.map(\.id))
        return Merge(run: merged, dumpOffsets: offsets, missing: missing, unplanned: unplanned)
    }

    /// Refuses a shard that cannot join the first: another commit, counts from another setup, or
    /// timing from another machine.
    private static func checkJoinable(_ run: RunFile, at path: String, with first: RunFile, at firstPath: String)
        throws(FileError)
    {
        if run.environment.commit != first.environment.commit {
            throw FileError(
                path,
                "measured commit \(run.environment.commit.prefix(12)), \(firstPath) commit "
                    + "\(first.environment.commit.prefix(12)): shards of one commit only"
            )
        }
        let counting = run.environment.countingDifferences(from: first.environment)
        if !counting.isEmpty {
            // Named for what the shards hold: a timing shard has no simulated counts to speak of.
            let counted = [run, first].contains { $0.mode == "count" || $0.environment.valgrind != nil }
            let (these, those) = (run.environment.buildConfiguration, first.environment.buildConfiguration)
            throw FileError(
                path,
                "\(counted ? "simulated counts" : "timing") from another \(counting.joined(separator: ", ")) than "
                    + "\(firstPath)\(these != those ? " (\(these) against \(those))" : ""): not one suite's shards"
            )
        }
        let machine = run.environment.machineDifferences(from: first.environment)
        if !machine.isEmpty, run.countsOnly != true || first.countsOnly != true {
            throw FileError(
                path,
                "timing from another machine than \(firstPath) (\(machine.joined(separator: ", "))); shards of "
                    + "other machines merge with --counts-only"
            )
        }
    }
}
