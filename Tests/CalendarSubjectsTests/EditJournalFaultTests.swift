import CalendarSubjects
import Foundation
import PerfKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Faults a careful user's CI would meet: a write cut short, an unreadable journal, a damaged last line.
@Suite struct EditJournalFaultTests {
    static func record(_ operation: Int) -> JournalRecord {
        JournalRecord(
            operation: operation, status: .pending, eventID: "e\(operation)", from: 36_000,
            to: 36_000 + Double(operation))
    }

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString).log").path
    }

    /// Runs in a child process: lowers RLIMIT_FSIZE so one append is cut short, then appends three more.
    ///
    /// Exits 0 only if the failed append left the file as before, named the real cause, and the three later appends all
    /// read back.
    static func partialWriteScenario() -> Int32 {
        signal(SIGXFSZ, SIG_IGN)  // a write past the limit then fails with EFBIG instead of killing us
        let path = temporaryPath()
        defer { unlink(path) }
        guard let journal = try? EditJournal(path: path) else { return 10 }
        for n in 1...2 { guard (try? journal.append(record(n))) != nil else { return 11 } }
        let before = FileManager.default.contents(atPath: path) ?? Data()
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
        var low = limit
        low.rlim_cur = rlim_t(before.count + 20)  // room for 20 bytes of the next record only
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &low)
        do {
            try journal.append(record(3))
            return 12  // must fail
        } catch {
            guard error.description.contains("short write") || error.description.contains("too large") else {
                return 13
            }
        }
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
        guard FileManager.default.contents(atPath: path) == before else { return 14 }
        for n in 4...6 { guard (try? journal.append(record(n))) != nil else { return 15 } }
        guard let reopened = try? EditJournal(path: path), reopened.warnings.isEmpty else { return 16 }
        guard reopened.records.map(\.operation) == [1, 2, 4, 5, 6] else { return 17 }
        return 0
    }

    @Test func aPartialAppendLeavesTheFileAsBeforeAndLaterAppendsSurvive() async {
        await #expect(processExitsWith: .exitCode(0)) { exit(EditJournalFaultTests.partialWriteScenario()) }
    }

    @Test func aFailedJournalWriteShowsNothingAndLosesNothing() async {
        await #expect(processExitsWith: .exitCode(0)) {
            signal(SIGXFSZ, SIG_IGN)
            let path = EditJournalFaultTests.temporaryPath()
            let event = CalendarEvent(
                sourceID: "standup", calendarID: "work", title: "Standup", start: Date(timeIntervalSince1970: 36_000),
                end: Date(timeIntervalSince1970: 37_800))
            guard let journal = try? EditJournal(path: path) else { exit(10) }
            var session = EditSession(events: [event], journal: journal)
            guard (try? session.move("standup", to: 40_000)) != nil else { exit(11) }
            var limit = rlimit()
            getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
            var low = limit
            low.rlim_cur = rlim_t(FileManager.default.contents(atPath: path)?.count ?? 0)
            setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &low)
            if (try? session.move("standup", to: 44_000)) != nil { exit(12) }
            guard session.displayed["standup"] == 40_000 else { exit(13) }  // the failed move is not shown
            setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
            guard let next = try? session.move("standup", to: 48_000), next.operation == 2, next.from == 36_000 else {
                exit(14)
            }
            guard let reopened = try? EditJournal(path: path), reopened.records.map(\.operation) == [1, 2] else {
                exit(15)
            }
            unlink(path)
            exit(0)
        }
    }

    @Test func anUnreadableJournalIsAnErrorNeverAnEmptyJournal() throws {
        let path = Self.temporaryPath()
        defer {
            chmod(path, 0o644)
            try? FileManager.default.removeItem(atPath: path)
        }
        do {
            let journal = try EditJournal(path: path)
            for n in 1...10 { try journal.append(Self.record(n)) }
        }
        let before = try #require(FileManager.default.contents(atPath: path))
        chmod(path, 0o200)  // write-only
        // As root the file is still readable; then every record must come back. Otherwise opening must fail.
        if let journal = try? EditJournal(path: path) {
            #expect(journal.records.count == 10)
            try journal.append(Self.record(11))
            chmod(path, 0o644)
            #expect(try EditJournal(path: path).records.count == 11)
        } else {
            chmod(path, 0o644)
            #expect(FileManager.default.contents(atPath: path) == before)
        }
        // A path that cannot be read as a file at all is an error naming it.
        let folder = Self.temporaryPath()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect { try EditJournal(path: folder) } throws: { ($0 as? FileError)?.description.hasPrefix(folder) == true }
    }

    @Test(arguments: ["flipped byte", "spliced garbage"])
    func aCompleteLastLineThatFailsItsChecksumIsDamageNotATornTail(damage: String) throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let journal = try EditJournal(path: path)
            for n in 1...3 { try journal.append(Self.record(n)) }
        }
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        if damage == "flipped byte" {
            bytes[bytes.count - 5] ^= 0x01
        } else {
            let lastLine = bytes[..<(bytes.count - 1)].lastIndex(of: 0x0A)! + 1
            bytes.insert(contentsOf: Array("garbage".utf8), at: lastLine + 12)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect { try EditJournal(path: path) } throws: {
            let text = ($0 as? FileError)?.description ?? ""
            return text.hasPrefix(path) && text.contains("line 3") && text.contains("damaged")
        }
        #expect(FileManager.default.contents(atPath: path) == Data(bytes))  // refused, not cut off
    }
}
