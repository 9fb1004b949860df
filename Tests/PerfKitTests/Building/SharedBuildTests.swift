import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// When `abba` may build B from A's products in one worktree, and what it keeps of A's build.
@Suite struct SharedBuildTests {
    let folder = TemporaryFolder("perfkit-shared-build")

    /// A repository whose second commit changes `changed`, with its two commits.
    func repository(changing changed: String) throws -> (GitRepository, [String]) {
        let repository = try GitRepository(at: folder.path, commits: 0)
        try FileManager.default.createDirectory(
            atPath: folder.path + "/Sources/Core", withIntermediateDirectories: true)
        try Data("let a = 1\n".utf8).write(to: URL(fileURLWithPath: folder.path + "/Sources/Core/Core.swift"))
        try repository.git(["add", "-A"])
        try repository.git(["commit", "-q", "-m", "base"])
        let path = folder.path + "/" + changed
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try Data("changed\n".utf8).write(to: URL(fileURLWithPath: path))
        try repository.git(["add", "-A"])
        try repository.git(["commit", "-q", "-m", "change"])
        return (repository, try repository.commits())
    }

    /// A revision builds in place only when it is the working tree's commit and the tree holds nothing else.
    @Test func onlyTheCleanHeadBuildsInPlace() throws {
        let (repository, commits) = try repository(changing: "Sources/Core/Core.swift")
        let inPlace = try #require(Revision.inPlace("HEAD", in: folder.path))
        #expect(inPlace.directory == "." && inPlace.commit == commits[1] && inPlace.name == "HEAD")
        #expect(Revision.inPlace(commits[0], in: folder.path) == nil)
        #expect(Revision.inPlace(".", in: folder.path) == nil)
        try Data("let a = 2\n".utf8).write(to: URL(fileURLWithPath: folder.path + "/Sources/Core/Core.swift"))
        #expect(Revision.inPlace("HEAD", in: folder.path) == nil, "a tracked change")
        try repository.git(["checkout", "-q", "--", "."])
        try Data("let b = 1\n".utf8).write(to: URL(fileURLWithPath: folder.path + "/Sources/Core/New.swift"))
        #expect(Revision.inPlace("HEAD", in: folder.path) == nil, "an untracked source file would be compiled")
    }

    /// Counted sides build where and as `perfkit run` builds; timed sides with the pinned layout in their own folder.
    @Test func countedSidesBuildAsTheRunDoes() {
        let counts = BuildFolder.forCounts(in: "/p"), timing = BuildFolder.forTiming(in: "/p")
        #expect(!counts.pinnedLayout && counts.scratch == "/p/" + Revision.scratchPath())
        #expect(timing.pinnedLayout && timing.scratch == "/p/.perfkit/build-pinned")
    }

    @Test func aChangeOfCompiledFilesOnlyBuildsFromAsProducts() throws {
        let (_, commits) = try repository(changing: "Sources/Core/Core.swift")
        #expect(SharedBuild.separateReason(commits[0], commits[1], in: folder.path) == nil)
        #expect(SharedBuild.separateReason(commits[0], commits[0], in: folder.path) == nil)
    }

    @Test func aChangedFileATestMayReadBuildsApartAndIsNamed() throws {
        let (_, commits) = try repository(changing: "Tests/CoreTests/Fixtures/input.json")
        #expect(
            SharedBuild.separateReason(commits[0], commits[1], in: folder.path)
                == "Tests/CoreTests/Fixtures/input.json changed and may be read at run time")
        #expect(
            SharedBuild.separateReason(".", commits[1], in: folder.path)
                == "the working tree builds in its own folder")
    }
}
