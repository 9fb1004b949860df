import Foundation
import PerfKit

/// Where edits go: accepts or rejects a move.
package protocol EditProvider {
    /// Submits a move; returns whether the provider accepted it.
    mutating func submit(_ move: PendingMove) -> Bool
}

/// A move of an event that has not been confirmed.
package struct PendingMove: Sendable, Equatable {
    /// The operation's number in the journal.
    package var operation: Int
    /// The event moved.
    package var eventID: String
    /// Its start the provider last accepted.
    package var from: Double
    /// The start asked for.
    package var to: Double
    /// A move.
    package init(operation: Int, eventID: String, from: Double, to: Double) {
        self.operation = operation
        self.eventID = eventID
        self.from = from
        self.to = to
    }
}

/// Dragging events to new times without ever losing an edit.
///
/// A move is written to the journal (flushed to disk) before it is shown. If the provider rejects
/// it, the move stays pending for a retry, across a relaunch (reopening the journal), and the
/// event goes back to what it should show without that move: the latest move of the same event
/// still waiting for an answer, or else the last time the provider accepted. A move's `from` is
/// always an accepted time, never a time only shown while a move was in flight.
package struct EditSession {
    /// The journal every move is written to before it is shown.
    package let journal: EditJournal
    /// Displayed start of each event, seconds since 1970.
    package private(set) var displayed: [String: Double]
    /// Start of each event as the provider last accepted it (or as loaded), seconds since 1970.
    package private(set) var accepted: [String: Double]
    /// Shown moves that have no answer yet, in the order they were shown.
    private var inFlight: [PendingMove] = []
    private var nextOperation: Int

    /// Opens a session over events and the journal, replaying it.
    ///
    /// Confirmed moves are applied; unconfirmed ones become pending retries and are displayed at their accepted time.
    /// - Parameters:
    ///   - events: The events as loaded from the provider.
    ///   - journal: The open journal to replay and append to.
    package init(events: [CalendarEvent], journal: EditJournal) {
        self.journal = journal
        accepted = Dictionary(
            events.map { ($0.sourceID, $0.start.timeIntervalSince1970) }, uniquingKeysWith: { a, _ in a })
        for record in journal.records where record.status == .confirmed { accepted[record.eventID] = record.to }
        displayed = accepted
        nextOperation = (journal.records.map(\.operation).max() ?? 0) + 1
    }

    /// Moves waiting for a retry: their latest record is pending or rejected, and they are not in flight.
    package var pendingRetries: [PendingMove] {
        var latest: [Int: JournalRecord] = [:]
        for record in journal.records { latest[record.operation] = record }
        let flying = Set(inFlight.map(\.operation))
        return latest.values.filter { $0.status != .confirmed && !flying.contains($0.operation) }.sorted {
            $0.operation < $1.operation
        }
        .map { PendingMove(operation: $0.operation, eventID: $0.eventID, from: $0.from, to: $0.to) }
    }

    /// Starts a move: journals it durably, then shows it.
    /// - Parameters:
    ///   - eventID: The event's source identifier.
    ///   - start: The requested start, seconds since 1970.
    /// - Returns: The pending move, to hand to ``submit(_:to:)``.
    /// - Throws: ``FileError`` when the journal cannot be written; then nothing is shown.
    @discardableResult
    package mutating func move(_ eventID: String, to start: Double) throws(FileError) -> PendingMove {
        let move = PendingMove(operation: nextOperation, eventID: eventID, from: accepted[eventID] ?? start, to: start)
        try journal.append(
            JournalRecord(operation: move.operation, status: .pending, eventID: eventID, from: move.from, to: move.to))
        nextOperation += 1
        show(move)
        return move
    }

    /// Submits a shown move to the provider; on rejection the display goes back to what it
    /// should show without this move, and the move stays pending.
    /// - Parameters:
    ///   - move: A move returned by ``move(_:to:)`` or taken from ``pendingRetries``.
    ///   - provider: Where the move goes.
    /// - Returns: Whether the provider accepted.
    /// - Throws: ``FileError`` when the answer cannot be journalled.
    @discardableResult
    package mutating func submit(_ move: PendingMove, to provider: inout some EditProvider) throws(FileError) -> Bool {
        let ok = provider.submit(move)
        let status: JournalRecord.Status = ok ? .confirmed : .rejected
        try journal.append(
            JournalRecord(
                operation: move.operation, status: status, eventID: move.eventID, from: move.from, to: move.to))
        inFlight.removeAll { $0.operation == move.operation }
        if ok { accepted[move.eventID] = move.to }
        displayed[move.eventID] =
            inFlight.last { $0.eventID == move.eventID }?.to ?? accepted[move.eventID] ?? move.from
        return ok
    }

    /// Retries every pending move: shows it again (journalled first), submits it, restores on rejection.
    /// - Parameter provider: Where the moves go.
    /// - Returns: How many were accepted.
    /// - Throws: ``FileError`` when the journal cannot be written.
    @discardableResult
    package mutating func retryPending(with provider: inout some EditProvider) throws(FileError) -> Int {
        var accepted = 0
        for move in pendingRetries {
            try journal.append(
                JournalRecord(
                    operation: move.operation, status: .pending, eventID: move.eventID, from: move.from, to: move.to))
            show(move)
            if try submit(move, to: &provider) { accepted += 1 }
        }
        return accepted
    }

    private mutating func show(_ move: PendingMove) {
        inFlight.append(move)
        displayed[move.eventID] = move.to
    }
}
