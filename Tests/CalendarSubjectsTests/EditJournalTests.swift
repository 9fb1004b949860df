import CalendarSubjects
import Foundation
import PerfKit
import Testing

/// Rejects the first `rejections` submissions, then accepts.
struct FlakyProvider: EditProvider {
    var rejections: Int
    var submissions = 0
    mutating func submit(_ move: PendingMove) -> Bool {
        submissions += 1
        return submissions > rejections
    }
}

@Suite struct EditJournalTests {
    static let events = [
        CalendarEvent(
            sourceID: "standup", calendarID: "work", title: "Standup",
            start: Date(timeIntervalSince1970: 36_000), end: Date(timeIntervalSince1970: 37_800))
    ]

    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString).log").path
    }

    @Test func rejectedMoveIsRestoredAndSurvivesRelaunchAndASecondRejection() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var provider = FlakyProvider(rejections: 2)
        do {
            var session = EditSession(events: Self.events, journal: try EditJournal(path: path))
            let move = try session.move("standup", to: 40_000)
            #expect(session.displayed["standup"] == 40_000)  // shown after it was journalled
            #expect(session.journal.records.map(\.status) == [.pending])
            #expect(try !session.submit(move, to: &provider))
            #expect(session.displayed["standup"] == 36_000)  // restored
            #expect(session.pendingRetries.count == 1)
        }
        // Relaunch: the pending retry is read back from disk.
        var relaunched = EditSession(events: Self.events, journal: try EditJournal(path: path))
        #expect(relaunched.pendingRetries == [PendingMove(operation: 1, eventID: "standup", from: 36_000, to: 40_000)])
        #expect(relaunched.displayed["standup"] == 36_000)
        #expect(try relaunched.retryPending(with: &provider) == 0)  // rejected again
        #expect(relaunched.displayed["standup"] == 36_000)  // restored again
        #expect(relaunched.pendingRetries.count == 1)
        #expect(try relaunched.retryPending(with: &provider) == 1)
        #expect(relaunched.displayed["standup"] == 40_000)
        #expect(relaunched.pendingRetries.isEmpty)
        let final = EditSession(events: Self.events, journal: try EditJournal(path: path))
        #expect(final.displayed["standup"] == 40_000)
    }

    @Test func aTornLastRecordIsSkippedWithAWarningAndNothingBeforeItIsLost() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            var session = EditSession(events: Self.events, journal: try EditJournal(path: path))
            try session.move("standup", to: 40_000)
            try session.move("standup", to: 41_000)
        }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("1a2b3c4d {\"eventID\":\"stand".utf8))  // a crash in the middle of a write
        try handle.close()
        let journal = try EditJournal(path: path)
        #expect(journal.records.count == 2)
        #expect(journal.warnings.count == 1 && journal.warnings[0].contains("torn last record"))
        try journal.append(JournalRecord(operation: 3, status: .pending, eventID: "standup", from: 41_000, to: 42_000))
        #expect(try EditJournal(path: path).records.count == 3)
        #expect(try EditJournal(path: path).warnings.isEmpty)
    }

    @Test func aDamagedRecordBeforeTheEndIsAnErrorNamingTheFile() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "00000000 {}\n00000000 {}\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try EditJournal(path: path) } throws: { ($0 as? FileError)?.description.contains("line 1") == true }
    }

    /// Answers each submission from a script, in order.
    struct ScriptedProvider: EditProvider {
        var answers: [Bool]
        mutating func submit(_ move: PendingMove) -> Bool { answers.removeFirst() }
    }

    static let twoEvents =
        events + [
            CalendarEvent(
                sourceID: "review", calendarID: "work", title: "Review",
                start: Date(timeIntervalSince1970: 50_000), end: Date(timeIntervalSince1970: 51_800))
        ]

    @Test func twoRejectedMovesOfOneEventRestoreTheAcceptedTimeNotTheFirstMove() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var session = EditSession(events: Self.events, journal: try EditJournal(path: path))
        var provider = ScriptedProvider(answers: [false, false])
        let first = try session.move("standup", to: 40_000)
        let second = try session.move("standup", to: 44_000)
        #expect(second.from == 36_000)  // from the accepted time, not the shown one
        #expect(try !session.submit(first, to: &provider))
        #expect(session.displayed["standup"] == 44_000)  // the second move is still in flight
        #expect(try !session.submit(second, to: &provider))
        #expect(session.displayed["standup"] == 36_000)  // a time the provider never accepted is never shown
        #expect(EditSession(events: Self.events, journal: try EditJournal(path: path)).displayed["standup"] == 36_000)
    }

    @Test(arguments: [[true, false], [false, true]])
    func twoMovesInFlightSettleOnTheLastAcceptedOrStillPendingTime(answers: [Bool]) throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var session = EditSession(events: Self.events, journal: try EditJournal(path: path))
        var provider = ScriptedProvider(answers: answers)
        let first = try session.move("standup", to: 40_000)
        let second = try session.move("standup", to: 44_000)
        try session.submit(first, to: &provider)
        #expect(session.displayed["standup"] == 44_000)
        try session.submit(second, to: &provider)
        let expected: Double = answers[1] ? 44_000 : 40_000
        #expect(session.displayed["standup"] == expected)
        #expect(session.accepted["standup"] == expected)
        #expect(session.pendingRetries.map(\.operation) == (answers[0] ? [2] : [1]))
    }

    @Test func aCrashBetweenTheJournalWriteAndTheAnswerKeepsTheMoveForRetry() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            var session = EditSession(events: Self.twoEvents, journal: try EditJournal(path: path))
            try session.move("standup", to: 40_000)  // journalled and shown; the process dies before the answer
            try session.move("review", to: 52_000)
        }
        var relaunched = EditSession(events: Self.twoEvents, journal: try EditJournal(path: path))
        #expect(relaunched.displayed == ["standup": 36_000, "review": 50_000])
        #expect(
            relaunched.pendingRetries == [
                PendingMove(operation: 1, eventID: "standup", from: 36_000, to: 40_000),
                PendingMove(operation: 2, eventID: "review", from: 50_000, to: 52_000),
            ])
        var provider = ScriptedProvider(answers: [true, false])
        #expect(try relaunched.retryPending(with: &provider) == 1)
        #expect(relaunched.displayed == ["standup": 40_000, "review": 50_000])  // each event settles on its own
        #expect(relaunched.pendingRetries.map(\.eventID) == ["review"])
    }
}
