import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Which path dependencies a worktree keeps (inside the repository: the revision's own copy) and
/// which it pins (outside: the working tree's folder).
@Suite struct PathDependenciesTests {
    static let manifest = """
        let package = Package(
            name: "Mono",
            dependencies: [
                .package(path: "Packages/Core"),
                .package(name: "Vendored", path: "./Vendor/Lib"),
                .package(
                    path: "../perfkit"),
                .package(path: "/opt/absolute"),
                .package(url: "https://example.invalid/x.git", from: "1.0.0"),
            ]
        )
        """

    @Test func insideTheRepositoryIsKeptAndOutsideIsPinned() {
        let (text, found) = PathDependencies.pinned(
            Self.manifest, manifest: "Package.swift", folder: "/work/repo", repository: "/work/repo")
        #expect(found.map(\.written) == ["Packages/Core", "./Vendor/Lib", "../perfkit"])
        #expect(found.map(\.pinned) == [nil, nil, "/work/perfkit"])
        #expect(text.contains(#".package(path: "Packages/Core")"#))
        #expect(text.contains(#"path: "./Vendor/Lib""#))
        #expect(text.contains(#"path: "/work/perfkit")"#))
        #expect(text.contains(#".package(path: "/opt/absolute")"#))
    }

    /// A manifest naming an absolute path, or pinning one outside, builds files its commit does not hold.
    ///
    /// An `abba` never reruns such a side's kept bundle; one that keeps every path inside may.
    @Test func absoluteAndPinnedPathsReachOutsideTheCommit() throws {
        let folder = TemporaryFolder("perfkit-path-reach")
        let repository = try GitRepository(at: folder.path, commits: 0)
        try folder.write(["Package.swift": Self.manifest])
        try repository.git(["add", "-A"])
        try repository.git(["commit", "-q", "-m", "manifest"])
        let found = try PathDependencies.pin(worktree: folder.path, repository: folder.path)
        #expect(found.absolute == ["/opt/absolute"])
        #expect(found.pinned.map(\.written) == ["../perfkit"] && found.reachesOutside)
        let inside = PathDependencies(dependencies: [.init(manifest: "Package.swift", written: "Core", pinned: nil)])
        #expect(!inside.reachesOutside)
    }

    @Test func aNestedManifestResolvesFromItsOwnFolder() {
        // Packages/Core/Package.swift: "../Util" stays inside, "../../../perfkit" leaves.
        let text = #"dependencies: [.package(path: "../Util"), .package(path: "../../../perfkit")]"#
        let (rewritten, found) = PathDependencies.pinned(
            text, manifest: "Packages/Core/Package.swift", folder: "/work/repo/Packages/Core",
            repository: "/work/repo")
        #expect(found.map(\.pinned) == [nil, "/work/perfkit"])
        #expect(rewritten == #"dependencies: [.package(path: "../Util"), .package(path: "/work/perfkit")]"#)
    }

    @Test func aSiblingWhoseNameStartsLikeTheRepositoryIsOutside() {
        let (_, found) = PathDependencies.pinned(
            #".package(path: "../repo-tools")"#, manifest: "Package.swift", folder: "/work/repo",
            repository: "/work/repo")
        #expect(found.map(\.pinned) == ["/work/repo-tools"])
    }

    /// Only what was rewritten is named (issue 60): a dependency kept as written is not.
    @Test func theProgressLineNamesOnlyThePinned() {
        let dependencies = PathDependencies(dependencies: [
            .init(manifest: "Package.swift", written: "Packages/Core", pinned: nil),
            .init(manifest: "Package.swift", written: "../perfkit", pinned: "/work/perfkit"),
        ])
        #expect(
            dependencies.progressLine(worktree: ".perfkit/worktrees/a")
                == "perfkit: .perfkit/worktrees/a: path dependencies outside the repository, pinned to the working "
                + "tree's folders: ../perfkit → /work/perfkit"
        )
        #expect(PathDependencies(dependencies: []).progressLine(worktree: "w") == nil)
    }

    /// A vendored package's own nested manifests (swift-collections' `Benchmarks/` says `..`, a fixture four levels
    /// down `../../..`) name the same folder.
    ///
    /// Shown once, from the top.
    @Test func keptDependenciesAreNamedFromTheRepositorysTopOnce() {
        let dependencies = PathDependencies(dependencies: [
            .init(manifest: "Package.swift", written: "Vendor/swift-collections", pinned: nil),
            .init(manifest: "Vendor/swift-collections/Benchmarks/Package.swift", written: "..", pinned: nil),
            .init(
                manifest: "Vendor/swift-collections/Utils/Debugger/FormatterFixtures/Package.swift",
                written: "../../..", pinned: nil),
            .init(manifest: "Tools/Package.swift", written: "..", pinned: nil),
        ])
        #expect(
            dependencies.kept.map(\.folder) == [
                "Vendor/swift-collections", "Vendor/swift-collections",
                "Vendor/swift-collections", ".",
            ])
        #expect(dependencies.progressLine(worktree: "w") == nil)
    }
}

/// A failed build: its first error quoted, and a stale plan told apart from a real failure.
@Suite struct BuildLogTests {
    func finished(_ output: String, errors: String = "") -> ChildProcess.Finished {
        ChildProcess.Finished(status: 1, signalled: false, output: Data(output.utf8), errors: errors)
    }

    @Test func missingInputsAndVanishedSourcesAreAStalePlan() {
        #expect(BuildLog.isStalePlan(finished("error: couldn't build Core.swift.o because of missing inputs")))
        #expect(
            BuildLog.isStalePlan(
                finished("", errors: "error: no such file or directory: '/r/Packages/Core/Sources/Core/Core.swift'")))
        #expect(!BuildLog.isStalePlan(finished("/r/Sources/A.swift:3:9: error: cannot find 'x' in scope")))
    }

    @Test func theFirstErrorLineIsQuoted() {
        let log =
            "Building for production...\n/r/A.swift:3:9: error: cannot find 'x' in scope\n/r/B.swift:1:1: error: later"
        #expect(BuildLog.firstError(finished(log)) == "/r/A.swift:3:9: error: cannot find 'x' in scope")
    }
}
