import Foundation
import PerfKit
import PerfKitHistory
import PerfKitTestSupport
import Testing

/// The history site: one offline page, drawn by a real browser.
@Suite struct HistorySiteTests {
    let folder = TemporaryFolder("perfkit-history-site")

    static func commit(_ n: Int) -> CommitInfo {
        // Hashes that are not all zeros, so a short hash is a real search in the page.
        let hash = String(format: "%02x", 0xa0 + n) + String(repeating: String(format: "%x", n % 16), count: 38)
        return CommitInfo(
            hash: hash, parent: n > 1 ? Self.commit(n - 1).hash : "", position: n,
            date: Date(timeIntervalSince1970: Double(n) * 3_600), subject: "commit \(n)")
    }

    /// Five commits; the third adds 3% to the `n = 100` case's instructions.
    ///
    /// Two cases of one parameterized test, a mallocs series beside them, and a timing series: counts and times on
    /// charts of their own.
    static func entries(toolchainAt5: String = "Swift version 6.3.1") -> [HistoryEntry] {
        var environment = HistoryEnvironment(Build.environment())
        var entries: [HistoryEntry] = []
        for n in 1...5 {
            environment.toolchain = n == 5 ? toolchainAt5 : "Swift version 6.3.1"
            func entry(_ test: String, _ metric: String, _ unit: String, _ value: Double, _ measure: HistoryMeasure)
                -> HistoryEntry
            {
                HistoryEntry(
                    machine: "m1", commit: commit(n),
                    series: SeriesID(test: test, measurement: "parse", arm: "main", phase: .warm, metric: metric),
                    // A count's interval is its placements' spread (none here); timing's a confidence interval.
                    unit: unit, kind: .componentCost, measure: measure, value: value,
                    lower: measure == .timing ? value * 0.99 : value, upper: measure == .timing ? value * 1.01 : value,
                    processes: 1, recorded: Date(timeIntervalSince1970: 0),
                    caseSize: test.contains("n = ")
                        ? CaseSize(function: "Parser.ParseBenchmarks/parse(n:)", size: 1) : nil,
                    environment: environment)
            }
            entries.append(
                entry(
                    "Parser.ParseBenchmarks/parse(n:) n = 10", "instructions", "instructions", 10_000, .simulatedCount))
            entries.append(
                entry(
                    "Parser.ParseBenchmarks/parse(n:) n = 100", "instructions", "instructions",
                    n >= 3 ? 103_000 : 100_000,
                    .simulatedCount))
            entries.append(entry("Parser.ParseBenchmarks/parse(n:) n = 100", "mallocs", "count", 12, .exactCount))
            entries.append(
                entry("Parser.ParseBenchmarks/parse(n:) n = 100", "wallClock", "ns", 52_000 + Double(n), .timing))
        }
        return entries
    }

    @Test func theSiteIsOnePageThatLoadsNothingFromElsewhere() throws {
        let histories = ChangePointDetector().histories(Self.entries())
        let site = try HistorySite(histories, commitURL: "https://example.com/o/r/commit/{commit}")
        try site.write(to: folder.path + "/site")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/site") == ["index.html"])
        let html = site.html
        #expect(
            !html.contains("src=") && !html.contains("<link") && !html.contains("@import") && !html.contains("url("))
        // One benchmark (the cases together), a chart per unit, the third commit's change.
        #expect(site.counts.benchmarks == 1)
        #expect(site.counts.charts == 3)
        #expect(site.counts.changes == 1)
        #expect(html.contains(Self.commit(3).hash))
    }

    @Test func aHostileSeriesNameCannotCloseTheScript() throws {
        var entries = Self.entries()
        entries[0].series.measurement = "</script><script>alert(1)</script>"
        let site = try HistorySite(ChangePointDetector().histories(entries))
        #expect(!site.html.contains("</script><script>alert(1)"))
    }

    /// Drawn by headless Chromium (Debian's `chromium`, which `make test` installs).
    ///
    /// It shows no console error, charts drawn, the changed series and its commit's short hash on the page.
    @Test func headlessChromiumDrawsTheChangeAndNamesItsCommit() throws {
        guard
            let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            print("skipped: no chromium (apt-get install chromium; make test installs it)")
            return
        }
        let histories = ChangePointDetector().histories(Self.entries(toolchainAt5: "Swift version 6.4"))
        try HistorySite(histories, commitURL: "https://example.com/o/r/commit/{commit}").write(
            to: folder.path + "/site")
        let rendered = try ChildProcess.runKeepingErrors(
            [
                chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                "--virtual-time-budget=3000", "--user-data-dir=\(folder.path)/profile", "--dump-dom",
                "file://\(folder.path)/site/index.html",
            ], timeLimit: 120)
        let dom = String(decoding: rendered.output, as: UTF8.self)
        #expect(rendered.status == 0, "\(rendered.errors.suffix(2_000))")
        #expect(!rendered.errors.contains("Uncaught"), "\(rendered.errors.suffix(2_000))")
        #expect(!rendered.errors.contains(":ERROR:CONSOLE"), "\(rendered.errors.suffix(2_000))")
        let drawn = dom.range(of: #"data-drawn="(\d+)""#, options: .regularExpression).map { String(dom[$0]) }
        #expect(drawn != nil && drawn != #"data-drawn="0""#, "\(dom.prefix(500))")
        #expect(dom.contains("ParseBenchmarks/parse(n:) · parse"))
        #expect(dom.contains(">\(Self.commit(3).hash.prefix(7))<"), "the change's commit in the front table")
        #expect(dom.contains("regressed"))
    }
}
