import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// A full disk (D15): a write that fails for want of space leaves nothing half-written and says so in one line.
///
/// On a 256 KiB tmpfs filled to the last block; skipped, saying why, where a tmpfs cannot be mounted (not root).
@Suite(.serialized) struct FullDiskTests {
    let folder = TemporaryFolder("perfkit-full-disk")

    /// Mounts a small tmpfs at `folder/full`, fills it, runs `body`, unmounts; nil (printing why) when it cannot.
    func withFullDisk(_ body: (String) throws -> Void) throws {
        let full = folder.path + "/full"
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        let mounted = try ChildProcess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", full])
        guard mounted.status == 0 else {
            print("skipped: cannot mount a tmpfs here (\(String(decoding: mounted.output, as: UTF8.self)))")
            return
        }
        defer { _ = try? ChildProcess.run(["umount", full]) }
        // Filled: dd stops at the first write the file system refuses.
        _ = try ChildProcess.run(["dd", "if=/dev/zero", "of=\(full)/filler", "bs=4096"])
        try body(full)
    }

    @Test func aMergeThatCannotBeWrittenLeavesNoDumpFolder() throws {
        var a = Build.run(ids: ["A/a()"], metric: .instructions, values: [1])
        a.tests[0].measurements[0].series[0].callgrindDumps = [1]
        a.shard = "1/2"
        var b = Build.run(ids: ["B/b()"], metric: .instructions, values: [1])
        b.tests[0].measurements[0].series[0].callgrindDumps = [1]
        b.shard = "2/2"
        for (name, run) in [("a", a), ("b", b)] {
            try run.write(to: "\(folder.path)/\(name).json")
            try FileManager.default.createDirectory(
                atPath: "\(folder.path)/\(name).callgrind", withIntermediateDirectories: true)
            try Data(repeating: 0x41, count: 64 * 1024).write(
                to: URL(fileURLWithPath: "\(folder.path)/\(name).callgrind/callgrind.out.1"))
        }
        try withFullDisk { full in
            let merged = try PerfkitProcess.run(
                ["merge", "a.json", "b.json", "--output", full + "/m.json"], in: folder.path)
            #expect(merged.status != 0)
            #expect(merged.stderr.split(separator: "\n").count == 1, "\(merged.stderr)")
            #expect(merged.stderr.contains("full/m"), "\(merged.stderr)")
            #expect(merged.stderr.lowercased().contains("space"), "\(merged.stderr)")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: full)) ?? []
            #expect(left == ["filler"], "\(left)")
        }
    }

    #if History
    @Test func aRecordThatCannotBeWrittenLeavesNoStore() throws {
        let commit = try GitRepository(at: folder.path, commits: 1).commits()[0]
        try Build.run(commit: commit, ids: ["A/a()"], values: [1]).write(to: folder.path + "/r.json")
        try withFullDisk { full in
            let recorded = try PerfkitProcess.run(
                ["history", "record", "--from", "r.json", "--store", full + "/h.sqlite"], in: folder.path)
            #expect(recorded.status != 0)
            #expect(recorded.stderr.contains("h.sqlite"), "\(recorded.stderr)")
            #expect(recorded.stderr.lowercased().contains("full"), "\(recorded.stderr)")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: full)) ?? []
            #expect(left == ["filler"], "\(left)")
        }
    }
    #endif
}
