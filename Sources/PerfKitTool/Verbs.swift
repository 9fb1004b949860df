import Foundation
import PerfKit
import PerfKitCommandLine

/// Every verb of `perfkit` declared once: its positional arguments, options (with a value) and flags (without), each
/// with help text.
///
/// The parser, `perfkit VERB --help`, usage errors with suggestions and the README's command table (checked by a test)
/// all come from this table.
extension VerbTable {
    /// Every `perfkit` verb.
    package static let perfkit = VerbTable(
        tool: "perfkit",
        exitStatus: ExitStatus.helpLine,
        verbs: [
            Verb(
                name: "doctor", run: DoctorCommand.run, positionals: "",
                summary:
                    "Machine fingerprint, allocator check, probe availability and the cost of one read of each probe.",
                options: [
                    .batching
                ]),
            Verb(
                name: "stats", run: StatsCommand.run, positionals: "FILE [FILE2]",
                summary:
                    "ministat-style summaries of number files (one number per line) and, with two, their comparison.",
                options: [
                    .format,
                    .percentiles,
                    .paired,
                ]),
            Verb(
                name: "run", run: measuring(RunCommand.run), positionals: "",
                summary:
                    "Builds the package in release and measures its .performance() tests in fresh processes; writes a "
                    + "run file.",
                options: [
                    .filter,
                    .samples,
                    .processes,
                    .output,
                    .counts,
                    .countsOnly,
                    .countSamples,
                    .shard,
                    .traits,
                    .disableDefaultTraits, .buildSystem,
                ]),
            Verb(
                name: "build", run: measuring(BuildCommand.run), positionals: "",
                summary:
                    "Builds the package's tests in release as run does, measuring nothing (through the plugin, a "
                    + "first build runs beside the tool's).",
                options: []),
            Verb(
                name: "merge", run: MergeCommand.run, positionals: "RUNFILE RUNFILE…",
                summary: "Joins the run files of a suite's shards (perfkit run --shard I/N) into one run file.",
                options: [
                    .output.help("the merged run file (default .perfkit/runs/latest.json)")
                ]),
            Verb(
                name: "baseline", run: BaselineCommand.run, positionals: "save NAME | list | show NAME | delete NAME",
                summary: "Stores and inspects baselines under Baselines/.",
                options: [
                    .from,
                    .policy,
                    .force,
                    .perToolchain,
                    .root,
                ]),
            Verb(
                name: "compare", run: CompareCommand.run, positionals: "BASELINE",
                summary:
                    "Compares a run (or a second baseline) against a stored baseline; prints the "
                    + "answer, writes reports.",
                options: [
                    .current,
                    .with,
                    .markdown,
                    .folded,
                    .csv,
                    .json,
                    .failOn,
                    .allowOtherMachine,
                    .noise,
                    .root,
                ]),
            Verb(
                name: "export", run: ExportCommand.run, positionals: "RUNFILE",
                summary:
                    "Exports a run file for github-action-benchmark or Bencher, or as package-benchmark's threshold "
                    + "files.",
                options: [
                    .format.value("github-smaller|github-bigger|bencher|thresholds", help: "export format"),
                    .output.help("where to write (default standard output; a folder for thresholds)"),
                ]),
            Verb(
                name: "check", run: CheckCommand.run, positionals: "",
                summary:
                    "Gates a run against package-benchmark's per-toolchain p90 threshold files; prints the "
                    + "difference table.",
                options: [.thresholds, .current, .asBudgets, .requireAll, .toolchainFolder, .tolerance]),
            Verb(
                name: "abba", run: measuring(AbbaCommand.run), positionals: "REV_A REV_B",
                summary:
                    "Builds two revisions in their own worktrees and measures them process by process in "
                    + "counterbalanced ABBA rounds until every series is decided; B is compared against A.",
                options: [
                    .maxRounds,
                    .timeBudget,
                    .rounds,
                    .filter.help("test IDs to measure (default 'Benchmarks/')"),
                    .samples.help("samples of each measured test in each round's process (default: each test's own)"),
                    .countSamples.help("with --counts: samples per arm and phase in each counting process"),
                    .markdown.help("PR-sized Markdown report"),
                    .folded.help("with --counts: each changed series' call stacks, both sides, in the folded format"),
                    .csv.help("CSV summary and raw samples"),
                    .json.help("the comparison as JSON"),
                    .failOn,
                    .seed,
                    .noise.help("noise bands from perfkit calibrate (default ±1%)"),
                    .envA,
                    .envB,
                    .buildSystem,
                    .counts.help(
                        "compare simulated instruction counts instead (each side: \(CountingRun.summary)); "
                            + "\(CountingRun.pairedSummary); no timing rounds; each side's run file is kept "
                            + "(\(AbbaSession.countedRunFile("A")), "
                            + "\(AbbaSession.countedRunFile("B"))) with its callgrind files beside it"
                    ),
                ]),
            Verb(
                name: "history", run: HistoryCommand.run, positionals: "record | show | site",
                summary:
                    "Keeps a branch's history (one entry per commit, machine and series) and prints the commits where "
                    + "series changed.",
                options: [
                    .store,
                    .from.help("record: the run file (default .perfkit/runs/latest.json)"),
                    .commit,
                    .series,
                    .machine,
                    .markdown.help("show: a Markdown report with an SVG trend per changed series beside it"),
                    .failOn.value(
                        "change", help: "show: exit 1 when the newest recorded commit is a change point of a series"),
                    .output.value("DIR", help: "site: the folder to write index.html into (made when missing)"),
                    .commitURL,
                ]),
            Verb(
                name: "bisect", run: measuring(BisectCommand.run), positionals: "GOOD BAD",
                summary:
                    "Finds the first commit between GOOD and BAD at which a count series changed: git bisect with a "
                    + "counting run per step, in a worktree.",
                options: [
                    .series.value(
                        "NAME",
                        help:
                            "the test (Suite/test()) when it has one count series, else the series' name from perfkit "
                            + "history show"
                    ),
                    .countSamples,
                    .buildSystem,
                ]),
            Verb(
                name: "calibrate", run: measuring(CalibrateCommand.run), positionals: "",
                summary:
                    "Builds HEAD twice in separate worktrees, measures their paired A/A noise per series, stores it "
                    + "as noise bands.",
                options: [
                    .rounds.help("ABBA rounds per A/A comparison (default 24)"),
                    .repeats,
                    .filter.help("test IDs to measure"),
                    .samples.help("samples of each measured test in each round's process (default: each test's own)"),
                    .output.help("noise-band file (default .perfkit/noise/<machine>.json)"),
                    .buildSystem,
                ]),
        ])
}

extension Arguments {
    /// Parses `arguments` against the `perfkit` verb called `name`.
    init(_ arguments: [String], verb name: String) throws { try self.init(arguments, verb: name, of: .perfkit) }
}

/// A measuring verb's body, run holding the package's ``MeasuringLock``: a second measurement in
/// the same package is refused at once, naming the first.
private func measuring(_ run: @escaping @Sendable ([String]) throws -> Int32) -> @Sendable ([String]) throws -> Int32 {
    { arguments in
        if arguments.contains("--help") || arguments.contains("-h") { return try run(arguments) }
        return try MeasuringLock.holding(
            directory: FileManager.default.currentDirectoryPath, command: CommandLine.arguments
        ) {
            try run(arguments)
        }
    }
}
