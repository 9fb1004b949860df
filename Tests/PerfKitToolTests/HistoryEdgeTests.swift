#if History
import Foundation
import PerfKit
import PerfKitHistory
import PerfKitTestSupport
import Testing

/// The history as a careless and a hostile user meet it, through the `perfkit` binary.
///
/// What it is given adds up, nothing is recorded nowhere with success, no store is destroyed, no secret is printed,
/// nothing hangs. Each test failed before its fix.
@Suite struct HistoryEdgeTests {
    let folder = TemporaryFolder("perfkit-history-edges")

    func perfkit(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try PerfkitProcess.run(arguments, in: folder.path, environment: environment)
    }

    @Test func twoShardsOfOneCommitAddUpAndARerecordReplacesOnlyItsSeries() throws {
        let commit = try GitRepository(at: folder.path, commits: 1).commits()[0]
        try Build.run(commit: commit, ids: ["A/a()"], values: [1]).write(to: folder.path + "/shard1.json")
        try Build.run(commit: commit, ids: ["B/b()"], values: [2]).write(to: folder.path + "/shard2.json")
        try Build.run(commit: commit, ids: ["A/a()"], values: [3]).write(to: folder.path + "/again1.json")
        for file in ["shard1.json", "shard2.json", "again1.json"] {
            #expect(try perfkit(["history", "record", "--from", file, "--store", "h.sqlite"]).status == 0)
        }
        let entries = try HistoryStore(folder.path + "/h.sqlite", create: false).entries()
        #expect(entries.map(\.series.test).sorted() == ["A/a()", "B/b()"])
        #expect(entries.first { $0.series.test == "A/a()" }?.value == 3)
        #expect(entries.first { $0.series.test == "B/b()" }?.value == 2)
    }

    @Test func showNamesTheCommitWhereAFunctionBecameQuadraticAndFailsOnIt() throws {
        let commits = try GitRepository(at: folder.path, commits: 2).commits()
        let costs: [(Double) -> Double] = [{ 300 + 40 * $0 }, { 300 + 40 * $0 + $0 * $0 / 2 }]
        for (commit, cost) in zip(commits, costs) {
            try Build.sizedRun(
                commit: commit, function: "S/f(n:)", sizes: [100, 1000, 10_000, 100_000], cost: cost
            )
            .write(to: folder.path + "/r.json")
            #expect(try perfkit(["history", "record", "--from", "r.json", "--store", "h.sqlite"]).status == 0)
        }
        let shown = try perfkit(["history", "show", "--store", "h.sqlite", "--fail-on", "change"])
        #expect(shown.status == ExitStatus.regression)
        let growth = shown.stdout.split(separator: "\n").filter { $0.contains("growth changed") }
        #expect(growth.count == 1, "\(shown.stdout)")
        #expect(growth.first?.contains("commit 2 \(commits[1].prefix(12))") == true)
        #expect(growth.first?.contains("grew as n, now n²") == true)
        #expect(shown.stderr.contains("1 function grew faster"), "\(shown.stderr)")
    }

    @Test func failOnChangeJudgesTheNewestCommitNotAnOldChangePoint() throws {
        let commits = try GitRepository(at: folder.path, commits: 4).commits()
        // 1, 1, 2, 2: the change point is commit 3; commit 4 (the newest) changed nothing.
        for (commit, value) in zip(commits, [1.0, 1, 2, 2]) {
            try Build.run(commit: commit, ids: ["S/t()"], values: [value]).write(to: folder.path + "/r.json")
            #expect(try perfkit(["history", "record", "--from", "r.json", "--store", "h.sqlite"]).status == 0)
        }
        let old = try perfkit(["history", "show", "--store", "h.sqlite", "--fail-on", "change"])
        #expect(old.status == ExitStatus.fine, "\(old.stderr)")
        try GitRepository(at: folder.path, commits: 0).git(["commit", "-q", "--allow-empty", "-m", "5"])
        let newest = try GitRepository(at: folder.path, commits: 0).commits().last!
        try Build.run(commit: newest, ids: ["S/t()"], values: [3]).write(to: folder.path + "/r.json")
        #expect(try perfkit(["history", "record", "--from", "r.json", "--store", "h.sqlite"]).status == 0)
        let changed = try perfkit(["history", "show", "--store", "h.sqlite", "--fail-on", "change"])
        #expect(changed.status == ExitStatus.regression)
        #expect(changed.stderr.contains("1 series changed at the newest recorded commit"), "\(changed.stderr)")
        #expect(try perfkit(["history", "show", "--store", "h.sqlite", "--fail-on", "regression"]).status == 2)
    }

    @Test func aShallowCloneIsRefusedWithHowToDeepenIt() throws {
        let origin = try GitRepository(at: folder.path + "/origin", commits: 3)
        _ = try PerfkitProcess.runTool(
            ["git", "clone", "-q", "--depth", "1", "file://" + origin.path, folder.path + "/shallow"],
            in: folder.path)
        let head = try origin.commits().last!
        try Build.run(commit: head, ids: ["S/t()"], values: [1]).write(to: folder.path + "/shallow/r.json")
        let result = try PerfkitProcess.run(
            ["history", "record", "--from", "r.json", "--store", "h.sqlite"], in: folder.path + "/shallow")
        #expect(result.status == ExitStatus.badInput)
        #expect(result.stderr.contains("shallow clone") && result.stderr.contains("git fetch --unshallow"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/shallow/h.sqlite"))
    }

    @Test(arguments: [
        ("", "empty"), (" ", "empty"), (":memory:", "in-memory"), ("file:h.sqlite?mode=memory", "in-memory"),
        ("/dev/null", "not a regular file"), ("/tmp", "is a folder"),
        ("postgress://u:pw@127.0.0.1:1/db", "not a store"),
    ])
    func aStoreThatWouldKeepNothingIsRefused(store: String, says: String) throws {
        let commit = try GitRepository(at: folder.path, commits: 1).commits()[0]
        try Build.run(commit: commit, ids: ["S/t()"], values: [1]).write(to: folder.path + "/r.json")
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let result = try perfkit(["history", "record", "--from", "r.json", "--store", store])
        #expect(result.status == ExitStatus.badInput, "\(result.stdout)")
        #expect(result.stderr.contains(says), "\(result.stderr)")
        #expect(!result.stdout.contains("recorded"))
        #expect(!result.stderr.contains("pw"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
    }

    @Test func anEmptyHistorySecretInCIRecordsNowhereAndSaysSo() throws {
        let commit = try GitRepository(at: folder.path, commits: 1).commits()[0]
        try Build.run(commit: commit, ids: ["S/t()"], values: [1]).write(to: folder.path + "/r.json")
        let result = try perfkit(["history", "record", "--from", "r.json"], environment: ["PERFKIT_HISTORY": ""])
        #expect(result.status == ExitStatus.badInput)
        #expect(result.stderr.contains("empty PERFKIT_HISTORY"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test(arguments: [
        "postgres://u:s3c@ret@127.0.0.1:1/db", "postgresql://u@127.0.0.1:1/db?password=s3c-ret&sslmode=disable",
        "POSTGRES://u:s3c-ret@127.0.0.1:1/db", "host=127.0.0.1 port=1 dbname=db user=u password=s3c-ret",
        "host=127.0.0.1 port=1 password='s3c ret'", "postgres://u:s3c%zzret@127.0.0.1:1/db",
        "postgres://u:s3c-ret@[::1/db", "postgres://s3c-ret-token@127.0.0.1:1/db",
    ])
    func noSpellingOfAPasswordIsEverPrintedOrBecomesAFile(store: String) throws {
        let commit = try GitRepository(at: folder.path, commits: 1).commits()[0]
        try Build.run(commit: commit, ids: ["S/t()"], values: [1]).write(to: folder.path + "/r.json")
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        for command in [["history", "record", "--from", "r.json"], ["history", "show"]] {
            let result = try perfkit(command + ["--store", store])
            #expect([ExitStatus.badInput, ExitStatus.storeUnreachable].contains(result.status), "\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("s3c"), "\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("ret@"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
    }

    @Test func aServerThatAcceptsAndNeverAnswersTimesOut() throws {
        // A listening socket nobody accepts on: the kernel completes the handshake, nothing answers.
        let listener = try SilentListener()
        let started = Date()
        let result = try perfkit(["history", "show", "--store", "postgres://u@127.0.0.1:\(listener.port)/db"])
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == ExitStatus.storeUnreachable, "\(result.stderr)")
        #expect(result.stderr.contains("timeout") || result.stderr.contains("timed out"), "\(result.stderr)")
        #expect(seconds < 60, "gave up after \(seconds) s")
        _ = listener
    }

    @Test func showNeverWritesItsReportOverTheStore() throws {
        let commit = try GitRepository(at: folder.path, commits: 1).commits()[0]
        try Build.run(commit: commit, ids: ["S/t()"], values: [1]).write(to: folder.path + "/r.json")
        #expect(try perfkit(["history", "record", "--from", "r.json", "--store", "h.sqlite"]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/h.sqlite"))
        let result = try perfkit(["history", "show", "--store", "h.sqlite", "--markdown", "h.sqlite"])
        #expect(result.status == ExitStatus.badInput)
        #expect(result.stderr.contains("is also an input"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/h.sqlite")) == bytes)
        #expect(try perfkit(["history", "show", "--store", "h.sqlite"]).status == 0)
    }

    @Test func readingCreatesNoFileBesideTheStore() throws {
        let commit = try GitRepository(at: folder.path, commits: 1).commits()[0]
        try Build.run(commit: commit, ids: ["S/t()"], values: [1]).write(to: folder.path + "/r.json")
        try FileManager.default.createDirectory(atPath: folder.path + "/shared", withIntermediateDirectories: true)
        #expect(try perfkit(["history", "record", "--from", "r.json", "--store", "shared/h.sqlite"]).status == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/shared").sorted()
        #expect(try perfkit(["history", "show", "--store", "shared/h.sqlite"]).status == 0)
        // No -wal, -shm or -journal left by a reader (another user's would lock the owner out).
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/shared").sorted() == before)
        #expect(!before.contains { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") })
    }

    /// Another user (`nobody`, through setpriv) shows a store in a folder it cannot write, and leaves nothing beside
    /// it; the owner records again afterwards.
    ///
    /// Needs root to switch users.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func anotherUserShowsAStoreInAFolderItCannotWrite() throws {
        let commit = try GitRepository(at: folder.path, commits: 1).commits()[0]
        try Build.run(commit: commit, ids: ["S/t()"], values: [1]).write(to: folder.path + "/r.json")
        try FileManager.default.createDirectory(atPath: folder.path + "/shared", withIntermediateDirectories: true)
        #expect(try perfkit(["history", "record", "--from", "r.json", "--store", "shared/h.sqlite"]).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path + "/shared")
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o644], ofItemAtPath: folder.path + "/shared/h.sqlite")
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/shared").sorted()
        let shown = try PerfkitProcess.runTool(
            [
                "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", PerfkitProcess.executable, "history",
                "show", "--store", folder.path + "/shared/h.sqlite",
            ], in: "/")
        #expect(shown.contains("1 series over 1 commits"), "\(shown)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/shared").sorted() == before)
        #expect(try perfkit(["history", "record", "--from", "r.json", "--store", "shared/h.sqlite"]).status == 0)
    }

    @Test func aNegativeSchemaVersionAndADamagedStoreAreRefusedAndLeftAsTheyWere() throws {
        let commit = try GitRepository(at: folder.path, commits: 1).commits()[0]
        try Build.run(commit: commit, ids: (0..<300).map { "S\($0)/t()" }, values: [1]).write(
            to: folder.path + "/r.json")
        for store in ["negative.sqlite", "damaged.sqlite"] {
            #expect(try perfkit(["history", "record", "--from", "r.json", "--store", store]).status == 0)
        }
        try HistoryStore(folder.path + "/negative.sqlite", create: true).setSchemaVersionForTesting(-3)
        let negative = try perfkit(["history", "record", "--from", "r.json", "--store", "negative.sqlite"])
        #expect(negative.status == ExitStatus.badInput, "\(negative.stderr)")
        #expect(negative.stderr.contains("schema version -3 is not one perfkit writes"))
        // 40 bytes changed in the middle of a table's pages.
        let path = folder.path + "/damaged.sqlite"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let middle = bytes.count / 2
        for k in 0..<40 { bytes[middle + k] ^= 0x5A }
        try bytes.write(to: URL(fileURLWithPath: path))
        let damaged = try perfkit(["history", "record", "--from", "r.json", "--store", "damaged.sqlite"])
        #expect(damaged.status == ExitStatus.badInput, "\(damaged.stderr)")
        #expect(damaged.stderr.contains("damaged") || damaged.stderr.contains("malformed"), "\(damaged.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aRevisionNeverReachesGitAsAnOption() throws {
        _ = try GitRepository(at: folder.path, commits: 1)
        try Build.run(commit: "c", ids: ["S/t()"], values: [1]).write(to: folder.path + "/r.json")
        let result = try perfkit([
            "history", "record", "--from", "r.json", "--commit", "--output=x", "--store", "h.sqlite",
        ])
        #expect(result.status == ExitStatus.badInput)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!left.contains { $0.hasPrefix("x") }, "\(left)")
        #expect(!left.contains("h.sqlite"))
    }
}

/// A TCP socket on loopback that listens and never accepts.
final class SilentListener: Sendable {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        struct Failed: Error {}
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else { throw Failed() }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw Failed() }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }
}
#endif
