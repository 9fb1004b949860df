import Foundation
import PerfKit

extension EditSession {
    /// A provider that accepts every move (the journal's kill test needs no rejections).
    package struct AcceptingProvider: EditProvider {
        /// A provider.
        package init() {}
        /// Accepts the move.
        package mutating func submit(_ move: PendingMove) -> Bool { true }
    }

    /// Moves one event `moves` times through a session over the journal at `path`.
    ///
    /// The session has a provider
    /// that accepts every move, handing each operation to `durable` once its confirmation is on disk.
    /// - Parameters:
    ///   - path: The journal file.
    ///   - moves: How many moves.
    ///   - durable: Receives each operation number after its confirmation is durable.
    /// - Throws: ``FileError`` when the journal cannot be read or written.
    package static func moveRepeatedly(journal path: String, moves: Int, durable: (Int) -> Void) throws {
        let event = CalendarEvent(
            sourceID: "event", calendarID: "journal", title: "Event", start: Workloads.epoch,
            end: Workloads.epoch.addingTimeInterval(1_800))
        var session = EditSession(events: [event], journal: try EditJournal(path: path))
        var provider = AcceptingProvider()
        for k in 0..<moves {
            let move = try session.move("event", to: Workloads.epoch.timeIntervalSince1970 + Double(k) * 60)
            try session.submit(move, to: &provider)
            durable(move.operation)
        }
    }
}
