import Foundation
import PerfKit
import Testing

/// Damaged run files, odd names and awkward numbers: each a one-line error naming the file, or a
/// valid answer; never a crash, never a changed input.
@Suite struct BadInputTests {
    let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("perfkit-bad-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// A run whose series' label arrays are shorter than its values.
    func ragged() -> RunFile {
        var run = BaselineStoreTests.run(build: "release", values: [1, 2, 3, 4])
        run.tests[0].measurements[0].series[0].rounds.removeLast()
        return run
    }

    @Test func aRunFileWithUnequalSeriesLengthsIsRefusedByEveryReader() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Written by hand: the writer is fine, the reader must catch it.
        try StoredFile.writeAtomically(try StoredFile.encode(ragged(), for: "ragged.json"), to: directory + "/ragged.json")
        try BaselineStoreTests.run(build: "release", values: [1, 2, 3]).write(to: directory + "/good.json")
        #expect(try PerfkitProcess.run(["baseline", "save", "main", "--from", "good.json"], in: directory).status == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        for arguments in [
            ["baseline", "save", "other", "--from", "ragged.json"],
            ["compare", "main", "--current", "ragged.json", "--csv", "out.csv", "--markdown", "out.md"],
            ["export", "ragged.json", "--format", "bencher"],
        ] {
            let result = try PerfkitProcess.run(arguments, in: directory)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.hasPrefix("perfkit: ragged.json: "), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("4 values but 3 rounds"))
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == before)  // no CSV, no baseline
    }

    @Test(arguments: [".keep.lock", ".main", "-x", "a/b", String(repeating: "n", count: 101)])
    func baselineNamesOutsideTheCharacterSetAreRefused(name: String) throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try BaselineStoreTests.run(build: "release", values: [1, 2, 3]).write(to: directory + "/good.json")
        let result = try PerfkitProcess.run(["baseline", "save", name, "--from", "good.json"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("not a baseline name"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/Baselines"))
    }

    @Test func statsJSONStaysValidForZeroMediansAndHugeValues() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "0\n0\n0\n1\n".write(toFile: directory + "/zero.txt", atomically: true, encoding: .utf8)
        try "0\n1\n0\n2\n".write(toFile: directory + "/other.txt", atomically: true, encoding: .utf8)
        try "1e300\n-1e300\n1.5e308\n".write(toFile: directory + "/huge.txt", atomically: true, encoding: .utf8)
        for files in [["zero.txt", "other.txt"], ["huge.txt"], ["huge.txt", "zero.txt"]] {
            let result = try PerfkitProcess.run(["stats"] + files + ["--format", "json"], in: directory)
            #expect(result.status == 0, "\(files): \(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(object?["files"] != nil)
        }
        let zero = try PerfkitProcess.run(["stats", "zero.txt", "other.txt", "--format", "json"], in: directory)
        #expect(zero.stdout.contains("\"differenceOfMedians\""))
        let huge = try JSONSerialization.jsonObject(with: Data(try PerfkitProcess.run(["stats", "huge.txt", "--format", "json"], in: directory).stdout.utf8))
        let files = try #require((huge as? [String: Any])?["files"] as? [[String: Any]])
        #expect((files[0]["mean"] as? Double).map { abs($0 - 5e307) < 1e294 } == true)  // (1e300 − 1e300 + 1.5e308) / 3
    }

    @Test func statsAcceptsCRLFAndStillRefusesNaNWithFileAndLine() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "1\r\n2\r\n3\r\n".write(toFile: directory + "/crlf.txt", atomically: true, encoding: .utf8)
        try "1\r\nnan\r\n".write(toFile: directory + "/nan.txt", atomically: true, encoding: .utf8)
        try "1\ninf\n".write(toFile: directory + "/inf.txt", atomically: true, encoding: .utf8)
        let good = try PerfkitProcess.run(["stats", "crlf.txt"], in: directory)
        #expect(good.status == 0)
        #expect(good.stdout.contains("crlf.txt      3"))
        for (file, line) in [("nan.txt", "line 2"), ("inf.txt", "line 2")] {
            let bad = try PerfkitProcess.run(["stats", file], in: directory)
            #expect(bad.status == 2)
            #expect(bad.stderr == "perfkit: \(file): \(line): \(file == "nan.txt" ? "nan" : "inf") is not a finite number\n")
        }
    }

    @Test func calendarLayoutRefusesAbsurdDatesAndUnboundedWindows() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #"{"timeZone":"UTC","events":[{"id":"a","start":"0001-01-01T00:00","end":"9999-01-01T00:00"}]}"#
            .write(toFile: directory + "/ancient.json", atomically: true, encoding: .utf8)
        try #"{"timeZone":"UTC","events":[{"id":"a","start":"2000-01-01T00:00","end":"2100-01-01T00:00"}]}"#
            .write(toFile: directory + "/century.json", atomically: true, encoding: .utf8)
        let ancient = try PerfkitProcess.run(["calendar", "layout", "--events", "ancient.json"], in: directory)
        #expect(ancient.status == 2)
        #expect(ancient.stderr.contains("ancient.json: event 1 ('a')") && ancient.stderr.contains("outside the years"))
        let century = try PerfkitProcess.run(["calendar", "layout", "--events", "century.json"], in: directory)
        #expect(century.status == 2)
        #expect(century.stderr.contains("century.json: events span 36526 days"))
        let window = try PerfkitProcess.run(["calendar", "layout", "--events", "century.json", "--first-day", "2050-01-01", "--days", "3"], in: directory)
        #expect(window.status == 0)  // the century-long event is clipped to the three days asked for
        #expect(window.stdout.contains("\"2050-01-0"))
    }

    /// The hand parser of local times agrees with Foundation's formatters, which it replaced for
    /// speed: in Berlin's repeated autumn hour, 02:30 is the later instant (CET, 01:30 UTC).
    @Test func localTimesInTheRepeatedHourMatchTheFormatters() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try
            #"{"timeZone":"Europe/Berlin","events":[{"id":"rep","start":"2015-10-25T02:30","end":"2015-10-25T02:45"},{"id":"dst","start":"2015-03-29T01:59:30","end":"2015-03-29T03:00"}]}"#
            .write(toFile: directory + "/dst.json", atomically: true, encoding: .utf8)
        let result = try PerfkitProcess.run(["calendar", "layout", "--events", "dst.json", "--first-day", "2015-03-29", "--days", "211"], in: directory)
        #expect(result.status == 0)
        #expect(result.stdout.contains("rep@1445736600#2015-10-25"))  // 2015-10-25T01:30:00Z
        #expect(result.stdout.contains("dst@1427590770#2015-03-29"))  // 2015-03-29T00:59:30Z, just before the gap
    }
}
