import Foundation

/// A revision checked out and ready to build: `.` (the working tree) or a git worktree of a commit.
package struct Revision: Sendable, Equatable {
    /// As given on the command line.
    package var name: String
    /// The package directory (`.` for the working tree).
    package var directory: String
    /// The resolved commit, with `+dirty` for a working tree with changes.
    package var commit: String

    /// A revision.
    package init(name: String, directory: String, commit: String) {
        self.name = name
        self.directory = directory
        self.commit = commit
    }

    /// The environment record of this revision's release build on this machine.
    /// - Parameter machine: The machine's fingerprint (read once per comparison).
    /// - Returns: The environment, with this revision's commit.
    package func environment(machine: MachineFingerprint) -> Environment {
        var environment = EnvironmentReader.current(buildConfiguration: "release", directory: directory)
        environment.commit = commit
        environment.machine = machine
        return environment
    }

    /// Where worktrees live, kept between invocations so rebuilds are incremental.
    package static let worktreeRoot = ".perfkit/worktrees"

    /// Resolves a revision to its commit without creating anything, so both revisions of an
    /// `abba` can be checked before either worktree exists.
    /// - Parameter revision: A git revision, or `.` for the working tree.
    /// - Returns: The commit.
    /// - Throws: ``OrchestrationError/unknownRevision(_:)``.
    package static func resolve(_ revision: String) throws(OrchestrationError) -> String {
        if revision == "." { return ChildProcess.output(["git", "rev-parse", "HEAD"]) ?? "unknown" }
        guard let commit = ChildProcess.output(["git", "rev-parse", "--verify", "--quiet", "\(revision)^{commit}"]),
            !commit.isEmpty
        else {
            throw .unknownRevision(revision)
        }
        return commit
    }

    /// The Swift package a folder belongs to: the nearest folder at or above it holding a
    /// `Package.swift`.
    /// - Parameter folder: Where to start (an absolute path).
    /// - Returns: The package's folder, or nil outside any package.
    package static func packageRoot(containing folder: String) -> String? {
        var url = URL(fileURLWithPath: folder)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            let parent = url.deletingLastPathComponent()
            guard parent.path != url.path else { return nil }
            url = parent
        }
        return url.path
    }

    /// Checks `revision` out into its own worktree under ``worktreeRoot`` (`.` is the working tree
    /// itself), and pins relative path dependencies in the worktree's manifest.
    /// - Parameters:
    ///   - revision: A git revision, or `.`.
    ///   - worktree: The worktree's folder name under ``worktreeRoot`` (default: the revision's
    ///     name); two names give two separate builds of one commit, as calibration needs.
    ///   - progress: Receives one line per step worth telling.
    /// - Returns: The prepared revision.
    /// - Throws: ``OrchestrationError`` for a working tree that is not a package, a revision git
    ///   does not know (no worktree is left behind) or a failed checkout; ``FileError`` when the
    ///   manifest cannot be rewritten.
    package static func prepare(_ revision: String, worktree: String? = nil, progress: (String) -> Void = { _ in })
        throws -> Revision
    {
        if revision == "." {
            let folder = FileManager.default.currentDirectoryPath
            guard FileManager.default.fileExists(atPath: folder + "/Package.swift") else {
                throw OrchestrationError.notAPackage(folder: folder)
            }
            let head = ChildProcess.output(["git", "rev-parse", "HEAD"]) ?? "unknown"
            let dirty = !(ChildProcess.output(["git", "status", "--porcelain", "--untracked-files=no"]) ?? "").isEmpty
            return Revision(name: ".", directory: ".", commit: head + (dirty ? "+dirty" : ""))
        }
        let commit = try resolve(revision)
        let path =
            worktreeRoot + "/"
            + String((worktree ?? revision).map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        if FileManager.default.fileExists(atPath: path + "/.git") {
            guard ChildProcess.output(["git", "-C", path, "checkout", "--quiet", "--force", "--detach", commit]) != nil
            else {
                throw OrchestrationError.checkoutFailed(revision: revision, path: path)
            }
        } else {
            try? FileManager.default.createDirectory(atPath: worktreeRoot, withIntermediateDirectories: true)
            guard
                ChildProcess.output(["git", "worktree", "add", "--quiet", "--detach", "--force", path, commit]) != nil
            else {
                _ = ChildProcess.output(["git", "worktree", "remove", "--force", path])
                _ = ChildProcess.output(["git", "worktree", "prune"])
                throw OrchestrationError.checkoutFailed(revision: revision, path: path)
            }
        }
        if try pinRelativePathDependencies(in: path) {
            progress(
                "perfkit: \(path)/Package.swift: relative path dependencies pinned to absolute folders (this worktree only)"
            )
        }
        if let hint = gitignoreHint() { progress(hint) }
        return Revision(name: revision, directory: path, commit: commit)
    }

    /// A worktree sits two folders below the package, so a dependency declared as
    /// `.package(path: "../x")` would resolve to a different folder there. Rewrites such relative
    /// paths in the worktree's own `Package.swift` (never the user's) to the absolute folders
    /// they name from the package root.
    /// - Returns: Whether anything was rewritten.
    static func pinRelativePathDependencies(in worktree: String) throws -> Bool {
        let manifest = worktree + "/Package.swift"
        guard var text = try? String(contentsOfFile: manifest, encoding: .utf8) else { return false }
        let root = FileManager.default.currentDirectoryPath
        let pattern = try NSRegularExpression(pattern: #"(\.package\s*\([^)]*?path:\s*")([^"/][^"]*)(")"#)
        let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed()
        guard !matches.isEmpty else { return false }
        for match in matches {
            guard let range = Range(match.range(at: 2), in: text) else { continue }
            let absolute = URL(fileURLWithPath: String(text[range]), relativeTo: URL(fileURLWithPath: root + "/"))
                .standardizedFileURL.path
            text.replaceSubrange(range, with: absolute)
        }
        do { try text.write(toFile: manifest, atomically: true, encoding: .utf8) } catch {
            throw FileError(manifest, "cannot rewrite relative path dependencies: \(error.localizedDescription)")
        }
        return true
    }

    /// The hint that `.perfkit/` belongs in `.gitignore`, when it is not there.
    static func gitignoreHint() -> String? {
        let ignore = (try? String(contentsOfFile: ".gitignore", encoding: .utf8)) ?? ""
        guard !ignore.split(separator: "\n").contains(where: { $0.hasPrefix(".perfkit") || $0.hasPrefix("/.perfkit") })
        else { return nil }
        return "perfkit: worktrees, builds and run files live in .perfkit/; add the line '.perfkit/' to .gitignore"
    }

    /// Code-alignment flags for builds that are compared with each other: every function and every
    /// block that is not a fall-through starts on a 64-byte boundary, so a change elsewhere in the
    /// binary does not shift the alignment of unchanged code (which moved unchanged subjects by
    /// up to ±5% between two builds on this machine).
    package static let pinnedLayoutFlags = ["-align-all-functions=6", "-align-all-nofallthru-blocks=6"].flatMap {
        ["-Xswiftc", "-Xllvm", "-Xswiftc", $0]
    }

    /// The build folder of a release build: `.build`, or `PERFKIT_SCRATCH_PATH` under the plugin
    /// (`swift package` holds `.build`'s lock while a plugin runs), or `.perfkit/build-pinned` for
    /// the working tree's pinned-layout build.
    package static func scratchPath(pinnedLayout: Bool = false) -> String {
        pinnedLayout ? ".perfkit/build-pinned" : ProcessInfo.processInfo.environment["PERFKIT_SCRATCH_PATH"] ?? ".build"
    }

    /// Builds the package and its tests in release.
    /// - Parameters:
    ///   - pinnedLayout: Whether to build with ``pinnedLayoutFlags``, for builds that are compared
    ///     with each other (`abba`, `calibrate`). The working tree then builds into
    ///     `.perfkit/build-pinned`, so the ordinary release build is left alone.
    ///   - progress: Receives one line when the build starts.
    /// - Returns: The path of the test bundle.
    /// - Throws: ``OrchestrationError/buildFailed(revision:status:)`` or ``OrchestrationError/noTestBundle(folder:)``.
    package func build(pinnedLayout: Bool = false, progress: (String) -> Void = { _ in }) throws -> String {
        progress("perfkit: building \(name) (\(commit.prefix(12))) in release in \(directory)…")
        let scratch = Self.scratchPath(pinnedLayout: pinnedLayout && directory == ".")
        let (status, _) = try ChildProcess.run(
            ["swift", "build", "-c", "release", "--build-tests", "--scratch-path", scratch]
                + (pinnedLayout ? Self.pinnedLayoutFlags : []),
            in: directory, output: .standardError, showErrors: true)
        guard status == 0 else { throw OrchestrationError.buildFailed(revision: name, status: status) }
        let release = directory + "/" + scratch + "/release"
        guard
            let bundle = try? FileManager.default.contentsOfDirectory(atPath: release).first(where: {
                $0.hasSuffix("PackageTests.xctest")
            })
        else {
            throw OrchestrationError.noTestBundle(folder: release)
        }
        return release + "/" + bundle
    }
}
