import Foundation
import PerfKitCore

/// The relative path dependencies of a worktree's manifests, and which must be pinned.
///
/// The relative path dependencies (`.package(path: "…")`) of a worktree's manifests, and which of
/// them must be pinned so that the worktree builds what its revision holds.
///
/// A worktree is the whole repository checked out again under `.perfkit/worktrees/NAME`. A path
/// that stays inside the repository (a local package in a monorepo, `Packages/Core`, a vendored
/// folder) already names the revision's own copy there and is kept. A path that leaves the
/// repository (`../perfkit`) would resolve to another folder from the worktree, so it is rewritten,
/// in the worktree's manifest only, to the absolute folder it names from the working tree.
package struct PathDependencies: Sendable, Equatable {
    /// A dependency as written and what the worktree's manifest says after pinning.
    package struct Dependency: Sendable, Equatable {
        /// The manifest, relative to the repository's top (`Package.swift`, `Packages/Core/Package.swift`).
        package var manifest: String
        /// The path as written.
        package var written: String
        /// The absolute folder it was pinned to, or nil when it stays inside the repository.
        package var pinned: String?

        /// The folder it names, relative to the repository's top ("." for the top).
        ///
        /// What a kept dependency is shown as, since a nested manifest's `..` means another folder than the root's.
        package var folder: String {
            let top = URL(fileURLWithPath: "/repository")
            let manifestFolder = top.appendingPathComponent(manifest).deletingLastPathComponent()
            let path = URL(fileURLWithPath: written, relativeTo: manifestFolder).standardizedFileURL.path
            return path == top.path ? "." : String(path.dropFirst(top.path.count + 1))
        }

        /// A dependency.
        package init(manifest: String, written: String, pinned: String?) {
            self.manifest = manifest
            self.written = written
            self.pinned = pinned
        }
    }

    /// Every relative path dependency of the worktree's manifests.
    package var dependencies: [Dependency]

    /// The absolute path dependencies (`.package(path: "/…")`), left as written: outside any commit too.
    package var absolute: [String] = []

    /// The dependencies found.
    package init(dependencies: [Dependency], absolute: [String] = []) {
        self.dependencies = dependencies
        self.absolute = absolute
    }

    /// Whether the worktree builds code from folders outside the repository (pinned or written absolute).
    ///
    /// What it builds then depends on files its commit does not hold.
    package var reachesOutside: Bool { !pinned.isEmpty || !absolute.isEmpty }

    /// The dependencies pinned to folders outside the repository.
    package var pinned: [Dependency] { dependencies.filter { $0.pinned != nil } }
    /// The dependencies kept inside the repository (the revision's own copy).
    package var kept: [Dependency] { dependencies.filter { $0.pinned == nil } }

    /// One progress line naming the dependencies rewritten in the worktree's manifests, or nil when none was.
    ///
    /// A dependency kept as written (inside the repository, or a URL) is not named.
    package func progressLine(worktree: String) -> String? {
        guard !pinned.isEmpty else { return nil }
        return "perfkit: \(worktree): path dependencies outside the repository, pinned to the working tree's folders: "
            + Self.once(pinned.map { "\($0.written) → \($0.pinned ?? "")" }).joined(separator: ", ")
    }

    /// `names` with repeats left out, in first-seen order (nested manifests name one folder again).
    static func once(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// Pins the path dependencies that leave the repository in the worktree's manifests.
    ///
    /// Reads every manifest git tracks in `worktree` and pins the dependencies that leave the
    /// repository, rewriting those manifests in the worktree (never the user's).
    /// - Parameters:
    ///   - worktree: The worktree's top folder (absolute).
    ///   - repository: The working tree's repository top folder (absolute), from which relative
    ///     paths are resolved.
    /// - Returns: What was found and done.
    /// - Throws: ``FileError`` when a manifest cannot be rewritten.
    package static func pin(worktree: String, repository: String) throws -> PathDependencies {
        let listed = Git.answer(["-C", worktree, "ls-files"]) ?? "Package.swift"
        let manifests = listed.split(separator: "\n").map(String.init).filter { file in
            let name = URL(fileURLWithPath: file).lastPathComponent
            return name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift"))
        }
        var found: [Dependency] = []
        var absolute: [String] = []
        for manifest in manifests.sorted() {
            let path = worktree + "/" + manifest
            // A manifest git lists but cannot be read is left as it is; the build then names it.
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let folder = (repository as NSString).appendingPathComponent(
                (manifest as NSString).deletingLastPathComponent)
            let (rewritten, dependencies) = pinned(text, manifest: manifest, folder: folder, repository: repository)
            found += dependencies
            absolute += absolutePaths(in: text)
            guard rewritten != text else { continue }
            do { try rewritten.write(toFile: path, atomically: true, encoding: .utf8) } catch {
                throw FileError(path, "cannot pin path dependencies: \(error.localizedDescription)")
            }
        }
        return PathDependencies(dependencies: found, absolute: absolute)
    }

    /// The absolute path dependencies (`.package(path: "/…")`) `text` names.
    package static func absolutePaths(in text: String) -> [String] {
        // A constant pattern: it always compiles.
        guard let pattern = try? NSRegularExpression(pattern: #"\.package\s*\([^)]*?path:\s*"(/[^"]*)""#) else {
            return []
        }
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// `text` with each relative path dependency outside `repository` made absolute, and every one found.
    ///
    /// `text` with each relative path dependency that resolves outside `repository` replaced by
    /// its absolute folder, and every relative path dependency found.
    /// - Parameters:
    ///   - text: A manifest's text.
    ///   - manifest: Its path relative to the repository's top (for the record).
    ///   - folder: The working tree's folder holding that manifest (relative paths start there).
    ///   - repository: The working tree's repository top.
    /// - Returns: The rewritten text, and every relative path dependency found.
    package static func pinned(_ text: String, manifest: String, folder: String, repository: String) -> (
        String, [Dependency]
    ) {
        // `.package(path: "x")` and `.package(name: "n", path: "x")`, over lines.
        guard let pattern = try? NSRegularExpression(pattern: #"\.package\s*\([^)]*?path:\s*"([^"/][^"]*)""#) else {
            return (text, [])
        }
        var result = text
        var dependencies: [Dependency] = []
        let top = URL(fileURLWithPath: repository).standardizedFileURL.path
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let range = Range(match.range(at: 1), in: text) else { continue }
            let written = String(text[range])
            let absolute = URL(fileURLWithPath: written, relativeTo: URL(fileURLWithPath: folder + "/"))
                .standardizedFileURL.path
            let inside = absolute == top || absolute.hasPrefix(top + "/")
            dependencies.insert(
                Dependency(manifest: manifest, written: written, pinned: inside ? nil : absolute), at: 0)
            if !inside, let target = Range(match.range(at: 1), in: result) {
                result.replaceSubrange(target, with: absolute)
            }
        }
        return (result, dependencies)
    }
}
