import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// F6 (issue 63): one measurement at a time in a package.
///
/// A second `perfkit run` (or abba, bisect, calibrate) is refused at once, naming the first by pid and command; help
/// and a folder without a package are not locked.
@Suite struct MeasuringLockTests {
    @Test func aSecondMeasurementIsRefusedNamingTheFirst() throws {
        let folder = TemporaryFolder("perfkit-f6")
        try Data("// swift-tools-version:6.0\n".utf8).write(to: URL(fileURLWithPath: folder.path + "/Package.swift"))
        try MeasuringLock.holding(directory: folder.path, command: ["perfkit", "run", "--counts"]) {
            for verb in [["run"], ["bisect", "HEAD~1", "HEAD", "--series", "x"], ["abba", "HEAD~1", "HEAD"]] {
                let (status, stdout, stderr) = try PerfkitProcess.run(verb, in: folder.path)
                #expect(status == 2)
                #expect(stdout.isEmpty)
                #expect(
                    stderr.hasPrefix(
                        "perfkit: another measurement is running in this package (pid \(getpid()): perfkit run "
                            + "--counts)"
                    ),
                    "\(stderr)")
                #expect(stderr.split(separator: "\n").count == 1)
            }
            #expect(try PerfkitProcess.run(["run", "--help"], in: folder.path).status == 0)
        }
        // Released: the next run gets past the lock (and fails at its own check of the manifest).
        let after = try PerfkitProcess.run(["run", "--processes", "1"], in: folder.path)
        #expect(!after.stderr.contains("another measurement"))
        #expect(throws: Never.self) {
            try MeasuringLock.holding(directory: folder.path, command: ["again"]) {}
        }
    }

    @Test func aFolderWithoutAPackageIsNotLocked() throws {
        let folder = TemporaryFolder("perfkit-f6-none")
        try MeasuringLock.holding(directory: folder.path, command: ["perfkit", "run"]) {}
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
