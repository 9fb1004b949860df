import Foundation
import PerfKit

/// The `perfkit` command: parses the verb and its arguments, calls the library, sets the exit status:
/// 0 fine, 1 a regression under `--fail-on regression`, 2 usage or bad input, 3 a build or a
/// measured process failed.
let usage = Verb.overview

Interrupts.install()
let status: Int32
do {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let name = arguments.first else { throw UsageError(usage) }
    if PackageRoot.verbs.contains(name) { arguments = PackageRoot.enter(arguments) }
    let rest = Array(arguments.dropFirst())
    if ["help", "--help", "-h"].contains(name) {
        Output.line(usage)
        status = 0
    } else if let verb = Verb.named(name) {
        status = try verb.run(rest)
    } else {
        let suggestion = nearest(name, in: Verb.all.map(\.name)).map { "; did you mean \($0)?" } ?? ""
        throw UsageError("unknown verb '\(name)'\(suggestion) (perfkit --help lists the verbs)")
    }
} catch let request as HelpRequested {
    Output.line(request.verb.help)
    status = 0
} catch let error as OrchestrationError {
    Interrupts.deferToHandler()  // a child ended by the interrupt is not the error to report
    Output.progress("perfkit: \(error)")
    status = error.isChildFailure ? 3 : 2
} catch {
    Interrupts.deferToHandler()
    Output.progress("perfkit: \(error)")
    status = 2
}
Interrupts.deferToHandler()
exit(status)
