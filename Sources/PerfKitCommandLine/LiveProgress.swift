import Foundation
import PerfKit
import Synchronization

/// Draws ``ProgressBoard``'s steps as they run: a live line on a terminal, plain lines in a log.
///
/// On a terminal the line is rewritten each second; in a log (standard error not a terminal) a plain line is written
/// when the work moves on and every 30 s while it does not.
///
/// A step shorter than a second is never shown. On a terminal a step whose own output is shown (a build's SwiftPM
/// lines, the first measured process's Swift Testing lines) gets no live line, which that output would break into.
package enum LiveProgress {
    private struct State {
        var started = false
        var drawn = false  // a live line is on the terminal
        var lastPlain: (what: String, at: ContinuousClock.Instant)?
    }
    // A Mutex: the drawing thread and every thread that writes a line to standard error take turns.
    private static let state = Mutex(State())
    private static let terminal = isatty(STDERR_FILENO) != 0

    /// Starts the drawing thread (once).
    package static func start(board: ProgressBoard = .shared) {
        guard
            state.withLock({ s in
                defer { s.started = true }; return !s.started
            })
        else { return }
        Thread.detachNewThread {
            while true {
                Thread.sleep(forTimeInterval: 1)
                tick(board.snapshot, now: .now)
            }
        }
    }

    /// Writes `text` (whole lines) to standard error, or to `handle`, taking the live line away first.
    package static func write(_ text: String, to handle: FileHandle = .standardError) {
        state.withLock { s in
            if s.drawn {
                FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
                s.drawn = false
            }
            handle.write(Data(text.utf8))
        }
    }

    private static func tick(_ snapshot: ProgressBoard.Snapshot, now: ContinuousClock.Instant) {
        let line = snapshot.line(at: now)
        state.withLock { s in
            if terminal {
                let quiet = snapshot.steps.allSatisfy { !$0.step.showsOwnOutput }
                if let line, quiet {
                    FileHandle.standardError.write(Data(("\r\u{1B}[2K" + String(line.prefix(width))).utf8))
                    s.drawn = true
                } else if s.drawn {
                    FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
                    s.drawn = false
                }
                return
            }
            guard let line else { return }
            let what = ProgressBoard.Snapshot.describe(snapshot.steps.map(\.step))
            if let last = s.lastPlain, last.what == what, now - last.at < .seconds(30) { return }
            s.lastPlain = (what, now)
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }

    /// The terminal's width less one (the live line never wraps), 79 when it cannot be read.
    private static var width: Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 1 else { return 79 }
        return Int(size.ws_col) - 1
    }
}

extension ProgressBoard.Step {
    /// Whether the step shows its own output as it runs (so a live line would break into it).
    var showsOwnOutput: Bool {
        switch self {
        case .building: true
        case .measuring(_, _, _, let showsOutput): showsOutput
        case .counting: false
        }
    }
}
