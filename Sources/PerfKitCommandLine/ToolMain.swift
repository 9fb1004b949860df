import Foundation
import PerfKit

/// A tool's `main`: parses the verb, runs it, prints errors on one line and exits with the status
/// ``ExitStatus`` lists.
package enum ToolMain {
    /// Runs the verb named by the first argument and exits.
    /// - Parameters:
    ///   - table: The tool's verbs.
    ///   - enter: Rewrites the arguments of a verb before it runs (for example moving to the package root).
    ///   - moved: Verbs that moved to another tool, with the one line that says where.
    package static func run(_ table: VerbTable, enter: ([String]) -> [String] = { $0 }, moved: [String: String] = [:])
        -> Never
    {
        Interrupts.install(tool: table.tool)
        // What a perfkit killed with SIGKILL left running (its measured or counting processes), and its temporary
        // folders, are stopped and removed before anything else.
        OrphanRecords.stopOrphans()
        CountingFolder.sweepDead(environment: ProcessInfo.processInfo.environment)
        LiveProgress.start()
        let status: Int32
        do {
            let arguments = enter(Array(CommandLine.arguments.dropFirst()))
            guard let name = arguments.first else { throw UsageError(table.overview) }
            let rest = Array(arguments.dropFirst())
            if ["help", "--help", "-h"].contains(name) {
                Output.line(table.overview)
                status = 0
            } else if let verb = table.named(name) {
                status = try verb.run(rest)
            } else if let note = moved[name] {
                throw UsageError(note)
            } else {
                let suggestion = nearest(name, in: table.verbs.map(\.name)).map { "; did you mean \($0)?" } ?? ""
                throw UsageError("unknown verb '\(name)'\(suggestion) (\(table.tool) --help lists the verbs)")
            }
        } catch let request as HelpRequested {
            Output.line(request.verb.help)
            status = 0
        } catch let error as OrchestrationError {
            Interrupts.deferToHandler()  // a child ended by the interrupt is not the error to report
            Output.progress("\(table.tool): \(error)")
            status = error.isChildFailure ? ExitStatus.childFailed : ExitStatus.badInput
        } catch let error as any ExitStatusError {
            Interrupts.deferToHandler()
            Output.progress("\(table.tool): \(error)")
            status = error.exitStatus
        } catch let error as GitError {
            Interrupts.deferToHandler()
            Output.progress("\(table.tool): \(error)")
            status = ExitStatus.badInput
        } catch {
            Interrupts.deferToHandler()
            Output.progress("\(table.tool): \(error)")
            status = ExitStatus.badInput
        }
        Interrupts.deferToHandler()
        exit(status)
    }
}
