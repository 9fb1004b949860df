import Foundation
import PackagePlugin

/// `swift package perfkit <verb> …`: runs the `perfkit` command-line tool on the package the command is given in.
///
/// `perfkit` builds and runs that package's measured tests and writes `.perfkit/`, `Baselines/` and reports inside it,
/// so the command needs `--allow-writing-to-package-directory`.
///
/// The plugin builds the tool itself (in debug, through SwiftPM) rather than declaring it a dependency, so that on a
/// first `run` or `build` the tests' release build (``ReleaseBuildAhead``) runs beside the tool's build, not after
/// it.
@main
struct PerfKitPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let ahead = ReleaseBuildAhead.start(in: context.package, arguments: arguments)
        let tool: URL
        do {
            tool = try toolURL()
        } catch {
            ahead?.stop()
            throw error
        }
        ahead?.waitUntilFinished()
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        // `swift package` holds the lock of the package's .build while the plugin runs, so a
        // `swift build` from perfkit into .build would wait for it forever: build elsewhere.
        var environment = ProcessInfo.processInfo.environment
        environment["PERFKIT_SCRATCH_PATH"] = ReleaseBuildAhead.scratch
        process.environment = environment
        // The tool's standard output passes through the plugin, all of it before SwiftPM's own line: written straight
        // through, `perfkit exited with status 4` once landed inside a table row.
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let reader = output.fileHandleForReading
        while case let chunk = reader.availableData, !chunk.isEmpty { FileHandle.standardOutput.write(chunk) }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Diagnostics.error("perfkit \(arguments.first ?? "") exited with status \(process.terminationStatus)")
            throw PluginFailure(status: process.terminationStatus)
        }
    }

    /// Builds the `perfkit` product in debug and returns its executable.
    private func toolURL() throws -> URL {
        let result = try packageManager.build(
            .product("perfkit"), parameters: .init(configuration: .debug, logging: .concise, echoLogs: true))
        guard result.succeeded,
            let tool = result.builtArtifacts.first(where: {
                $0.kind == .executable && $0.url.lastPathComponent == "perfkit"
            })
        else {
            throw PluginFailure(status: 3, reason: "the perfkit tool did not build")
        }
        return tool.url
    }
}

/// perfkit's non-zero exit status, passed on so a CI step fails.
struct PluginFailure: Error, CustomStringConvertible {
    var status: Int32
    var reason: String?
    var description: String { reason ?? "perfkit exited with status \(status)" }
}
