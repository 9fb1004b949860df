import Foundation

/// One file per measured test in the run's results folder; `perfkit run` merges them into a run file.
public enum ResultFragments {
    /// Schema version of a fragment (a ``TestResult`` with a version field).
    public static let schemaVersion = 1

    struct Fragment: Codable, ValidatedOnLoad {
        var schemaVersion: Int
        var test: TestResult
        func validationProblem() -> String? { [test].validationProblem() }
    }

    /// Writes one test's result atomically into `directory`.
    /// - Throws: ``FileError`` naming the file.
    public static func write(_ result: TestResult, into directory: String) throws(FileError) {
        // One file per test (each case of a parameterized test has an ID of its own) and measured
        // regions; a hash of the whole key keeps names that differ only in punctuation apart.
        let key = ([result.id] + result.measurements.map(\.name)).joined(separator: "\u{1}")
        let readable = String(key.prefix(80).map { $0.isLetter || $0.isNumber ? $0 : "_" })
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let path = directory + "/" + readable + "-" + String(hash, radix: 16) + ".json"
        // Two scopes that would write one series are an error, never an overwrite.
        if FileManager.default.fileExists(atPath: path) {
            throw FileError(
                path,
                "\(result.id) (\(result.measurements.map(\.name).joined(separator: ", "))) was already written by "
                    + "another scope of the same test: two scopes would write one series"
            )
        }
        try StoredFile.write(Fragment(schemaVersion: schemaVersion, test: result), to: path)
    }

    /// Fragments written so far in `directory`: one per finished test (a test measured in several scopes writes one per
    /// scope), for a progress line.
    public static func count(in directory: String) -> Int {
        FileManager.default.names(in: directory).count { $0.hasSuffix(".json") }
    }

    /// Reads every fragment in `directory`.
    /// - Throws: ``FileError`` for a corrupt fragment.
    public static func readAll(from directory: String) throws(FileError) -> [TestResult] {
        let names = FileManager.default.names(in: directory).filter {
            $0.hasSuffix(".json")
        }.sorted()
        var results: [String: TestResult] = [:]
        for name in names {
            let test = try StoredFile.read(Fragment.self, from: directory + "/" + name, supportedVersion: schemaVersion)
                .test
            if var existing = results[test.id] {
                let shared = Set(existing.measurements.map(\.name)).intersection(test.measurements.map(\.name))
                if let first = shared.sorted().first {
                    throw FileError(
                        directory + "/" + name,
                        "\(test.id): measurement '\(first)' written by two scopes (two cases with one ID?): two scopes "
                            + "would write one series"
                    )
                }
                existing.measurements += test.measurements
                existing.budgets += test.budgets
                results[test.id] = existing
            } else {
                results[test.id] = test
            }
        }
        return results.values.map { test in
            var sorted = test
            sorted.measurements.sort { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
            return sorted
        }.sorted { $0.id < $1.id }
    }
}

/// The test a measured process is running, in its results folder while the test runs.
///
/// It is what `perfkit` names when the process crashes, exits or hangs inside it, and the limit it stops the process
/// after.
public enum RunningMarker {
    /// The marker's file name in the results folder (not a fragment: no `.json`).
    public static let fileName = "running.txt"

    /// The test running and its time limit in seconds (nil: the default limit).
    public struct Running: Sendable, Equatable {
        /// The test's ID.
        public var testID: String
        /// Its own limit (Swift Testing's `.timeLimit`), in seconds.
        public var limit: Double?
    }

    /// Marks `testID` as running in `directory` (written whole, then renamed into place).
    public static func begin(testID: String, limit: Double?, in directory: String) {
        let text = testID + "\t" + (limit.map { String($0) } ?? "") + "\n"
        let temporary = directory + "/." + fileName + ".\(getpid())"
        // A marker that cannot be written or moved into place leaves the test unnamed if the process dies, nothing
        // worse: the measurement goes on.
        guard (try? Data(text.utf8).write(to: URL(fileURLWithPath: temporary))) != nil else { return }
        _ = rename(temporary, directory + "/" + fileName)
    }

    /// Clears the marker: the test finished (its fragment is written).
    public static func end(in directory: String) {
        // Absent already is fine: nothing was running.
        _ = unlink(directory + "/" + fileName)
    }

    /// The test marked as running in `directory`, if any.
    public static func read(in directory: String) -> Running? {
        guard let data = FileManager.default.contents(atPath: directory + "/" + fileName) else { return nil }
        let fields = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines).split(
            separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        guard let id = fields.first, !id.isEmpty else { return nil }
        return Running(testID: String(id), limit: fields.count > 1 ? Double(fields[1]) : nil)
    }

    /// How long the marker has stood (seconds since it was written), if there is one.
    public static func age(in directory: String) -> Double? {
        var info = stat()
        guard stat(directory + "/" + fileName, &info) == 0 else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec - info.st_mtim.tv_sec) + Double(now.tv_nsec - info.st_mtim.tv_nsec) / 1e9
    }
}
