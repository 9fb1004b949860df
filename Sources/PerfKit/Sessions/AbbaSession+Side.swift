import Foundation
import PerfKitCore

extension AbbaSession {
    /// One side of the comparison: a built revision, and extra environment for its processes.
    package struct Side: Sendable {
        /// The revision.
        package var revision: Revision
        /// Its test bundle.
        package var bundle: String
        /// Variables added to its processes' environment (test-only: an injected slowdown).
        package var environment: [String: String]
        /// A side.
        package init(revision: Revision, bundle: String, environment: [String: String] = [:]) {
            self.revision = revision
            self.bundle = bundle
            self.environment = environment
        }

        /// The two sides of a comparison of revisions `a` and `b`.
        ///
        /// Both are resolved before anything is created (a bad B leaves no worktree of A behind). When an earlier
        /// `abba` kept both sides' bundles built alike (``KeptBundle``), they run again and nothing is built; a
        /// counting `abba` also runs a timing `abba`'s pinned-layout pair (counts do not depend on code alignment),
        /// never one side of each. Otherwise they are built in release into one folder (``BuildFolder``) and kept:
        /// for counts a side that is the working tree's commit, the tree clean, builds in place, from the folder
        /// `perfkit run` built; else B builds from A's products in one worktree when B changes only compiled files
        /// (``SharedBuild``), else each in its own worktree (once when both are one folder).
        /// - Parameters:
        ///   - a: Revision A (the baseline side), or `.` for the working tree.
        ///   - b: Revision B (the current side).
        ///   - counts: Whether the sides are counted (built as `perfkit run` builds) rather than timed (pinned layout).
        ///   - environments: Extra environment of A's and of B's processes.
        ///   - buildSystem: The build system both sides build with (nil: SwiftPM's default).
        ///   - progress: Receives one line per step.
        /// - Returns: Sides A and B.
        /// - Throws: ``OrchestrationError`` for an unknown revision, a failed checkout or build.
        package static func build(
            _ a: String, _ b: String, counts: Bool = false,
            environments: (a: [String: String], b: [String: String]) = ([:], [:]), buildSystem: BuildSystem? = nil,
            progress: (String) -> Void = { _ in }
        ) throws -> (a: Side, b: Side) {
            let commits = (a: try Revision.resolve(a), b: try Revision.resolve(b))
            let folder = FileManager.default.currentDirectoryPath
            var into = counts ? BuildFolder.forCounts(in: folder) : BuildFolder.forTiming(in: folder)
            into.buildSystem = buildSystem
            let kept = into.keptBuild(in: folder)
            if let reused = try reuse(a, b, commits: commits, build: kept, counts: counts, progress: progress) {
                return (
                    Side(revision: reused.a.revision, bundle: reused.a.bundle, environment: environments.a),
                    Side(revision: reused.b.revision, bundle: reused.b.bundle, environment: environments.b)
                )
            }
            let inPlace = (a: Revision.inPlace(a, in: folder), b: Revision.inPlace(b, in: folder))
            let separate = SharedBuild.separateReason(a, b, in: folder)
            // In place only for counts: the run's folder holds the working tree's build then. The pinned folder holds
            // none, and a worktree's build into it would replace the in-place one (other source paths), so a timing
            // `abba` builds both sides in the shared worktree, B from A's products.
            if inPlace.a != nil || inPlace.b != nil, counts || separate != nil {
                progress(
                    "perfkit: the working tree is clean at the commit of \(inPlace.a != nil ? a : b): built in place")
            } else if let separate {
                progress("perfkit: building \(a) and \(b) in worktrees of their own (\(separate))")
            } else {
                let (builtA, builtB) = try SharedBuild.build(a, b, into: into, kept: kept, progress: progress)
                let bundleB = try KeptBundle.keep(builtB.bundle, of: builtB.revision, build: kept, in: folder)
                return (
                    Side(revision: builtA.revision, bundle: builtA.bundle, environment: environments.a),
                    Side(revision: builtB.revision, bundle: bundleB, environment: environments.b)
                )
            }
            let revisionA = try inPlace.a ?? Revision.prepare(a, progress: progress)
            let revisionB = try inPlace.b ?? Revision.prepare(b, progress: progress)
            // One build folder for both sides: B compiles only what differs from A (and from earlier builds);
            // A's bundle is kept apart before B's build replaces it.
            progress(into.progressLine)
            let builtA = try into.build(revisionA, progress: progress)
            let same = revisionA.directory == revisionB.directory
            let bundleA = try KeptBundle.keep(builtA, of: revisionA, build: kept, in: folder)
            let bundleB =
                same
                ? bundleA
                : try KeptBundle.keep(into.build(revisionB, progress: progress), of: revisionB, build: kept, in: folder)
            return (
                Side(revision: revisionA, bundle: bundleA, environment: environments.a),
                Side(revision: revisionB, bundle: bundleB, environment: environments.b)
            )
        }

        /// Both sides' kept bundles, when an earlier `abba` kept both built as `build` asks; nil (saying why)
        /// otherwise.
        ///
        /// A counting comparison takes a plain pair, else a pinned-layout pair; never one of each, since code layout
        /// moves a series that follows addresses.
        static func reuse(
            _ a: String, _ b: String, commits: (a: String, b: String), build: KeptBundle.Build, counts: Bool,
            progress: (String) -> Void
        ) throws -> (a: (revision: Revision, bundle: String), b: (revision: Revision, bundle: String))? {
            guard a != ".", b != "." else { return nil }
            let folder = FileManager.default.currentDirectoryPath
            var pinned = build
            pinned.pinnedLayout = true
            var found: (a: String, b: String)?
            var refusal: KeptBundle.Refusal = .noneKept
            for candidate in counts ? [build, pinned] : [build] where found == nil {
                let sides = [commits.a, commits.b].map { KeptBundle.reusable(commit: $0, build: candidate, in: folder) }
                if case .success(let bundleA) = sides[0], case .success(let bundleB) = sides[1] {
                    found = (bundleA, bundleB)
                }
                // Either side's reason, not only A's: a side never kept says nothing, one built otherwise does.
                for case .failure(let why) in sides where why != .noneKept { refusal = why }
            }
            guard let found else {
                if refusal != .noneKept { progress("perfkit: not running the kept bundles: \(refusal)") }
                return nil
            }
            let revisionA = try Revision.prepare(a, progress: progress)
            let revisionB = commits.a == commits.b ? revisionA : try Revision.prepare(b, progress: progress)
            guard !revisionA.pinsOutsideRepository, !revisionB.pinsOutsideRepository else { return nil }
            progress(
                "perfkit: \(a) and \(b) as an earlier abba built them alike (kept in \(KeptBundle.root)): nothing to "
                    + "build")
            return ((revisionA, found.a), (revisionB, found.b))
        }
    }
}
