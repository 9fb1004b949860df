import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// A counting run's dumps are copied beside its run file, and the run's own folder is removed.
@Suite struct KeptDumpsTests {
    let folder = TemporaryFolder("perfkit-kept-dumps")

    /// The calendar demo keeps them before its run file is written, in a folder that may not exist yet.
    @Test func dumpsGoBesideARunFileWhoseFolderIsNotThereYet() throws {
        try folder.write(["run/dumps/callgrind.out.1": "events: Ir\n", "run/shim.so": ""])
        let kept = try CountingRun.keepDumps(folder.path + "/run/dumps", beside: folder.path + "/runs/demo-latest.json")
        #expect(kept == folder.path + "/runs/demo-latest.callgrind")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/runs/demo-latest.callgrind/callgrind.out.1"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/run"))
    }

    /// A run written to standard output keeps no dumps, and its folder still goes.
    @Test func aRunOnStandardOutputKeepsNone() throws {
        try folder.write(["run/dumps/callgrind.out.1": "events: Ir\n"])
        #expect(try CountingRun.keepDumps(folder.path + "/run/dumps", beside: "-") == nil)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/run"))
    }
}
