import PerfKit
import PerfKitCommandLine

/// The `perfkit` verbs' options, each declared once (a verb may give one its own help text).
extension Option {
    package static let allowOtherMachine = Option(
        flag: "allow-other-machine", help: "judge timing even when the baseline comes from another machine")
    package static let batching = Option(
        flag: "batching",
        help:
            "also check batched timing: a ~50 ns body through the runner against a 1,000,000-call loop, and an "
            + "injected +3% change"
    )
    package static let commit = Option(
        "commit", value: "REV", help: "record: the commit it measured (default the run file's)")
    package static let counts = Option(
        flag: "counts",
        help: "also count simulated instructions per call: \(CountingRun.summary), about 50x slower")
    package static let countSamples = Option(
        "count-samples", value: "N",
        help: "samples per arm and phase in each counting process (default \(SimulatedCounter.samplesPerArmAndPhase))")
    package static let countsOnly = Option(
        flag: "counts-only", help: "count simulated instructions only (no timing processes)")
    package static let csv = Option(
        "csv", value: "FILE", help: "CSV summary (a -raw.csv with every sample goes beside it)")
    package static let current = Option(
        "current", value: "RUNFILE", help: "run file to compare (default .perfkit/runs/latest.json)")
    package static let envA = Option(
        "env-a", value: "KEY=VALUE,…",
        help: "extra environment for A's processes (test-only, for example an injected slowdown)")
    package static let envB = Option("env-b", value: "KEY=VALUE,…", help: "extra environment for B's processes")
    package static let failOn = Option("fail-on", value: "regression", help: "exit 1 when a series regressed")
    package static let filter = Option(
        "filter", value: "REGEX",
        help: "test IDs to measure (default 'Benchmarks/': suites whose names end in Benchmarks)")
    package static let force = Option(flag: "force", help: "save results of a debug build")
    package static let asBudgets = Option(
        flag: "as-budgets", help: "print the limits as budget traits for each benchmark's @Test instead of checking")
    package static let toolchainFolder = Option(
        "toolchain-folder", value: "NAME", help: "check: the toolchain folder of --thresholds to use (default: found)")
    package static let tolerance = Option(
        "tolerance", value: "PERCENT",
        help: "check: widen every limit by PERCENT (a team's relative tolerance, kept in code by package-benchmark)")
    package static let traits = Option(
        "traits", value: "A,B", help: "build the package with these traits (SwiftPM's --traits); recorded in the run")
    package static let disableDefaultTraits = Option(
        flag: "disable-default-traits", help: "build without the package's default traits; recorded in the run")
    package static let buildSystem = Option(
        "build-system", value: "native|swiftbuild",
        help: "SwiftPM's build system for the release build (default: SwiftPM's); products found by asking SwiftPM")
    package static let commitURL = Option(
        "commit-url", value: "TEMPLATE",
        help: "site: each point's link, {commit} standing for its hash (https://github.com/o/r/commit/{commit})")
    package static let folded = Option(
        "folded", value: "DIR",
        help: "each changed count series' call stacks, both sides, in the folded format flamegraph.pl reads")
    package static let requireAll = Option(
        flag: "require-all", help: "check: fail (exit 1) when a limit names no measurement of the run")
    package static let perToolchain = Option(
        flag: "per-toolchain", help: "save as NAME.swift-MAJOR.MINOR, the baseline compare NAME uses for that toolchain"
    )
    package static let from = Option(
        "from", value: "RUNFILE", help: "run file to save (default .perfkit/runs/latest.json)")
    package static let json = Option("json", value: "FILE", help: "the comparison as JSON (schema version 1)")
    package static let machine = Option("machine", value: "ID", help: "show: only this machine's history")
    package static let maxRounds = Option(
        "max-rounds", value: "N",
        help: "most ABBA rounds; looks at 10, 16, 24, 36, … rounds stop once every series is decided (default 400)")
    package static let noise = Option(
        "noise", value: "FILE", help: "noise bands from perfkit calibrate (compare never goes below ±5%)")
    package static let paired = Option(
        flag: "paired", help: "pair the two files line by line: Wilcoxon and Hodges–Lehmann of the log ratios")
    package static let percentiles = Option(
        "percentiles", value: "LIST", help: "extra percentiles, for example 50,90,99.9")
    package static let repeats = Option(
        "repeats", value: "N", help: "A/A comparisons (default 1: bands from the CI model; 20 or more: empirical)")
    package static let root = Option("root", value: "DIR", help: "baseline folder (default Baselines)")
    package static let rounds = Option(
        "rounds", value: "N", help: "a fixed number of rounds instead, at least 6: one look, no early stop")
    package static let series = Option("series", value: "REGEX", help: "show: only series whose names match")
    package static let shard = Option(
        "shard", value: "I/N",
        help:
            "measure part I of N of the matching tests (round-robin over sorted IDs); join the parts with perfkit merge"
    )
    package static let store = Option(
        "store", value: "FILE|URL",
        help: "SQLite file or postgres:// URL (default $PERFKIT_HISTORY, else .perfkit/history.sqlite)")
    package static let thresholds = Option(
        "thresholds", value: "DIR|FILE",
        help:
            "package-benchmark threshold files (Thresholds/, a folder per toolchain, one toolchain's folder, or one "
            + "<Target>.<Benchmark>.p90.json) or a stored baseline's results.json (its p90s as limits)")
    package static let timeBudget = Option(
        "time-budget", value: "SECONDS",
        help:
            "seconds of measuring; a look that would end later is cut to the rounds that fit, "
            + "or not taken (default 300)"
    )
    package static let with = Option(
        "with", value: "BASELINE2", help: "compare a second stored baseline instead of a run file")
}
