import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// What an adopter's test bundle builds, read from the manifest as SwiftPM resolves it (`swift package dump-package`).
///
/// The product adopters depend on reaches only the measuring core, never the comparison and report code, the history
/// store's database clients or the example.
@Suite struct PackageShapeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Every target `name` depends on, directly or through others, with its traits' conditions ignored
    /// (the widest closure: every trait on).
    static func closure(of name: String, in targets: [String: [String]]) -> Set<String> {
        var seen = Set<String>(), open = [name]
        while let next = open.popLast() {
            for dependency in targets[next] ?? [] where seen.insert(dependency).inserted { open.append(dependency) }
        }
        return seen
    }

    @Test func aMeasuredTestBundleLinksOnlyTheMeasuringCore() throws {
        let scratch = TemporaryFolder("perfkit-manifest")
        // A scratch folder of its own: `.build` is locked by the `swift test` running this test.
        let (status, output) = try ChildProcess.run(
            ["swift", "package", "--scratch-path", scratch.path, "dump-package"], in: Self.root)
        try #require(status == 0)
        let manifest = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        let entries = try #require(manifest["targets"] as? [[String: Any]])
        var targets: [String: [String]] = [:]
        for entry in entries {
            let name = try #require(entry["name"] as? String)
            let dependencies = (entry["dependencies"] as? [[String: Any]]) ?? []
            targets[name] = dependencies.compactMap { dependency in
                (dependency["byName"] ?? dependency["target"]).flatMap { ($0 as? [Any])?.first as? String }
            }
        }
        let testing = Self.closure(of: "PerfKitTesting", in: targets)
        #expect(
            testing == [
                "PerfKitCore", "CJemalloc", "CLinux", "CValgrind", "CMeasuredThread", "CShimEntryPoints", "CPinnedHeap",
                "CThrowHooks", "CAllocationHooks",
            ])
        // The tool still reaches everything it runs.
        let tool = Self.closure(of: "PerfKitTool", in: targets)
        #expect(tool.isSuperset(of: ["PerfKit", "PerfKitCore", "PerfKitCommandLine", "PerfKitHistory"]))
        #expect(!tool.contains("CalendarSubjects"))
    }
}
