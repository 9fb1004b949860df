#if History
import Foundation
import PerfKit
import PerfKitCommandLine
import PerfKitHistory

/// `perfkit history record|show|site`: a branch's history in a store (SQLite file or PostgreSQL URL).
enum HistoryCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "history")
        guard let action = parsed.positionals.first else { throw UsageError("usage: \(parsed.verb.usage)") }
        try parsed.requirePositionals(1...1)
        // An empty --store or PERFKIT_HISTORY is refused by the store's location, never replaced by the default.
        let location =
            parsed[.store] ?? ProcessInfo.processInfo.environment["PERFKIT_HISTORY"] ?? HistoryStore.defaultLocation
        switch action {
        case "record": return try record(parsed, location: location)
        case "show": return try show(parsed, location: location)
        case "site": return try site(parsed, location: location)
        default: throw UsageError("unknown history action '\(action)' (record, show, site)")
        }
    }

    /// `history record`: adds a run's series of one commit to the store.
    static func record(_ parsed: Arguments, location: String) throws -> Int32 {
        let path = parsed[.from] ?? RunFile.latestPath
        let stored = try StoreLocation(location)  // a bad location costs nothing: checked before the run file is read
        let run = try RunFile.read(from: path)
        guard !run.environment.dirty, !run.environment.commit.hasSuffix("+dirty") else {
            throw UsageError(
                "\(path): measured a working tree with uncommitted changes; history records commits (commit, then "
                    + "perfkit run)"
            )
        }
        let revision = parsed[.commit] ?? run.environment.commit
        let commit = try CommitInfo.read(revision)
        if parsed[.commit] == nil, !run.environment.commit.hasPrefix(commit.hash),
            run.environment.commit != "unknown"
        {
            throw UsageError(
                "\(path): measured commit \(run.environment.commit.prefix(12)), which git here resolves differently"
            )
        }
        let entries = HistoryEntry.entries(of: run, commit: commit, recorded: Date())
        guard !entries.isEmpty else { throw UsageError("\(path): no series to record") }
        let store = try HistoryStore(stored, create: true)
        try store.record(entries)
        Output.line(
            "recorded \(entries.count) series of commit \(commit.position) \(commit.hash.prefix(12)) on machine "
                + "\(run.environment.machine.identifier) in \(store.location)"
        )
        return ExitStatus.fine
    }

    /// `history show`: the change points of every series, with `--fail-on change` judging the newest
    /// recorded commit of each machine.
    static func show(_ parsed: Arguments, location: String) throws -> Int32 {
        let failOnChange = parsed[.failOn] != nil
        if failOnChange { _ = try parsed.choice(.failOn, ["change"], default: "change") }
        let series = try parsed[.series].map { pattern in
            // The user's pattern: refused just below with a usage error naming it.
            guard let regex = try? NSRegularExpression(pattern: pattern) else {
                throw UsageError("--series '\(pattern)' is not a regular expression")
            }
            return regex
        }
        let stored = try StoreLocation(location)
        if let markdown = parsed[.markdown] {
            // The report must never replace the store (or anything else it reads).
            let inputs: [String] = if case .sqlite(let file) = stored { [file] } else { [] }
            try OutputPath.check([markdown], inputs: inputs)
        }
        let store = try HistoryStore(stored, create: false)
        var entries = try store.entries(machine: parsed[.machine])
        if let series {
            entries = entries.filter { e in
                let name = HistoryReport.name(e.series)
                return series.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
            }
        }
        let histories = ChangePointDetector().histories(entries)
        let growth = HistoryGrowth.changes(entries)
        Output.progress("perfkit history: \(store.location)")
        for line in HistoryReport.text(histories, growth: growth) { Output.line(line) }
        if let markdown = parsed[.markdown] { try writeMarkdown(histories, growth: growth, to: markdown) }
        guard failOnChange else { return ExitStatus.fine }
        let newest = ChangePointDetector.changedAtNewestCommit(histories)
        let faster = HistoryGrowth.fasterAtNewestCommit(growth, entries: entries)
        if !newest.isEmpty || !faster.isEmpty {
            let names =
                newest.map { HistoryReport.name($0.series) }
                + faster.map { "growth of " + SeriesID.shortTest($0.change.key.function) }
            let what = [
                newest.isEmpty ? nil : "\(newest.count) series changed",
                faster.isEmpty ? nil : "\(faster.count) function\(faster.count == 1 ? "" : "s") grew faster",
            ].compactMap { $0 }.joined(separator: " and ")
            Output.progress(
                "perfkit history: exit 1: \(what) at the newest recorded commit: "
                    + names.prefix(3).joined(separator: "; "))
            return ExitStatus.regression
        }
        return ExitStatus.fine
    }

    /// `history site --output DIR`: a static, offline site of the store (``HistorySite``).
    static func site(_ parsed: Arguments, location: String) throws -> Int32 {
        guard let folder = parsed[.output] else { throw UsageError("history site needs --output DIR") }
        let template = parsed[.commitURL]
        if let template, !template.contains("{commit}") {
            throw UsageError("--commit-url must hold {commit} where the commit's hash goes, not '\(template)'")
        }
        let stored = try StoreLocation(location)
        if case .sqlite(let file) = stored {
            try OutputPath.check([folder + "/index.html"], inputs: [file])
        }
        let store = try HistoryStore(stored, create: false)
        let histories = ChangePointDetector().histories(try store.entries(machine: parsed[.machine]))
        let site = try HistorySite(histories, commitURL: template)
        try site.write(to: folder)
        Output.line(
            "site: \(folder)/index.html (\(site.counts.benchmarks) benchmarks, \(site.counts.charts) charts, "
                + "\(site.counts.changes) change points; open it from disk)")
        return ExitStatus.fine
    }

    /// The Markdown report, with one trend chart per changed series beside it (none beside a device).
    static func writeMarkdown(_ histories: [SeriesHistory], growth: [HistoryGrowthChange], to markdown: String)
        throws
    {
        var charts: [String: String] = [:]
        for (n, history) in histories.filter({ !$0.changes.isEmpty }).enumerated() {
            guard let file = OutputPath.companion(of: markdown, suffix: "-trend-\(n + 1).svg") else { break }
            try StoredFile.writeAtomically(Data(TrendChart.svg(history).utf8), to: file)
            charts[HistoryReport.chartKey(history)] = URL(fileURLWithPath: file).lastPathComponent
        }
        try StoredFile.writeAtomically(
            Data(HistoryReport.markdown(histories, growth: growth, charts: charts).utf8), to: markdown)
        Output.line("report: \(markdown) (\(charts.count) trend charts beside it)")
    }
}
#endif
