import Foundation
import Testing

@Suite struct CalendarCommandTests {
    let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("perfkit-calendar-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @Test func layoutJSONHasTheStableShape() throws {
        let input = """
            {"timeZone": "Europe/Berlin", "events": [
              {"id": "A", "calendar": "work", "title": "Standup", "start": "2015-05-01T10:20:00", "end": "2015-05-01T10:40:00", "allDay": false},
              {"id": "B", "calendar": "home", "title": "Call", "start": "2015-05-01T10:30:00", "end": "2015-05-01T11:00:00", "allDay": false},
              {"id": "N", "calendar": "home", "title": "Night", "start": "2015-05-01T22:00:00Z", "end": "2015-05-02T03:00:00Z"}
            ]}
            """
        try input.write(toFile: directory + "/events.json", atomically: true, encoding: .utf8)
        let result = try PerfkitProcess.run(["calendar", "layout", "--events", "events.json", "--from", "2015-05-01", "--days", "3"], in: directory)
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["timeZone"] as? String == "Europe/Berlin")
        let axis = try #require(json["axis"] as? [String: Any])
        #expect((axis["hourStarts"] as? [Double])?.count == 25)
        let days = try #require(json["days"] as? [[String: Any]])
        #expect(days.map { $0["date"] as? String } == ["2015-05-01", "2015-05-02", "2015-05-03"])
        #expect((days[2]["segments"] as? [Any])?.isEmpty == true && (days[2]["allDay"] as? [Any])?.isEmpty == true)
        let first = try #require((days[0]["segments"] as? [[String: Any]])?.first { $0["event"] as? String == "A" })
        #expect(first["startMinute"] as? Double == 620 && first["endMinute"] as? Double == 640)
        #expect(first["lane"] as? Int == 0 && first["laneCount"] as? Int == 2)
        // 22:00Z is midnight in Berlin (UTC+2): the night event lies wholly on 2 May, 00:00 to 05:00.
        let night = try #require((days[1]["segments"] as? [[String: Any]])?.first { $0["event"] as? String == "N" })
        #expect(night["startMinute"] as? Double == 0 && night["continuesFromPreviousDay"] as? Bool == false)
    }

    struct Malformed: CustomTestStringConvertible, Sendable {
        var json: String
        var message: String
        var testDescription: String { message }
    }

    @Test(arguments: [
        Malformed(json: "{\"events\": [", message: "events.json: bad JSON"),
        Malformed(
            json: "{\"events\": [{\"id\": \"A\", \"start\": \"2015-05-01T10:00:00\", \"end\": \"2015-05-01T09:00:00\"}]}",
            message: "event 1 ('A'): end 2015-05-01T09:00:00 is before start"),
        Malformed(json: "{\"timeZone\": \"Mars/Olympus\", \"events\": []}", message: "unknown time zone 'Mars/Olympus'"),
        Malformed(json: "{\"events\": [{\"id\": \"A\", \"start\": \"2015-05-01T10:00:00\"}]}", message: "event 1 ('A'): missing field 'end'"),
    ])
    func malformedInputIsAOneLineErrorNamingFileAndEvent(_ c: Malformed) throws {
        try c.json.write(toFile: directory + "/events.json", atomically: true, encoding: .utf8)
        let result = try PerfkitProcess.run(["calendar", "layout", "--events", "events.json"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains(c.message))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func fixturesAreByteForByteDeterministic() throws {
        let one = try PerfkitProcess.run(["calendar", "fixture", "--kind", "varied", "--days", "10", "--seed", "5"], in: directory)
        let two = try PerfkitProcess.run(["calendar", "fixture", "--kind", "varied", "--days", "10", "--seed", "5"], in: directory)
        #expect(one.status == 0 && one.stdout == two.stdout && !one.stdout.isEmpty)
    }
}
