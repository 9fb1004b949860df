import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Damaged run files, odd names and awkward numbers: each a one-line error naming the file, or a
/// valid answer; never a crash, never a changed input.
@Suite struct BadInputTests {
    let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("perfkit-bad-\(UUID().uuidString)")
            .path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// A run whose series' label arrays are shorter than its values.
    func ragged() -> RunFile {
        var run = Build.run(build: "release", values: [1, 2, 3, 4])
        run.tests[0].measurements[0].series[0].rounds.removeLast()
        return run
    }

    /// A sample option given to a command without its kind of run is refused before anything is built.
    ///
    /// `--samples` is a timing run's and `--count-samples` a counting run's; the refusal names the other.
    @Test(arguments: [
        (["run", "--counts-only", "--samples", "3"], "--count-samples"),
        (["run", "--count-samples", "3"], "--counts"),
        (["abba", "HEAD", "HEAD", "--counts", "--samples", "3"], "--count-samples"),
        (["abba", "HEAD", "HEAD", "--count-samples", "3"], "--counts"),
        (["bisect", "HEAD", "HEAD", "--series", "S/t()", "--samples", "3"], "--samples"),
    ])
    func aSampleOptionForTheOtherKindOfRunIsRefused(arguments: [String], named: String) throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try PerfkitProcess.run(arguments, in: directory)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(named), "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    /// F9: two number files whose values' difference overflows are named in the one-line refusal.
    @Test func statsNamesTheFilesWhoseDifferenceOverflows() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data((0..<10).map { $0 % 2 == 0 ? "-1e308\n" : "1e308\n" }.joined().utf8)
            .write(to: URL(fileURLWithPath: directory + "/many.txt"))
        try Data("1e308\n-1e308\n".utf8).write(to: URL(fileURLWithPath: directory + "/two.txt"))
        let result = try PerfkitProcess.run(["stats", "many.txt", "two.txt"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("perfkit: many.txt and two.txt: "), "\(result.stderr)")
        #expect(result.stderr.contains("overflows") && !result.stderr.contains("nan"))
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stdout.isEmpty)
    }

    @Test func aRunFileWithUnequalSeriesLengthsIsRefusedByEveryReader() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Written by hand: the writer is fine, the reader must catch it.
        try StoredFile.writeAtomically(
            try StoredFile.encode(ragged(), for: "ragged.json"), to: directory + "/ragged.json")
        try Build.run(build: "release", values: [1, 2, 3]).write(to: directory + "/good.json")
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
        // no CSV, no baseline
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == before)
    }

    @Test(arguments: [".keep.lock", ".main", "-x", "a/b", String(repeating: "n", count: 101)])
    func baselineNamesOutsideTheCharacterSetAreRefused(name: String) throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Build.run(build: "release", values: [1, 2, 3]).write(to: directory + "/good.json")
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
        let huge = try JSONSerialization.jsonObject(
            with: Data(try PerfkitProcess.run(["stats", "huge.txt", "--format", "json"], in: directory).stdout.utf8))
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
            #expect(
                bad.stderr == "perfkit: \(file): \(line): \(file == "nan.txt" ? "nan" : "inf") is not a finite number\n"
            )
        }
    }
}
