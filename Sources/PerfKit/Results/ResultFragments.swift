import Foundation

/// One file per measured test in the run's results folder; `perfkit run` merges them into a run file.
public enum ResultFragments {
    /// Schema version of a fragment (a ``TestResult`` with a version field).
    public static let schemaVersion = 1

    struct Fragment: Codable {
        var schemaVersion: Int
        var test: TestResult
    }

    /// Writes one test's result atomically into `directory`.
    /// - Throws: ``FileError`` naming the file.
    public static func write(_ result: TestResult, into directory: String) throws(FileError) {
        let name = result.id.map { $0.isLetter || $0.isNumber ? $0 : "_" }
        try StoredFile.write(Fragment(schemaVersion: schemaVersion, test: result), to: directory + "/" + String(name) + ".json")
    }

    /// Reads every fragment in `directory`.
    /// - Throws: ``FileError`` for a corrupt fragment.
    public static func readAll(from directory: String) throws(FileError) -> [TestResult] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        var results: [TestResult] = []
        for name in names {
            results.append(try StoredFile.read(Fragment.self, from: directory + "/" + name, supportedVersion: schemaVersion).test)
        }
        return results
    }
}

