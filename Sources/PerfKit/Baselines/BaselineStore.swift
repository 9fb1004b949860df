import Foundation
import PerfKitCore

/// Named baselines stored under a folder (normally `Baselines/`).
///
/// One folder per name, holding a manifest and one JSON file per suite, with a schema version read first and stable key
/// order, so a change to one test makes a small diff.
public struct BaselineStore: Sendable {
    /// The schema version this code writes.
    ///
    /// 2 since series carry process labels, 3 since they carry calls per sample, 4 since they may carry simulated
    /// counts with their profiles, 5 since the counting setup is recorded field by field (``CountingSetup``), 6 since
    /// those fields are stored by identifier; 1 to 5 are still read.
    public static let schemaVersion = 6

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

    struct SuiteFile: Codable, ValidatedOnLoad {
        var schemaVersion: Int
        var suite: String
        var tests: [TestResult]
        func validationProblem() -> String? { tests.validationProblem() }
    }

    /// A loaded baseline.
    public struct Baseline: Sendable {
        /// The baseline's name.
        public var name: String
        /// Where and how it was measured.
        public var environment: Environment
        /// When it was saved.
        public var savedAt: Date
        /// Every test result it holds.
        public var tests: [TestResult]
    }

    /// The folder holding one subfolder per baseline.
    public let root: String
    /// A store in `root` (`Baselines` in the package by default).
    public init(root: String = "Baselines") { self.root = root }

    /// Names of stored baselines (hidden folders, such as a killed save's staging folder, are not baselines).
    public func list() -> [String] {
        FileManager.default.names(in: root)
            .filter { !$0.hasPrefix(".") && FileManager.default.fileExists(atPath: "\(root)/\($0)/manifest.json") }
            .sorted()
    }

    /// Loads a baseline, under a shared lock so that a save running at the same time is seen
    /// either not at all or in full.
    /// - Throws: ``FileError`` for an unknown name or a corrupt file (naming the file).
    public func load(_ name: String) throws(FileError) -> Baseline {
        try requireExisting(name)  // before locking, so a mistyped name leaves no lock file behind
        return try StoredFile.withLock(lockPath(name), shared: true) { () throws(FileError) -> Baseline in
            try loadUnlocked(name)
        }
    }

    /// Checks a baseline name.
    ///
    /// 1 to 100 letters, digits, `.`, `_` or `-`, starting with a letter or digit (a leading dot would collide with the
    /// store's hidden lock and staging files).
    /// - Throws: ``FileError`` naming the baseline and the rule.
    public static func validate(name: String) throws(FileError) {
        // Matched character by character over the whole string: a regular expression's `$` also
        // matches before a final newline, which let `abc\n` through.
        func isAlphanumeric(_ c: Unicode.Scalar) -> Bool {
            c.isASCII && (("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c))
        }
        let scalars = Array(name.unicodeScalars)
        guard (1...100).contains(scalars.count), isAlphanumeric(scalars[0]),
            scalars.allSatisfy({ isAlphanumeric($0) || "._-".unicodeScalars.contains($0) })
        else {
            throw FileError(
                name,
                "not a baseline name: use 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit")
        }
    }

    private func requireExisting(_ name: String) throws(FileError) {
        try Self.validate(name: name)
        let folder = "\(root)/\(name)"
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
            !FileManager.default.fileExists(atPath: "\(folder)/manifest.json")
        {
            throw FileError(folder, "has no readable manifest.json: not a baseline, or a damaged one")
        }
        guard FileManager.default.fileExists(atPath: "\(folder)/manifest.json") else {
            let known = list()
            throw FileError(
                folder,
                "no baseline named '\(name)' (known: \(known.isEmpty ? "none" : known.joined(separator: ", "))); "
                    + "create it with `perfkit baseline save \(name)`"
            )
        }
    }

    private func lockPath(_ name: String) -> String { "\(root)/.\(name).lock" }

    /// What PerfKit writes into `Baselines/.gitignore` on a save: the lock files, which are no part
    /// of a baseline, stay out of `git add Baselines`.
    public static let ignoredLocks = ".*.lock\n"

    /// Writes `Baselines/.gitignore` when it is missing (a user's own file is left as it is).
    private func ignoreLocks() throws(FileError) {
        let path = "\(root)/.gitignore"
        guard !FileManager.default.fileExists(atPath: path) else { return }
        try StoredFile.writeAtomically(Data(Self.ignoredLocks.utf8), to: path)
    }

    private func loadUnlocked(_ name: String) throws(FileError) -> Baseline {
        let folder = "\(root)/\(name)"
        try requireExisting(name)
        let manifest = try StoredFile.read(
            Manifest.self, from: "\(folder)/manifest.json", supportedVersions: 1...Self.schemaVersion)
        var tests: [TestResult] = []
        for suite in manifest.suites {
            let path = "\(folder)/\(Self.fileName(suite))"
            // A suite the manifest lists but whose file is gone: the manifest is what is wrong, and named.
            guard FileManager.default.fileExists(atPath: path) else {
                throw FileError(
                    "\(folder)/manifest.json", "lists suite '\(suite)', but its file \(Self.fileName(suite)) is missing"
                )
            }
            tests += try StoredFile.read(SuiteFile.self, from: path, supportedVersions: 1...Self.schemaVersion).tests
        }
        return Baseline(name: name, environment: manifest.environment, savedAt: manifest.savedAt, tests: tests)
    }

    /// Saves a run as baseline `name` under an update policy.
    ///
    /// Saves of one baseline are serialized by a lock file (`Baselines/.<name>.lock`). The whole
    /// new baseline folder is written and flushed beside the old one, then exchanged with it in
    /// one atomic step (``StoredFile/writeFolderAtomically(_:to:)``): a save that fails or is
    /// killed at any moment leaves either the old baseline or the new one, never a mix.
    /// - Returns: The ids of tests written.
    /// - Throws: ``FileError``; debug-build results are refused unless `force`.
    @discardableResult
    public func save(
        _ run: RunFile, as name: String, policy: UpdatePolicy = .all, force: Bool = false, now: Date = Date()
    ) throws(FileError) -> [String] {
        try saveReplacing(run, as: name, policy: policy, force: force, now: now).written
    }

    /// What a save wrote and what it replaced.
    public struct SaveOutcome: Sendable {
        /// The ids of tests written.
        public var written: [String]
        /// The baseline as it was before the save, read under the save's lock; nil when there was none.
        public var previous: Baseline?
    }

    /// Saves a run as baseline `name`, as ``save(_:as:policy:force:now:)``, and returns the baseline it replaced, read
    /// under the same lock.
    ///
    /// A delete racing the save sees the baseline before or after, and the save never fails for a baseline that
    /// vanished between a check and a read.
    /// - Returns: The tests written and the previous baseline.
    /// - Throws: ``FileError``; debug-build results are refused unless `force`.
    public func saveReplacing(
        _ run: RunFile, as name: String, policy: UpdatePolicy = .all, force: Bool = false, now: Date = Date()
    ) throws(FileError) -> SaveOutcome {
        try Self.validate(name: name)
        if let problem = run.tests.validationProblem() {
            throw FileError("\(root)/\(name)", "refusing to save: \(problem)")
        }
        guard run.environment.isRelease || force else {
            throw FileError(
                "\(root)/\(name)",
                "refusing to save results from a \(run.environment.buildConfiguration) build (use --force to override)")
        }
        return try StoredFile.withLock(lockPath(name)) { () throws(FileError) -> SaveOutcome in
            try ignoreLocks()
            let existing = list().contains(name) ? try loadUnlocked(name) : nil
            return SaveOutcome(
                written: try saveLocked(run, as: name, existing: existing, policy: policy, now: now), previous: existing
            )
        }
    }

    private func saveLocked(
        _ run: RunFile, as name: String, existing: Baseline?, policy: UpdatePolicy, now: Date
    ) throws(FileError) -> [String] {
        var tests = Dictionary((existing?.tests ?? []).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var written: [String] = []
        for test in run.tests {
            let replace: Bool
            switch policy {
            case .all: replace = true
            case .failed: replace = tests[test.id] == nil || test.budgets.contains { $0.status == .failed }
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
        var files: [(name: String, data: Data)] = []
        for (suite, suiteTests) in bySuite.sorted(by: { $0.key < $1.key }) {
            let file = Self.fileName(suite)
            let content = SuiteFile(
                schemaVersion: Self.schemaVersion, suite: suite, tests: suiteTests.sorted { $0.id < $1.id })
            files.append((file, try StoredFile.encode(content, for: "\(folder)/\(file)")))
        }
        let environment = written.isEmpty ? (existing?.environment ?? run.environment) : run.environment
        let manifest = Manifest(
            schemaVersion: Self.schemaVersion, name: name, savedAt: now, environment: environment, mode: run.mode,
            suites: bySuite.keys.sorted())
        files.append(("manifest.json", try StoredFile.encode(manifest, for: "\(folder)/manifest.json")))
        try StoredFile.writeFolderAtomically(files, to: folder)
        return written.sorted()
    }

    /// Deletes a baseline folder: it is first renamed to a hidden name in one step, so a reader
    /// sees the whole baseline or none of it, then removed.
    /// - Throws: ``FileError`` for an unknown name.
    public func delete(_ name: String) throws(FileError) {
        try requireExisting(name)
        try StoredFile.withLock(lockPath(name)) { () throws(FileError) in
            try requireExisting(name)
            let hidden = "\(root)/.\(name).staging-deleted-\(UInt64.random(in: 0...UInt64.max))"
            do { try FileManager.default.moveItem(atPath: "\(root)/\(name)", toPath: hidden) } catch {
                throw FileError("\(root)/\(name)", "cannot delete: \(error.localizedDescription)")
            }
            FileManager.default.removeLitter(atPath: hidden)
        }
    }

    static func fileName(_ suite: String) -> String {
        String(suite.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "_" }) + ".json"
    }
}
