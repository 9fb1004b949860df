import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// A worktree resolves its dependencies as the working tree does (``ResolutionState``).
///
/// Found on apple/swift-algorithms, whose `Package.resolved` is ignored and whose dependency came through a mirror, and
/// whose `abba` build failed fetching the original URL.
@Suite struct ResolutionStateTests {
    let folder = TemporaryFolder("perfkit-resolution")

    @Test func theMirrorsAndAnUntrackedPackageResolvedAreCarriedIntoTheWorktree() throws {
        let repository = try GitRepository(at: folder.path + "/package", commits: 1)
        let mirrors = #"{"object":[{"mirror":"/srv/numerics","original":"https://example.invalid/numerics.git"}]}"#
        try FileManager.default.createDirectory(
            atPath: repository.path + "/.swiftpm/configuration", withIntermediateDirectories: true)
        try Data(mirrors.utf8).write(to: URL(fileURLWithPath: repository.path + "/.swiftpm/configuration/mirrors.json"))
        try Data("{\"pins\":[]}".utf8).write(to: URL(fileURLWithPath: repository.path + "/Package.resolved"))
        let worktree = folder.path + "/worktree"
        try FileManager.default.createDirectory(atPath: worktree, withIntermediateDirectories: true)
        let head = try #require(try repository.commits().last)
        let carried = try ResolutionState.carry(from: repository.path, to: worktree, commit: head, prefix: "")
        #expect(carried.count == 2, "\(carried)")
        #expect(
            try String(contentsOfFile: worktree + "/.swiftpm/configuration/mirrors.json", encoding: .utf8) == mirrors)
        #expect(FileManager.default.fileExists(atPath: worktree + "/Package.resolved"))

        // A revision that tracks its own Package.resolved keeps it: only the configuration is carried.
        try repository.git(["add", "Package.resolved"])
        try repository.git(["commit", "-q", "-m", "resolved"])
        try FileManager.default.removeItem(atPath: worktree + "/Package.resolved")
        let tracked = try #require(try repository.commits().last)
        let again = try ResolutionState.carry(from: repository.path, to: worktree, commit: tracked, prefix: "")
        #expect(again == ["SwiftPM's configuration (.swiftpm/configuration)"])
        #expect(!FileManager.default.fileExists(atPath: worktree + "/Package.resolved"))
    }
}
