import Foundation
import PerfKit
import PerfKitHistory
import Testing

/// Both stores, for real.
///
/// An SQLite file, and a PostgreSQL database when one is reachable (`PERFKIT_TEST_POSTGRES`, set by `make test` from
/// Scripts/test-postgres.sh).
@Suite struct HistoryStoreTests {
    static let postgres = ProcessInfo.processInfo.environment["PERFKIT_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perfkit-history-\(UUID().uuidString)")
        .path

    /// Stores to test: a fresh SQLite file, and a fresh PostgreSQL schema when a server is there.
    func locations() -> [String] {
        let schema = "perfkit_t_" + UUID().uuidString.prefix(8).lowercased()
        let separator = Self.postgres?.contains("?") == true ? "&" : "?"
        return [folder + "/h.sqlite"]
            + (Self.postgres.map { [$0 + separator + "options=-csearch_path%3D" + schema] } ?? [])
    }

    static func entries(commit n: Int, value: Double, machine: String = "m1") -> [HistoryEntry] {
        ["instructions", "wallClock", "mallocs"].map { metric in
            HistoryEntry(
                machine: machine, commit: ChangePointTests.commit(n),
                series: SeriesID(test: "M.S/t()", measurement: "m", arm: "main", phase: .warm, metric: metric),
                unit: metric == "wallClock" ? "ns" : "instructions", kind: .componentCost,
                measure: metric == "wallClock" ? .timing : .simulatedCount,
                value: value + 0.1, lower: value * 0.97, upper: value * 1.031_234_567_89, processes: 8,
                recorded: Date(timeIntervalSince1970: 1_764_590_400.25))
        }
    }

    @Test func entriesRoundTripExactlyAndRecordingAgainReplaces() throws {
        for location in locations() {
            let store = try HistoryStore(location, create: true)
            try store.record(Self.entries(commit: 1, value: 768_893))
            try store.record(Self.entries(commit: 2, value: 1e6 / 3))
            try store.record(Self.entries(commit: 2, value: 2e6 / 3))  // replaces commit 2
            try store.record(Self.entries(commit: 2, value: 5, machine: "m2"))  // another machine: its own
            let read = try HistoryStore(location, create: false).entries()
            #expect(read.count == 9, "\(location)")
            let expected =
                (Self.entries(commit: 1, value: 768_893) + Self.entries(commit: 2, value: 2e6 / 3)
                    + Self.entries(commit: 2, value: 5, machine: "m2"))
            let order: (HistoryEntry, HistoryEntry) -> Bool = {
                ($0.machine, $0.series, $0.commit.position) < ($1.machine, $1.series, $1.commit.position)
            }
            #expect(read.sorted(by: order) == expected.sorted(by: order), "\(location)")
            #expect(try HistoryStore(location, create: false).entries(machine: "m2").count == 3)
        }
    }

    @Test func aVersionOneStoreIsBroughtForwardByRecordingKeepingItsRows() throws {
        for location in locations() {
            let old = Self.entries(commit: 1, value: 10)[0]
            try HistoryStore.createOlderForTesting(location, version: 1, row: old)
            let error = #expect(throws: HistoryStoreError.self) { try HistoryStore(location, create: false) }
            #expect(error?.problem == "history schema version 1 is older; perfkit history record brings it forward")
            let store = try HistoryStore(location, create: true)
            #expect(try store.entries() == [old], "\(location)")
            var sized = Self.entries(commit: 2, value: 20)[0]
            sized.series.test = "M.S/f(n:) n = 1000"
            sized.caseSize = CaseSize(function: "M.S/f(n:)", size: 1000)
            try store.record([sized])
            let read = try HistoryStore(location, create: false).entries()
            #expect(
                read.sorted { $0.commit.position < $1.commit.position }.map(\.caseSize) == [
                    nil, CaseSize(function: "M.S/f(n:)", size: 1000),
                ], "\(location)")
        }
    }

    @Test func aStoreOfANewerSchemaIsRefusedWithOneLine() throws {
        for location in locations() {
            let store = try HistoryStore(location, create: true)
            try store.record(Self.entries(commit: 1, value: 1))
            try store.setSchemaVersionForTesting(HistoryStore.currentSchemaVersion + 1)
            let error = #expect(throws: HistoryStoreError.self) { try HistoryStore(location, create: true) }
            #expect(
                error?.description.contains(
                    "history schema version \(HistoryStore.currentSchemaVersion + 1) is newer than this perfkit reads "
                        + "(\(HistoryStore.currentSchemaVersion)); upgrade perfkit"
                ) == true,
                "\(location)")
            #expect(error?.description.contains("\n") == false)
        }
    }

    @Test func readingNeverCreatesAStoreAndAFileThatIsNotADatabaseIsNamed() throws {
        let missing = folder + "/none.sqlite"
        #expect(throws: HistoryStoreError.self) { try HistoryStore(missing, create: false) }
        #expect(!FileManager.default.fileExists(atPath: missing))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let junk = folder + "/junk.sqlite"
        try Data(String(repeating: "not a database ", count: 100).utf8).write(to: URL(fileURLWithPath: junk))
        let error = #expect(throws: HistoryStoreError.self) { try HistoryStore(junk, create: true) }
        #expect(error?.description == "\(junk): file is not a database")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: junk))
                == Data(String(repeating: "not a database ", count: 100).utf8))
    }

    @Test(.enabled(if: postgres != nil, "no PostgreSQL server for the tests (Scripts/test-postgres.sh printed why)"))
    func aPostgresPasswordIsNeverShown() throws {
        let url = Self.postgres!.replacingOccurrences(of: ":perfkit_test@", with: ":wrong-secret@")
        let error = #expect(throws: HistoryStoreError.self) { try HistoryStore(url, create: false) }
        #expect(error?.description.contains("wrong-secret") == false)
        // The store is named by what libpq parsed, without the password: postgres://user@host:port/db.
        #expect(error?.description.hasPrefix("postgres://") == true)
        #expect(error?.unreachable == true)
    }
}
