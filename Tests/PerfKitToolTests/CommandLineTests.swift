import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

@Suite struct CommandLineTests {
    let folder = TemporaryFolder("perfkit-cli")
    var directory: String { folder.path }

    struct BadInvocation: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    @Test(arguments: [
        BadInvocation(arguments: ["stats", "missing.txt"], message: "missing.txt: no such file"),
        BadInvocation(arguments: ["stats", "numbers.txt", "--bogus"], message: "unknown option --bogus"),
        BadInvocation(arguments: ["compare", "nosuch"], message: "no baseline named 'nosuch'"),
        BadInvocation(arguments: ["frobnicate"], message: "unknown verb 'frobnicate'"),
        BadInvocation(arguments: ["stats", "bad.txt"], message: "bad.txt: line 3: 'x' is not a number"),
    ])
    func badInputIsAOneLineErrorWithExitTwo(_ c: BadInvocation) throws {
        try "1\n2\n".write(toFile: directory + "/numbers.txt", atomically: true, encoding: .utf8)
        try "1\n2\nx\n".write(toFile: directory + "/bad.txt", atomically: true, encoding: .utf8)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let result = try PerfkitProcess.run(c.arguments, in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains(c.message))
        // nothing written, not even a lock file
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == before)
    }

    @Test func statsJSONHasTheStableFields() throws {
        try "# a comment\n1\n2\n\n3\n4\n".write(toFile: directory + "/a.txt", atomically: true, encoding: .utf8)
        try "2\n3\n4\n5\n6\n".write(toFile: directory + "/b.txt", atomically: true, encoding: .utf8)
        let result = try PerfkitProcess.run(
            ["stats", "a.txt", "b.txt", "--format", "json", "--percentiles", "50,99.9"], in: directory)
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let files = try #require(json["files"] as? [[String: Any]])
        #expect(files.count == 2)
        for key in [
            "path", "count", "min", "max", "mean", "stddev", "median", "p90", "p95", "p99", "mad", "percentiles",
        ] {
            #expect(files[0][key] != nil, "missing \(key)")
        }
        #expect(files[0]["count"] as? Int == 4)
        let comparison = try #require(json["comparison"] as? [String: Any])
        for key in ["statistic", "estimate", "mannWhitneyP", "verdict"] {
            #expect(comparison[key] != nil, "missing \(key)")
        }
        #expect(comparison["statistic"] as? String == "ratioOfMedians")
        let estimate = try #require(comparison["estimate"] as? [String: Any])
        #expect(estimate["value"] as? Double == 1.6)  // median 4 over median 2.5
    }

    @Test func aMistypedBaselineNameLeavesTheStoreAsItWas() throws {
        try BaselineStore(root: directory + "/Baselines").save(
            Build.run(build: "release", values: [1, 2, 3]), as: "main")
        let before = try FileManager.default.contentsOfDirectory(atPath: directory + "/Baselines").sorted()
        for arguments in [["compare", "mian"], ["baseline", "show", "mian"], ["baseline", "delete", "mian"]] {
            let result = try PerfkitProcess.run(arguments, in: directory)
            #expect(result.status == 2)
            #expect(result.stderr.contains("no baseline named 'mian' (known: main)"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/Baselines").sorted() == before)
    }

    @Test func mismatchedUnitsNameTheFileAndLeaveItAsItWas() throws {
        try BaselineStore(root: directory + "/Baselines").save(
            Build.run(build: "release", values: [1, 2, 3]), as: "main")
        var run = Build.run(build: "release", values: [1, 2, 3])
        run.tests[0].measurements[0].series[0].metric = Metric("wallClock", unit: .bytes)
        try run.write(to: directory + "/run.json")
        let stored = try String(contentsOfFile: directory + "/run.json", encoding: .utf8)
        let result = try PerfkitProcess.run(
            ["compare", "main", "--current", "run.json", "--markdown", "report.md"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "perfkit: run.json: mismatched units for S/t() m [main, warm] wallClock: baseline ns, current B "
                + "(against Baselines/main)\n"
        )
        #expect(try String(contentsOfFile: directory + "/run.json", encoding: .utf8) == stored)
        #expect(!FileManager.default.fileExists(atPath: directory + "/report.md"))
    }

    @Test func aReportNamesTheCommandSoItCanBePastedBack() throws {
        try BaselineStore(root: directory + "/Baselines").save(
            Build.run(build: "release", values: [1, 2, 3]), as: "main")
        try Build.run(build: "release", values: [1, 2, 3]).write(to: directory + "/run.json")
        let result = try PerfkitProcess.run(
            ["compare", "main", "--current", "run.json", "--markdown", "my report.md"], in: directory)
        #expect(result.status == 0)
        let report = try String(contentsOfFile: directory + "/my report.md", encoding: .utf8)
        #expect(report.contains("Produced by `perfkit compare main --current run.json --markdown 'my report.md'`."))
    }

    @Test func corruptBaselineIsRefusedAndLeftAsItWas() throws {
        let folder = directory + "/Baselines/main"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let corrupt = "{\"schemaVersion\": 1, \"name\": \"main\", \"suites\": [tru"
        try corrupt.write(toFile: folder + "/manifest.json", atomically: true, encoding: .utf8)
        let result = try PerfkitProcess.run(["compare", "main"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Baselines/main/manifest.json"))
        #expect(try String(contentsOfFile: folder + "/manifest.json", encoding: .utf8) == corrupt)
    }

    @Test func wrongSchemaVersionNamesTheFile() throws {
        try "{\"schemaVersion\": 99}".write(toFile: directory + "/run.json", atomically: true, encoding: .utf8)
        let result = try PerfkitProcess.run(["baseline", "save", "main", "--from", "run.json"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("run.json: schema version 99 is not supported"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/Baselines/main"))
    }
}

@Suite struct WorktreeTests {
    /// Both revisions are checked before anything is created: a bad B must not leave A's worktree behind.
    @Test(arguments: [["no-such-revision", "HEAD"], ["HEAD", "no-such-revision"]])
    func aBadRevisionAsAOrBIsAClearErrorAndLeavesNoWorktreeOrBranch(revisions: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "perfkit-git-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for command in [
            ["init", "-q"],
            ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "init"],
        ] {
            try #require(ChildProcess.output(["git"] + command, in: directory) != nil)
        }
        let result = try PerfkitProcess.run(["abba"] + revisions, in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown revision 'no-such-revision'"))
        let worktrees = try #require(ChildProcess.output(["git", "worktree", "list"], in: directory)).split(
            separator: "\n")
        #expect(worktrees.count == 1)
        let branches = try #require(ChildProcess.output(["git", "branch", "--list", "--all"], in: directory)).split(
            separator: "\n")
        #expect(branches.count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory + "/.perfkit/worktrees"))
    }
}
