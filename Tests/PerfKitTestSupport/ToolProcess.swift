import Foundation

/// Runs one of the package's tools (built beside the test bundle) as a user would, capturing its
/// exit status and both outputs.
package struct ToolProcess: Sendable {
    /// The tool's executable name (`perfkit`, `calendar-demo`).
    package var tool: String

    /// A tool.
    package init(_ tool: String) { self.tool = tool }

    /// The executable beside the running test bundle.
    package var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(tool).path
    }

    /// Runs the tool with `arguments` in `directory`, with `environment` added to this process's.
    package func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard error is read on another thread: a tool that fills one pipe while the other is
        // read to its end would never exit.
        nonisolated(unsafe) var e = Data()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            e = err.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}

/// The `perfkit` tool.
package enum PerfkitProcess {
    /// Its executable.
    package static var executable: String { ToolProcess("perfkit").executable }

    /// Runs `perfkit ARGUMENTS` in `directory`, with `environment` added.
    package static func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try ToolProcess("perfkit").run(arguments, in: directory, environment: environment)
    }

    /// Starts `perfkit ARGUMENTS` in `directory` with its output discarded, for a test that kills
    /// it or runs several at once.
    /// - Parameters:
    ///   - arguments: The tool's arguments.
    ///   - directory: Its working directory.
    ///   - errors: Where its standard error goes (default: discarded).
    /// - Returns: The running process.
    /// - Throws: When the tool cannot be started.
    package static func start(_ arguments: [String], in directory: String, errors: Any = FileHandle.nullDevice) throws
        -> Process
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        return process
    }

    /// Runs another tool (`git`, found on PATH) and returns its standard output; fails the test's
    /// set-up when it does not exit 0.
    package static func runTool(_ arguments: [String], in directory: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        struct Failed: Error { var arguments: [String] }
        guard process.terminationStatus == 0 else { throw Failed(arguments: arguments) }
        return String(decoding: o, as: UTF8.self)
    }
}

/// The `calendar-demo` tool.
package enum CalendarDemoProcess {
    /// Its executable.
    package static var executable: String { ToolProcess("calendar-demo").executable }

    /// Runs `calendar-demo ARGUMENTS` in `directory`.
    package static func run(_ arguments: [String], in directory: String) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try ToolProcess("calendar-demo").run(arguments, in: directory)
    }
}
