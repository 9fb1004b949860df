import Foundation
import PerfKitCore

/// A side's test bundle kept after an `abba`, and when a later `abba` may run it instead of building its commit again.
///
/// `abba` copies each side's bundle (with the resource bundles and shared libraries beside it) to
/// `.perfkit/bundles/<commit>` (`<commit>-pinned` for the pinned code layout) and writes this record beside it last, so
/// a copy cut short has no record and is never reused. A later `abba` of the same commit, built alike, runs the copy:
/// the timing `abba` and the counting `abba` of two revisions then build them once, and an `abba` run again builds
/// nothing.
///
/// Reuse is refused, and the side built, when anything the bundle depends on may differ from what it was built from:
/// another toolchain, layout, build system or traits; a revision whose manifests pin a path dependency outside the
/// repository (that folder's files are not in the commit); or a tree it was built in that now holds files other than
/// compiled ones that differ from the commit (a test reads a fixture through `#filePath` at run time, from that tree).
package struct KeptBundle: Codable, Sendable, Equatable {
    /// What must match for a kept bundle to stand for a build of its commit.
    package struct Build: Codable, Sendable, Equatable {
        /// The toolchain (``BuildStamp/toolchain(in:)``).
        package var toolchain: String
        /// Whether built with ``Revision/pinnedLayoutFlags``.
        package var pinnedLayout: Bool
        /// The build system asked for (`native`, `swiftbuild`), nil for SwiftPM's default.
        package var buildSystem: String?
        /// SwiftPM's trait flags (``Revision/traitFlags``).
        package var traitFlags: [String]

        /// A build description.
        package init(toolchain: String, pinnedLayout: Bool, buildSystem: BuildSystem?, traitFlags: [String]) {
            self.toolchain = toolchain
            self.pinnedLayout = pinnedLayout
            self.buildSystem = buildSystem?.rawValue
            self.traitFlags = traitFlags
        }
    }

    /// The commit built.
    package var commit: String
    /// How it was built.
    package var build: Build
    /// The package folder it was built in (absolute): where its `#filePath` reads go.
    package var tree: String
    /// The bundle's file name (`<Package>PackageTests.xctest`, or a Swift Build test runner).
    package var bundleName: String

    /// Where kept bundles live: `<this>/<commit>[-pinned]/`.
    package static let root = ".perfkit/bundles"
    /// The toolchain of a build whose `swift` could not name it: such a bundle is never reused.
    package static let unknownToolchain = "unknown"
    /// The record's file name in a kept bundle's folder.
    package static let recordName = "kept.json"

    /// The folder of `commit`'s bundle built with or without the pinned layout, under the package folder `folder`.
    package static func folder(commit: String, pinnedLayout: Bool, in folder: String) -> String {
        folder + "/" + root + "/" + commit + (pinnedLayout ? "-pinned" : "")
    }

    /// Copies `bundle` and what lies beside it to its commit's folder, then writes the record.
    ///
    /// Copies `bundle` (and the resource bundles and shared libraries beside it) to
    /// ``folder(commit:pinnedLayout:in:)``,
    /// replacing an older copy; the record is written last, so an interrupted copy is never reused.
    /// - Parameters:
    ///   - bundle: The test bundle as built.
    ///   - commit: The commit built (a clean one: a working tree with changes is never kept for reuse).
    ///   - build: How it was built.
    ///   - recorded: Whether to write the record; false for a revision that may not be reused (its copy is then
    ///     run once, never again).
    ///   - tree: The package folder it was built in.
    ///   - folder: The package folder of the working tree.
    /// - Returns: The copy's path.
    /// - Throws: `CocoaError` when a file cannot be copied, ``FileError`` when the record cannot be written.
    package static func keep(
        bundle: String, commit: String, build: Build, recorded: Bool = true, tree: String, in folder: String
    ) throws -> String {
        let target = Self.folder(commit: commit, pinnedLayout: build.pinnedLayout, in: folder)
        // Gone already is what is wanted; a removal that failed shows as the copy's error below.
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        let source = URL(fileURLWithPath: bundle).deletingLastPathComponent().path
        let name = URL(fileURLWithPath: bundle).lastPathComponent
        for item in try FileManager.default.contentsOfDirectory(atPath: source)
        where item == name || item.hasSuffix(".resources") || item.hasSuffix(".so") {
            try FileManager.default.copyItem(atPath: source + "/" + item, toPath: target + "/" + item)
        }
        if recorded, !commit.hasSuffix("+dirty") {
            let record = KeptBundle(
                commit: commit, build: build,
                tree: URL(fileURLWithPath: tree, relativeTo: URL(fileURLWithPath: folder))
                    .standardizedFileURL.path, bundleName: name)
            try StoredFile.write(record, to: target + "/" + recordName)
        }
        return target + "/" + name
    }

    /// Keeps `revision`'s built `bundle`, recorded for reuse unless the revision reaches outside its commit.
    /// - Returns: The copy's path.
    /// - Throws: What ``keep(bundle:commit:build:recorded:tree:in:)`` throws.
    package static func keep(_ bundle: String, of revision: Revision, build: Build, in folder: String) throws -> String
    {
        try keep(
            bundle: bundle, commit: revision.commit, build: build, recorded: !revision.pinsOutsideRepository,
            tree: revision.directory, in: folder)
    }

    /// The kept bundle of `commit` built as `build` asks, when it may be run instead of a new build; else why not.
    /// - Parameters:
    ///   - commit: The commit wanted.
    ///   - build: How it must have been built.
    ///   - folder: The package folder of the working tree.
    /// - Returns: The bundle's path, or the reason it cannot stand for a build (nil reason: none was kept).
    package static func reusable(commit: String, build: Build, in folder: String) -> Result<String, Refusal> {
        let kept = Self.folder(commit: commit, pinnedLayout: build.pinnedLayout, in: folder)
        guard let data = FileManager.default.contents(atPath: kept + "/" + recordName),
            // An unreadable record stands for no kept bundle: the side is built.
            let record = try? JSONDecoder().decode(KeptBundle.self, from: data), record.commit == commit,
            FileManager.default.fileExists(atPath: kept + "/" + record.bundleName)
        else { return .failure(.noneKept) }
        guard record.build == build, build.toolchain != unknownToolchain else { return .failure(.builtOtherwise) }
        guard let changed = Git.answer(["diff", "--name-only", commit], in: record.tree) else {
            return .failure(.treeUnreadable(record.tree))
        }
        let names = changed.split(separator: "\n").map(String.init)
        if let other = names.first(where: { path in !SharedBuild.compiledSuffixes.contains { path.hasSuffix($0) } }) {
            return .failure(.treeChanged(tree: record.tree, file: other))
        }
        return .success(kept + "/" + record.bundleName)
    }

    /// Why a kept bundle cannot stand for a build of its commit.
    package enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// No complete copy of that commit was kept.
        case noneKept
        /// Kept from another toolchain, layout, build system or traits.
        case builtOtherwise
        /// The folder it was built in cannot be read by git (removed).
        case treeUnreadable(String)
        /// The folder it was built in now holds another version of a file that is not compiled (read at run time).
        case treeChanged(tree: String, file: String)

        package var description: String {
            switch self {
            case .noneKept: "no bundle of it is kept"
            case .builtOtherwise: "the kept bundle was built with another toolchain, layout, build system or traits"
            case .treeUnreadable(let tree): "the folder it was built in (\(tree)) is gone"
            case .treeChanged(let tree, let file):
                "\(file) in the folder it was built in (\(tree)) differs from the commit's and may be read at run time"
            }
        }
    }
}
