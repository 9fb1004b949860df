import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// F11: the tools a counting run needs are checked before anything is built, each with a time limit.
@Suite struct ToolCheckTests {
    /// A `valgrind` that never answers `--version` is given up on (10 s), and nothing is built: the
    /// package folder has no `.build` afterwards.
    @Test func aSilentValgrindIsGivenUpOnBeforeBuilding() throws {
        let folder = TemporaryFolder("perfkit-f11")
        let bin = folder.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try Data("#!/bin/sh\nexec sleep 1000\n".utf8).write(to: URL(fileURLWithPath: bin + "/valgrind"))
        chmod(bin + "/valgrind", 0o755)
        let package = folder.path + "/pkg"
        try FileManager.default.createDirectory(atPath: package, withIntermediateDirectories: true)
        try Data("// swift-tools-version: 6.1\nimport PackageDescription\nlet package = Package(name: \"p\")\n".utf8)
            .write(to: URL(fileURLWithPath: package + "/Package.swift"))
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try PerfkitProcess.run(["run", "--counts"], in: package, environment: ["PATH": path])
        #expect(result.status == ExitStatus.badInput || result.status == ExitStatus.childFailed, "\(result.stderr)")
        #expect(result.stderr.contains("valgrind"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: package + "/.build"))
    }
}
