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

    func temporaryPath() -> String { FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString).log").path }

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
}
