import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Reports a reviewer reads in thirty seconds: the answer first, PR-sized, readable charts.
@Suite struct ReportTests {
    typealias V = Build

    /// Thirty unchanged series, one regressed (`S/slowParse()`), a handful of unchanged exact counts.
    static func comparison(regressedID: String = "S/slowParse()") throws -> Comparison {
        var baseline: [TestResult] = V.processTests(V.noisy(100, seed: 1), id: regressedID)
        var current: [TestResult] = V.processTests(V.noisy(125, seed: 2), id: regressedID)
        for k in 0..<30 {
            baseline += V.processTests(V.noisy(200, seed: UInt64(10 + k)), id: "S/same\(k)()")
            current += V.processTests(V.noisy(200, seed: UInt64(50 + k)), id: "S/same\(k)()")
            baseline += V.processTests([7, 7, 7], metric: .mallocs, id: "S/count\(k)()")
            current += V.processTests([7, 7, 7], metric: .mallocs, id: "S/count\(k)()")
        }
        return try Comparison(baseline: baseline, current: current)
    }

    /// A change under 1% keeps two significant digits: a count's 0.063% regression read "+0.1%".
    @Test func aSmallChangeKeepsTwoSignificantDigits() {
        #expect(MarkdownReport.percent(1.00063) == "+0.063%")
        #expect(MarkdownReport.percent(0.9996) == "-0.040%")
        #expect(MarkdownReport.percent(1.005) == "+0.50%")
        #expect(MarkdownReport.percent(1.0) == "+0.0%")
        #expect(MarkdownReport.percent(1.032) == "+3.2%")
        #expect(MarkdownReport.percent(3393.07) == "+339,207%")
    }

    @Test func theAnswerComesFirstAndNamesTheRegressedSeries() throws {
        let report = MarkdownReport(title: "T", command: "perfkit compare main", comparison: try Self.comparison())
            .render()
        let first15 = report.split(separator: "\n", omittingEmptySubsequences: false).prefix(15).joined(separator: "\n")
        // The answer per kind: no sentence adds rows of different kinds together.
        #expect(first15.contains("**current against the baseline**"))
        #expect(first15.contains("- **Component cost**: 1 regressed, 30 within noise, 30 unchanged exactly"))
        #expect(first15.contains("- **Memory**: no series"))
        #expect(first15.contains("- **regressed** `S/slowParse()` m [main, warm] wallClock: +24.9% (95% CI"))
        #expect(first15.contains("95% CI"))
        #expect(!report.contains("| count") && !report.contains("S/count0()"))  // unchanged exact rows are folded away
    }

    @Test func rewordingEveryNoteChangesNoGroupingNoHeadlineAndNoExitStatus() throws {
        var comparison = try Self.comparison()
        let noisy = try Comparison(
            baseline: V.processTests(V.noisy(100, seed: 8, spread: 0.6, count: 5), id: "S/noisy()"),
            current: V.processTests(V.noisy(104, seed: 9, spread: 0.6, count: 5), id: "S/noisy()"))
        comparison.rows += noisy.rows
        var reworded = comparison
        for index in reworded.rows.indices {
            reworded.rows[index].note = "reworded note \(index): nothing to parse here"
        }
        #expect(ReportHeadline(reworded, direction: "d").lines == ReportHeadline(comparison, direction: "d").lines)
        #expect(ExitStatus.of(reworded, failOnRegression: true) == ExitStatus.of(comparison, failOnRegression: true))
        let main = MarkdownReport(title: "T", command: "c", comparison: comparison).render()
        let rewordedMain = MarkdownReport(title: "T", command: "c", comparison: reworded).render()
        #expect(main == rewordedMain)  // the main report shows verdicts and reasons, never notes
        #expect(main.contains("too noisy to tell: 1"))
    }

    /// A chart beside a report is the report's own.
    ///
    /// A kind that had a chart in an earlier run and has no judged row now loses it (the calendar demo kept an earlier
    /// run's counts chart, +2.2%, beside a report whose counts were all not judged); another report's charts and other
    /// files stay.
    @Test func writingAReportRemovesItsChartsFromAnEarlierRunAndNothingElse() throws {
        let folder = TemporaryFolder("perfkit-report-charts")
        let stale = ["pr-sides-simulated-counts.svg", "pr-arms-memory.svg", "pr-growth-3.svg"]
        let others = ["pr-x-sides-memory.svg", "other-sides-memory.svg", "pr-sides-notes.svg", "pr-sides-memory.txt"]
        for name in stale + others {
            try Data("<svg/>".utf8).write(to: URL(fileURLWithPath: folder.path + "/" + name))
        }
        let comparison = try Comparison(
            baseline: V.processTests(V.noisy(100, seed: 1), id: "S/a()"),
            current: V.processTests(V.noisy(125, seed: 2), id: "S/a()"))
        let written = try ReportWriter(markdown: folder.path + "/pr.md", csv: nil, json: nil)
            .write(MarkdownReport(title: "T", command: "c", comparison: comparison), rawTests: [])
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(names.contains("pr-sides-component-cost.svg"))  // this run's chart, written
        #expect(Set(written.map { URL(fileURLWithPath: $0).lastPathComponent }).contains("pr-sides-component-cost.svg"))
        #expect(names.isDisjoint(with: stale), "\(names)")
        #expect(names.isSuperset(of: others), "\(names)")
    }

    @Test func theMainReportFitsAPullRequestCommentAndTheFullOneHoldsEveryRow() throws {
        var baseline: [TestResult] = []
        var current: [TestResult] = []
        for k in 0..<1_500 {
            baseline += V.processTests(
                V.noisy(200, seed: UInt64(k)), id: "VeryLongSuiteNameForAReport/aTestWithAQuiteLongName\(k)()")
            current += V.processTests(
                V.noisy(200, seed: UInt64(k + 5_000)), id: "VeryLongSuiteNameForAReport/aTestWithAQuiteLongName\(k)()")
        }
        let report = MarkdownReport(
            title: "T", command: "perfkit compare main",
            comparison: try Comparison(baseline: baseline, current: current), fullReportName: "pr-full.md")
        let main = report.render()
        #expect(main.count <= MarkdownReport.pullRequestLimit)
        #expect(main.contains("[pr-full.md](pr-full.md)"))
        let full = report.renderFull()
        #expect(full.contains("aTestWithAQuiteLongName1499()"))
    }

    @Test func pValuesBelowAThousandthAndInconclusiveReasonsReadPlainly() throws {
        #expect(Format.pValue(0) == "< 0.001")
        #expect(Format.pValue(0.0004) == "< 0.001")
        #expect(Format.pValue(0.0123) == "0.0123")
        let noisy = try Comparison(
            baseline: V.processTests(V.noisy(100, seed: 8, spread: 0.6, count: 5)),
            current: V.processTests(V.noisy(104, seed: 9, spread: 0.6, count: 5)))
        let text = MarkdownReport(title: "T", command: "c", comparison: noisy).render()
        #expect(text.contains("- **Component cost**: 1 inconclusive (too noisy to tell: 1)"))
        #expect(!text.contains("can resolve"))
    }

    @Test func failedBudgetsAreListedUnderTheAnswerAndEveryBudgetInTheFullReport() throws {
        let failed = BudgetOutcome(
            measurement: "parse", arm: "main", phase: .warm, metric: "mallocs", budget: "max ≤ 0", status: .failed,
            detail: "max 30015 exceeds 0")
        let passed = BudgetOutcome(
            measurement: "scroll", arm: "main", phase: .warm, metric: "wallClock",
            budget: "p95 ≤ 10 ms (direct interaction)", status: .passed,
            detail: "p95 = 2 ms")
        let report = MarkdownReport(
            title: "T", command: "c", comparison: try Self.comparison(),
            budgets: [("S/parse()", failed), ("S/scroll()", passed)])
        let main = report.render()
        #expect(main.contains("**Budgets that failed (1):**"))
        #expect(main.contains("`S/parse()` parse [main, warm] mallocs max ≤ 0: max 30015 exceeds 0"))
        #expect(!main.contains("p95 = 2 ms"))
        let full = report.renderFull()
        #expect(full.contains("## Budgets") && full.contains("direct interaction") && full.contains("p95 = 2 ms"))
    }

    @Test func chartsUseASymmetricLogAxisWithAZeroTickLabelsAndClippedOutliers() throws {
        var rows = try Self.comparison().rows
        // One outlier far beyond ×4, and one row not judged: the outlier is clipped, the other left out.
        var outlier = rows.first { $0.test == "S/slowParse()" }!
        outlier.test = "S/outlier()"
        outlier.change = Estimate(value: 458, lower: 300, upper: 600)
        outlier.verdict = .regressed
        var unjudged = rows[1]
        unjudged.test = "S/unjudged()"
        unjudged.verdict = .notJudged
        rows += [outlier, unjudged]
        let svg = SVGChart.changes(rows, title: "warm")
        #expect(svg.contains(">0%</text>"))
        #expect(svg.contains(">+300%</text>") && svg.contains(">-75%</text>"))  // the axis reaches ×4 and ÷4, labelled
        #expect(svg.components(separatedBy: "class=\"tick-label\"").count - 1 >= 5)
        #expect(svg.contains("class=\"clipped\"") && svg.contains("(CI +29,900% … +59,900%, beyond the axis)"))
        // arrows on the right only, where the bounds lie
        #expect(svg.contains("x=\"801.0\" y=") && !svg.contains("x=\"371.0\" y="))
        #expect(svg.contains("noise band") && svg.contains("regressed") && svg.contains("improved"))
        #expect(!svg.contains("unjudged"))
        #expect(svg.contains("outlier") && svg.contains("slowParse"))
        // Every point and tick stays on the axis (x from 380 to 800).
        let xs = (svg.components(separatedBy: " cx=\"") + svg.components(separatedBy: "class=\"tick\" x1=\""))
            .dropFirst()
            .compactMap { Double($0.prefix { $0 != "\"" }) }
        #expect(xs.allSatisfy { $0 >= 380 - 1e-9 && $0 <= 800 + 1e-9 })
        // The document is wide enough for the longest value label: "+45,700% (CI +29,900% …
        // +59,900%, beyond the axis)", 52 characters from x = 812, about 6.2 px each.
        let label = "+45,700% (CI +29,900% … +59,900%, beyond the axis)"
        #expect(svg.contains(label))
        let width = try #require(Double(svg.components(separatedBy: "width=\"")[1].prefix { $0 != "\"" }))
        #expect(width >= 812 + 6.2 * Double(label.count))
    }
}
