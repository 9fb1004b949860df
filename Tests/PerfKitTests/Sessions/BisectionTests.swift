import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// What `perfkit bisect` asks git, checked in a repository of its own.
///
/// What `perfkit bisect` asks git, checked in a repository of its own (a whole bisection counts under
/// valgrind and is run in Documentation/Evidence.md instead).
@Suite struct BisectionTests {
    let folder = TemporaryFolder("perfkit-bisection")

    /// The culprit's parent is found by its full hash, as the counted steps hold it, so the step of the parent is found
    /// and "where it went" is shown.
    ///
    /// A root commit has none. It was never found before: `git rev-parse --end-of-options C^` printed the option back
    /// on a line of its own.
    @Test func theCulpritsParentIsItsFullHashAndARootHasNone() throws {
        let repository = try GitRepository(at: folder.path, commits: 3)
        let commits = try repository.commits()
        #expect(commits.count == 3)
        #expect(Bisection.parentCommit(of: commits[2], in: folder.path) == commits[1])
        #expect(Bisection.parentCommit(of: String(commits[2].prefix(12)), in: folder.path) == commits[1])
        #expect(Bisection.parentCommit(of: commits[0], in: folder.path) == nil)
    }

    /// A bare test name the last run counted in several series (a parameterized test's cases) is refused before
    /// anything is built, each series named.
    ///
    /// A full series name, a test with one count series and a test the last run does not know go on to the counting run
    /// (on swift-argument-parser the refusal came after GOOD's build and counting run, 332 s).
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

    /// A step judged from its first process alone says so, beside GOOD's first process's median.
    ///
    /// A step judged from its first process alone (it counted as GOOD's first process did) says so, and GOOD's line
    /// gives its first process's median beside its own: on the swift-collections package the summary printed GOOD at
    /// 7,157,399.5 (first process and check) and such a step at 7,157,397 (first process only) with nothing to say
    /// the two were over different processes.
    @Test func aStepJudgedFromItsFirstProcessSaysSoBesideGoodsFirstProcess() {
        let good = Bisection.Step(
            commit: "9fd8204671d6aa", value: 7_157_399.5, changed: false, tests: [], firstProcessValue: 7_157_397)
        let same = Bisection.Step(
            commit: "1e6fbf6efd77bb", value: 7_157_397, changed: false, tests: [], firstProcessValue: 7_157_397,
            identicalToGoodFirst: true)
        let changed = Bisection.Step(
            commit: "573069ecf515cc", value: 7_815_048.5, changed: true, tests: [], firstProcessValue: 7_815_048)
        let unit = Metric.instructions.unit
        #expect(
            good.summaryLine(good: good, unit: unit)
                == "counted 9fd8204671d6: 7157399.5 instructions (GOOD; its first process 7157397 instructions)")
        #expect(
            same.summaryLine(good: good, unit: unit)
                == "counted 1e6fbf6efd77: 7157397 instructions (its first process only: identical to GOOD's first "
                + "process in every sample)")
        #expect(changed.summaryLine(good: good, unit: unit) == "counted 573069ecf515: 7815048.5 instructions (changed)")
    }
}
