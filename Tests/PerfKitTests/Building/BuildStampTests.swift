import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// A build folder is reused only when its stamp says PerfKit's last build, by this toolchain, left what is there.
@Suite struct BuildStampTests {
    let folder = TemporaryFolder("perfkit-build-stamp")

    /// A build folder with a linked bundle of `bytes`, stamped as built by `toolchain`; returns the bundle's path.
    func built(_ bytes: String, by toolchain: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.path + "/release", withIntermediateDirectories: true)
        let bundle = folder.path + "/release/AppPackageTests.xctest"
        try Data(bytes.utf8).write(to: URL(fileURLWithPath: bundle))
        BuildStamp.record(bundle: bundle, in: folder.path, toolchain: toolchain)
        return bundle
    }

    @Test func aFolderAsItsLastBuildLeftItIsReused() throws {
        _ = try built("linked code", by: "Swift version 6.3.1 at /usr/bin/swift-frontend")
        #expect(
            BuildStamp.reasonToStartAfresh(
                folder: folder.path, toolchain: "Swift version 6.3.1 at /usr/bin/swift-frontend") == nil)
    }

    @Test func aFolderWithoutAStampIsLeftToSwiftPM() {
        #expect(BuildStamp.reasonToStartAfresh(folder: folder.path, toolchain: "any") == nil)
    }

    @Test func anotherToolchainStartsAfresh() throws {
        _ = try built("linked code", by: "Swift version 6.2 at /opt/swift-6.2/usr/bin/swift-frontend")
        let reason = BuildStamp.reasonToStartAfresh(
            folder: folder.path, toolchain: "Swift version 6.3.1 at /usr/bin/swift-frontend")
        #expect(reason == "was built by another toolchain (Swift version 6.2 at /opt/swift-6.2/usr/bin/swift-frontend)")
    }

    @Test func aDamagedBundleStartsAfresh() throws {
        let bundle = try built("linked code", by: "T")
        try Data("linked cod".utf8).write(to: URL(fileURLWithPath: bundle))
        let reason = BuildStamp.reasonToStartAfresh(folder: folder.path, toolchain: "T")
        #expect(
            reason
                == "holds a test bundle that is not the one its last build linked (release/AppPackageTests.xctest "
                + "changed since)"
        )
    }

    @Test func anUnreadableStampStartsAfresh() throws {
        _ = try built("linked code", by: "T")
        try Data("{\"schema\": 1, \"toolch".utf8).write(
            to: URL(fileURLWithPath: folder.path + "/" + BuildStamp.fileName))
        #expect(
            BuildStamp.reasonToStartAfresh(folder: folder.path, toolchain: "T")
                == "has a build stamp PerfKit cannot read (perfkit-build-stamp.json)")
    }

    @Test func aFolderAnotherToolchainBuiltIsEmptiedWithANote() throws {
        _ = try built("linked code", by: "Swift version 5.10 at /opt/old/swift-frontend")
        var notes: [String] = []
        let toolchain = BuildStamp.prepare(folder: folder.path, named: ".perfkit/build", in: folder.path) {
            notes.append($0)
        }
        #expect(toolchain?.hasPrefix("Swift version ") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/release"))
        #expect(
            notes == [
                "perfkit: .perfkit/build was built by another toolchain (Swift version 5.10 at "
                    + "/opt/old/swift-frontend); "
                    + "building it afresh"
            ])
    }

    @Test(arguments: [
        "<unknown>:0: error: malformed compiled module: /b/release/Modules/Core.swiftmodule",
        "error: compiled module was created by a newer version of the compiler: /b/Core.swiftmodule",
        "ld.lld: error: /b/release/Core.build/Core.swift.o: file too short",
    ])
    func damagedProductsAreToldApartFromCompileErrors(log: String) {
        let damaged = ChildProcess.Finished(status: 1, signalled: false, output: Data(log.utf8), errors: "")
        let compileError = ChildProcess.Finished(
            status: 1, signalled: false, output: Data("/r/A.swift:3:9: error: cannot find 'x' in scope".utf8),
            errors: "")
        #expect(BuildLog.isDamagedProduct(damaged))
        #expect(!BuildLog.isDamagedProduct(compileError))
    }
}
