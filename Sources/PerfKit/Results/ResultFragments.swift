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
        // One file per test case: parameterized cases of one test share its id, so the measurement
        // names are part of the file name and readAll merges the cases back into one test.
        let key = ([result.id] + result.measurements.map(\.name)).joined(separator: "-")
        let name = String(key.map { $0.isLetter || $0.isNumber ? $0 : "_" })
        try StoredFile.write(Fragment(schemaVersion: schemaVersion, test: result), to: directory + "/" + name + ".json")
    }

    /// Reads every fragment in `directory`.
    /// - Throws: ``FileError`` for a corrupt fragment.
    public static func readAll(from directory: String) throws(FileError) -> [TestResult] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
            $0.hasSuffix(".json")
        }.sorted()
        var results: [String: TestResult] = [:]
        for name in names {
            let test = try StoredFile.read(Fragment.self, from: directory + "/" + name, supportedVersion: schemaVersion)
                .test
            if var existing = results[test.id] {
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
