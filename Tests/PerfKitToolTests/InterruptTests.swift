import Foundation
import PerfKitTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C (issue 29, defect 4): SIGINT to `perfkit run` during the package's release build and during measuring.
///
/// Before the fix, `swift-build`, `swiftc` and `swift-frontend` kept running with parent 1 and the measured bundle ran
/// on, and each interrupted measurement left a `perfkit-measured-<UUID>` folder. Here a tiny package of its own (no
/// PerfKit dependency, one test that sleeps) is run by the real binary; after the interrupt no process may have its
/// working directory in the package and its temporary folder may hold no `perfkit-` folder.
@Suite struct InterruptTests {
    let package = TemporaryFolder("perfkit-interrupt")

    func writePackage() throws {
        let files = [
            "Package.swift": """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "Tiny", targets: [.target(name: "Tiny"), .testTarget(name: "TinyTests", dependencies: ["Tiny"])])
            """,
            "Sources/Tiny/Tiny.swift": "public func tiny() -> Int { 1 }\n",
            "Tests/TinyTests/SlowBenchmarks.swift": """
            import Testing
            import Tiny

            @Suite struct SlowBenchmarks {
                @Test func slow() async throws {
                    #expect(tiny() == 1)
                    try await Task.sleep(for: .seconds(600))
                }
            }
            """,
        ]
        try package.write(files)
        try FileManager.default.createDirectory(atPath: package.path + "/tmp", withIntermediateDirectories: true)
    }

    /// `perfkit run --processes 1` in the package, its temporary folder inside it.
    func startRun() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PerfkitProcess.executable)
        process.arguments = ["run", "--processes", "1"]
        process.currentDirectoryURL = URL(fileURLWithPath: package.path)
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": package.path + "/tmp"]) {
            _, new in new
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Command lines of the processes whose working directory is in the package.
    func processesInPackage() -> [String] {
        let ids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter {
            $0.allSatisfy(\.isNumber)
        }
        return ids.compactMap { id in
            guard let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(id)/cwd"),
                cwd == package.path || cwd.hasPrefix(package.path + "/"),
                let line = FileManager.default.contents(atPath: "/proc/\(id)/cmdline")
            else { return nil }
            return String(decoding: line.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
        }
    }

    func perfkitFolders() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: package.path + "/tmp")) ?? []).filter {
            $0.hasPrefix("perfkit-")
        }
    }

    /// Waits (up to 10 minutes: a cold release build on a loaded CI machine) until `condition` holds.
    func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<3_000 {
            if condition() { return true }
            usleep(200_000)
        }
        return false
    }

    /// Sends SIGINT and waits; then nothing the run started may be left.
    func interruptAndCheck(_ run: Process, during stage: String) {
        run.interrupt()
        run.waitUntilExit()
        #expect(run.terminationStatus == 130, "\(stage)")
        var left: [String] = []
        _ = waitUntil {  // children get the signal's grace period, then are gone
            left = processesInPackage()
            return left.isEmpty
        }
        #expect(left.isEmpty, "left running after Ctrl-C during \(stage): \(left)")
        #expect(perfkitFolders().isEmpty, "left after Ctrl-C during \(stage): \(perfkitFolders())")
    }

    @Test(.timeLimit(.minutes(20))) func ctrlCDuringTheBuildAndDuringMeasuringLeavesNothingBehind() throws {
        try writePackage()
        let building = try startRun()
        let sawBuild = waitUntil { processesInPackage().contains { $0.contains("swift-build") } }
        try #require(sawBuild, "perfkit run never started swift-build")
        interruptAndCheck(building, during: "the build")

        let measuring = try startRun()
        let sawBundle = waitUntil {
            processesInPackage().contains { $0.contains("TinyPackageTests.xctest") } && !perfkitFolders().isEmpty
        }
        try #require(sawBundle, "perfkit run never started the measured bundle")
        interruptAndCheck(measuring, during: "measuring")
    }
}
