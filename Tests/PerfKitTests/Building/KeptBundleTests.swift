import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// What `abba` keeps of a side's build, and when a later `abba` runs it instead of building the commit again.
@Suite struct KeptBundleTests {
    let folder = TemporaryFolder("perfkit-kept-bundle")
    let build = KeptBundle.Build(
        toolchain: "Swift 6.3.1 /usr/bin/swift", pinnedLayout: true, buildSystem: nil, traitFlags: [])

    /// A repository of one commit holding a source file and a fixture, and a built bundle in `release`.
    func built() throws -> (repository: GitRepository, commit: String, bundle: String) {
        let repository = try GitRepository(at: folder.path, commits: 0)
        try folder.write(["Sources/Core/Core.swift": "let a = 1\n"])
        try folder.write(["Tests/Fixtures/input.json": "{}\n"])
        try repository.git(["add", "-A"])
        try repository.git(["commit", "-q", "-m", "base"])
        try folder.write([".build/release/PkgPackageTests.xctest": "bundle"])
        try folder.write([".build/release/libShim.so": "library"])
        try folder.write([".build/release/Pkg_Core.resources/data.json": "{}"])
        try folder.write([".build/release/Core.swiftmodule": "module"])
        return (repository, try repository.commits()[0], folder.path + "/.build/release/PkgPackageTests.xctest")
    }

    @Test func aKeptBundleHasItsResourcesAndLibrariesBesideIt() throws {
        let (_, commit, bundle) = try built()
        let kept = try KeptBundle.keep(bundle: bundle, commit: commit, build: build, tree: ".", in: folder.path)
        let target = KeptBundle.folder(commit: commit, pinnedLayout: true, in: folder.path)
        #expect(kept == target + "/PkgPackageTests.xctest")
        let beside = try FileManager.default.contentsOfDirectory(atPath: target)
        #expect(Set(beside) == ["PkgPackageTests.xctest", "libShim.so", "Pkg_Core.resources", KeptBundle.recordName])
        #expect(FileManager.default.contents(atPath: kept) == Data("bundle".utf8))
    }

    /// Kept alike, the copy stands for a build; built otherwise, or kept without a record, it does not.
    @Test func onlyABundleBuiltAlikeIsReused() throws {
        let (_, commit, bundle) = try built()
        #expect(KeptBundle.reusable(commit: commit, build: build, in: folder.path) == .failure(.noneKept))
        let kept = try KeptBundle.keep(bundle: bundle, commit: commit, build: build, tree: ".", in: folder.path)
        #expect(KeptBundle.reusable(commit: commit, build: build, in: folder.path) == .success(kept))
        var plain = build
        plain.pinnedLayout = false
        #expect(KeptBundle.reusable(commit: commit, build: plain, in: folder.path) == .failure(.noneKept))
        var otherToolchain = build
        otherToolchain.toolchain = "Swift 6.2 /usr/bin/swift"
        #expect(
            KeptBundle.reusable(commit: commit, build: otherToolchain, in: folder.path) == .failure(.builtOtherwise))
        var traits = build
        traits.traitFlags = ["--traits", "Fast"]
        #expect(KeptBundle.reusable(commit: commit, build: traits, in: folder.path) == .failure(.builtOtherwise))
        // A revision that pins a path dependency outside the repository is kept with no record: never reused.
        _ = try KeptBundle.keep(
            bundle: bundle, commit: commit, build: build, recorded: false, tree: ".", in: folder.path)
        #expect(KeptBundle.reusable(commit: commit, build: build, in: folder.path) == .failure(.noneKept))
    }

    /// A changed fixture in the tree a bundle was built in refuses it; a changed source file does not.
    ///
    /// A bundle reads fixtures through `#filePath` from that tree; a source file is compiled, never read at run time.
    @Test func aChangedFixtureInTheBuildTreeRefusesReuse() throws {
        let (_, commit, bundle) = try built()
        let kept = try KeptBundle.keep(bundle: bundle, commit: commit, build: build, tree: ".", in: folder.path)
        try folder.write(["Sources/Core/Core.swift": "let a = 2\n"])
        #expect(KeptBundle.reusable(commit: commit, build: build, in: folder.path) == .success(kept))
        try folder.write(["Tests/Fixtures/input.json": "[]\n"])
        #expect(
            KeptBundle.reusable(commit: commit, build: build, in: folder.path)
                == .failure(.treeChanged(tree: folder.path, file: "Tests/Fixtures/input.json")))
    }

    /// A copy cut short (no record yet) is not reused, and a record names the commit it was written for.
    @Test func aCopyWithoutItsRecordIsNotReused() throws {
        let (_, commit, bundle) = try built()
        _ = try KeptBundle.keep(bundle: bundle, commit: commit, build: build, tree: ".", in: folder.path)
        let record =
            KeptBundle.folder(commit: commit, pinnedLayout: true, in: folder.path) + "/" + KeptBundle.recordName
        try FileManager.default.removeItem(atPath: record)
        #expect(KeptBundle.reusable(commit: commit, build: build, in: folder.path) == .failure(.noneKept))
    }
}
