import Foundation
import PerfKit
import PerfKitCore
import PerfKitTestSupport
import Testing

/// The fault campaign's residues (issue 63) that live in the library.
@Suite struct FaultResidueTests {
    /// F4: a refused name is shown escaped and cut: one line, however long or hostile.
    @Test func aRefusedNameIsEscapedAndCut() {
        let long = String(repeating: "n", count: 10_000)
        let message = FileError(long, "not a baseline name").description
        #expect(message.count < 400)
        #expect(message.contains("(10000 characters)"))
        let split = FileError("a\nb\u{1B}[31m", "not a baseline name").description
        #expect(!split.contains("\n"))
        #expect(split.hasPrefix("a\\nb\\u{1B}[31m: "))
        #expect(FileError("Baselines/main/x.json", "no such file").description == "Baselines/main/x.json: no such file")
    }

    /// F9: values whose difference overflows are refused with a reason, never compared as NaN.
    @Test func valuesWhoseDifferenceOverflowsAreRefused() {
        #expect(throws: StatisticsError.overflow) {
            try SampleComparison([-1e308, -1e308, -1e308], [1e308, 1e308, 1e308])
        }
    }

    /// F3: a manifest that lists a suite whose file is gone is named as the file at fault.
    @Test func aManifestListingAMissingSuiteIsNamed() throws {
        let folder = TemporaryFolder("perfkit-f3")
        let store = BaselineStore(root: folder.path)
        try store.save(Build.run(build: "release", values: [1, 2, 3]), as: "main")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/main")
        let suite = try #require(files.first { $0 != "manifest.json" })
        try FileManager.default.removeItem(atPath: folder.path + "/main/" + suite)
        do {
            _ = try store.load("main")
            Issue.record("loaded a baseline whose suite file is missing")
        } catch {
            #expect(error.path == folder.path + "/main/manifest.json")
            #expect(error.problem.contains(suite))
        }
    }

    /// F10: a counting run's folder left by a killed run (its owner pid gone) is swept at the next start, in `/tmp` and
    /// in `TMPDIR`.
    ///
    /// A live run's folder and one without an owner file are left.
    @Test func foldersOfKilledCountingRunsAreSwept() throws {
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let elsewhere = TemporaryFolder("perfkit-f10")
        func folder(in parent: String, owner: Int32?) throws -> String {
            let path = parent + "/" + (parent == "/tmp" ? "perfkit-counts-test-" : "pk-") + UUID().uuidString
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            if let owner {
                try Data("\(owner)\n".utf8).write(to: URL(fileURLWithPath: path + "/" + CountingFolder.ownerFile))
            }
            return path
        }
        let (killed, live, old) = (
            try folder(in: "/tmp", owner: dead.processIdentifier), try folder(in: "/tmp", owner: getpid()),
            try folder(in: "/tmp", owner: nil)
        )
        let killedElsewhere = try folder(in: elsewhere.path, owner: dead.processIdentifier)
        defer { for path in [killed, live, old] { try? FileManager.default.removeItem(atPath: path) } }
        CountingFolder.sweepDead(environment: ["TMPDIR": elsewhere.path + "/"])
        #expect(!FileManager.default.fileExists(atPath: killed))
        #expect(!FileManager.default.fileExists(atPath: killedElsewhere))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: old))
    }

    /// F10: a counting folder goes in `TMPDIR` when a unique name fits the fixed path length, in `/tmp` with a note
    /// when it does not.
    ///
    /// Its path has one length either way.
    @Test func aCountingFolderHonoursTMPDIRAtOnePathLength() throws {
        let short = "/tmp/k" + UUID().uuidString.prefix(6)
        try FileManager.default.createDirectory(atPath: short, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: short) }
        let (path, note) = CountingFolder.newPath(environment: ["TMPDIR": short])
        #expect(path.hasPrefix(short + "/pk-"))
        #expect(path.count == CountingFolder.pathLength)
        #expect(note == nil)
        let (plain, none) = CountingFolder.newPath(environment: [:])
        #expect(plain.hasPrefix("/tmp/perfkit-counts-") && plain.count == CountingFolder.pathLength && none == nil)
        let deep = short + "/" + String(repeating: "d", count: 40)
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        let (fallback, why) = CountingFolder.newPath(environment: ["TMPDIR": deep])
        #expect(fallback.hasPrefix("/tmp/perfkit-counts-") && fallback.count == CountingFolder.pathLength)
        #expect(why?.contains("too long") == true)
        let (missing, said) = CountingFolder.newPath(environment: ["TMPDIR": short + "/none"])
        #expect(missing.hasPrefix("/tmp/perfkit-counts-") && said?.contains("is not a folder") == true)
    }

    /// F1: an output whose folder takes no new file is refused before anything is built or measured;
    /// an output in a folder still to be made is fine.
    @Test func anOutputWhoseFolderTakesNoFileIsRefusedAtOnce() throws {
        #expect(throws: FileError.self) { try OutputPath.validate("/proc/version") }
        let folder = TemporaryFolder("perfkit-f1")
        try OutputPath.validate(folder.path + "/new/sub/run.json")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// F2: a device is refused before a byte is read; a pipe is read as a stream, up to the
    /// reader's limit and no further.
    @Test func aDeviceIsRefusedAtOnceAndAStreamStopsAtTheLimit() throws {
        do {
            _ = try InputFile.read("/dev/zero", limit: InputFile.storedFileLimit)
            Issue.record("read /dev/zero")
        } catch {
            #expect(error.description == "/dev/zero: is a device, not a file or a pipe")
        }
        #expect(throws: FileError.self) { try NumberFile.read("/dev/urandom") }
        let folder = TemporaryFolder("perfkit-f2")
        let fifo = folder.path + "/stream"
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            // One block more than the limit, then the end: the reader takes every block before it
            // refuses, so the writer never writes into a closed pipe.
            let block = [UInt8](repeating: 0x31, count: 1 << 16)
            for _ in 0..<17 { _ = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
            close(fd)
        }
        writer.start()
        do {
            _ = try InputFile.read(fifo, limit: 1 << 20)
            Issue.record("read an endless stream whole")
        } catch {
            #expect(error.problem.hasPrefix("more than 1048576 bytes"))
        }
    }

    /// A child past its time limit is killed with its whole process group.
    ///
    /// A child past its time limit is killed with its whole process group (a deadlocked measured or
    /// counting process ends the run with an error naming the test, never a hang: issue 59).
    @Test func aChildPastItsTimeLimitIsKilledWithItsGroup() throws {
        let started = Date()
        let finished = try ChildProcess.runKeepingErrors(
            ["sh", "-c", "sleep 30 & sleep 30"], output: .discard, timeLimit: 0.5)
        #expect(finished.timedOut)
        #expect(finished.signalled)
        #expect(Date().timeIntervalSince(started) < 10)
        let quick = try ChildProcess.runKeepingErrors(["true"], output: .discard, timeLimit: 30)
        #expect(!quick.timedOut && quick.status == 0)
    }

    /// F5: a lock file that is a link, dangling or not, is refused and nothing is made where it points.
    @Test func aLockThatIsALinkIsNotFollowed() throws {
        let folder = TemporaryFolder("perfkit-f5")
        let store = BaselineStore(root: folder.path + "/Baselines")
        try FileManager.default.createDirectory(atPath: folder.path + "/Baselines", withIntermediateDirectories: true)
        let outside = folder.path + "/outside-created-by-lock"
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/Baselines/.lk2.lock", withDestinationPath: outside)
        #expect(throws: FileError.self) { try store.save(Build.run(build: "release", values: [1, 2, 3]), as: "lk2") }
        #expect(!FileManager.default.fileExists(atPath: outside))
    }
}

/// Reference counting, compared: counted series judged on the median per call.
@Suite struct ReferenceCountingComparisonTests {
    func verdict(_ baseline: [Double], _ current: [Double]) throws -> Verdict? {
        let comparison = try Comparison(
            baseline: Build.run(ids: ["S/t()"], metric: .retains, values: baseline).tests,
            current: Build.run(ids: ["S/t()"], metric: .retains, values: current).tests)
        return comparison.rows.first { $0.metric == .retains }?.verdict
    }

    /// A process's first call may retain more than the next (first uses).
    ///
    /// The same samples on both sides are unchanged, one more retain a call is a regression, one fewer an improvement.
    @Test func retainsAreJudgedOnTheMedianPerCallExactly() throws {
        #expect(try verdict([12, 10], [12, 10]) == .unchanged)
        #expect(try verdict([12, 10, 10], [12, 11, 11]) == .regressed)
        #expect(try verdict([12, 10, 10], [12, 9, 9]) == .improved)
        #expect(try verdict([12, 10, 10], [11, 10, 10]) == .withinNoise)
    }
}
