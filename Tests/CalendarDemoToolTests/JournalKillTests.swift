import CalendarSubjects
import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A journal writer killed at any moment loses no acknowledged edit and duplicates none.
@Suite struct JournalKillTests {
    /// Kills `calendar-demo calendar edit` at seeded moments and checks that every confirmed operation survives.
    ///
    /// Starts `calendar-demo calendar edit`, which prints each operation after its confirmation is
    /// durable, kills it with SIGKILL at seeded moments, and reopens the journal.
    @Test func killedWritersLoseNoAcknowledgedRecord() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "perfkit-journal-kill-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var generator = SeededGenerator(seed: 0x18)
        var lost = 0
        var duplicated = 0
        var acknowledgedTotal = 0
        for attempt in 0..<50 {
            let path = "\(directory)/journal-\(attempt).log"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CalendarDemoProcess.executable)
            process.arguments = ["calendar", "edit", "--journal", path, "--moves", "100000"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(20_000 + generator.index(below: 60_000)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let acknowledged = Set(printed.split(separator: "\n").compactMap { Int($0) })
            acknowledgedTotal += acknowledged.count
            let journal = try EditJournal(path: path)
            let confirmed = journal.records.filter { $0.status == .confirmed }.map(\.operation)
            lost += acknowledged.subtracting(confirmed).count
            duplicated += confirmed.count - Set(confirmed).count
        }
        #expect(acknowledgedTotal > 0, "the writer acknowledged nothing before being killed: the test checked nothing")
        #expect(lost == 0, "acknowledged records lost over 50 kills")
        #expect(duplicated == 0)
    }
}
