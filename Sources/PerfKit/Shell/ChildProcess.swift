import Foundation
import PerfKitCore
import Synchronization

/// Runs child processes.
///
/// Short queries whose output is read (git, `swift --version`) and long jobs whose output is shown on standard error
/// (release builds, measured test bundles).
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
        /// Passed to this process's standard error and also returned (a build's log, read for its
        /// first error).
        case standardErrorAndCapture
    }

    /// What a finished child printed and how it ended.
    package struct Finished: Sendable {
        /// The exit status (or the signal's number when ``signalled``).
        package var status: Int32
        /// Whether a signal ended it.
        package var signalled: Bool
        /// Its standard output, when captured.
        package var output: Data
        /// The tail of its standard error (at most ``errorTail`` bytes), kept whether or not it was shown.
        package var errors: String
        /// Whether it ran past its time limit and was killed for it.
        package var timedOut = false
        /// Whether processes it left in its process group (a forked child) were stopped when it exited.
        package var stoppedLeftovers = false

        /// A finished child (``runKeepingErrors(_:in:environment:output:showErrors:replacingEnvironment:)`` makes the
        /// real ones).
        /// How the process ended, for a message: "exit 1", or "killed by signal 9 (SIGKILL: the system may have run
        /// out of memory)".
        package var ending: String {
            guard signalled else { return "exit \(status)" }
            switch status {
            case 9: return "killed by signal 9 (SIGKILL: the system may have run out of memory)"
            case 15: return "killed by signal 15 (SIGTERM)"
            case 6: return "killed by signal 6 (SIGABRT)"
            case 11: return "killed by signal 11 (SIGSEGV)"
            default: return "killed by signal \(status)"
            }
        }

        package init(status: Int32, signalled: Bool, output: Data, errors: String) {
            self.status = status
            self.signalled = signalled
            self.output = output
            self.errors = errors
        }
    }

    /// The longest a measured or counting process may run before it is killed: one hour, or
    /// `PERFKIT_PROCESS_TIME_LIMIT` seconds.
    package static var processTimeLimit: Double {
        ProcessInfo.processInfo.environment["PERFKIT_PROCESS_TIME_LIMIT"].flatMap(Double.init).flatMap {
            $0 > 0 ? $0 : nil
        } ?? 3_600
    }

    /// How much of a child's standard error ``Finished/errors`` keeps.
    package static let errorTail = 64 * 1024

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
        // The child's standard error is wired straight to this process's (or discarded), never through
        // a pipe and a reader thread: measured test bundles run through here while they are timed.
        let finished = try runKeepingErrors(
            arguments, in: directory, environment: environment, output: output, showErrors: showErrors,
            replacingEnvironment: replacingEnvironment, keepErrors: false)
        return (finished.status, finished.output)
    }

    /// Runs a child, keeping the tail of its standard error and how it ended.
    ///
    /// ``run(_:in:environment:output:showErrors:replacingEnvironment:)``, keeping the tail of the
    /// child's standard error (passed on too when `showErrors`) and how it ended.
    /// - Parameter keepErrors: Whether to read standard error through a pipe to keep its tail
    ///   (false: wired straight through, ``Finished/errors`` empty).
    package static func runKeepingErrors(
        _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
        output: Output = .capture, showErrors: Bool = false,
        replacingEnvironment: Bool = false, keepErrors: Bool = true, timeLimit: Double? = nil,
        stopWhen: (@Sendable () -> Bool)? = nil
    ) throws -> Finished {
        let process = configured(
            arguments, in: directory, environment: environment, replacingEnvironment: replacingEnvironment)
        let errorPipe = Pipe()
        process.standardError =
            keepErrors ? errorPipe : showErrors ? FileHandle.standardError : FileHandle.nullDevice
        let pipe = Pipe()
        switch output {
        case .capture, .standardErrorAndCapture: process.standardOutput = pipe
        case .standardError: process.standardOutput = FileHandle.standardError
        case .discard: process.standardOutput = FileHandle.nullDevice
        }
        try process.run()
        let pid = process.processIdentifier
        if !ChildRegistry.started(pid) { kill(-pid, SIGTERM) }  // an interrupt came first
        defer { ChildRegistry.ended(pid) }
        // Past its limit the child's whole process group is killed (SIGKILL: valgrind's children
        // inherit an ignored SIGTERM), so a deadlocked test ends the run with an error, never a hang.
        let expired = Mutex(false)
        let watchdog = DispatchWorkItem {
            expired.withLock { $0 = true }
            kill(-pid, SIGKILL)  // Foundation makes the child its group's leader
        }
        if let timeLimit { DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: watchdog) }
        defer { watchdog.cancel() }
        // A condition polled four times a second while the child runs (a test past its own limit): when it holds, the
        // child's group is killed as for the time limit.
        let running = Mutex(true)
        defer { running.withLock { $0 = false } }
        if let stopWhen {
            DispatchQueue.global().async {
                while running.withLock({ $0 }) {
                    usleep(250_000)
                    if running.withLock({ $0 }) && stopWhen() {
                        expired.withLock { $0 = true }
                        kill(-pid, SIGKILL)
                        return
                    }
                }
            }
        }
        // Standard error is drained on a thread of its own while standard output is read here: a
        // child that fills either pipe would otherwise never exit.
        let tail = Mutex(Data())
        let drained = DispatchSemaphore(value: 0)
        if keepErrors {
            let reader = errorPipe.fileHandleForReading
            DispatchQueue.global().async {
                keepTail(of: reader, in: tail, showing: showErrors)
                drained.signal()
            }
        } else {
            drained.signal()
        }
        // Standard output is read on a thread too, so the child's own exit, not the end of its pipes, ends the wait: a
        // process the child forked holds the pipes for its own lifetime.
        let captured = Mutex(Data())
        let read = DispatchSemaphore(value: 0)
        switch output {
        case .capture, .standardErrorAndCapture:
            let reader = pipe.fileHandleForReading
            let echo = output == .standardErrorAndCapture
            DispatchQueue.global().async {
                readChunks(of: reader) { chunk in
                    if echo { FileHandle.standardError.write(chunk) }
                    captured.withLock { $0.append(chunk) }
                }
                read.signal()
            }
        case .standardError, .discard: read.signal()
        }
        process.waitUntilExit()
        // What the child left in its process group (a forked child that sleeps) ends with it.
        let leftovers = kill(-pid, 0) == 0
        if leftovers { kill(-pid, SIGKILL) }
        _ = read.wait(timeout: .now() + 5)
        _ = drained.wait(timeout: .now() + 5)
        var finished = Finished(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            output: captured.withLock { $0 }, errors: String(decoding: tail.withLock { $0 }, as: UTF8.self))
        finished.timedOut = expired.withLock { $0 }
        finished.stoppedLeftovers = leftovers
        return finished
    }

    /// A process running `arguments` through `/usr/bin/env` in `directory`.
    ///
    /// A process running `arguments` through `/usr/bin/env` in `directory`, with `environment`
    /// added to this process's (or alone, when `replacingEnvironment`).
    static func configured(
        _ arguments: [String], in directory: String?, environment: [String: String], replacingEnvironment: Bool
    ) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if replacingEnvironment {
            process.environment = environment
        } else if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        return process
    }

    /// Reads `reader` to its end, keeping its last ``errorTail`` bytes in `tail`.
    ///
    /// Reads `reader` to its end, keeping its last ``errorTail`` bytes in `tail` (a `Mutex`: the
    /// reading thread writes it, the caller reads it after the child ends), passing each chunk on
    /// to this process's standard error when `showing`.
    static func keepTail(of reader: FileHandle, in tail: borrowing Mutex<Data>, showing: Bool) {
        readChunks(of: reader) { chunk in
            if showing { FileHandle.standardError.write(chunk) }
            tail.withLock { kept in
                kept.append(chunk)
                if kept.count > errorTail { kept.removeFirst(kept.count - errorTail) }
            }
        }
    }

    /// Reads `reader` to its end, a chunk at a time, retrying a read a signal interrupted.
    ///
    /// Foundation's `availableData` stops the process on `EINTR` ("Interrupted system call": a SIGCHLD handler of the
    /// process, while a counting test ran several children at once).
    static func readChunks(of reader: FileHandle, _ each: (Data) -> Void) {
        let descriptor = reader.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            each(Data(buffer[0..<count]))
        }
    }

    /// Runs a short command and returns its trimmed standard output, or `nil` when it cannot be
    /// started or exits with a non-zero status.
    package static func output(_ arguments: [String], in directory: String? = nil) -> String? {
        guard let (status, data) = try? run(arguments, in: directory), status == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The last non-empty lines of `text`, joined into one line (for quoting a child's last words).
    package static func lastWords(_ text: String, lines: Int = 2) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .suffix(lines).joined(separator: " / ")
    }
}
