import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Every file a command writes, companions included, is checked before any work and never lands beside a device or over
/// an input.
///
/// Merge carries every shard's state; bisect of one commit is refused at once. Each test failed before its fix.
@Suite struct OutputEdgeTests {
    let folder = TemporaryFolder("perfkit-output-edges")

    func perfkit(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try PerfkitProcess.run(arguments, in: folder.path)
    }

    @Test func reportsToADeviceWriteNoCompanionBesideIt() throws {
        try Build.run(ids: ["S/t()"], metric: .wallClock, values: [1, 2, 3]).write(to: folder.path + "/r.json")
        #expect(try perfkit(["baseline", "save", "b", "--from", "r.json", "--root", "B"]).status == 0)
        let result = try perfkit([
            "compare", "b", "--current", "r.json", "--root", "B", "--markdown", "/dev/null", "--csv", "/dev/null",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        for companion in ["/dev/null-full.md", "/dev/null-raw.csv", "/dev/null-sides-component-cost.svg"] {
            #expect(!FileManager.default.fileExists(atPath: companion), "\(companion) was written")
        }
    }

    @Test func aCompanionThatWouldOverwriteTheCurrentRunIsRefusedBeforeAnyWork() throws {
        try Build.run(ids: ["S/t()"], metric: .wallClock, values: [1, 2, 3]).write(to: folder.path + "/r.json")
        #expect(try perfkit(["baseline", "save", "b", "--from", "r.json", "--root", "B"]).status == 0)
        try FileManager.default.copyItem(atPath: folder.path + "/r.json", toPath: folder.path + "/x-raw.csv")
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/x-raw.csv"))
        let result = try perfkit(["compare", "b", "--current", "x-raw.csv", "--root", "B", "--csv", "x.csv"])
        #expect(result.status == ExitStatus.badInput)
        #expect(result.stderr.contains("x-raw.csv: is also an input"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/x-raw.csv")) == before)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/x.csv"))
    }

    @Test func mergeCarriesEveryShardsStateAndNeverEmptiesAnInputsDumps() throws {
        var clean = Build.run(ids: ["A/a()"], values: [1])
        clean.shard = "1/2"
        var dirty = Build.run(ids: ["B/b()"], values: [1])
        dirty.shard = "2/2"
        dirty.environment.dirty = true
        try clean.write(to: folder.path + "/a.json")
        try dirty.write(to: folder.path + "/b.json")
        try FileManager.default.createDirectory(atPath: folder.path + "/a.callgrind", withIntermediateDirectories: true)
        try Data("dump".utf8).write(to: URL(fileURLWithPath: folder.path + "/a.callgrind/callgrind.out.1"))
        let refused = try perfkit(["merge", "a.json", "b.json", "--output", "a"])
        #expect(refused.status == ExitStatus.badInput)
        #expect(refused.stderr.contains("is also a.json's"), "\(refused.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/a.callgrind/callgrind.out.1"))
        #expect(try perfkit(["merge", "a.json", "b.json", "--output", "m.json"]).status == 0)
        #expect(try RunFile.read(from: folder.path + "/m.json").environment.dirty)
    }

    @Test func bisectingOneCommitIsRefusedBeforeAnythingIsBuilt() throws {
        _ = try GitRepository(at: folder.path, commits: 1)
        try Data().write(to: URL(fileURLWithPath: folder.path + "/Package.swift"))
        let started = Date()
        let result = try perfkit(["bisect", "HEAD", "HEAD", "--series", "S/t()"])
        #expect(result.status == ExitStatus.badInput)
        #expect(result.stderr.contains("are one commit"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
    }
}
