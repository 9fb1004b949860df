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
    /// Resolves a revision to its commit without creating anything, so both revisions of an
    /// `abba` can be checked before either worktree exists.
    /// - Throws: ``UsageError`` for a revision git does not know.
    static func resolve(_ revision: String) throws -> String {
        if revision == "." { return ChildProcess.output(["git", "rev-parse", "HEAD"]) ?? "unknown" }
        guard let commit = ChildProcess.output(["git", "rev-parse", "--verify", "--quiet", "\(revision)^{commit}"]), !commit.isEmpty else {
            throw UsageError("unknown revision '\(revision)' (git rev-parse could not resolve it)")
        }
        return commit
    }

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
        try pinRelativePathDependencies(in: path)
        hintGitignore()
        return PreparedRevision(name: revision, directory: path, commit: commit)
    }

    /// A worktree sits two folders below the package, so a dependency declared as
    /// `.package(path: "../x")` would resolve to a different folder there. Rewrites such relative
    /// paths in the worktree's own `Package.swift` (never the user's) to the absolute folders
    /// they name from the package root.
    static func pinRelativePathDependencies(in worktree: String) throws {
        let manifest = worktree + "/Package.swift"
        guard var text = try? String(contentsOfFile: manifest, encoding: .utf8) else { return }
        let root = FileManager.default.currentDirectoryPath
        let pattern = try NSRegularExpression(pattern: #"(\.package\s*\([^)]*?path:\s*")([^"/][^"]*)(")"#)
        let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed()
        guard !matches.isEmpty else { return }
        for match in matches {
            guard let range = Range(match.range(at: 2), in: text) else { continue }
            let absolute = URL(fileURLWithPath: String(text[range]), relativeTo: URL(fileURLWithPath: root + "/")).standardizedFileURL.path
            text.replaceSubrange(range, with: absolute)
        }
        do { try text.write(toFile: manifest, atomically: true, encoding: .utf8) } catch {
            throw FileError(manifest, "cannot rewrite relative path dependencies: \(error.localizedDescription)")
        }
        Output.progress("perfkit: \(manifest): relative path dependencies pinned to absolute folders (this worktree only)")
    }

    /// Says once that `.perfkit/` belongs in `.gitignore` when it is not there.
    static func hintGitignore() {
        let ignore = (try? String(contentsOfFile: ".gitignore", encoding: .utf8)) ?? ""
        guard !ignore.split(separator: "\n").contains(where: { $0.hasPrefix(".perfkit") || $0.hasPrefix("/.perfkit") }) else { return }
        Output.progress("perfkit: worktrees, builds and run files live in .perfkit/; add the line '.perfkit/' to .gitignore")
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
        // Under the plugin, `swift package` holds .build's lock: PERFKIT_SCRATCH_PATH points elsewhere.
        let plain = ProcessInfo.processInfo.environment["PERFKIT_SCRATCH_PATH"] ?? ".build"
        let scratch = pinnedLayout && revision.directory == "." ? ".perfkit/build-pinned" : plain
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
