import Foundation
import PerfKit

/// A revision checked out and built for measuring.
struct PreparedRevision {
    /// As given on the command line.
    var name: String
    /// The package directory (`.` for the working tree).
    var directory: String
    /// The resolved commit, with `+dirty` for a working tree with changes.
    var commit: String
}

/// Git worktrees under `.perfkit/worktrees/`, kept between invocations so rebuilds are incremental.
enum Worktrees {
    static let root = ".perfkit/worktrees"

    /// Resolves `revision` and checks it out into its own worktree (`.` is the working tree itself).
    /// - Throws: ``UsageError`` for a revision git does not know; no worktree is left behind.
    static func prepare(_ revision: String) throws -> PreparedRevision {
        if revision == "." {
            let head = ChildProcess.output(["git", "rev-parse", "HEAD"]) ?? "unknown"
            let dirty = !(ChildProcess.output(["git", "status", "--porcelain", "--untracked-files=no"]) ?? "").isEmpty
            return PreparedRevision(name: ".", directory: ".", commit: head + (dirty ? "+dirty" : ""))
        }
        guard let commit = ChildProcess.output(["git", "rev-parse", "--verify", "--quiet", "\(revision)^{commit}"]), !commit.isEmpty else {
            throw UsageError("unknown revision '\(revision)' (git rev-parse could not resolve it)")
        }
        let path = root + "/" + String(revision.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        if FileManager.default.fileExists(atPath: path + "/.git") {
            guard ChildProcess.output(["git", "-C", path, "checkout", "--quiet", "--force", "--detach", commit]) != nil else {
                throw UsageError("cannot check out \(revision) in \(path)")
            }
        } else {
            try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            guard ChildProcess.output(["git", "worktree", "add", "--quiet", "--detach", "--force", path, commit]) != nil else {
                _ = ChildProcess.output(["git", "worktree", "remove", "--force", path])
                _ = ChildProcess.output(["git", "worktree", "prune"])
                throw UsageError("cannot create a worktree for \(revision) at \(path)")
            }
        }
        return PreparedRevision(name: revision, directory: path, commit: commit)
    }

    /// Code-alignment flags for builds that are compared with each other: every function and every
    /// block that is not a fall-through starts on a 64-byte boundary, so a change elsewhere in the
    /// binary does not shift the alignment of unchanged code (which moved unchanged subjects by
    /// up to ±5% between two builds on this machine).
    static let pinnedLayoutFlags = ["-align-all-functions=6", "-align-all-nofallthru-blocks=6"].flatMap { ["-Xswiftc", "-Xllvm", "-Xswiftc", $0] }

    /// Builds the package and its tests in release.
    /// - Parameters:
    ///   - revision: The revision to build.
    ///   - pinnedLayout: Whether to build with ``pinnedLayoutFlags``, for builds that are compared
    ///     with each other (`abba`, `calibrate`). The working tree then builds into
    ///     `.perfkit/build-pinned`, so the ordinary release build is left alone.
    /// - Returns: The path of the test bundle.
    /// - Throws: ``UsageError`` when the build fails.
    static func build(_ revision: PreparedRevision, pinnedLayout: Bool = false) throws -> String {
        Output.progress("perfkit: building \(revision.name) (\(revision.commit.prefix(12))) in release in \(revision.directory)…")
        let scratch = pinnedLayout && revision.directory == "." ? ".perfkit/build-pinned" : ".build"
        let (status, _) = try ChildProcess.run(
            ["swift", "build", "-c", "release", "--build-tests", "--scratch-path", scratch] + (pinnedLayout ? pinnedLayoutFlags : []),
            in: revision.directory, output: .standardError, showErrors: true)
        guard status == 0 else { throw ChildFailure("release build of \(revision.name) failed (exit \(status))") }
        let release = revision.directory + "/" + scratch + "/release"
        guard let bundle = try? FileManager.default.contentsOfDirectory(atPath: release).first(where: { $0.hasSuffix("PackageTests.xctest") }) else {
            throw ChildFailure("no test bundle in \(release)")
        }
        return release + "/" + bundle
    }
}

/// Runs measured tests in one fresh process and collects their results.
enum MeasuredProcess {
    /// Runs the test bundle once with the measured tests matching `filter`.
    /// - Returns: Their results (every test case merged by test id) and the process's exit status.
    static func run(bundle: String, in directory: String, filter: String, iterations: Int?, environment: [String: String], forwardOutput: Bool = false) throws
        -> ([TestResult], Int32)
    {
        let results = FileManager.default.temporaryDirectory.appendingPathComponent("perfkit-abba-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: results, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: results) }
        var env = environment
        env["PERFKIT_MODE"] = "measure"
        env["PERFKIT_RESULTS_DIR"] = results
        if let iterations { env["PERFKIT_ITERATIONS"] = String(iterations) }
        let bundlePath = bundle.hasPrefix("/") ? bundle : FileManager.default.currentDirectoryPath + "/" + bundle
        let (status, _) = try ChildProcess.run(
            [bundlePath, "--testing-library", "swift-testing", "--no-parallel", "--filter", filter], in: directory, environment: env,
            output: forwardOutput ? .standardError : .discard, showErrors: forwardOutput)
        let tests = try ResultFragments.readAll(from: results)
        guard !tests.isEmpty else { throw UsageError("no measured test matched '\(filter)' in \(directory) (test process exit \(status))") }
        return (tests, status)
    }
}
