import Foundation
import PerfKit
import PerfKitTesting
import Testing

/// Bodies that crash, exit, hang or leave a process behind, each with a fixture of its own.
///
/// The run names the test, keeps what finished, and leaves nothing running.
@Suite struct HostileBodyTests {
    static func launch(_ filter: String, fixture: String, testLimit: Double? = nil) throws -> MeasuredProcessOutcome {
        try TestBundleLauncher(testLimit: testLimit).measure(
            MeasuredProcessRequest(
                bundle: CommandLine.arguments[0], directory: CountingRunTests.packageRoot,
                filter: "HostileBodyFixtures/(\(filter))", samples: 2,
                environment: [HostileBodyFixtures.variable: fixture, "SWIFT_BACKTRACE": "enable=no"]))
    }

    static var inParentProcess: Bool { !SimulatedCounter.isCounting && !(PerformanceMode.current.kind != .smoke) }

    @Test(arguments: [("exit", "exitInBody", "ended the process (exit 0)"), ("abort", "abortInBody", "crashed")])
    func aBodyThatEndsTheProcessIsNamedAndWhatFinishedIsKept(fixture: String, test: String, how: String) throws {
        guard Self.inParentProcess else { return }
        do {
            let outcome = try Self.launch("aGoodBody|\(test)", fixture: fixture)
            Issue.record("the run went on past \(test): \(outcome.tests.map(\.id))")
        } catch let early as MeasuredProcessEndedEarly {
            #expect(early.test.hasSuffix("HostileBodyFixtures/\(test)()"), "\(early)")
            #expect(early.description.contains(how), "\(early)")
            #expect(early.finished.map(\.id).contains { $0.hasSuffix("aGoodBody()") }, "\(early.finished.map(\.id))")
        }
    }

    @Test func aBodyThatNeverSettlesIsStoppedAfterItsLimitAndNamed() throws {
        guard Self.inParentProcess else { return }
        do {
            _ = try Self.launch("hangInBody", fixture: "hang", testLimit: 2)
            Issue.record("a hanging body was not stopped")
        } catch let early as MeasuredProcessEndedEarly {
            #expect(early.test.hasSuffix("HostileBodyFixtures/hangInBody()"))
            #expect(early.how.hasPrefix("ran past its limit of 2 s"), "\(early.how)")
        }
    }

    @Test func aProcessTheBodyLeftRunningEndsWithTheRun() throws {
        guard Self.inParentProcess else { return }
        let record = FileManager.default.temporaryDirectory.appendingPathComponent("perfkit-sleeper-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: record) }
        let outcome = try TestBundleLauncher().measure(
            MeasuredProcessRequest(
                bundle: CommandLine.arguments[0], directory: CountingRunTests.packageRoot,
                filter: "HostileBodyFixtures/leavesASleeper", samples: 2,
                environment: [HostileBodyFixtures.variable: "sleeper", HostileBodyFixtures.recordVariable: record]))
        #expect(outcome.tests.count == 1)
        let pid = try #require(Int32((try? String(contentsOfFile: record, encoding: .utf8)) ?? ""))
        // Gone, or a zombie waiting for init to reap it: either way no longer running.
        let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)).flatMap {
            $0.split(separator: ")").last?.split(separator: " ").first
        }
        #expect(state == nil || state == "Z", "the sleeper \(pid) still runs (state \(state ?? "?"))")
    }

    /// A perfkit killed with SIGKILL leaves its children; the next one stops them.
    @Test func theNextPerfkitStopsWhatAKilledOneLeft() throws {
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["60"]
        try sleeper.run()
        defer { if sleeper.isRunning { sleeper.terminate() } }
        // A perfkit that no longer runs: a finished child's pid.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let folder = OrphanRecords.folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let started = try #require(OrphanRecords.startTime(of: sleeper.processIdentifier))
        try Data("\(started)\n".utf8).write(
            to: URL(fileURLWithPath: folder + "/\(gone.processIdentifier)-\(sleeper.processIdentifier)"))
        #expect(OrphanRecords.stopOrphans() >= 1)
        sleeper.waitUntilExit()
        #expect(sleeper.terminationReason == .uncaughtSignal)
    }

    /// `abort()` in a counted body ends the counting process at once (no backtracer left running), naming the test.
    @Test func anAbortUnderValgrindEndsTheCountNamingTheTest() throws {
        try CountingRunTests.withCountingSetup { setup in
            do {
                var request = CountingRunTests.request("HostileBodyFixtures/abortInBody", setup: setup, samples: 2)
                request.environment = [HostileBodyFixtures.variable: "abort"]
                _ = try CountingRun.measure(request)
                Issue.record("an aborting body was counted")
            } catch let error as OrchestrationError {
                #expect("\(error)".contains("abortInBody"), "\(error)")
            }
        }
    }
}

/// The hostile bodies: each misbehaves only when ``variable`` names it, in a measured process of these tests.
@Suite struct HostileBodyFixtures {
    static let variable = "PERFKIT_HOSTILE_FIXTURE"
    static let recordVariable = "PERFKIT_HOSTILE_RECORD"

    static var fixture: String? {
        guard (PerformanceMode.current.kind != .smoke), let value = getenv(variable) else { return nil }
        return String(cString: value)
    }

    @Test(.performance(samples: 2)) func aGoodBody() throws {
        try measure("good") { (0..<100).reduce(0, &+) }
    }

    @Test(.performance(samples: 2)) func exitInBody() throws {
        try measure("exit") {
            if Self.fixture == "exit" { exit(0) }
            return 1
        }
    }

    @Test(.performance(samples: 2)) func abortInBody() throws {
        try measure("abort") {
            if Self.fixture == "abort" { abort() }
            return 1
        }
    }

    @Test(.performance(samples: 2)) func hangInBody() throws {
        try measure("hang") {
            while Self.fixture == "hang" { usleep(100_000) }
            return 1
        }
    }

    @Test(.performance(samples: 2)) func leavesASleeper() throws {
        try measure("sleeper") {
            guard Self.fixture == "sleeper", let record = getenv(Self.recordVariable) else { return 0 }
            let path = String(cString: record)
            guard !FileManager.default.fileExists(atPath: path) else { return 0 }
            // A process the body starts and never waits for, in the measured process's group.
            var pid: pid_t = 0
            let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("60"), nil]
            defer { arguments.forEach { free($0) } }
            guard posix_spawn(&pid, "/bin/sleep", nil, nil, arguments, environ) == 0 else { return 0 }
            try? Data("\(pid)".utf8).write(to: URL(fileURLWithPath: path))
            return Int(pid)
        }
    }
}
