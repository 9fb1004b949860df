import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The defects of the fault campaign (issue 29), one test each: every one failed on the code before the fix.
///
/// Outputs that are not regular files, bad output paths, journal writers, unbounded inputs, names, edge values and
/// messages.
@Suite struct ReliabilityTests {
    let folder = TemporaryFolder("perfkit-reliability")

    func writeRun(_ name: String = "r.json") throws -> String {
        let path = folder.path + "/" + name
        try Build.run(build: "release", values: [1, 2, 3]).write(to: path)
        return path
    }

    @Test func aSymlinkedOutputWritesThroughToItsTarget() throws {
        _ = try writeRun()
        let target = folder.path + "/target.json"
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/link.json", withDestinationPath: "target.json")
        let result = try PerfkitProcess.run(["export", "r.json", "--output", "link.json"], in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path + "/link.json") == "target.json")
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("\"value\""))
    }

    @Test func aDeviceOutputIsWrittenInPlaceAndItsWriteErrorReported() throws {
        _ = try writeRun()
        // A copy of /dev/full made with mknod (root only): the old code renamed a regular file over it.
        let device = folder.path + "/full"
        guard mknod(device, S_IFCHR | 0o666, dev_t((1 << 8) | 7)) == 0 else { return }  // not root: nothing to check
        let result = try PerfkitProcess.run(["export", "r.json", "--output", "full"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("full: write failed: No space left on device"))
        var info = stat()
        #expect(lstat(device, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func aFIFOOutputIsStreamedNotReplaced() throws {
        _ = try writeRun()
        let fifo = folder.path + "/pipe"
        #expect(mkfifo(fifo, 0o644) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let out = Pipe()
        reader.standardOutput = out
        try reader.run()
        let result = try PerfkitProcess.run(["export", "r.json", "--output", "pipe"], in: folder.path)
        let read = out.fileHandleForReading.readDataToEndOfFile()
        reader.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: read, as: UTF8.self).contains("\"value\""))
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func standardOutputPathsResolveToTheDescriptorNeverAFile() throws {
        for path in ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
            #expect(try OutputPath.resolve(path) == .descriptor(1), "\(path)")
        }
        #expect(try OutputPath.resolve("/dev/stderr") == .descriptor(2))
        #expect(try OutputPath.resolve("/dev/null") == .special("/dev/null"))
        #expect(throws: FileError.self) { try OutputPath.resolve(folder.path) }
    }

    @Test func anOutputThatIsAnInputIsRefused() throws {
        let input = try writeRun("rr.json")
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let result = try PerfkitProcess.run(["export", "rr.json", "--output", "rr.json"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("rr.json: is also an input of this command"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }
    @Test func baselineNamesAreMatchedAsWholeStrings() {
        for name in ["abc\n", "abc\nx", "\nabc", ".abc", ""] {
            #expect(throws: FileError.self, "\(name.debugDescription)") { try BaselineStore.validate(name: name) }
        }
        #expect(throws: Never.self) { try BaselineStore.validate(name: "feature-1.2_x") }
    }

    /// A save racing a delete of the same name.
    ///
    /// The save read the previous baseline apart from its own lock and failed 1 time in 30-40 with "no baseline named
    /// …". It must succeed every time (the delete may legitimately find nothing to delete).
    @Test func aBaselineSaveRacingADeleteOfTheSameNameAlwaysSucceeds() throws {
        _ = try writeRun()
        for trial in 0..<40 {
            _ = try PerfkitProcess.run(["baseline", "save", "race", "--from", "r.json"], in: folder.path)
            let errors = Pipe()
            let save = try PerfkitProcess.start(
                ["baseline", "save", "race", "--from", "r.json"], in: folder.path, errors: errors)
            let delete = try PerfkitProcess.start(["baseline", "delete", "race"], in: folder.path)
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            save.waitUntilExit()
            delete.waitUntilExit()
            #expect(save.terminationStatus == 0, "trial \(trial): \(message)")
            #expect([0, 2].contains(delete.terminationStatus), "trial \(trial)")
        }
    }

    @Test func extremeValuesHaveFiniteMediansAndJSON() throws {
        let summary = try Summary([1e308, -1e308])
        #expect(summary.median == 0)
        #expect(Quantile.percentile(sorted: [-1e308, 1e308], 75) == 5e307)
        #expect(HodgesLehmann.estimate([1e308, 1e308, -1e308]).isFinite)
        let path = folder.path + "/edge.txt"
        try Data("1e308\n-1e308\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try PerfkitProcess.run(["stats", "edge.txt", "--format", "json"], in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("inf"))
    }

    @Test func inputsThatAreNotFilesSayWhatTheyAre() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/dir", withIntermediateDirectories: true)
        #expect(throws: FileError(folder.path + "/dir", "is a folder, not a file")) {
            try NumberFile.read(folder.path + "/dir")
        }
        #expect(throws: FileError(folder.path + "/none", "no such file")) { try NumberFile.read(folder.path + "/none") }
        // A device is refused before a byte is read (a pipe stops at the limit: FaultResidueTests).
        #expect(throws: FileError("/dev/zero", "is a device, not a file or a pipe")) {
            _ = try InputFile.read("/dev/zero", limit: 1 << 20)
        }
        let deep = folder.path + "/deep.json"
        try Data((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8).write(
            to: URL(fileURLWithPath: deep))
        #expect {
            _ = try RunFile.read(from: deep)
        } throws: { error in
            (error as? FileError)?.problem.hasPrefix("JSON nested 10000 levels deep") == true
        }
    }
}
