#if History
import Foundation
import PerfKit
import PerfKitHistory
import PerfKitTestSupport
import Testing

/// A fuzz of the history store through the `perfkit` binary: mutated SQLite files, stored schema versions and store
/// URLs.
///
/// Every case must end (within a minute), by an exit status of the table (never a signal), with one line that names the
/// store and never its secret; a store `record` refuses is left as it was. Seeded (`PERFKIT_FUZZ_SEED`),
/// `PERFKIT_FUZZ_MUTATIONS` cases (default 60).
@Suite struct HistoryFuzzTests {
    let folder = TemporaryFolder("perfkit-history-fuzz")
    static let cases = Int(ProcessInfo.processInfo.environment["PERFKIT_FUZZ_MUTATIONS"] ?? "") ?? 60
    static let seed = UInt64(ProcessInfo.processInfo.environment["PERFKIT_FUZZ_SEED"] ?? "") ?? 0x4653_5a5a

    func perfkit(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try PerfkitProcess.run(arguments, in: folder.path)
    }

    /// One outcome as the table allows it: an exit status of ``ExitStatus/table`` and, when not 0, one line.
    func expectWellFormed(
        _ result: (status: Int32, stdout: String, stderr: String), _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let allowed = Set(ExitStatus.table.map(\.status))
        #expect(allowed.contains(result.status), "\(what): exit \(result.status)", sourceLocation: sourceLocation)
        if result.status != 0 {
            #expect(
                result.stderr.split(separator: "\n").count == 1, "\(what): \(result.stderr)",
                sourceLocation: sourceLocation)
        }
        #expect(!(result.stdout + result.stderr).contains("s3cr3t"), "\(what)", sourceLocation: sourceLocation)
    }

    @Test func mutatedStoresAndSchemaVersionsNeverCrashHangOrTakeARecord() throws {
        let commit = try GitRepository(at: folder.path, commits: 1).commits()[0]
        try Build.run(commit: commit, ids: (0..<40).map { "S\($0)/t()" }, values: [1]).write(
            to: folder.path + "/r.json")
        #expect(try perfkit(["history", "record", "--from", "r.json", "--store", "pristine.sqlite"]).status == 0)
        let pristine = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/pristine.sqlite"))
        var generator = SeededGenerator(seed: Self.seed)
        for n in 0..<Self.cases {
            var bytes = pristine
            if n % 5 == 4 {
                // A stored schema version far from any perfkit's.
                try bytes.write(to: URL(fileURLWithPath: folder.path + "/m.sqlite"))
                let version = [-1, -2_147_483_648, 0, 99, Int.max][generator.index(below: 5)]
                try HistoryStore(folder.path + "/m.sqlite", create: true).setSchemaVersionForTesting(version)
                bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/m.sqlite"))
            } else {
                for _ in 0..<(1 + generator.index(below: 40)) {
                    bytes[generator.index(below: bytes.count)] = UInt8(generator.index(below: 256))
                }
                if n % 7 == 3 { bytes = bytes.prefix(generator.index(below: bytes.count)) }
            }
            try bytes.write(to: URL(fileURLWithPath: folder.path + "/m.sqlite"))
            expectWellFormed(try perfkit(["history", "show", "--store", "m.sqlite"]), "show #\(n)")
            let recorded = try perfkit(["history", "record", "--from", "r.json", "--store", "m.sqlite"])
            expectWellFormed(recorded, "record #\(n)")
            if recorded.status != 0 {
                #expect(
                    try Data(contentsOf: URL(fileURLWithPath: folder.path + "/m.sqlite")) == bytes,
                    "record #\(n) changed a store it refused")
            }
        }
    }

    @Test func mutatedStoreURLsNeverPrintTheirSecret() throws {
        let commit = try GitRepository(at: folder.path, commits: 1).commits()[0]
        try Build.run(commit: commit, ids: ["S/t()"], values: [1]).write(to: folder.path + "/r.json")
        let parts = [
            "postgres://", "POSTGRESQL://", "u", ":", "s3cr3t", "@", "127.0.0.1", ":1", "/db", "?password=s3cr3t",
            "&sslmode=disable", "%", "%zz", "[::1", "]", "host=127.0.0.1 ", "port=1 ", "password=s3cr3t ", "'", " ",
        ]
        var generator = SeededGenerator(seed: Self.seed ^ 0x55)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        for n in 0..<Self.cases {
            // A connection by its form (a scheme or a keyword first); anything else is a file path.
            let first = ["postgres://", "POSTGRESQL://", "host=127.0.0.1 ", "password=s3cr3t "][
                generator.index(below: 4)]
            let url =
                first
                + (0..<(1 + generator.index(below: 8))).map { _ in parts[generator.index(below: parts.count)] }
                .joined()
            guard url.contains("s3cr3t") else { continue }
            for command in [["history", "show"], ["history", "record", "--from", "r.json"]] {
                expectWellFormed(try perfkit(command + ["--store", url]), "#\(n) \(command[1]) '\(url)'")
            }
        }
        // No store was created anywhere under a name holding the secret.
        let after = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(after.filter { $0.contains("s3cr3t") }.isEmpty, "\(Set(after).subtracting(before))")
    }
}
#endif
