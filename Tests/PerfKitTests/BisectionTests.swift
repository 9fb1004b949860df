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

    /// A bare test name the last run counted in several series (a parameterized test's cases) is
    /// refused before anything is built, each series named; a full series name, a test with one count
    /// series and a test the last run does not know go on to the counting run (on
    /// swift-argument-parser the refusal came after GOOD's build and counting run, 332 s).
    @Test func aParameterizedTestNamedAloneIsRefusedBeforeAnyBuild() throws {
        let cases: [TestResult] = [10.0, 100.0].map { n in
            let testCase = TestCase(function: "M.S/f(n:)", arguments: [.init(name: "n", value: "\(Int(n))", number: n)])
            return TestResult(
                id: testCase.id, suite: "M.S",
                measurements: [
                    MeasurementResult(
                        name: "f", arms: ["main"], order: [], series: [Build.series(.instructions, values: [n, n])],
                        unavailable: [])
                ], testCase: testCase)
        }
        let single = TestResult(
            id: "M.S/g()", suite: "M.S",
            measurements: [
                MeasurementResult(
                    name: "g", arms: ["main"], order: [], series: [Build.series(.instructions, values: [1, 1])],
                    unavailable: [])
            ])
        let tests = cases + [single]
        do {
            try Bisection.refuseEarly("S/f(n:)", lastRun: tests)
            Issue.record("a bare name of a test with two count series was not refused")
        } catch let error as OrchestrationError {
            let line = "\(error)"
            #expect(line.contains("the test has 2 count series; name one"), "\(line)")
            #expect(line.contains("'S/f(n:) n = 10 f [main, warm] instructions'"), "\(line)")
        }
        try Bisection.refuseEarly("S/f(n:) n = 10 f [main, warm] instructions", lastRun: tests)
        try Bisection.refuseEarly("S/g()", lastRun: tests)
        try Bisection.refuseEarly("S/h()", lastRun: tests)
    }
}
