import Foundation
import PerfKit
import PerfKitCommandLine

/// `perfkit bisect GOOD BAD --series NAME`: the first commit at which a count series changed.
enum BisectCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "bisect")
        try parsed.requirePositionals(2...2)
        // Named as the verb's usage names it (`--series NAME`), not as `history show`'s filter (REGEX).
        guard let selector = parsed[.series] else {
            throw UsageError("perfkit bisect needs --series NAME (perfkit bisect --help)")
        }
        let countSamples = try parsed.integer(.countSamples)
        let started = Date()
        let outcome = try Bisection.run(
            good: parsed.positionals[0], bad: parsed.positionals[1], selector: selector, countSamples: countSamples,
            buildSystem: try RunCommand.buildSystem(parsed), progress: Output.progress)
        let unit = Metric.instructions.unit
        let runs = outcome.steps.count
        guard let culprit = outcome.culprit, let step = outcome.culpritStep else {
            let last = outcome.steps.last
            Output.line(
                "\(outcome.series.description): \(parsed.positionals[1]) counts "
                    + "\(Format.value(last?.value ?? 0, unit)) per call, the same as "
                    + "\(parsed.positionals[0])'s \(Format.value(outcome.steps[0].value, unit)): nothing to bisect "
                    + "(\(runs) counting runs)"
            )
            return 0
        }
        let before = outcome.parent?.value ?? outcome.steps[0].value
        Output.line(
            "first commit where \(outcome.series.description) changed: \(culprit.prefix(12)) \"\(outcome.subject)\"")
        Output.line(
            "  \(Format.value(before, unit)) → \(Format.value(step.value, unit)) per call "
                + "(\(MarkdownReport.percent(step.value / before))); \(runs) counting runs in "
                + "\(Int(Date().timeIntervalSince(started))) s"
        )
        for s in outcome.steps { Output.line("  " + s.summaryLine(good: outcome.steps[0], unit: unit)) }
        if let parent = outcome.parent {
            let comparison = try Comparison(baseline: parent.tests, current: step.tests)
            var whereItWent = WhereItWent(comparison, baseline: parent.tests, current: step.tests)
            whereItWent.entries = whereItWent.entries.filter { $0.id == outcome.series }
            for line in whereItWent.plainLines { Output.line(line) }
        } else {
            Output.line(
                "  (the culprit's parent was not counted, so where it went is not shown: perfkit abba "
                    + "\(culprit.prefix(12))^ \(culprit.prefix(12)) --counts)"
            )
        }
        return 0
    }
}
