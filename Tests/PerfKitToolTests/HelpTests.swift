import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Every verb answers --help from its one declaration; mistakes get a suggestion; README's command
/// table matches the declarations.
@Suite struct HelpTests {
    static let verbs = [
        "doctor", "stats", "run", "build", "merge", "baseline", "compare", "export", "abba", "history", "bisect",
        "calibrate",
    ]

    @Test(arguments: verbs)
    func everyVerbAnswersHelpWithItsOptions(verb: String) throws {
        let directory = FileManager.default.temporaryDirectory.path
        for flag in ["--help", "-h"] {
            let result = try PerfkitProcess.run([verb, flag], in: directory)
            #expect(result.status == 0, "\(verb) \(flag): \(result.stderr)")
            #expect(result.stdout.hasPrefix("usage: perfkit \(verb)"))
            #expect(result.stdout.contains(ExitStatus.helpLine))
        }
    }

    @Test func theHelpOfCompareAndAbbaListsEveryOption() throws {
        let directory = FileManager.default.temporaryDirectory.path
        let compare = try PerfkitProcess.run(["compare", "--help"], in: directory).stdout
        for option in [
            "--current", "--with", "--markdown", "--csv", "--json", "--fail-on", "--allow-other-machine", "--noise",
            "--root",
        ] {
            #expect(compare.contains(option), "compare --help lacks \(option)")
        }
        let abba = try PerfkitProcess.run(["abba", "--help"], in: directory).stdout
        for option in [
            "--rounds", "--filter", "--samples", "--markdown", "--csv", "--json", "--fail-on", "--seed", "--noise",
            "--env-a", "--env-b",
        ] {
            #expect(abba.contains(option), "abba --help lacks \(option)")
        }
    }

    /// A renamed option's old spelling still parses and its help says so (`--iterations` is now `--samples`).
    @Test func aDeprecatedSpellingStillParses() throws {
        let folder = TemporaryFolder("perfkit-deprecated")
        let old = try PerfkitProcess.run(["run", "--iterations", "5", "--output", "x/y/z.json"], in: folder.path)
        #expect(!old.stderr.contains("unknown option"), "\(old.stderr)")
        #expect(try PerfkitProcess.run(["run", "--help"], in: folder.path).stdout.contains("--samples N"))
        #expect(
            try PerfkitProcess.run(["run", "--help"], in: folder.path).stdout.contains(
                "(--iterations still works, deprecated)"))
    }

    @Test func aMisspelledOptionOrVerbGetsTheNearestName() throws {
        let directory = FileManager.default.temporaryDirectory.path
        let option = try PerfkitProcess.run(["run", "--iteration", "5"], in: directory)
        #expect(option.status == 2)
        #expect(
            option.stderr
                == "perfkit: unknown option --iteration for perfkit run; did you mean --samples? (perfkit run --help "
                + "lists them)\n"
        )
        let verb = try PerfkitProcess.run(["comapre", "main"], in: directory)
        #expect(verb.status == 2)
        #expect(verb.stderr.contains("unknown verb 'comapre'; did you mean compare?"))
    }

    /// Outside any package a verb that builds the working tree says so (exit 2) instead of failing
    /// inside `swift build` (exit 3).
    @Test(arguments: ["run", "calibrate"])
    func aVerbThatBuildsOutsideAPackageSaysWhatToDo(verb: String) throws {
        let folder = TemporaryFolder("perfkit-no-package")
        let result = try PerfkitProcess.run([verb], in: folder.path)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("no Package.swift in ")
                && result.stderr.contains("run perfkit inside the Swift package to measure"))
    }
    /// A fixed number of rounds has no budget or maximum: giving both is refused, not silently ignored.
    @Test(arguments: [["--time-budget", "60"], ["--max-rounds", "30"]])
    func fixedRoundsWithAnAdaptiveOptionIsAUsageError(adaptive: [String]) throws {
        let result = try PerfkitProcess.run(
            ["abba", "main", ".", "--rounds", "10"] + adaptive, in: FileManager.default.temporaryDirectory.path)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "--rounds fixes the number of rounds; --max-rounds and --time-budget belong to adaptive rounds"))
    }

    @Test func readmesCommandTableMatchesTheDeclarations() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../README.md"), encoding: .utf8)
        let help = try PerfkitProcess.run(["--help"], in: FileManager.default.temporaryDirectory.path).stdout
        for verb in Self.verbs {
            let line = try #require(
                help.split(separator: "\n").first { $0.hasPrefix("  \(verb) ") }, "\(verb) missing from perfkit --help")
            let summary = line.dropFirst(2 + verb.count).trimmingCharacters(in: .whitespaces)
            #expect(
                readme.contains("| `perfkit \(verb)` | \(summary) |"),
                "README's command table lacks or differs for \(verb)")
        }
    }

    /// README's exit-status table is the code's (``ExitStatus/table``), row for row.
    ///
    /// Each row has its own test (MonorepoTests, HistoryEdgeTests, InterruptTests, ComparisonDecisionTests).
    @Test func readmesExitStatusTableIsTheCodes() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../README.md"), encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| exit ") }.map(String.init)
        #expect(rows == ExitStatus.table.map { "| exit \($0.status) | \($0.meaning) |" })
    }

    /// Every prose statement of how many processes count a test, and how many samples, follows the code's constants.
    @Test func readmeGlossaryAndHelpStateTheCountingProcessesTheCodeRuns() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let words = [1: "one", 2: "two", 3: "three", 4: "four", 5: "five"]
        let n = CountingRun.processesPerTest
        // Counting's mechanics are stated on their own page (README links it).
        let readme = try String(contentsOf: root.appendingPathComponent("Documentation/Counting.md"), encoding: .utf8)
        let glossary = try String(contentsOf: root.appendingPathComponent("Documentation/Glossary.md"), encoding: .utf8)
        let perTest = n == 1 ? "one process per test" : "\(words[n] ?? "\(n)") processes per test"
        #expect(readme.contains(perTest) && glossary.contains(perTest))
        // And how many samples each arm and phase takes (``SimulatedCounter/samplesPerArmAndPhase``).
        let samples = SimulatedCounter.samplesPerArmAndPhase
        let perPhase = "\(words[samples] ?? "\(samples)") samples per arm and phase"
        #expect(readme.contains(perPhase) && glossary.contains(perPhase))
        for (count, word) in words where count != samples {
            #expect(!readme.contains("\(word) samples per arm and phase"))
        }
        // And at how many placements a count that follows code addresses is counted.
        let placements = CountingRun.placementsPerMovingTest
        let atPlacements = "\(words[placements] ?? "\(placements)") placements"
        #expect(readme.replacingOccurrences(of: "\n", with: " ").contains(atPlacements))
        #expect(glossary.contains("counted at " + atPlacements))
        let help = try PerfkitProcess.run(["run", "--help"], in: FileManager.default.temporaryDirectory.path).stdout
        #expect(help.contains(CountingRun.summary))
        // And how `abba --counts` follows up only the tests whose sides differ (``CountingRun/pairedSummary``).
        let paired = "is unchanged exactly and gets no check, trial or placement"
        #expect(CountingRun.pairedSummary.contains(paired))
        #expect(readme.replacingOccurrences(of: "\n", with: " ").contains(paired))
        let abbaHelp = try PerfkitProcess.run(["abba", "--help"], in: FileManager.default.temporaryDirectory.path)
        #expect(abbaHelp.stdout.replacingOccurrences(of: "\n", with: " ").contains(paired))
        // The probes left out (``CountingRun/uncountedRuntimeProbes``) are stated where counting is.
        #expect(readme.contains("`--toggle-collect`") == !CountingRun.uncountedRuntimeProbes.isEmpty)
        #expect(glossary.contains("cache probes") == !CountingRun.uncountedRuntimeProbes.isEmpty)
        for document in [readme, glossary] {
            for (count, word) in words where count != n {
                #expect(
                    !document.contains("\(word) processes per test")
                        && !document.contains("\(word) more times under valgrind"))
            }
        }
    }
}

#if !History
/// Built without the History trait, `perfkit history` says in one line what to install.
@Suite struct HistoryUnavailableTests {
    @Test func historySaysWhatToInstallInOneLineAndExitsTwo() throws {
        let folder = TemporaryFolder("perfkit-history-unavailable")
        let run = try PerfkitProcess.run(["history", "record"], in: folder.path)
        #expect(run.status == ExitStatus.badInput)
        #expect(run.stderr.contains("apt-get install libsqlite3-dev libpq-dev pkg-config"))
        #expect(run.stderr.trimmingCharacters(in: .newlines).split(separator: "\n").count == 1)
    }
}
#endif
