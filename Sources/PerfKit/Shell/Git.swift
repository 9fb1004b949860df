import Foundation
import PerfKitCore

/// git, run as a child process.
///
/// Every failure is a ``GitError`` that quotes git's own words, and every revision reaches git after `--end-of-options`
/// (or verified first), never as an option.
package enum Git {
    /// Runs `git ARGUMENTS` (in `directory`) with messages in English (`LC_ALL=C`), so that what
    /// PerfKit quotes and reads is the same on every machine.
    /// - Returns: Its trimmed standard output.
    /// - Throws: ``GitError`` with git's standard error when it exits non-zero or cannot start.
    @discardableResult
    package static func run(_ arguments: [String], in directory: String? = nil) throws(GitError) -> String {
        let finished: ChildProcess.Finished
        do {
            finished = try ChildProcess.runKeepingErrors(
                ["git"] + arguments, in: directory, environment: ["LC_ALL": "C", "LANGUAGE": "C"])
        } catch {
            throw GitError(arguments: arguments, status: -1, said: "git cannot be started (is git installed?)")
        }
        guard finished.status == 0 else {
            let said = finished.errors.isEmpty ? String(decoding: finished.output, as: UTF8.self) : finished.errors
            throw GitError(arguments: arguments, status: finished.status, said: said)
        }
        return String(decoding: finished.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `git ARGUMENTS`, or nil when git fails (for questions whose failure is an answer: is this a
    /// repository, is A an ancestor of B).
    package static func answer(_ arguments: [String], in directory: String? = nil) -> String? {
        // A question git cannot answer (no repository, no such commit) has no answer.
        try? run(arguments, in: directory)
    }

    /// The commit `revision` names.
    /// - Throws: ``GitError`` quoting git (an unknown revision, not a repository, no git).
    package static func commit(_ revision: String, in directory: String? = nil) throws(GitError) -> String {
        try run(["rev-parse", "--verify", "--end-of-options", "\(revision)^{commit}"], in: directory)
    }

    /// Whether the repository at `directory` is a shallow clone (its history incomplete).
    package static func isShallow(in directory: String? = nil) -> Bool {
        answer(["rev-parse", "--is-shallow-repository"], in: directory) == "true"
    }

    /// The repository's top folder (absolute), or nil outside a repository.
    package static func topLevel(of directory: String? = nil) -> String? {
        answer(["rev-parse", "--show-toplevel"], in: directory)
    }
}

/// git failed: the command and git's own last words, on one line.
package struct GitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// git's arguments.
    package var arguments: [String]
    /// Its exit status (-1 when it could not start).
    package var status: Int32
    /// What git printed on standard error.
    package var said: String

    /// One line: `git rev-parse … failed (exit 128): fatal: …`.
    package var description: String {
        let words = ChildProcess.lastWords(said, lines: 2)
        let command = (["git"] + arguments.prefix(4)).joined(separator: " ") + (arguments.count > 4 ? " …" : "")
        return "\(command) failed (exit \(status))" + (words.isEmpty ? "" : ": \(words)")
    }
}
