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
        /// Where a child's standard output goes: `pipe` when it is read.
        func destination(_ pipe: Pipe) -> Any {
            switch self {
            case .capture, .standardErrorAndCapture: pipe
            case .standardError: FileHandle.standardError
            case .discard: FileHandle.nullDevice
            }
        }

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
        ///
        /// How the process ended, for a message: "exit 1", or "killed by signal 9 (SIGKILL: the system may have run out
        /// of memory)".
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
    ///   - replacingEnvironment: Whether `environment` is the child's whole environment instead of additions.
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
    /// - Parameters:
    ///   - arguments: The command and its arguments.
    ///   - directory: The working directory; the current one when `nil`.
    ///   - environment: Variables added to this process's environment.
    ///   - output: Where the child's standard output goes.
    ///   - showErrors: Whether the child's standard error is passed on too.
    ///   - replacingEnvironment: Whether `environment` is the child's whole environment instead of additions.
    ///   - keepErrors: Whether to read standard error through a pipe to keep its tail
    ///     (false: wired straight through, ``Finished/errors`` empty).
    ///   - timeLimit: Seconds after which the child is stopped (nil: none).
    ///   - stopWhen: Asked while the child runs; true stops it.
    /// - Returns: How the child ended, its captured output and its standard error's tail.
    /// - Throws: When the command cannot be started.
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
        process.standardOutput = output.destination(pipe)
        try process.run()
        let pid = process.processIdentifier
        if !ChildRegistry.started(pid) { kill(-pid, SIGTERM) }  // an interrupt came first
        defer { ChildRegistry.ended(pid) }
        // Past its limit the child's whole group is killed (SIGKILL: valgrind's children ignore SIGTERM).
        let expired = Shared(false)
        let watchdog = DispatchWorkItem {
            expired.set(true)
            kill(-pid, SIGKILL)  // Foundation makes the child its group's leader
        }
        if let timeLimit { DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: watchdog) }
        defer { watchdog.cancel() }
        // A condition polled while the child runs (a test past its own limit) kills the group as the limit does.
        let running = Shared(true)
        defer { running.set(false) }
        if let stopWhen { poll(stopWhen, while: running, expired: expired, group: pid) }
        // Standard error is drained on a thread of its own while standard output is read here: a
        // child that fills either pipe would otherwise never exit.
        let tail = Shared(Data())
        let drained = DispatchSemaphore(value: 0)
        drain(
            keepErrors ? Optional(errorPipe.fileHandleForReading) : nil, into: tail, showing: showErrors, done: drained)
        // Standard output is read on a thread too: the child's exit, not its pipes' end (a forked child's), ends the
        // wait.
        let captured = Shared(Data())
        let captures = output == .capture || output == .standardErrorAndCapture
        let read = DispatchSemaphore(value: 0)
        capture(
            captures ? Optional(pipe.fileHandleForReading) : nil, into: captured,
            echo: output == .standardErrorAndCapture,
            done: read)
        process.waitUntilExit()
        // What the child left in its process group (a forked child that sleeps) ends with it.
        let leftovers = kill(-pid, 0) == 0
        if leftovers { kill(-pid, SIGKILL) }
        _ = read.wait(timeout: .now() + 5)
        _ = drained.wait(timeout: .now() + 5)
        var finished = Finished(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            output: captured.get(), errors: String(decoding: tail.get(), as: UTF8.self))
        finished.timedOut = expired.get()
        finished.stoppedLeftovers = leftovers
        return finished
    }

    /// Polls `stopWhen` four times a second while `running` holds; when it holds, kills `group` as a time limit does.
    private static func poll(
        _ stopWhen: @escaping @Sendable () -> Bool, while running: Shared<Bool>, expired: Shared<Bool>, group pid: Int32
    ) {
        DispatchQueue.global().async {
            while running.get() {
                usleep(250_000)
                if running.get() && stopWhen() {
                    expired.set(true)
                    kill(-pid, SIGKILL)
                    return
                }
            }
        }
    }

    /// Keeps the tail of `reader` on a thread of its own (shown when `showing`), then signals `done`.
    ///
    /// Without a reader, at once: a semaphore is made at 0 and signalled, since libdispatch traps on one disposed below
    /// its starting value.
    private static func drain(_ reader: FileHandle?, into tail: Shared<Data>, showing: Bool, done: DispatchSemaphore) {
        guard let reader else { return _ = done.signal() }
        DispatchQueue.global().async {
            keepTail(of: reader, in: tail.mutex, showing: showing)
            done.signal()
        }
    }

    /// Reads `reader` to its end on a thread of its own into `captured` (and to standard error when `echo`), then
    /// signals `done`.
    private static func capture(
        _ reader: FileHandle?, into captured: Shared<Data>, echo: Bool, done: DispatchSemaphore
    ) {
        guard let reader else { return _ = done.signal() }
        DispatchQueue.global().async {
            readChunks(of: reader) { chunk in
                if echo { FileHandle.standardError.write(chunk) }
                captured.mutex.withLock { $0.append(chunk) }
            }
            done.signal()
        }
    }

    /// A process running `arguments` through `/usr/bin/env` in `directory`.
    ///
    /// Its environment is `environment`
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
    /// `tail` is a `Mutex`: the
    /// reading thread writes it, the caller reads it after the child ends. Each chunk is
    /// passed on to this process's standard error when `showing`.
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
        // A command that cannot start answers nothing, as one that fails does.
        guard let (status, data) = try? run(arguments, in: directory), status == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The last non-empty lines of `text`, joined into one line (for quoting a child's last words).
    package static func lastWords(_ text: String, lines: Int = 2) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .suffix(lines).joined(separator: " / ")
    }
}

/// A value the threads of one child's run share (a flag, the captured output), in a class a closure can hold.
///
/// Behind a mutex, since the reader threads and the caller's thread touch it.
final class Shared<Held: Sendable>: Sendable {
    let mutex: Mutex<Held>
    init(_ value: Held) { mutex = Mutex(value) }
    func get() -> Held { mutex.withLock { $0 } }
    func set(_ value: Held) { mutex.withLock { $0 = value } }
}
