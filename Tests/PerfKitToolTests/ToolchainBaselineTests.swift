import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Baselines per toolchain (issue 60).
///
/// Saved side by side with `--per-toolchain`, looked up by the run's toolchain, and a baseline of another toolchain
/// named as such rather than judged.
@Suite struct ToolchainBaselineTests {
    let folder = TemporaryFolder("perfkit-toolchain")

    func write(swift: String, to file: String) throws {
        var run = Build.run(build: "release", values: [100, 101, 102, 100, 101, 102])
        run.environment.swiftVersion = "Swift version \(swift) (swift-\(swift)-RELEASE)"
        try run.write(to: folder.path + "/" + file)
    }

    @Test func baselinesAreKeptAndFoundPerToolchain() throws {
        try write(swift: "6.3.1", to: "r63.json")
        try write(swift: "6.2.3", to: "r62.json")
        try write(swift: "6.1.0", to: "r61.json")
        let save63 = try PerfkitProcess.run(
            ["baseline", "save", "main", "--per-toolchain", "--from", "r63.json"], in: folder.path)
        #expect(save63.status == 0, "\(save63.stderr)")
        #expect(
            try PerfkitProcess.run(["baseline", "save", "main", "--from", "r62.json"], in: folder.path).status == 0)
        let list = try PerfkitProcess.run(["baseline", "list"], in: folder.path).stdout
        #expect(list == "main\nmain.swift-6.3\n")
        let show = try PerfkitProcess.run(["baseline", "show", "main.swift-6.3"], in: folder.path).stdout
        #expect(show.contains("Swift 6.3.1"))
        #expect(show.contains("S/t() m"))
        let same = try PerfkitProcess.run(["compare", "main", "--current", "r63.json"], in: folder.path)
        #expect(same.stdout.hasPrefix("baseline main.swift-6.3: the one saved for this run's toolchain\n"))
        let other = try PerfkitProcess.run(["compare", "main", "--current", "r61.json"], in: folder.path)
        #expect(
            other.stdout.hasPrefix(
                "another toolchain: main was saved with Swift 6.2.3, this run is Swift 6.1.0; counts are not judged"),
            "\(other.stdout)")
        #expect(!other.stdout.contains("regressed"))
    }
}
