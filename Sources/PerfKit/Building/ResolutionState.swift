import Foundation
import PerfKitCore

/// What SwiftPM resolves a package's dependencies with that git does not carry into a worktree.
///
/// The working tree's SwiftPM configuration (`.swiftpm/configuration`: mirrors, registries), and its `Package.resolved`
/// when the revision does not track one (libraries often ignore it, as apple/swift-algorithms does). Without them a
/// worktree's build resolved afresh: it fetched from the original URLs a mirror replaces (offline, the build failed)
/// and could pick other versions of the dependencies than the working tree built with.
package enum ResolutionState {
    /// The configuration folder, relative to the package.
    static let configuration = ".swiftpm/configuration"

    /// Copies the working tree's resolution state into the worktree's package folder.
    /// - Parameters:
    ///   - folder: The package folder in the working tree.
    ///   - package: The package folder in the worktree.
    ///   - commit: The revision checked out there.
    ///   - prefix: The package's folder below the repository's top (`git rev-parse --show-prefix`).
    /// - Returns: What was copied, for a progress line (empty when nothing was).
    /// - Throws: `CocoaError` when a file cannot be copied.
    package static func carry(from folder: String, to package: String, commit: String, prefix: String) throws
        -> [String]
    {
        var carried: [String] = []
        let manager = FileManager.default
        if manager.fileExists(atPath: folder + "/" + configuration) {
            // Replaced just below; a failure shows there, named.
            try? manager.removeItem(atPath: package + "/" + configuration)
            try manager.createDirectory(atPath: package + "/.swiftpm", withIntermediateDirectories: true)
            try manager.copyItem(atPath: folder + "/" + configuration, toPath: package + "/" + configuration)
            carried.append("SwiftPM's configuration (\(configuration))")
        }
        let tracked = Git.answer(["cat-file", "-e", "\(commit):\(prefix)Package.resolved"], in: folder) != nil
        if !tracked, manager.fileExists(atPath: folder + "/Package.resolved") {
            // Replaced just below; a failure shows there, named.
            try? manager.removeItem(atPath: package + "/Package.resolved")
            try manager.copyItem(atPath: folder + "/Package.resolved", toPath: package + "/Package.resolved")
            carried.append("Package.resolved (the revision does not track one)")
        }
        return carried
    }

    /// The progress line naming what ``carry(from:to:commit:prefix:)`` copied, or nil.
    static func progressLine(_ carried: [String], worktree: String) -> String? {
        carried.isEmpty
            ? nil
            : "perfkit: \(worktree) resolves its dependencies as the working tree does: "
                + carried.joined(separator: " and ") + " copied"
    }
}
