import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// A monorepo of the shape real packages have (Tests/Fixtures/make-monorepo.sh).
///
/// A root package, the measured code in a local package under `Packages/Core`, PerfKit as a relative path dependency
/// outside the repository. What a worktree builds, the counting path, and the exit statuses of `perfkit run`, each
/// through what a user runs.
@Suite(.serialized) struct MonorepoTests {
    /// The PerfKit checkout these tests belong to.
    static let perfkit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// A new monorepo under `folder`; returns its commits, oldest first.
    static func monorepo(in folder: String) throws -> [String] {
        try PerfkitProcess.runTool(
            [perfkit + "/Tests/Fixtures/make-monorepo.sh", perfkit, folder], in: perfkit
        ).split(separator: "\n").map(String.init)
    }

    /// The modification date of each object file in `folder`, by name.
    static func objectDates(in folder: String) -> [String: Date] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Dictionary(
            uniqueKeysWithValues: files.filter { $0.hasSuffix(".o") }.compactMap { file in
                let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + file)
                return (attributes?[.modificationDate] as? Date).map { (file, $0) }
            })
    }

    @Test func aWorktreeBuildsTheRevisionsOwnCopyOfAnInRepositoryPackage() throws {
        let folder = TemporaryFolder("perfkit-monorepo-worktree")
        let repository = folder.path + "/mono"
        let commits = try Self.monorepo(in: repository)
        var lines: [String] = []
        let revision = try Revision.prepare(commits[0], root: repository) { lines.append($0) }
        #expect(
            lines.contains {
                $0.contains("outside the repository, pinned") && $0.hasSuffix("→ \(Self.perfkit)")
            }, "\(lines)")
        // SwiftPM's own answer: which folder each path dependency of the worktree resolves to.
        let json = try PerfkitProcess.runTool(
            ["swift", "package", "show-dependencies", "--format", "json"], in: repository + "/" + revision.directory)
        let tree = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let paths = Dictionary(
            uniqueKeysWithValues: ((tree["dependencies"] as? [[String: Any]]) ?? []).compactMap { d in
                (d["identity"] as? String).flatMap { n in (d["path"] as? String).map { (n, $0) } }
            })
        let worktree = URL(fileURLWithPath: repository + "/" + revision.directory).standardizedFileURL.path
        #expect(paths["core"].map { URL(fileURLWithPath: $0).standardizedFileURL.path } == worktree + "/Packages/Core")
        #expect(
            paths[URL(fileURLWithPath: Self.perfkit).lastPathComponent.lowercased()].map {
                URL(fileURLWithPath: $0).standardizedFileURL.path
            } == URL(fileURLWithPath: Self.perfkit).standardizedFileURL.path, "\(paths)")
        // The worktree holds base's Core (10 rounds), not the working tree's (11 after commit 2).
        let core = try String(
            contentsOfFile: worktree + "/Packages/Core/Sources/Core/Core.swift", encoding: .utf8)
        #expect(core.contains("for r in 0..<10 "))
        // The user's manifest is untouched.
        let manifest = try String(contentsOfFile: repository + "/Package.swift", encoding: .utf8)
        #expect(
            manifest.contains(#".package(path: "Packages/Core")"#) && !manifest.contains("\"" + Self.perfkit + "\""))
    }

    @Test func countsAndExitStatusesOfARunInTheMonorepo() throws {
        let folder = TemporaryFolder("perfkit-monorepo-run")
        let repository = folder.path + "/mono"
        _ = try Self.monorepo(in: repository)
        // The counting path in a package whose measured code is in a local package: counts taken.
        let counted = try PerfkitProcess.run(
            [
                "run", "--counts", "--filter", "MonoBenchmarks", "--processes", "2", "--samples", "3",
                "--count-samples", "3", "--output", "c.json",
            ],
            in: repository)
        #expect(counted.status == ExitStatus.fine, "\(counted.stderr.suffix(2_000))")
        // A test says `@testable import Mono`: the release build passes -enable-testing, and says so.
        #expect(counted.stderr.contains(Revision.testableLine), "\(counted.stderr.suffix(2_000))")
        // The release build is of the test product alone: the executable no test needs is not built.
        #expect(FileManager.default.fileExists(atPath: repository + "/.perfkit/build/release/MonoPackageTests.xctest"))
        #expect(!FileManager.default.fileExists(atPath: repository + "/.perfkit/build/release/mono-tool"))
        let run = try RunFile.read(from: repository + "/c.json")
        let instructions = run.tests.flatMap { $0.measurements.flatMap(\.series) }.filter { $0.metric == .instructions }
        // Counted in every process (3 samples in each), the processes agreeing within the count tolerance
        // the comparison uses (a fresh clone's CI saw two distinct values among the nine).
        let values = instructions.first?.values ?? []
        #expect(instructions.count == 1 && values.count == 3 * CountingRun.processesPerTest, "\(values)")
        let objects = Self.objectDates(in: repository + "/.perfkit/build/release/Core.build")
        if let low = values.min(), let high = values.max() {
            #expect(!Comparison.countsDiffer(low, high, tolerance: Comparison.defaultCountTolerance), "\(values)")
        }
        // A failed budget: the run file is written, exit 4, and the last line says so.
        let budget = try PerfkitProcess.run(
            ["run", "--filter", "MonoFailing/allocates", "--processes", "1", "--output", "b.json"], in: repository)
        #expect(budget.status == ExitStatus.testFailed, "\(budget.stderr.suffix(2_000))")
        #expect(FileManager.default.fileExists(atPath: repository + "/b.json"))
        let last = budget.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("perfkit run: b.json written; exit 4 because 1 budget failed"), "\(last)")
        // A counting failure after a finished timing run: exit 3, the timing run kept and named.
        let crash = try PerfkitProcess.run(
            ["run", "--counts", "--filter", "failsUnderValgrind", "--processes", "1", "--output", "t.json"],
            in: repository)
        #expect(crash.status == ExitStatus.childFailed, "\(crash.stderr.suffix(2_000))")
        #expect(crash.stderr.contains("the timing run it followed was kept: t.json"), "\(crash.stderr.suffix(2_000))")
        #expect(!crash.stderr.contains("no measured test matched"))
        let kept = try RunFile.read(from: repository + "/t.json")
        #expect(kept.tests.contains { $0.id.hasSuffix("failsUnderValgrind()") })
        // Two more builds of the same tree, each from a new plan, compiled nothing: Core's three traits
        // kept their order (Revision.buildEnvironment), so its objects are still the counting run's.
        #expect(!objects.isEmpty && Self.objectDates(in: repository + "/.perfkit/build/release/Core.build") == objects)
        // A bad filter is bad input, told before anything is built.
        let filter = try PerfkitProcess.run(["run", "--filter", "(unclosed"], in: repository)
        #expect(filter.status == ExitStatus.badInput)
        #expect(filter.stderr == "perfkit: --filter '(unclosed' is not a regular expression\n")
        // A build that fails: exit 3 with SwiftPM's first error quoted.
        try Data("public func broken() -> Int { undefinedName }\n".utf8).write(
            to: URL(fileURLWithPath: repository + "/Packages/Core/Sources/Core/Broken.swift"))
        let build = try PerfkitProcess.run(["run", "--processes", "1"], in: repository)
        #expect(build.status == ExitStatus.childFailed)
        let line = build.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            line.contains("release build of . failed") && line.contains("error: cannot find 'undefinedName'"), "\(line)"
        )
    }

    /// `abba --counts` of the monorepo's first two commits (Core: 10% more work per element).
    ///
    /// B is built from A's products, and each side's counting run stays in the record, every sample's dump beside it,
    /// so a series that moved between the sides can be traced sample by sample.
    @Test func abbaCountsKeepsEachSidesCountsWithTheirDumps() throws {
        let folder = TemporaryFolder("perfkit-monorepo-abba")
        let repository = folder.path + "/mono"
        let commits = try Self.monorepo(in: repository)
        let result = try PerfkitProcess.run(
            ["abba", commits[0], commits[1], "--counts", "--filter", "MonoBenchmarks", "--count-samples", "2"],
            in: repository)
        #expect(result.status == ExitStatus.fine, "\(result.stderr.suffix(2_000))")
        var medians: [Double] = []
        for side in ["A", "B"] {
            let path = repository + "/.perfkit/runs/abba-\(side).json"
            let run = try RunFile.read(from: path)
            #expect(run.countsOnly == true)
            let series = try #require(
                run.tests.flatMap { $0.measurements.flatMap(\.series) }.first { $0.metric == .instructions })
            let dumps = try #require(series.callgrindDumps)
            #expect(dumps.count == series.values.count && !dumps.isEmpty)
            let folder = CountingRun.dumpFolder(besides: path)
            for (dump, value) in zip(dumps, series.values) {
                // The kept dump is the sample's: read the same way, it gives the recorded count.
                #expect(DumpCount.instructions(ofDump: "\(folder)/callgrind.out.\(dump)").map { Double($0) } == value)
            }
            medians.append(try Quantile.median(series.values))
        }
        // 11 rounds against 10 of the same loop: about 10% more instructions a call.
        #expect(medians.count == 2 && (1.05...1.15).contains(medians[1] / medians[0]), "\(medians)")
    }
}
