import Foundation

/// Named baselines stored under a folder (normally `Baselines/`): one folder per name, holding a
/// manifest and one JSON file per suite, with a schema version read first and stable key order,
/// so a change to one test makes a small diff.
public struct BaselineStore: Sendable {
    public static let schemaVersion = 1

    /// When a save replaces stored results.
    public enum UpdatePolicy: String, Sendable, CaseIterable {
        /// Replace every test.
        case all
        /// Replace only tests whose budgets failed in the new run (and add missing ones).
        case failed
        /// Add only tests the baseline lacks.
        case missing
        /// Change nothing (the CI setting).
        case never
    }

    struct Manifest: Codable {
        var schemaVersion: Int
        var name: String
        var savedAt: Date
        var environment: Environment
        var mode: String
        var suites: [String]
    }

    struct SuiteFile: Codable {
        var schemaVersion: Int
        var suite: String
        var tests: [TestResult]
    }

    /// A loaded baseline.
    public struct Baseline: Sendable {
        public var name: String
        public var environment: Environment
        public var savedAt: Date
        public var tests: [TestResult]
    }

    public let root: String
    public init(root: String = "Baselines") { self.root = root }

    /// Names of stored baselines.
    public func list() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .filter { FileManager.default.fileExists(atPath: "\(root)/\($0)/manifest.json") }.sorted()
    }

    /// Loads a baseline.
    /// - Throws: ``FileError`` for an unknown name or a corrupt file (naming the file).
    public func load(_ name: String) throws(FileError) -> Baseline {
        let folder = "\(root)/\(name)"
        guard FileManager.default.fileExists(atPath: "\(folder)/manifest.json") else {
            throw FileError(folder, "no baseline named '\(name)' (known: \(list().joined(separator: ", ")))")
        }
        let manifest = try StoredFile.read(Manifest.self, from: "\(folder)/manifest.json", supportedVersion: Self.schemaVersion)
        var tests: [TestResult] = []
        for suite in manifest.suites {
            tests += try StoredFile.read(SuiteFile.self, from: "\(folder)/\(Self.fileName(suite))", supportedVersion: Self.schemaVersion).tests
        }
        return Baseline(name: name, environment: manifest.environment, savedAt: manifest.savedAt, tests: tests)
    }

    /// Saves a run as baseline `name` under an update policy.
    ///
    /// Saves of one baseline are serialized by a lock file (`Baselines/.<name>.lock`). Every suite
    /// file and the manifest are written in full to temporary files first and only then renamed
    /// into place, manifest last: a save that fails or is killed while writing leaves the old
    /// baseline as it was.
    /// - Returns: The ids of tests written.
    /// - Throws: ``FileError``; debug-build results are refused unless `force`.
    @discardableResult
    public func save(_ run: RunFile, as name: String, policy: UpdatePolicy = .all, force: Bool = false, now: Date = Date()) throws(FileError) -> [String] {
        guard name.range(of: "^[A-Za-z0-9._-]+$", options: .regularExpression) != nil else {
            throw FileError(name, "baseline names use letters, digits, '.', '_' and '-'")
        }
        guard run.environment.isRelease || force else {
            throw FileError("\(root)/\(name)", "refusing to save results from a \(run.environment.buildConfiguration) build (use --force to override)")
        }
        return try StoredFile.withExclusiveLock("\(root)/.\(name).lock") { () throws(FileError) -> [String] in
            try saveLocked(run, as: name, policy: policy, now: now)
        }
    }

    private func saveLocked(_ run: RunFile, as name: String, policy: UpdatePolicy, now: Date) throws(FileError) -> [String] {
        let existing = list().contains(name) ? try load(name) : nil
        var tests = Dictionary((existing?.tests ?? []).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var written: [String] = []
        for test in run.tests {
            let replace: Bool
            switch policy {
            case .all: replace = true
            case .failed: replace = tests[test.id] == nil || test.budgets.contains { $0.status == "failed" }
            case .missing: replace = tests[test.id] == nil
            case .never: replace = false
            }
            if replace {
                tests[test.id] = test
                written.append(test.id)
            }
        }
        guard policy != .never else { return [] }
        let bySuite = Dictionary(grouping: tests.values, by: \.suite)
        let folder = "\(root)/\(name)"
        var files: [(path: String, data: Data)] = []
        for (suite, suiteTests) in bySuite.sorted(by: { $0.key < $1.key }) {
            let path = "\(folder)/\(Self.fileName(suite))"
            files.append(
                (path, try StoredFile.encode(SuiteFile(schemaVersion: Self.schemaVersion, suite: suite, tests: suiteTests.sorted { $0.id < $1.id }), for: path))
            )
        }
        let environment = written.isEmpty ? (existing?.environment ?? run.environment) : run.environment
        let manifestPath = "\(folder)/manifest.json"
        files.append(
            (
                manifestPath,
                try StoredFile.encode(
                    Manifest(
                        schemaVersion: Self.schemaVersion, name: name, savedAt: now, environment: environment, mode: run.mode, suites: bySuite.keys.sorted()),
                    for: manifestPath)
            ))
        try StoredFile.writeAllAtomically(files)
        return written.sorted()
    }

    /// Deletes a baseline folder.
    /// - Throws: ``FileError`` for an unknown name.
    public func delete(_ name: String) throws(FileError) {
        guard list().contains(name) else { throw FileError("\(root)/\(name)", "no baseline named '\(name)'") }
        do { try FileManager.default.removeItem(atPath: "\(root)/\(name)") } catch {
            throw FileError("\(root)/\(name)", "cannot delete: \(error.localizedDescription)")
        }
    }

    static func fileName(_ suite: String) -> String { String(suite.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "_" }) + ".json" }
}
