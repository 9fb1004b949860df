import Foundation
import PerfKit

/// The `perfkit` command: parses the verb and its arguments, calls the library, sets the exit status:
/// 0 fine, 1 a regression under `--fail-on regression`, 2 usage or bad input, 3 a build or a
/// measured process failed.
let usage = """
    usage: perfkit <verb> [arguments]
      doctor                         machine fingerprint, allocator check, probe availability and costs
      stats FILE [FILE2]             ministat-style summary and comparison of numbers, one per line
      run                            measure the performance-tagged tests (release build)
      baseline save|list|show|delete store and inspect baselines under Baselines/
      compare BASELINE               compare a run or baseline against a baseline
      export RUNFILE --format F      github-action-benchmark (github-smaller, github-bigger) or Bencher JSON
      abba REV_A REV_B               compare two revisions in counterbalanced ABBA order
      calibrate                      measure this machine's noise with A/A comparisons
      demo                           run the calendar renderer suite and write Reports/calendar-renderer.md
      calendar fixture|layout        generate calendar workloads and lay them out
    """

let status: Int32
do {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let verb = arguments.first else { throw UsageError(usage) }
    if PackageRoot.verbs.contains(verb) { arguments = PackageRoot.enter(arguments) }
    let rest = Array(arguments.dropFirst())
    switch verb {
    case "doctor": status = try DoctorCommand.run(rest)
    case "stats": status = try StatsCommand.run(rest)
    case "run": status = try RunCommand.run(rest)
    case "baseline": status = try BaselineCommand.run(rest)
    case "compare": status = try CompareCommand.run(rest)
    case "export": status = try ExportCommand.run(rest)
    case "abba": status = try AbbaCommand.run(rest)
    case "calibrate": status = try CalibrateCommand.run(rest)
    case "demo": status = try DemoCommand.run(rest)
    case "calendar": status = try CalendarCommand.run(rest)
    case "help", "--help", "-h":
        Output.line(usage)
        status = 0
    default: throw UsageError("unknown verb '\(verb)'\n\(usage)")
    }
} catch let error as ChildFailure {
    Output.progress("perfkit: \(error)")
    status = 3
} catch {
    Output.progress("perfkit: \(error)")
    status = 2
}
exit(status)
