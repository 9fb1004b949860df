import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// What `perfkit bisect` asks git, checked in a repository of its own (a whole bisection counts under
/// valgrind and is run in Documentation/Evidence.md instead).
@Suite struct BisectionTests {
    let folder = TemporaryFolder("perfkit-bisection")

    /// The culprit's parent is found by its full hash, as the counted steps hold it, so the step of
    /// the parent is found and "where it went" is shown; a root commit has none. It was never found
    /// before: `git rev-parse --end-of-options C^` printed the option back on a line of its own.
    @Test func theCulpritsParentIsItsFullHashAndARootHasNone() throws {
        let repository = try GitRepository(at: folder.path, commits: 3)
        let commits = try repository.commits()
        #expect(commits.count == 3)
        #expect(Bisection.parentCommit(of: commits[2], in: folder.path) == commits[1])
        #expect(Bisection.parentCommit(of: String(commits[2].prefix(12)), in: folder.path) == commits[1])
        #expect(Bisection.parentCommit(of: commits[0], in: folder.path) == nil)
    }
}
