import CalendarSubjects
import Foundation
import PerfKitTestSupport
import Testing

/// `calendar-demo calendar` refuses bad input with one line and reads local times as the
/// formatters do; a second journal writer is refused.
@Suite struct CalendarInputTests {
    let folder = TemporaryFolder("calendar-demo-input")
    var directory: String { folder.path }

    @Test func calendarLayoutRefusesAbsurdDatesAndUnboundedWindows() throws {
        try #"{"timeZone":"UTC","events":[{"id":"a","start":"0001-01-01T00:00","end":"9999-01-01T00:00"}]}"#
            .write(toFile: directory + "/ancient.json", atomically: true, encoding: .utf8)
        try #"{"timeZone":"UTC","events":[{"id":"a","start":"2000-01-01T00:00","end":"2100-01-01T00:00"}]}"#
            .write(toFile: directory + "/century.json", atomically: true, encoding: .utf8)
        let ancient = try CalendarDemoProcess.run(["calendar", "layout", "--events", "ancient.json"], in: directory)
        #expect(ancient.status == 2)
        #expect(ancient.stderr.contains("ancient.json: event 1 ('a')") && ancient.stderr.contains("outside the years"))
        let century = try CalendarDemoProcess.run(["calendar", "layout", "--events", "century.json"], in: directory)
        #expect(century.status == 2)
        #expect(century.stderr.contains("century.json: events span 36526 days"))
        let window = try CalendarDemoProcess.run(
            ["calendar", "layout", "--events", "century.json", "--first-day", "2050-01-01", "--days", "3"],
            in: directory)
        #expect(window.status == 0)  // the century-long event is clipped to the three days asked for
        #expect(window.stdout.contains("\"2050-01-0"))
    }
    /// The hand parser of local times agrees with Foundation's formatters, which it replaced for speed.
    ///
    /// In Berlin's repeated autumn hour, 02:30 is the later instant (CET, 01:30 UTC).
    @Test func localTimesInTheRepeatedHourMatchTheFormatters() throws {
        try
            #"{"timeZone":"Europe/Berlin","events":[{"id":"rep","start":"2015-10-25T02:30","end":"2015-10-25T02:45"},{"id":"dst","start":"2015-03-29T01:59:30","end":"2015-03-29T03:00"}]}"#
            .write(toFile: directory + "/dst.json", atomically: true, encoding: .utf8)
        let result = try CalendarDemoProcess.run(
            ["calendar", "layout", "--events", "dst.json", "--first-day", "2015-03-29", "--days", "211"], in: directory)
        #expect(result.status == 0)
        #expect(result.stdout.contains("rep@1445736600#2015-10-25"))  // 2015-10-25T01:30:00Z
        #expect(result.stdout.contains("dst@1427590770#2015-03-29"))  // 2015-03-29T00:59:30Z, just before the gap
    }
    @Test func aSecondJournalWriterIsRefusedWithOneLine() throws {
        let path = folder.path + "/j.log"
        let holder = try EditJournal(path: path)
        let result = try CalendarDemoProcess.run(
            ["calendar", "edit", "--journal", "j.log", "--moves", "3"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("j.log: another process has this journal open"), "\(result.stderr)")
        #expect(holder.records.isEmpty)
    }
    /// An action without the option it cannot do without names it with its declared placeholder.
    @Test(arguments: [("layout", "--events FILE"), ("edit", "--journal FILE")])
    func aMissingRequiredOptionIsNamedWithItsValue(action: String, option: String) throws {
        let result = try CalendarDemoProcess.run(["calendar", action], in: FileManager.default.temporaryDirectory.path)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "calendar-demo: calendar-demo calendar \(action) needs \(option) (calendar-demo calendar --help)\n")
    }

    @Test(arguments: ["demo", "calendar"])
    func everyVerbAnswersHelp(verb: String) throws {
        let result = try CalendarDemoProcess.run([verb, "--help"], in: directory)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("usage: calendar-demo \(verb)"))
    }

    @Test func theDemoOutsideAPackageSaysWhatToDo() throws {
        let result = try CalendarDemoProcess.run(["demo"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("no Package.swift in "))
    }
}
