import CalendarSubjects
import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// The calendar core's part of the fault campaign (issue 29): journals that are not regular files,
/// and local times in a daylight-saving gap.
@Suite struct CalendarReliabilityTests {
    let folder = TemporaryFolder("calendar-reliability")

    @Test func aBadOutputPathIsRefusedBeforeAnythingIsMeasured() throws {
        try Data().write(to: URL(fileURLWithPath: folder.path + "/file"))
        // No Package.swift here: reaching the build would be a different error.
        let result = try PerfkitProcess.run(["run", "--output", "file/x.json"], in: folder.path)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("file/x.json: ") && result.stderr.contains("is not a folder"), "\(result.stderr)")
    }
    @Test func aJournalThatIsNotARegularFileIsRefused() {
        #expect {
            _ = try EditJournal(path: "/dev/zero")
        } throws: { error in
            (error as? FileError)?.description == "/dev/zero: not a regular file; a journal must be one"
        }
    }

    @Test func aLocalTimeInADaylightSavingGapMovesForwardByTheGap() throws {
        let path = folder.path + "/gap.json"
        let events = """
            {"timeZone": "Europe/Berlin", "events": [
              {"id": "G", "calendar": "work", "title": "Gap", "start": "2015-03-29T02:22:00", "end": \
            "2015-03-29T04:00:00", "allDay": false}
            ]}
            """
        try Data(events.utf8).write(to: URL(fileURLWithPath: path))
        let read = try CalendarEventFile.read(path, timeZoneOverride: nil)
        // 02:22 does not exist that night; read with the offset before the change (+01:00) it is 01:22Z, 03:22 CEST.
        #expect(read.events.first?.start == ISO8601DateFormatter().date(from: "2015-03-29T01:22:00Z"))
    }
}
