import Foundation
import PerfKitCore

/// Where and with which flags `abba` builds its two sides, one folder for both.
///
/// SwiftPM decides what to compile again by each command and its inputs, so a module whose sources (at one absolute
/// path, as a dependency outside the repository is), flags and pins are as an earlier build left them is reused,
/// whichever revision that build was of; one that differs in any of them compiles again.
package struct BuildFolder: Sendable, Equatable {
    /// The build folder, absolute.
    package var scratch: String
    /// Whether the build passes ``Revision/pinnedLayoutFlags``.
    package var pinnedLayout: Bool

    /// For timing comparisons: the pinned code layout, in the package's `.perfkit/build-pinned`.
    /// - Parameter folder: The package root (the working tree).
    /// - Returns: The folder.
    package static func forTiming(in folder: String) -> BuildFolder {
        BuildFolder(scratch: folder + "/" + Revision.scratchPath(pinnedLayout: true), pinnedLayout: true)
    }

    /// For counts: the folder and flags `perfkit run` builds with, so a side starts from the run's build.
    ///
    /// Instruction counts do not depend on the code's alignment (padding between functions and before blocks no
    /// code falls into is never executed), so counts need no pinned layout.
    /// - Parameter folder: The package root (the working tree).
    /// - Returns: The folder.
    package static func forCounts(in folder: String) -> BuildFolder {
        let scratch = Revision.scratchPath()
        return BuildFolder(scratch: scratch.hasPrefix("/") ? scratch : folder + "/" + scratch, pinnedLayout: false)
    }

    /// The line that says why a side's build reuses what it does.
    package var progressLine: String {
        let relative = scratch.split(separator: "/").suffix(scratch.contains("/.perfkit/") ? 2 : 1).joined(
            separator: "/")
        return "perfkit: both sides build into \(relative)"
            + (pinnedLayout ? " with the pinned code layout" : " as perfkit run does")
            + ": a module whose sources, flags and pins are as an earlier build left them is not compiled again"
    }
}

extension Revision {
    /// `revision` built in place, when it is the working tree's commit and the tree is clean; nil otherwise.
    ///
    /// Clean means no tracked change and no untracked file outside `.gitignore`: the tree then holds exactly that
    /// commit's files, so building it in place builds the commit, from the folder `perfkit run` built.
    /// - Parameters:
    ///   - revision: The revision as given.
    ///   - folder: The package root.
    /// - Returns: The in-place revision, or nil.
    package static func inPlace(_ revision: String, in folder: String) -> Revision? {
        guard revision != ".", let head = Git.answer(["rev-parse", "HEAD"], in: folder),
            let commit = try? resolve(revision, in: folder), commit == head,
            let status = Git.answer(["status", "--porcelain"], in: folder), status.isEmpty
        else { return nil }
        return Revision(name: revision, directory: ".", commit: commit)
    }
}
