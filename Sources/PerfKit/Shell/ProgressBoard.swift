import Foundation
import PerfKitCore
import Synchronization

/// What perfkit is doing right now, for a live progress line.
///
/// The steps under way, each with when it started, and how many of the current stage's items are done.
///
/// The library writes it as it works (a build starting, a measured process running a test, a counting process per
/// test, several at once); the command line reads it once a second and draws it (`LiveProgress`). The library never
/// prints it.
package final class ProgressBoard: Sendable {
    /// One step under way.
    package enum Step: Sendable, Hashable {
        /// A release build of a revision (`HEAD`, a commit, the working tree).
        case building(revision: String)
        /// A measured (timing) process, and the test it is running when known; `showsOutput` when its own output
        /// (Swift Testing's lines) is shown as it runs.
        case measuring(test: String?, process: Int, processes: Int, showsOutput: Bool)
        /// A test counted under valgrind's callgrind.
        case counting(test: String)
    }

    /// What a stage's items are.
    package enum Item: String, Sendable {
        /// Measured tests (of one timing process).
        case tests
        /// Counting processes (one per test, and the placements its checks ask for).
        case processes
    }

    /// A step and when it started.
    package struct Entry: Sendable, Equatable {
        /// The step.
        package var step: Step
        /// When it started (or moved on to what it works on now).
        package var started: ContinuousClock.Instant
    }

    /// The board's state at one moment.
    package struct Snapshot: Sendable, Equatable {
        /// Steps under way, oldest first.
        package var steps: [Entry]
        /// Items of the current stage done, and how many there are when known (tests measured or counted).
        package var done: Int
        /// How many items the current stage has, when known.
        package var total: Int?
        /// What the items are.
        package var item: Item
    }

    private struct State {
        var next = 0
        var steps: [Int: Entry] = [:]
        var done = 0
        var total: Int?
        var item = Item.tests
    }
    // A Mutex: the steps are written by the threads doing the work (counting workers run two at once) and read by the
    // command line's drawing thread.
    private let state = Mutex(State())

    /// The process's board.
    package static let shared = ProgressBoard()

    /// An empty board (tests make their own).
    package init() {}

    /// Marks `step` as under way; the returned token ends it (``end(_:)``).
    @discardableResult
    package func begin(_ step: Step) -> Int {
        state.withLock { s in
            s.next += 1
            s.steps[s.next] = Entry(step: step, started: .now)
            return s.next
        }
    }

    /// Runs `body` with `step` under way.
    package func during<R>(_ step: Step, _ body: () throws -> R) rethrows -> R {
        let token = begin(step)
        defer { end(token) }
        return try body()
    }

    /// Replaces the step of `token` (a measured process that moved on to its next test), started now.
    /// - Returns: Whether the step changed.
    @discardableResult
    package func update(_ token: Int, to step: Step) -> Bool {
        state.withLock { s in
            guard let old = s.steps[token], old.step != step else { return false }
            s.steps[token] = Entry(step: step, started: .now)
            return true
        }
    }

    /// Ends the step of `token`.
    package func end(_ token: Int) {
        _ = state.withLock { $0.steps.removeValue(forKey: token) }
    }

    /// Starts a stage of `total` items (nil: not known), none done.
    package func startStage(total: Int?, of item: Item) {
        state.withLock { s in
            s.done = 0
            s.total = total
            s.item = item
        }
    }

    /// Sets the items of the current stage done so far.
    package func setDone(_ done: Int) {
        state.withLock { $0.done = done }
    }

    /// Adds `count` items to the current stage (follow-up processes a check asked for).
    package func addToStage(_ count: Int) {
        state.withLock { s in s.total = s.total.map { $0 + count } }
    }

    /// Counts one more item of the current stage done.
    package func finishItem() {
        state.withLock { $0.done += 1 }
    }

    /// The board now.
    package var snapshot: Snapshot {
        state.withLock { s in
            Snapshot(
                steps: s.steps.sorted { $0.key < $1.key }.map(\.value), done: s.done, total: s.total, item: s.item)
        }
    }
}

extension ProgressBoard.Snapshot {
    /// The line to show at `now`, or nil when nothing has been under way for `after` (a second by default).
    ///
    /// `perfkit: counting A/x(), B/y() under valgrind · 3 of 12 processes done · 41 s`: the steps' kind, what they work
    /// on, the stage's count and the oldest step's elapsed time.
    package func line(at now: ContinuousClock.Instant, after: Duration = .seconds(1)) -> String? {
        guard let oldest = steps.first, now - oldest.started >= after else { return nil }
        var parts = [Self.describe(steps.map(\.step))]
        if let total {
            parts.append("\(min(done, total)) of \(total) \(item.rawValue) done")
        } else if done > 0 {
            parts.append("\(done) \(item.rawValue) done")
        }
        parts.append(Self.elapsed(now - oldest.started))
        return "perfkit: " + parts.joined(separator: " · ")
    }

    /// What the steps are, grouped by kind.
    package static func describe(_ steps: [ProgressBoard.Step]) -> String {
        var building: [String] = [], measuring: [String] = [], counting: [String] = []
        for step in steps {
            switch step {
            case .building(let revision): building.append(revision)
            case .measuring(let test, let process, let processes, _):
                let place = processes > 1 ? " (process \(process) of \(processes))" : ""
                measuring.append((test ?? "the matching tests") + place)
            case .counting(let test): counting.append(test)
            }
        }
        var phrases: [String] = []
        // Sorted: two workers taking turns are the same line.
        if !building.isEmpty { phrases.append("building " + building.sorted().joined(separator: ", ") + " in release") }
        if !measuring.isEmpty { phrases.append("measuring " + measuring.sorted().joined(separator: ", ")) }
        if !counting.isEmpty {
            phrases.append("counting " + counting.sorted().joined(separator: ", ") + " under valgrind")
        }
        return phrases.joined(separator: "; ")
    }

    /// `5.6 s` under a minute (``Format/duration(_:)`` of the tenths), then `3 min 05 s`.
    package static func elapsed(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        guard seconds >= 60 else { return Format.duration((duration / .milliseconds(100)).rounded() * 1e8) }
        return "\(seconds / 60) min \(String(format: "%02d", seconds % 60)) s"
    }
}
