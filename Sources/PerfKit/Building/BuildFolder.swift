import Foundation
import PerfKitCore

/// Where and with which flags `abba` builds its two sides, one folder for both.
///
/// SwiftPM decides what to compile again by each command and its inputs, so a module whose sources (at one absolute
/// path, as a dependency outside the repository is), flags and pins are as an earlier build left them is reused,
/// whichever revision that build was of; one that differs in any of them compiles again.
package struct BuildFolder: Sendable, Equatable {
    /// The build folder as named (relative to the package root, or absolute from `PERFKIT_SCRATCH_PATH`).
    package var name: String
    /// The build folder, absolute.
    package var scratch: String
    /// Whether the build passes ``Revision/pinnedLayoutFlags``.
    package var pinnedLayout: Bool
    /// The build system both sides build with (nil: SwiftPM's default).
    package var buildSystem: BuildSystem?

    /// For timing comparisons: the pinned code layout, in the package's `.perfkit/build-pinned`.
    /// - Parameter folder: The package root (the working tree).
    /// - Returns: The folder.
    package static func forTiming(in folder: String) -> BuildFolder {
        named(Revision.scratchPath(pinnedLayout: true), in: folder, pinnedLayout: true)
    }

    /// For counts: the folder and flags `perfkit run` builds with, so a side starts from the run's build.
    ///
    /// Instruction counts do not depend on the code's alignment (padding between functions and before blocks no
    /// code falls into is never executed), so counts need no pinned layout.
    /// - Parameter folder: The package root (the working tree).
    /// - Returns: The folder.
    package static func forCounts(in folder: String) -> BuildFolder {
        named(Revision.scratchPath(), in: folder, pinnedLayout: false)
    }

    /// The folder `name` of the package in `folder`.
    static func named(_ name: String, in folder: String, pinnedLayout: Bool) -> BuildFolder {
        BuildFolder(name: name, scratch: name.hasPrefix("/") ? name : folder + "/" + name, pinnedLayout: pinnedLayout)
    }

    /// Builds `revision`'s tests in release into this folder, with its flags
    /// (``Revision/build(pinnedLayout:sharedScratch:progress:)``).
    /// - Returns: The path of the test bundle.
    /// - Throws: What the build throws.
    package func build(_ revision: Revision, progress: (String) -> Void) throws -> String {
        var revision = revision
        revision.buildSystem = buildSystem
        return try revision.build(pinnedLayout: pinnedLayout, sharedScratch: scratch, progress: progress)
    }

    /// What a bundle built here must have been built with to stand for a new build (``KeptBundle``).
    /// - Parameter folder: The package folder, where `swift` is asked for its version.
    /// - Returns: The build, its toolchain ``KeptBundle/unknownToolchain`` (never reused) when `swift` cannot say.
    package func keptBuild(in folder: String) -> KeptBundle.Build {
        KeptBundle.Build(
            toolchain: BuildStamp.toolchain(in: folder) ?? KeptBundle.unknownToolchain, pinnedLayout: pinnedLayout,
            buildSystem: buildSystem, traitFlags: [])
    }

    /// The line that says why a side's build reuses what it does.
    package var progressLine: String {
        "perfkit: both sides build into \(name)"
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
            // A revision that does not resolve is not in place; `resolve` refuses it later, quoting git.
            let commit = try? resolve(revision, in: folder), commit == head,
            let status = Git.answer(["status", "--porcelain"], in: folder), status.isEmpty
        else { return nil }
        return Revision(name: revision, directory: ".", commit: commit)
    }
}
