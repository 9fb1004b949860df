#if History
import Foundation
import PerfKit
import CSQLite
import PerfKitHistory
import PerfKitTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The history store under faults, through the `perfkit` binary.
///
/// A record killed at seeded moments leaves the whole entry or none, concurrent recorders lose nothing, and recording
/// is refused with one line when it cannot be trusted. Both stores: SQLite, and PostgreSQL when a server is there.
@Suite struct HistoryFaultTests {
    let folder = TemporaryFolder("perfkit-history-faults")

    /// A git repository with `commits` empty commits; returns their hashes, oldest first.
    func repository(commits: Int) throws -> [String] {
        for command in [
            ["init", "-q", "-b", "main"], ["config", "user.email", "t@example.invalid"],
            ["config", "user.name", "T"],
        ] {
            _ = try PerfkitProcess.runTool(["git"] + command, in: folder.path)
        }
        for n in 1...commits {
            _ = try PerfkitProcess.runTool(
                ["git", "commit", "-q", "--allow-empty", "-m", "commit \(n)"], in: folder.path)
        }
        let log = try PerfkitProcess.runTool(["git", "rev-list", "--reverse", "main"], in: folder.path)
        return log.split(separator: "\n").map(String.init)
    }

    /// A run of `tests` tests at `commit` whose every value is `value`: a mixture of two records shows.
    static func run(commit: String, value: Double, tests: Int) -> RunFile {
        var run = Build.run(build: "release", values: [value])
        run.environment.commit = commit
        let template = run.tests[0]
        run.tests = (0..<tests).map { k in
            var test = template
            test.id = "S\(k)/t()"
            test.suite = "S\(k)"
            let series = Build.series(.mallocs, values: (0..<5).map { i in value })
            test.measurements[0].series = [series]
            return test
        }
        return run
    }

    /// A fresh SQLite file, and a fresh PostgreSQL schema when `make test` found a server.
    func stores() -> [String] {
        var stores = [folder.path + "/h.sqlite"]
        if let url = ProcessInfo.processInfo.environment["PERFKIT_TEST_POSTGRES"], !url.isEmpty {
            let schema = "perfkit_f_" + UUID().uuidString.prefix(8).lowercased()
            let separator = url.contains("?") ? "&" : "?"
            stores.append(url + separator + "options=-csearch_path%3D" + schema)
        }
        return stores
    }

    @Test func aRecordKilledAtAnyMomentLeavesTheWholeEntryOrNone() throws {
        let commits = try repository(commits: 1)
        let tests = 3_000
        try Self.run(commit: commits[0], value: 1, tests: tests).write(to: folder.path + "/v1.json")
        try Self.run(commit: commits[0], value: 2, tests: tests).write(to: folder.path + "/v2.json")
        for store in stores() {
            var generator = SeededGenerator(seed: 0x4849_5354)
            var outcomes: [String: Int] = [:]
            var trial = 0
            // 20 trials, more (up to 40) until kills have landed both before and after a commit.
            while trial < 20 || (trial < 40 && (outcomes["new entry"] == nil || outcomes["old entry"] == nil)) {
                // A record that finishes: the old entry, and how long a record takes now, so the
                // kill lands anywhere in the next one (start-up, reading, the transaction, the commit) or after it.
                let old: Double = trial % 2 == 0 ? 1 : 2, written: Double = 3 - old
                let started = Date()
                let first = try PerfkitProcess.run(
                    ["history", "record", "--from", "v\(Int(old)).json", "--store", store], in: folder.path)
                #expect(first.status == 0, "\(first.stderr)")
                let duration = Date().timeIntervalSince(started)
                let process = try PerfkitProcess.start(
                    ["history", "record", "--from", "v\(Int(written)).json", "--store", store], in: folder.path)
                usleep(UInt32(Double(generator.index(below: 1_000)) / 1_000 * 1.3 * duration * 1e6))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                let entries = try HistoryStore(store, create: false).entries()
                let values = Set(entries.map(\.value))
                #expect(
                    entries.count == tests && values.count == 1,
                    "trial \(trial): \(entries.count) rows, values \(values.sorted())")
                outcomes[values == [written] ? "new entry" : values == [old] ? "old entry" : "other", default: 0] +=
                    1
                trial += 1
            }
            #expect(
                outcomes["new entry", default: 0] > 0 && outcomes["old entry", default: 0] > 0
                    && outcomes["other"] == nil, "\(store): \(outcomes)")
        }
    }

    @Test func fourConcurrentRecordersLoseNothing() throws {
        let commits = try repository(commits: 4)
        for (n, commit) in commits.enumerated() {
            try Self.run(commit: commit, value: Double(n + 1), tests: 500).write(to: folder.path + "/c\(n).json")
        }
        for store in stores() {
            // Four commits at once, then four records of one commit at once.
            for files in [(0..<4).map { "c\($0).json" }, Array(repeating: "c0.json", count: 4)] {
                let logs = files.indices.map { folder.path + "/recorder-\($0).err" }
                let processes = try zip(files, logs).map { file, log in
                    _ = FileManager.default.createFile(atPath: log, contents: nil)
                    return try PerfkitProcess.start(
                        ["history", "record", "--from", file, "--store", store], in: folder.path,
                        errors: try FileHandle(forWritingTo: URL(fileURLWithPath: log)))
                }
                for process in processes { process.waitUntilExit() }
                let failures = zip(processes, logs).filter { $0.0.terminationStatus != 0 }
                    .map { (try? String(contentsOfFile: $0.1, encoding: .utf8)) ?? "" }
                #expect(failures.isEmpty, "\(store): \(failures)")
            }
            let entries = try HistoryStore(store, create: false).entries()
            #expect(entries.count == 4 * 500, "\(store)")
            #expect(Set(entries.map(\.commit.hash)) == Set(commits))
            #expect(Set(entries.map { $0.commit.position }) == [1, 2, 3, 4])
        }
    }

    /// F8: a store whose table and index disagree is named damaged.
    ///
    /// F8 (issue 63): a store whose table and index disagree (their pages swapped with an empty
    /// twin's; SQLite's quick_check passes it) is named damaged, never "UNIQUE constraint failed"
    /// or a bare SQLite message, and is left as it was.
    @Test func aDamagedStoreIsNamedDamaged() throws {
        let commits = try repository(commits: 1)
        try Self.run(commit: commits[0], value: 1, tests: 2).write(to: folder.path + "/r.json")
        let record = ["history", "record", "--from", "r.json", "--store", "h.sqlite"]
        #expect(try PerfkitProcess.run(record, in: folder.path).status == 0)
        var database: OpaquePointer?
        #expect(sqlite3_open(folder.path + "/h.sqlite", &database) == SQLITE_OK)
        let damage = """
            CREATE TABLE twin AS SELECT * FROM perfkit_history WHERE 0;
            CREATE TEMP TABLE pages AS SELECT name, rootpage FROM sqlite_master
                WHERE name IN ('perfkit_history', 'twin');
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master AS s SET rootpage = (SELECT p.rootpage FROM temp.pages AS p WHERE p.name != s.name)
                WHERE s.name IN ('perfkit_history', 'twin');
            """
        #expect(sqlite3_exec(database, damage, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(database)
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/h.sqlite"))
        let result = try PerfkitProcess.run(record, in: folder.path)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("perfkit: h.sqlite: the store is damaged (SQLite: "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/h.sqlite")) == before)
    }

    @Test func badRecordsAreRefusedWithOneLineAndTheStoreIsLeftAsItWas() throws {
        let commits = try repository(commits: 1)
        var dirty = Self.run(commit: commits[0], value: 1, tests: 2)
        dirty.environment.dirty = true
        try dirty.write(to: folder.path + "/dirty.json")
        var unknown = Self.run(commit: String(repeating: "ab", count: 20), value: 1, tests: 2)
        unknown.environment.commit = String(repeating: "ab", count: 20)
        try unknown.write(to: folder.path + "/unknown.json")
        for (file, message) in [("dirty.json", "uncommitted changes"), ("unknown.json", "unknown revision")] {
            let result = try PerfkitProcess.run(
                ["history", "record", "--from", file, "--store", "h.sqlite"], in: folder.path)
            #expect(result.status == 2)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/h.sqlite"))
        let show = try PerfkitProcess.run(["history", "show", "--store", "h.sqlite"], in: folder.path)
        #expect(show.status == 2)
        #expect(show.stderr == "perfkit: h.sqlite: no history store here (perfkit history record creates it)\n")
    }
}

/// `perfkit bisect` refuses what it cannot do before building anything, with one line and exit 2.
@Suite struct BisectRefusalTests {
    let folder = TemporaryFolder("perfkit-bisect")

    /// From a package's subfolder, path options are made absolute before moving to the root.
    ///
    /// A store's URL is not a path and reaches the store as given (it became a file below the folder).
    @Test func aStoreURLIsNotRewrittenAsAPathFromASubfolder() throws {
        try Data().write(to: URL(fileURLWithPath: folder.path + "/Package.swift"))
        try FileManager.default.createDirectory(atPath: folder.path + "/Sources", withIntermediateDirectories: true)
        let result = try PerfkitProcess.run(
            ["history", "show", "--store", "postgresql://nobody:secret@127.0.0.1:1/none"],
            in: folder.path + "/Sources")
        #expect(result.status == ExitStatus.storeUnreachable)
        #expect(result.stderr.contains("perfkit: postgres://127.0.0.1:1/none: "), "\(result.stderr)")
        #expect(!result.stderr.contains("secret"))
        #expect(!result.stderr.contains("nobody"))
    }

    @Test func aTimingSeriesAndRevisionsOutOfOrderAreRefused() throws {
        for command in [
            ["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "a"],
            ["commit", "-q", "--allow-empty", "-m", "b"],
        ] {
            _ = try PerfkitProcess.runTool(
                ["git", "-c", "user.email=t@x", "-c", "user.name=t"] + command, in: folder.path)
        }
        let timing = try PerfkitProcess.run(
            ["bisect", "HEAD~1", "HEAD", "--series", "S/t() m [main, warm] wallClock"], in: folder.path)
        #expect(timing.status == 2)
        #expect(timing.stderr.contains("is not a count: bisecting time would need repeated, alternating runs"))
        let order = try PerfkitProcess.run(["bisect", "HEAD", "HEAD~1", "--series", "S/t()"], in: folder.path)
        #expect(order.status == 2)
        #expect(
            order.stderr
                == "perfkit: HEAD is not an ancestor of HEAD~1: bisect needs GOOD before BAD on one history\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/.perfkit/worktrees/bisect"))
    }
}
#endif
