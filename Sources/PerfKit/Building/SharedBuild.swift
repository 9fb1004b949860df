import Foundation
import PerfKitCore

/// Two revisions built one after the other in one worktree, B from A's build products.
///
/// A is built, its test bundle is kept aside (``KeptBundle``), B is checked out in the same worktree and
/// built incrementally, so only what B changed is compiled again (an A/A of one commit compiles nothing). A's processes
/// then run in a checkout of A of their own.
///
/// Used only when B's changes are to files that are compiled (``compiledSuffixes``): a fixture a
/// test reads through `#filePath` at run time would otherwise be read from B's checkout by A's
/// binary, whose paths name the shared worktree. Other changes build in two worktrees, as before.
package enum SharedBuild {
    /// The shared worktree's folder name under ``Revision/worktreeRoot``.
    package static let worktree = "abba-build"
    /// Files whose change the compiler sees, and nothing reads at run time.
    package static let compiledSuffixes = [
        ".swift", ".c", ".h", ".cpp", ".hpp", ".cc", ".m", ".modulemap", "Package.resolved",
    ]

    /// Why `a` and `b` must build in worktrees of their own, or nil when B may build from A's products.
    ///
    /// Either is the working tree, or B changes a file that is not compiled (named).
    /// - Parameters:
    ///   - a: Revision A.
    ///   - b: Revision B.
    ///   - folder: The package folder.
    /// - Returns: The reason for separate builds, or nil.
    package static func separateReason(_ a: String, _ b: String, in folder: String) -> String? {
        if a == "." || b == "." { return "the working tree builds in its own folder" }
        guard let changed = Git.answer(["diff", "--name-only", a, b], in: folder) else {
            return "git could not list what changed"
        }
        let other = changed.split(separator: "\n").map(String.init).first { path in
            !compiledSuffixes.contains { path.hasSuffix($0) }
        }
        return other.map { "\($0) changed and may be read at run time" }
    }

    /// Builds A, keeps its bundle, then builds B in the same worktree from A's products.
    /// - Parameters:
    ///   - a: Revision A.
    ///   - b: Revision B.
    ///   - build: The build folder and flags both sides build with.
    ///   - kept: How A's kept bundle is recorded as built (``KeptBundle``).
    ///   - progress: Receives one line per step.
    /// - Returns: A's own checkout with its kept bundle, and B's revision with its bundle.
    /// - Throws: ``OrchestrationError`` for a failed checkout or build.
    static func build(
        _ a: String, _ b: String, into build: BuildFolder, kept: KeptBundle.Build, progress: (String) -> Void
    ) throws -> (
        a: (revision: Revision, bundle: String), b: (revision: Revision, bundle: String)
    ) {
        let folder = FileManager.default.currentDirectoryPath
        let sharedA = try Revision.prepare(a, worktree: worktree, progress: progress)
        progress(build.progressLine)
        let builtA = try build.build(sharedA, progress: progress)
        let bundleA = try KeptBundle.keep(builtA, of: sharedA, build: kept, in: folder)
        progress("perfkit: building \(b) in \(a)'s worktree from its build (only what \(b) changed is compiled)")
        let revisionB = try Revision.prepare(b, worktree: worktree, progress: progress)
        let bundleB = try build.build(revisionB, progress: progress)
        let revisionA = try Revision.prepare(a, progress: progress)
        return ((revisionA, bundleA), (revisionB, bundleB))
    }
}
