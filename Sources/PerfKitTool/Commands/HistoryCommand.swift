import Foundation
import PerfKit
import PerfKitCommandLine
import PerfKitHistory

/// `perfkit history record|show`: a branch's history in a store (SQLite file or PostgreSQL URL).
enum HistoryCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "history")
        guard let action = parsed.positionals.first else { throw UsageError("usage: \(parsed.verb.usage)") }
        try parsed.requirePositionals(1...1)
        let location =
            parsed[.store] ?? ProcessInfo.processInfo.environment["PERFKIT_HISTORY"] ?? HistoryStore.defaultLocation
        switch action {
        case "record":
            let path = parsed[.from] ?? RunFile.latestPath
            let run = try RunFile.read(from: path)
            guard !run.environment.dirty, !run.environment.commit.hasSuffix("+dirty") else {
                throw UsageError(
                    "\(path): measured a working tree with uncommitted changes; history records commits (commit, then perfkit run)"
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
            let store = try HistoryStore(location, create: true)
            try store.record(entries)
            Output.line(
                "recorded \(entries.count) series of commit \(commit.position) \(commit.hash.prefix(12)) on machine \(run.environment.machine.identifier) in \(store.location)"
            )
        case "show":
            let store = try HistoryStore(location, create: false)
            var histories = ChangePointDetector().histories(try store.entries(machine: parsed[.machine]))
            if let pattern = parsed[.series] {
                guard let regex = try? NSRegularExpression(pattern: pattern) else {
                    throw UsageError("--series '\(pattern)' is not a regular expression")
                }
                histories = histories.filter { h in
                    let name = HistoryReport.name(h.series)
                    return regex.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
                }
            }
            Output.progress("perfkit history: \(store.location)")
            for line in HistoryReport.text(histories) { Output.line(line) }
            if let markdown = parsed[.markdown] {
                try OutputPath.validate(markdown)
                var charts: [String: String] = [:]
                let stem = markdown.hasSuffix(".md") ? String(markdown.dropLast(3)) : markdown
                for (n, history) in histories.filter({ !$0.changes.isEmpty }).enumerated() {
                    let file = "\(stem)-trend-\(n + 1).svg"
                    try StoredFile.writeAtomically(Data(TrendChart.svg(history).utf8), to: file)
                    charts[history.machine + "|" + history.series.storageKey] =
                        URL(fileURLWithPath: file).lastPathComponent
                }
                try StoredFile.writeAtomically(
                    Data(HistoryReport.markdown(histories, charts: charts).utf8), to: markdown)
                Output.line("report: \(markdown) (\(charts.count) trend charts beside it)")
            }
            let changed = histories.contains { !$0.changes.isEmpty }
            return parsed[.failOn] != nil && changed ? 1 : 0
        default:
            throw UsageError("unknown history action '\(action)' (record, show)")
        }
        return 0
    }
}
