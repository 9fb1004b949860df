import Foundation
import PerfKit

/// The `perfkit` command: parses the verb and its arguments, calls the library, sets the exit status:
/// 0 fine, 1 a regression under `--fail-on regression`, 2 usage or bad input, 3 a build or a
/// measured process failed.
let usage = Verb.overview

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
    default:
        let suggestion = nearest(verb, in: Verb.all.map(\.name)).map { "; did you mean \($0)?" } ?? ""
        throw UsageError("unknown verb '\(verb)'\(suggestion) (perfkit --help lists the verbs)")
    }
} catch let request as HelpRequested {
    Output.line(request.verb.help)
    status = 0
} catch let error as OrchestrationError {
    Output.progress("perfkit: \(error)")
    status = error.isChildFailure ? 3 : 2
} catch {
    Output.progress("perfkit: \(error)")
    status = 2
}
exit(status)
