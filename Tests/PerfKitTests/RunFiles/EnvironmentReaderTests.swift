import Foundation
import PerfKit
import PerfKitCore
import PerfKitTestSupport
import Testing

/// What a run records of its checkout's git state (issue 60: a first hour without friction).
@Suite struct EnvironmentReaderTests {
    /// A repository with no commit yet is recorded as such, on its branch, never as "unknown".
    @Test func aRepositoryWithNoCommitYetIsNamedAsSuch() throws {
        let folder = TemporaryFolder("perfkit-no-commit")
        _ = try PerfkitProcess.runTool(["git", "init", "-q", "-b", "trunk"], in: folder.path)
        let environment = EnvironmentReader.current(buildConfiguration: "release", directory: folder.path)
        #expect(environment.commit == Environment.uncommitted)
        #expect(environment.branch == "trunk")
        let outside = EnvironmentReader.current(buildConfiguration: "release", directory: "/")
        #expect(outside.commit == "unknown")
    }
}
