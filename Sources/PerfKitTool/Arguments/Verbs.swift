/// Every verb declared once: its positional arguments, options (with a value) and flags (without),
/// each with help text. The parser, `perfkit VERB --help`, usage errors with suggestions and the
/// README's command table (checked by a test) all come from this table.
struct Verb: Sendable {
    /// An option or flag.
    struct Option: Sendable {
        var name: String
        /// The value's placeholder (`FILE`, `N`); nil for a flag.
        var value: String?
        var help: String
    }

    var name: String
    /// What the verb does with its arguments (after the verb): returns the exit status.
    var run: @Sendable ([String]) throws -> Int32
    /// Positional arguments as shown in usage, for example `BASELINE` or `REV_A REV_B`.
    var positionals: String
    var summary: String
    var options: [Option]

    var optionNames: Set<String> { Set(options.filter { $0.value != nil }.map(\.name)) }
    var flagNames: Set<String> { Set(options.filter { $0.value == nil }.map(\.name)) }

    /// `perfkit NAME POSITIONALS [--option VALUE] [--flag]`.
    var usage: String {
        (["perfkit", name, positionals].filter { !$0.isEmpty } + options.map { "[--\($0.name)\($0.value.map { " " + $0 } ?? "")]" }).joined(separator: " ")
    }

    /// The text `perfkit NAME --help` prints.
    var help: String {
        var lines = ["usage: \(usage)", "", summary]
        if !options.isEmpty {
            lines.append("")
            let width = options.map { 2 + $0.name.count + ($0.value.map { $0.count + 1 } ?? 0) }.max() ?? 0
            for option in options {
                let left = "--\(option.name)" + (option.value.map { " " + $0 } ?? "")
                lines.append("  " + left.padding(toLength: width + 2, withPad: " ", startingAt: 0) + option.help)
            }
        }
        lines += ["", "Exit status: 0 fine, 1 a regression under --fail-on regression, 2 usage or bad input, 3 a build or measured process failed."]
        return lines.joined(separator: "\n")
    }

    static let all: [Verb] = [
        Verb(
            name: "doctor", run: DoctorCommand.run, positionals: "",
            summary: "Machine fingerprint, allocator check, probe availability and the cost of one read of each probe.",
            options: [
                .init(
                    name: "batching", value: nil,
                    help: "also check batched timing: a ~50 ns body through the runner against a 1,000,000-call loop, and an injected +3% change")
            ]),
        Verb(
            name: "stats", run: StatsCommand.run, positionals: "FILE [FILE2]",
            summary: "ministat-style summaries of number files (one number per line) and, with two, their comparison.",
            options: [
                .init(name: "format", value: "text|json|markdown|csv", help: "output format (default text)"),
                .init(name: "percentiles", value: "LIST", help: "extra percentiles, for example 50,90,99.9"),
                .init(name: "paired", value: nil, help: "pair the two files line by line: Wilcoxon and Hodges–Lehmann of the log ratios"),
            ]),
        Verb(
            name: "run", run: RunCommand.run, positionals: "",
            summary: "Builds the package in release and measures its .performance() tests in fresh processes; writes a run file.",
            options: [
                .init(name: "filter", value: "REGEX", help: "test IDs to measure (default 'Benchmarks/': suites whose names end in Benchmarks)"),
                .init(name: "iterations", value: "N", help: "samples per measured test, split over the processes (default: each test's own)"),
                .init(name: "processes", value: "N", help: "fresh processes the rounds are split over (default 8)"),
                .init(name: "output", value: "FILE", help: "run file (default .perfkit/runs/<time>.json; .perfkit/runs/latest.json is always written)"),
                .init(
                    name: "counts", value: nil, help: "also count simulated instructions per call, once more under valgrind (deterministic; about 50x slower)"),
                .init(name: "counts-only", value: nil, help: "count simulated instructions only (no timing processes)"),
                .init(
                    name: "shard", value: "I/N",
                    help: "measure part I of N of the matching tests (round-robin over sorted IDs); join the parts with perfkit merge"),
            ]),
        Verb(
            name: "merge", run: MergeCommand.run, positionals: "RUNFILE RUNFILE…",
            summary: "Joins the run files of a suite's shards (perfkit run --shard I/N) into one run file.",
            options: [
                .init(name: "output", value: "FILE", help: "the merged run file (default .perfkit/runs/latest.json)")
            ]),
        Verb(
            name: "baseline", run: BaselineCommand.run, positionals: "save NAME | list | show NAME | delete NAME",
            summary: "Stores and inspects baselines under Baselines/.",
            options: [
                .init(name: "from", value: "RUNFILE", help: "run file to save (default .perfkit/runs/latest.json)"),
                .init(name: "policy", value: "all|failed|missing|never", help: "which stored tests a save replaces (default all)"),
                .init(name: "force", value: nil, help: "save results of a debug build"),
                .init(name: "root", value: "DIR", help: "baseline folder (default Baselines)"),
            ]),
        Verb(
            name: "compare", run: CompareCommand.run, positionals: "BASELINE",
            summary: "Compares a run (or a second baseline) against a stored baseline; prints the answer, writes reports.",
            options: [
                .init(name: "current", value: "RUNFILE", help: "run file to compare (default .perfkit/runs/latest.json)"),
                .init(name: "with", value: "BASELINE2", help: "compare a second stored baseline instead of a run file"),
                .init(name: "markdown", value: "FILE", help: "PR-sized Markdown report (a -full.md companion and SVG charts go beside it)"),
                .init(name: "csv", value: "FILE", help: "CSV summary (a -raw.csv with every sample goes beside it)"),
                .init(name: "json", value: "FILE", help: "the comparison as JSON (schema version 1)"),
                .init(name: "fail-on", value: "regression", help: "exit 1 when a series regressed"),
                .init(name: "allow-other-machine", value: nil, help: "judge timing even when the baseline comes from another machine"),
                .init(name: "noise", value: "FILE", help: "noise bands from perfkit calibrate (compare never goes below ±5%)"),
                .init(name: "root", value: "DIR", help: "baseline folder (default Baselines)"),
            ]),
        Verb(
            name: "export", run: ExportCommand.run, positionals: "RUNFILE", summary: "Exports a run file for github-action-benchmark or Bencher.",
            options: [
                .init(name: "format", value: "github-smaller|github-bigger|bencher", help: "export format"),
                .init(name: "output", value: "FILE", help: "where to write (default standard output)"),
            ]),
        Verb(
            name: "abba", run: AbbaCommand.run, positionals: "REV_A REV_B",
            summary:
                "Builds two revisions in their own worktrees and measures them process by process in counterbalanced ABBA rounds until every series is decided; B is compared against A.",
            options: [
                .init(
                    name: "max-rounds", value: "N", help: "most ABBA rounds; looks at 10, 16, 24, 36, … rounds stop once every series is decided (default 400)"),
                .init(
                    name: "time-budget", value: "SECONDS",
                    help: "seconds of measuring; a look that would end later is cut to the rounds that fit, or not taken (default 300)"),
                .init(name: "rounds", value: "N", help: "a fixed number of rounds instead, at least 6: one look, no early stop"),
                .init(name: "filter", value: "REGEX", help: "test IDs to measure (default 'Benchmarks/')"),
                .init(name: "iterations", value: "N", help: "samples per measured test in each process (default: each test's own)"),
                .init(name: "markdown", value: "FILE", help: "PR-sized Markdown report"),
                .init(name: "csv", value: "FILE", help: "CSV summary and raw samples"),
                .init(name: "json", value: "FILE", help: "the comparison as JSON"),
                .init(name: "fail-on", value: "regression", help: "exit 1 when a series regressed"),
                .init(name: "seed", value: "N", help: "seed of the ABBA block phase"),
                .init(name: "noise", value: "FILE", help: "noise bands from perfkit calibrate (default ±1%)"),
                .init(name: "env-a", value: "KEY=VALUE,…", help: "extra environment for A's processes (test-only, for example an injected slowdown)"),
                .init(name: "env-b", value: "KEY=VALUE,…", help: "extra environment for B's processes"),
                .init(name: "counts", value: nil, help: "compare simulated instruction counts instead: one counting process per side, no timing rounds"),
            ]),
        Verb(
            name: "history", run: HistoryCommand.run, positionals: "record | show",
            summary: "Keeps a branch's history (one entry per commit, machine and series) and prints the commits where series changed.",
            options: [
                .init(name: "store", value: "FILE|URL", help: "SQLite file or postgres:// URL (default $PERFKIT_HISTORY, else .perfkit/history.sqlite)"),
                .init(name: "from", value: "RUNFILE", help: "record: the run file (default .perfkit/runs/latest.json)"),
                .init(name: "commit", value: "REV", help: "record: the commit it measured (default the run file's)"),
                .init(name: "series", value: "REGEX", help: "show: only series whose names match"),
                .init(name: "machine", value: "ID", help: "show: only this machine's history"),
                .init(name: "markdown", value: "FILE", help: "show: a Markdown report with an SVG trend per changed series beside it"),
                .init(name: "fail-on", value: "change", help: "show: exit 1 when a series has a change point"),
            ]),
        Verb(
            name: "bisect", run: BisectCommand.run, positionals: "GOOD BAD",
            summary: "Finds the first commit between GOOD and BAD at which a count series changed: git bisect with a counting run per step, in a worktree.",
            options: [
                .init(
                    name: "series", value: "NAME", help: "the test (Suite/test()) when it has one count series, else the series' name from perfkit history show"
                ),
                .init(name: "iterations", value: "N", help: "samples per counting run (default: the test's own)"),
            ]),
        Verb(
            name: "calibrate", run: CalibrateCommand.run, positionals: "",
            summary: "Builds HEAD twice in separate worktrees, measures their paired A/A noise per series, stores it as noise bands.",
            options: [
                .init(name: "rounds", value: "N", help: "ABBA rounds per A/A comparison (default 24)"),
                .init(name: "repeats", value: "N", help: "A/A comparisons (default 1: bands from the CI model; 20 or more: empirical)"),
                .init(name: "filter", value: "REGEX", help: "test IDs to measure"),
                .init(name: "iterations", value: "N", help: "samples per measured test in each process"),
                .init(name: "output", value: "FILE", help: "noise-band file (default .perfkit/noise/<machine>.json)"),
            ]),
        Verb(
            name: "demo", run: DemoCommand.run, positionals: "",
            summary: "Measures the calendar renderer suite and writes Reports/calendar-renderer.md (what make demo runs).",
            options: [
                .init(name: "iterations", value: "N", help: "samples per measured test"),
                .init(name: "processes", value: "N", help: "fresh processes (default 8)"),
                .init(name: "memory-rounds", value: "N", help: "ABBA rounds of the process-memory measurement (default 8)"),
                .init(name: "baseline", value: "NAME", help: "baseline to compare against (default main)"),
                .init(name: "markdown", value: "FILE", help: "Markdown report (default Reports/calendar-renderer.md; its CSV and charts beside it)"),
                .init(name: "save-baseline", value: nil, help: "save this run as the baseline"),
                .init(name: "no-counts", value: nil, help: "skip the counting pass (simulated instructions under valgrind, about 5 minutes)"),
            ]),
        Verb(
            name: "calendar", run: CalendarCommand.run, positionals: "fixture|layout|history|memory|edit",
            summary: "Calendar workloads: generate fixtures, lay events out, and the demo's child processes.",
            options: [
                .init(name: "kind", value: "varied|history", help: "fixture: which workload"),
                .init(name: "days", value: "N", help: "days of the workload or layout window"),
                .init(name: "seed", value: "N", help: "fixture seed"),
                .init(name: "events", value: "FILE", help: "layout: the events file"),
                .init(name: "time-zone", value: "TZ", help: "time zone of local times"),
                .init(name: "first-day", value: "DATE", help: "layout: first day (yyyy-MM-dd)"),
                .init(name: "width", value: "W", help: "layout: track width"),
                .init(name: "collapsed-hour-width", value: "W", help: "layout: width of an empty hour"),
                .init(name: "max-lanes", value: "N", help: "layout: lane limit (+N chips beyond it)"),
                .init(name: "format", value: "json|svg", help: "layout: output format"),
                .init(name: "now", value: "DATE", help: "layout: the current time line"),
                .init(name: "output", value: "FILE", help: "where to write (default standard output)"),
                .init(name: "policy", value: "reference|native", help: "memory: the viewport policy"),
                .init(name: "journal", value: "FILE", help: "edit: the journal file"),
                .init(name: "moves", value: "N", help: "edit: moves to make"),
            ]),
    ]

    /// The verb called `name`.
    static func named(_ name: String) -> Verb? { all.first { $0.name == name } }

    /// The overview `perfkit --help` prints.
    static var overview: String {
        let width = all.map(\.name.count).max() ?? 0
        return
            (["usage: perfkit <verb> [arguments]   (perfkit <verb> --help for its options)", ""]
            + all.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }).joined(separator: "\n")
    }
}

/// `perfkit VERB --help`: not an error; the caller prints the verb's help and exits 0.
struct HelpRequested: Error {
    var verb: Verb
}

/// The nearest of `candidates` to `word` by edit distance, when it is close enough to be a typo.
func nearest(_ word: String, in candidates: some Sequence<String>) -> String? {
    func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() { current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))) }
            previous = current
        }
        return previous[b.count]
    }
    let scored = candidates.map { ($0, distance(Array(word), Array($0))) }.min { $0.1 < $1.1 }
    guard let (best, d) = scored, d <= max(2, word.count / 3) else { return nil }
    return best
}
