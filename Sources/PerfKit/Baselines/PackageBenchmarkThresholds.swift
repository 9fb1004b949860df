import Foundation
import PerfKitCore

/// package-benchmark's static thresholds, as Swift server teams keep them per toolchain.
///
/// `Thresholds/<toolchain>/<Target>.<Benchmark>.p90.json`, each file a JSON object of package-benchmark metric names to
/// a p90 limit (`{"mallocCountTotal": 603}`), read and checked against a PerfKit run.
///
/// A benchmark is matched to the measurement named `<Benchmark>` (preferring a test whose ID names
/// `<Target>`); its figure is the p90 of the first arm's warm series (else its first phase).
public struct PackageBenchmarkThresholds: Sendable, Equatable {
    /// One limit of one benchmark.
    public struct Limit: Sendable, Equatable {
        /// The threshold file.
        public var file: String
        /// `<Target>` of the file name.
        public var target: String
        /// `<Benchmark>` of the file name.
        public var benchmark: String
        /// package-benchmark's metric name, as in the file.
        public var name: String
        /// The PerfKit metric it maps to.
        public var metric: Metric
        /// The p90 limit, in the PerfKit metric's unit.
        public var limit: Double
    }

    /// Every limit of the folder's files, in file and key order.
    public var limits: [Limit]
    /// Metric names a package-benchmark baseline file held that PerfKit has no counterpart for.
    public var unreadMetrics: [String] = []

    /// The largest limit read: 2^53, past which a Double no longer holds every whole number and a conversion to a
    /// budget's integer could overflow.
    public static let largestLimit = 9_007_199_254_740_992.0

    /// package-benchmark's metric names and the PerfKit metrics they map to (Documentation/Thresholds.md).
    ///
    /// Time limits are read as nanoseconds, memory as bytes.
    public static let metricNames: [String: Metric] = [
        "mallocCountTotal": .mallocs, "instructions": .instructions, "retainCount": .retains,
        "releaseCount": .releases, "wallClock": .wallClock, "cpuTotal": .processUserCPU,
        "peakMemoryResident": .peakResidentMemory, "memoryLeaked": .leakedAllocations,
        "objectAllocCount": .objectAllocations,
    ]

    /// Reads every `*.p90.json` file of a toolchain folder.
    /// - Parameter folder: For example `Thresholds/6.3`.
    /// - Throws: ``FileError`` naming the file and the field: not a JSON object of numbers, a negative, non-numeric or
    ///   too large limit, a name not of the form `<Target>.<Benchmark>.p90.json`. A metric PerfKit has no counterpart
    ///   for
    ///   is skipped and named in ``unreadMetrics``.
    public init(folder: String) throws(FileError) {
        // Unreadable or missing: refused just below with the folder named.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw FileError(folder, "not a readable folder of package-benchmark threshold files")
        }
        let files = names.filter { $0.hasSuffix(".p90.json") }.sorted()
        guard !files.isEmpty else {
            throw FileError(folder, "holds no <Target>.<Benchmark>.p90.json file")
        }
        limits = []
        var unread: Set<String> = []
        for name in files {
            let file = try Self.read("\(folder)/\(name)", name: name)
            limits += file.limits
            unread.formUnion(file.unread)
        }
        unreadMetrics = unread.sorted()
    }

    /// Reads one threshold file, `<Target>.<Benchmark>.p90.json`, as a folder of it alone.
    /// - Parameter file: The file's path.
    /// - Throws: ``FileError`` as ``init(folder:)`` does for each of its files.
    public init(file: String) throws(FileError) {
        let read = try Self.read(file, name: URL(fileURLWithPath: file).lastPathComponent)
        limits = read.limits
        unreadMetrics = read.unread.sorted()
    }

    /// The limits of one file, and the metric names in it PerfKit has no counterpart for (skipped, never refused).
    static func read(_ path: String, name: String) throws(FileError) -> (limits: [Limit], unread: [String]) {
        let stem = String(name.dropLast(".p90.json".count))
        guard let dot = stem.firstIndex(of: "."), dot != stem.startIndex, stem.index(after: dot) != stem.endIndex
        else { throw FileError(path, "not named <Target>.<Benchmark>.p90.json") }
        let data = try InputFile.read(path, limit: InputFile.textLimit)
        // Not a threshold file: refused just below with the file named.
        guard let fields = try? JSONDecoder().decode([String: Field].self, from: data) else {
            throw FileError(path, "not package-benchmark's threshold format: a JSON object of metric names to limits")
        }
        var limits: [Limit] = []
        var unread: [String] = []
        for key in fields.keys.sorted() {
            guard let metric = metricNames[key] else {
                unread.append(FileError.shown(key))
                continue
            }
            guard let number = fields[key]?.number, number.isFinite else {
                throw FileError(path, "field '\(FileError.shown(key))': the limit is not a number")
            }
            guard number >= 0 else { throw FileError(path, "field '\(FileError.shown(key))': the limit is negative") }
            guard number <= largestLimit else {
                throw FileError(
                    path, "field '\(FileError.shown(key))': the limit \(number) is too large (at most 2^53)")
            }
            limits.append(
                Limit(
                    file: path, target: String(stem[..<dot]), benchmark: String(stem[stem.index(after: dot)...]),
                    name: key, metric: metric, limit: number))
        }
        return (limits, unread)
    }

    /// One field's value: a number, or nil for anything else (a string, a boolean, an object).
    private struct Field: Decodable {
        var number: Double?
        init(from decoder: any Decoder) throws {
            // Not a number: nil, and the reader refuses a known metric's field with its name.
            number = try? decoder.singleValueContainer().decode(Double.self)
        }
    }

    /// The limits widened by a relative tolerance, as package-benchmark's `thresholds: [.mallocCountTotal: .relaxed]`
    /// or a team's `10%` keep it in code.
    ///
    /// Each limit is multiplied by (1 + `fraction`).
    public func widened(by fraction: Double) -> PackageBenchmarkThresholds {
        guard fraction > 0 else { return self }
        var copy = self
        copy.limits = limits.map { limit in
            var wider = limit
            wider.limit = min((limit.limit * (1 + fraction)).rounded(.down), Self.largestLimit)
            return wider
        }
        return copy
    }

    /// The version number in a `swift --version` line ("Swift version 6.3.1 (…)" → "6.3.1"), or the text.
    public static func versionNumber(_ swiftVersion: String) -> String {
        let words = swiftVersion.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ")" || $0 == "-" })
        return words.first { $0.first?.isNumber == true && $0.contains(".") }.map(String.init) ?? swiftVersion
    }

    /// The toolchain folder of `root` for a Swift version, as teams name them.
    ///
    /// `6.3.1`, then `6.3`, then `6`; else a folder whose name holds the version as a word (`Xcode swift 6.3`,
    /// `swift-6.3-RELEASE`), most specific first; for a development toolchain (`-dev`, a snapshot), `nightly-main`.
    /// - Returns: The folder, or nil when none exists.
    public static func toolchainFolder(in root: String, swiftVersion: String) -> String? {
        func isFolder(_ path: String) -> Bool {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
        }
        let candidates = versionCandidates(swiftVersion)
        if let exact = candidates.map({ "\(root)/\($0)" }).first(where: isFolder) { return exact }
        let names = FileManager.default.names(in: root).filter {
            isFolder(root + "/" + $0)
        }
        for version in candidates where version.contains(".") {
            let escaped = NSRegularExpression.escapedPattern(for: version)
            // The name is escaped: the pattern always compiles; nil would only skip one folder.
            guard let word = try? NSRegularExpression(pattern: "(^|[^0-9.])\(escaped)([^0-9]|$)") else { continue }
            if let name = names.first(where: {
                word.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil
            }) {
                return root + "/" + name
            }
        }
        let development = swiftVersion.contains("-dev") || swiftVersion.lowercased().contains("snapshot")
        if development, names.contains("nightly-main") { return root + "/nightly-main" }
        return nil
    }

    /// Why `root` has no folder for `version`, naming the folders it has.
    public static func noToolchainFolder(in root: String, version: String) -> String {
        let names = FileManager.default.names(in: root).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isFolder)
                && isFolder.boolValue
        }
        let shorter = versionCandidates(version).dropFirst().first ?? version
        let there =
            names.isEmpty
            ? "it holds no toolchain folder and no threshold file"
            : "its folders: " + names.map { FileError.shown($0) }.joined(separator: ", ")
        return
            "has no threshold folder for this run's toolchain (Swift \(version)): expected \(version), \(shorter) or "
            + "a name holding it (such as 'Xcode swift \(shorter)'); \(there); name one with --toolchain-folder NAME"
    }

    /// Refuses a thresholds path that is missing, a link that loops, or neither a file nor a folder, with the cause.
    public static func checkFolder(_ path: String) throws(FileError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw FileError(path, "no such file or folder") }
        guard stat(path, &info) == 0 else {
            throw FileError(
                path,
                errno == ELOOP ? "is a symbolic link that loops" : "cannot be read: \(String(cString: strerror(errno)))"
            )
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw FileError(path, "is not a folder of threshold files") }
    }

    /// A Swift version's names from the most specific: "6.3.1" → `6.3.1`, `6.3`, `6`.
    ///
    /// What a toolchain folder of threshold files and a per-toolchain baseline are looked up by.
    public static func versionCandidates(_ swiftVersion: String) -> [String] {
        let parts = versionNumber(swiftVersion).split(separator: ".")
        return (1...max(parts.count, 1)).reversed().map { parts.prefix($0).joined(separator: ".") }
    }
}
