import Foundation
import PackagePlugin

/// A first `run`'s or `build`'s release build of the tests, started while SwiftPM builds the tool.
///
/// The tool's debug build and the tests' release build each leave a core idle for much of their time (a release build
/// optimizes a module on one thread), so on a first `perfkit run` or `perfkit build` the plugin starts the very build
/// `perfkit run` would start and waits for it before running the tool: `swift build -c release --product
/// <Package>PackageTests --scratch-path .perfkit/build`, with `-Xswiftc -enable-testing` when a test under `Tests/`
/// has `@testable import`, and the same `SWIFT_DETERMINISTIC_HASHING`. The tool then builds as always, from a fresh
/// plan, and finds nothing left to compile. Only a first run starts one (no `.perfkit/build` yet): a folder that
/// exists has the tool's build stamp to be checked before anything builds into it. A build that differs from the
/// tool's (another manifest name, another flag) costs time, never correctness: the tool's own build compiles what
/// differs, and repeats any error, since this one's output is not shown.
struct ReleaseBuildAhead {
    /// The release build folder the plugin gives the tool (`PERFKIT_SCRATCH_PATH`).
    static let scratch = ".perfkit/build"

    private let process: Process

    /// Starts the build when `arguments` are a first `run`'s or `build`'s; nil otherwise or when it cannot start.
    static func start(in package: Package, arguments: [String]) -> ReleaseBuildAhead? {
        // A build with other traits than the defaults is the tool's to start (it passes them on).
        guard arguments.first == "run" || arguments.first == "build", !arguments.contains("--help"),
            !arguments.contains("-h"), !arguments.contains("--traits"), !arguments.contains("--disable-default-traits")
        else { return nil }
        let root = package.directoryURL
        guard !FileManager.default.fileExists(atPath: root.appendingPathComponent(scratch).path) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "swift", "build", "-c", "release", "--product", package.displayName + "PackageTests", "--scratch-path",
                scratch,
            ]
            + (usesTestableImport(in: root) ? ["-Xswiftc", "-enable-testing"] : [])
        process.currentDirectoryURL = root
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        return ReleaseBuildAhead(process: process)
    }

    /// Waits for the build, then says it ran; its status does not matter, since the tool builds again.
    func waitUntilFinished() {
        process.waitUntilExit()
        print("perfkit: built the tests in release beside the tool (a first run)")
    }

    /// Stops the build (the tool did not build, so nothing will use it).
    func stop() {
        if process.isRunning { process.interrupt() }
        process.waitUntilExit()
    }

    /// Whether a Swift file under `Tests/` has a line starting `@testable import `.
    ///
    /// The tool's own rule (`Revision.usesTestableImport(in:)`), repeated because a plugin cannot import PerfKit;
    /// should they differ, the tool's build compiles again with its own flags.
    private static func usesTestableImport(in root: URL) -> Bool {
        let tests = root.appendingPathComponent("Tests").path
        guard let files = FileManager.default.enumerator(atPath: tests) else { return false }
        for case let file as String in files where file.hasSuffix(".swift") {
            if let text = try? String(contentsOfFile: tests + "/" + file, encoding: .utf8),
                text.split(separator: "\n").contains(where: {
                    $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("@testable import ")
                })
            {
                return true
            }
        }
        return false
    }
}
