import Foundation
import PerfKit
import PerfKitCore
import PerfKitTestSupport
import Testing

/// Nothing unavailable in silence (issue 59 item 8): a metric a run could not measure is named with
/// its reason in the CSV as in the report and on screen.
@Suite struct NotMeasuredOutputTests {
    @Test func theCSVSummaryNamesWhatWasNotMeasuredAndWhy() throws {
        var run = Build.run(build: "release", values: [1, 2, 3])
        run.tests[0].measurements[0].unavailable = [
            UnavailableMetric(metric: "leakedAllocations", reason: "work resumed from other threads")
        ]
        let rows = CSVReport.notMeasuredRows(run.tests, side: "current")
        #expect(rows == ["S/t(),m,,,leakedAllocations,,,current,notMeasured,work resumed from other threads"])
        let folder = TemporaryFolder("perfkit-not-measured")
        let comparison = try Comparison(baseline: run.tests, current: run.tests)
        let report = MarkdownReport(title: "T", command: "perfkit compare main", comparison: comparison)
        _ = try ReportWriter(markdown: nil, csv: folder.path + "/pr.csv", json: nil)
            .write(report, rawTests: [("current", run.tests)])
        let csv = try String(contentsOfFile: folder.path + "/pr.csv", encoding: .utf8)
        #expect(csv.hasSuffix(rows[0] + "\n"))
    }
}
