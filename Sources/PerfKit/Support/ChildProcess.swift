import Foundation

/// Runs child processes: short queries whose output is read (git, `swift --version`) and long jobs
/// whose output is shown on standard error (release builds, measured test bundles).
///
/// `package` so that the command line and the environment reader share one helper.
package enum ChildProcess {
    /// What happens to the child's standard output.
    package enum Output: Sendable {
        /// Read and returned to the caller.
        case capture
        /// Passed to this process's standard error, as progress.
        case standardError
        /// Discarded.
        case discard
    }

    /// Runs `arguments` (the first resolved through `PATH` by `/usr/bin/env`) and waits for it.
    /// - Parameters:
    ///   - arguments: The command and its arguments.
    ///   - directory: The working directory; the current one when `nil`.
    ///   - environment: Variables added to this process's environment.
    ///   - output: Where the child's standard output goes.
    ///   - showErrors: Whether the child's standard error is passed to this process's standard error.
    /// - Returns: The exit status and the captured standard output (empty unless `output` is `.capture`).
    /// - Throws: When the command cannot be started.
    package static func run(
        _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
        output: Output = .capture, showErrors: Bool = false,
        replacingEnvironment: Bool = false
    ) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if replacingEnvironment {
            process.environment = environment
        } else if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.standardError = showErrors ? FileHandle.standardError : FileHandle.nullDevice
        let pipe = Pipe()
        switch output {
        case .capture: process.standardOutput = pipe
        case .standardError: process.standardOutput = FileHandle.standardError
        case .discard: process.standardOutput = FileHandle.nullDevice
        }
        try process.run()
        let pid = process.processIdentifier
        if !ChildRegistry.started(pid) { kill(-pid, SIGTERM) }  // an interrupt came first
        defer { ChildRegistry.ended(pid) }
        // Read before waiting: a child that fills the pipe would otherwise never exit.
        let data = output == .capture ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// Runs a short command and returns its trimmed standard output, or `nil` when it cannot be
    /// started or exits with a non-zero status.
    package static func output(_ arguments: [String], in directory: String? = nil) -> String? {
        guard let (status, data) = try? run(arguments, in: directory), status == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
