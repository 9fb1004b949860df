import Foundation
import PerfKit
import PerfKitCommandLine

/// `perfkit baseline save|list|show|delete`.
enum BaselineCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "baseline")
        let store = BaselineStore(root: parsed[.root] ?? "Baselines")
        guard let action = parsed.positionals.first else { throw UsageError("usage: \(parsed.verb.usage)") }
        switch action {
        case "save":
            try parsed.requirePositionals(2...2)
            let policy = BaselineStore.UpdatePolicy(
                rawValue: try parsed.choice(
                    .policy, BaselineStore.UpdatePolicy.allCases.map(\.rawValue), default: "all"))!
            let run = try RunFile.read(orLatest: parsed[.from])
            let name =
                parsed.has(.perToolchain)
                ? BaselineStore.perToolchainName(parsed.positionals[1], swiftVersion: run.environment.swiftVersion)
                : parsed.positionals[1]
            // The previous baseline comes from the save itself, under its lock: a delete racing the
            // save made a separate check-then-load fail 1 time in 30-40 with "no baseline named".
            let outcome = try store.saveReplacing(run, as: name, policy: policy, force: parsed.has(.force))
            let (written, previous) = (outcome.written, outcome.previous)
            Output.line("saved \(written.count) tests to \(store.root)/\(name) (policy \(policy.rawValue))")
            if let previous {
                let replaced = Set(previous.tests.map(\.id)).intersection(written).count
                Output.line(
                    "replaced \(replaced) of the \(previous.tests.count) tests of the previous '\(name)' (saved "
                        + "\(previous.savedAt) from \(previous.environment.commit.prefix(12)))"
                )
            }
        case "list":
            for name in store.list() { Output.line(name) }
        case "show":
            try parsed.requirePositionals(2...2)
            let baseline = try store.load(parsed.positionals[1])
            Output.line(
                "\(baseline.name): \(baseline.tests.count) tests, saved \(baseline.savedAt), "
                    + "\(baseline.environment.buildConfiguration) build at \(baseline.environment.commit.prefix(12)), "
                    + "Swift \(PackageBenchmarkThresholds.versionNumber(baseline.environment.swiftVersion)), "
                    + "\(baseline.environment.machine.summary)"
            )
            Output.line(RunSummary.table(baseline.tests).joined(separator: "\n"))
        case "delete":
            try parsed.requirePositionals(2...2)
            try store.delete(parsed.positionals[1])
            Output.line("deleted \(parsed.positionals[1])")
        default:
            throw UsageError("unknown baseline action '\(action)' (save, list, show, delete)")
        }
        return 0
    }
}
