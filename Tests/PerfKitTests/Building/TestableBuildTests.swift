import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Release builds of tests that `@testable import` a module (``Revision/testableFlags``).
///
/// Found on apple/swift-algorithms, whose release build refused its own tests.
@Suite struct TestableBuildTests {
    let folder = TemporaryFolder("perfkit-testable")

    /// A release build passes -enable-testing only for a real `@testable import` line under Tests/.
    ///
    /// A release build passes -enable-testing only for a real `@testable import` line under Tests/,
    /// never for a comment naming one (PerfKit's own suite has such a comment).
    @Test func onlyAnImportStatementAsksForATestableBuild() throws {
        let tests = folder.path + "/Tests/T"
        try FileManager.default.createDirectory(atPath: tests, withIntermediateDirectories: true)
        try Data("// a test says `@testable import Mono`\nimport Testing\n".utf8).write(
            to: URL(fileURLWithPath: tests + "/A.swift"))
        #expect(!Revision.usesTestableImport(in: folder.path))
        try Data("import Testing\n  @testable import Mono\n".utf8).write(to: URL(fileURLWithPath: tests + "/B.swift"))
        #expect(Revision.usesTestableImport(in: folder.path))
        // PerfKit's own tests import nothing with @testable: its release builds are plain ones.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        #expect(!Revision.usesTestableImport(in: root))
    }

    /// The build's own error finds a `@testable import` the scan of `Tests/` missed (a test target declared elsewhere).
    ///
    /// The words apple/swift-algorithms' release build failed with.
    @Test func aBuildRefusingATestableImportIsRecognised() {
        let refused = ChildProcess.Finished(
            status: 1, signalled: false, output: Data(),
            errors:
                "ChainTests.swift:14:18: error: module 'Algorithms' was not compiled for testing [#ModuleNotTestable]")
        #expect(BuildLog.isNotTestable(refused))
        let other = ChildProcess.Finished(
            status: 1, signalled: false, output: Data(), errors: "Core.swift:1:1: error: cannot find 'x' in scope")
        #expect(!BuildLog.isNotTestable(other))
    }

    /// The release build names the test product from the manifest's package name (swift-argument-parser's is
    /// `swift-argument-parserPackageTests`).
    ///
    /// Without a readable manifest it builds every target, and SwiftPM's refusal of an unknown product is recognised.
    @Test func theTestProductIsNamedFromTheManifest() throws {
        #expect(Revision.testProduct(in: folder.path, scratch: ".build") == nil)
        try Data(
            "// swift-tools-version: 6.0\nimport PackageDescription\nlet package = Package(name: \"swift-shaped\")\n"
                .utf8
        ).write(to: URL(fileURLWithPath: folder.path + "/Package.swift"))
        #expect(Revision.testProduct(in: folder.path, scratch: ".build") == "swift-shapedPackageTests")
        let refused = ChildProcess.Finished(
            status: 1, signalled: false, output: Data(), errors: "error: no product named 'NonePackageTests'")
        #expect(BuildLog.isUnknownProduct(refused))
        // Swift Build's words for the same (6.3, `--build-system swiftbuild`).
        let swiftBuild = ChildProcess.Finished(
            status: 1, signalled: false, output: Data(),
            errors: "error: Could not find target named 'SBPackageTests-product'")
        #expect(BuildLog.isUnknownProduct(swiftBuild))
    }

    /// Swift Build links a test runner per test target: one is the bundle; several are named, for a native build.
    @Test func swiftBuildsTestRunnerIsTheBundleWhenThereIsOne() throws {
        let products = folder.path + "/Release-linux"
        try FileManager.default.createDirectory(atPath: products, withIntermediateDirectories: true)
        #expect(throws: OrchestrationError.self) { try Revision.testBundle(in: products) }
        #expect(FileManager.default.createFile(atPath: products + "/LibTests-test-runner", contents: Data()))
        #expect(try Revision.testBundle(in: products) == products + "/LibTests-test-runner")
        #expect(FileManager.default.createFile(atPath: products + "/AppTests-test-runner", contents: Data()))
        do {
            _ = try Revision.testBundle(in: products)
            Issue.record("two runners were taken for one bundle")
        } catch OrchestrationError.severalTestRunners(_, let runners) {
            #expect(runners == ["AppTests-test-runner", "LibTests-test-runner"])
        }
    }

    /// A run built with `-enable-testing` and one built without are not judged against each other.
    @Test func aTestableBuildIsAnotherBuildConfiguration() {
        let plain = Build.environment()
        var testable = plain
        testable.testableBuild = true
        #expect(testable.countingDifferences(from: plain) == ["build configuration"])
        #expect(testable.machineDifferences(from: plain) == ["build configuration"])
        #expect(plain.countingDifferences(from: plain).isEmpty && testable.machineDifferences(from: testable).isEmpty)
    }
}
