import Foundation
import PackagePlugin

/// `swift package perfkit <verb> …`: runs the `perfkit` command-line tool on the package the command is given in.
///
/// `perfkit` builds and runs that package's measured tests and writes `.perfkit/`, `Baselines/` and reports inside it,
/// so the command needs `--allow-writing-to-package-directory`.
@main
struct PerfKitPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "PerfKitTool")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        // `swift package` holds the lock of the package's .build while the plugin runs, so a
        // `swift build` from perfkit into .build would wait for it forever: build elsewhere.
        var environment = ProcessInfo.processInfo.environment
        environment["PERFKIT_SCRATCH_PATH"] = ".perfkit/build"
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Diagnostics.error("perfkit \(arguments.first ?? "") exited with status \(process.terminationStatus)")
            throw PluginFailure(status: process.terminationStatus)
        }
    }
}

/// perfkit's non-zero exit status, passed on so a CI step fails.
struct PluginFailure: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "perfkit exited with status \(status)" }
}
