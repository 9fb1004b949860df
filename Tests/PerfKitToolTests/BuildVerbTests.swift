import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// `perfkit build`: the release build `perfkit run` starts with, measuring nothing.
///
/// So a CI step can build through the plugin (the tool's debug build and this one side by side) and run the tool's
/// binary afterwards. A tiny package of its own (no PerfKit dependency, one test) is built by the real binary.
@Suite struct BuildVerbTests {
    let package = TemporaryFolder("perfkit-build-verb")

    func writePackage() throws {
        let files = [
            "Package.swift": """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "Tiny", targets: [.target(name: "Tiny"), .testTarget(name: "TinyTests", dependencies: ["Tiny"])])
            """,
            "Sources/Tiny/Tiny.swift": "public func tiny() -> Int { 1 }\n",
            "Tests/TinyTests/TinyBenchmarks.swift": """
            import Testing
            import Tiny

            @Suite struct TinyBenchmarks {
                @Test func one() { #expect(tiny() == 1) }
            }
            """,
        ]
        try package.write(files)
    }

    /// The bundle it names is the one `perfkit run` measures (in `.perfkit/build`, stamped).
    ///
    /// A second build finds nothing to change: the stamp's digest of the bundle stays as it was.
    @Test func buildsTheTestBundleRunMeasuresAndNothingMore() throws {
        try writePackage()
        let first = try PerfkitProcess.run(["build"], in: package.path)
        #expect(first.status == 0, "\(first.stderr)")
        let line = first.stdout.split(separator: "\n").last { $0.hasPrefix("test bundle: ") }
        let bundle = line.map { String($0.dropFirst("test bundle: ".count)) } ?? ""
        #expect(bundle.hasSuffix("/release/TinyPackageTests.xctest"), "\(first.stdout)")
        #expect(bundle.hasPrefix(".perfkit/build/"))
        #expect(FileManager.default.fileExists(atPath: package.path + "/" + bundle))
        let stamp = package.path + "/.perfkit/build/" + BuildStamp.fileName
        let stamped = try #require(FileManager.default.contents(atPath: stamp))
        #expect(!FileManager.default.fileExists(atPath: package.path + "/.perfkit/runs"), "nothing was measured")

        let second = try PerfkitProcess.run(["build"], in: package.path)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stderr.contains("building it afresh"))
        #expect(
            FileManager.default.contents(atPath: stamp).map { try? JSONDecoder().decode(BuildStamp.self, from: $0) }
                == (try? JSONDecoder().decode(BuildStamp.self, from: stamped)))
    }

    /// Outside a package: one line naming the folder, status 2, and nothing written.
    @Test func outsideAPackageItSaysSoAndWritesNothing() throws {
        let result = try PerfkitProcess.run(["build"], in: package.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Package.swift"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: package.path).isEmpty)
    }
}
