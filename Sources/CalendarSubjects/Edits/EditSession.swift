import Foundation
import PerfKit

/// Where edits go: accepts or rejects a move.
public protocol EditProvider {
    /// Submits a move; returns whether the provider accepted it.
    mutating func submit(_ move: PendingMove) -> Bool
}

/// A move of an event that has not been confirmed.
public struct PendingMove: Sendable, Equatable {
    public var operation: Int
    public var eventID: String
    public var from: Double
    public var to: Double
    public init(operation: Int, eventID: String, from: Double, to: Double) {
        self.operation = operation
        self.eventID = eventID
        self.from = from
        self.to = to
    }
}

/// Dragging events to new times without ever losing an edit.
///
/// A move is written to the journal (flushed to disk) before it is shown. If the provider rejects
/// it, the displayed event is restored and the move stays pending for a retry, across a relaunch
/// (reopening the journal). A retry that is rejected again is restored again.
public struct EditSession {
    public let journal: EditJournal
    /// Displayed start of each event, seconds since 1970.
    public private(set) var displayed: [String: Double]
    private var nextOperation: Int

    /// Opens a session over events and the journal, replaying it: confirmed moves are applied;
    /// unconfirmed ones become pending retries and are displayed at their original time.
    public init(events: [CalendarEvent], journal: EditJournal) {
        self.journal = journal
        displayed = Dictionary(events.map { ($0.sourceID, $0.start.timeIntervalSince1970) }, uniquingKeysWith: { a, _ in a })
        for record in journal.records where record.status == .confirmed { displayed[record.eventID] = record.to }
        nextOperation = (journal.records.map(\.operation).max() ?? 0) + 1
    }

    /// Moves waiting for a retry: their latest record is pending or rejected.
    public var pendingRetries: [PendingMove] {
        var latest: [Int: JournalRecord] = [:]
        for record in journal.records { latest[record.operation] = record }
        return latest.values.filter { $0.status != .confirmed }.sorted { $0.operation < $1.operation }
            .map { PendingMove(operation: $0.operation, eventID: $0.eventID, from: $0.from, to: $0.to) }
    }

    /// Starts a move: journals it durably, then shows it.
    /// - Returns: The pending move.
    /// - Throws: ``FileError`` when the journal cannot be written; then nothing is shown.
    @discardableResult
    public mutating func move(_ eventID: String, to start: Double) throws(FileError) -> PendingMove {
        let move = PendingMove(operation: nextOperation, eventID: eventID, from: displayed[eventID] ?? start, to: start)
        nextOperation += 1
        try journal.append(JournalRecord(operation: move.operation, status: .pending, eventID: eventID, from: move.from, to: move.to))
        displayed[eventID] = start
        return move
    }

    /// Submits a shown move to the provider; on rejection restores the display and keeps the move pending.
    /// - Returns: Whether the provider accepted.
    @discardableResult
    public mutating func submit(_ move: PendingMove, to provider: inout some EditProvider) throws(FileError) -> Bool {
        if provider.submit(move) {
            try journal.append(JournalRecord(operation: move.operation, status: .confirmed, eventID: move.eventID, from: move.from, to: move.to))
            return true
        }
        try journal.append(JournalRecord(operation: move.operation, status: .rejected, eventID: move.eventID, from: move.from, to: move.to))
        displayed[move.eventID] = move.from
        return false
    }

    /// Retries every pending move: shows it again (journalled first), submits it, restores on rejection.
    /// - Returns: How many were accepted.
    @discardableResult
    public mutating func retryPending(with provider: inout some EditProvider) throws(FileError) -> Int {
        var accepted = 0
        for move in pendingRetries {
            try journal.append(JournalRecord(operation: move.operation, status: .pending, eventID: move.eventID, from: move.from, to: move.to))
            displayed[move.eventID] = move.to
            if try submit(move, to: &provider) { accepted += 1 }
        }
        return accepted
    }
}
