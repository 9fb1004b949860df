import Foundation
import PerfKitCore

/// What PerfKit's last build left in a build folder: the toolchain that built it and a digest of the test bundle.
///
/// SwiftPM decides what to compile again by each command and its inputs' modification times, so it reuses a file that
/// was damaged after it was written, and it may reuse modules another toolchain installed at the same path compiled.
/// Before a build reuses a folder, ``reasonToStartAfresh(folder:toolchain:)`` compares the stamp with what is there: a
/// stamp that cannot be read, another toolchain, or a test bundle that is not the one the last build linked empties the
/// folder, with a note. A folder without a stamp (an older PerfKit's, or one being built for the first time) is left
/// to SwiftPM. A build that fails the way damaged products fail (``BuildLog/isDamagedProduct(_:)``) is retried once
/// from an empty folder.
package struct BuildStamp: Codable, Equatable, Sendable {
    /// The stamp's file name in the build folder.
    package static let fileName = "perfkit-build-stamp.json"

    /// The stamp's format; another value is read as a stamp that cannot be read.
    package var schema = 1
    /// The toolchain that built the folder (``toolchain(in:)``).
    package var toolchain: String
    /// The test bundle's path relative to the folder.
    package var bundle: String
    /// The SHA-256 of the test bundle, as the build linked it.
    package var bundleDigest: String

    /// The toolchain `swift` names in `directory`: its `swift --version` line and the compiler's resolved path.
    /// - Parameter directory: Where `swift` is run (a package's folder).
    /// - Returns: One line naming the toolchain, or nil when `swift` cannot be run.
    package static func toolchain(in directory: String) -> String? {
        guard let version = ChildProcess.output(["swift", "--version"], in: directory)?.split(separator: "\n").first
        else { return nil }
        let path = ChildProcess.output(["sh", "-c", "readlink -f \"$(command -v swift)\""], in: directory) ?? ""
        return version + (path.isEmpty ? "" : " at " + path)
    }

    /// The SHA-256 of the file at `path` (coreutils' `sha256sum`), or nil when it cannot be read.
    /// - Parameter path: The file.
    /// - Returns: The digest as hex.
    package static func digest(of path: String) -> String? {
        guard FileManager.default.isReadableFile(atPath: path),
            let line = ChildProcess.output(["sha256sum", "--", path]),
            let digest = line.split(separator: " ").first, digest.count == 64
        else { return nil }
        return String(digest)
    }

    /// Whether a stamp's relative bundle path names something inside `folder`: not absolute, no `..`, no link on the
    /// way
    /// out.
    static func staysInside(_ folder: String, _ relative: String) -> Bool {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !relative.hasPrefix("/"), !parts.contains(".."), !parts.contains("") else {
            return false
        }
        let resolved = URL(fileURLWithPath: folder + "/" + relative).resolvingSymlinksInPath().path
        let root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        return resolved.hasPrefix(root + "/")
    }

    /// Why the build folder `folder` must not be reused, or nil when it may be (or holds no stamp).
    /// - Parameters:
    ///   - folder: The build folder, absolute.
    ///   - toolchain: The toolchain about to build (``toolchain(in:)``); nil skips that check.
    /// - Returns: The reason, worded to follow the folder's name.
    package static func reasonToStartAfresh(folder: String, toolchain: String?) -> String? {
        let path = folder + "/" + fileName
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        // Read as any input is (a FIFO or a device refused, never waited on), and small.
        guard let data = try? InputFile.read(path, limit: 1 << 20),
            // An unreadable stamp empties the folder, saying so (the reason returned).
            let stamp = try? JSONDecoder().decode(BuildStamp.self, from: data), stamp.schema == 1,
            Self.staysInside(folder, stamp.bundle)
        else {
            return "has a build stamp PerfKit cannot read (\(fileName))"
        }
        if let toolchain, stamp.toolchain != toolchain {
            return "was built by another toolchain (\(stamp.toolchain))"
        }
        let bundle = folder + "/" + stamp.bundle
        var info = stat()
        // Only a regular file is hashed: a link or a device named by a stamp is never read.
        guard lstat(bundle, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return "has a build stamp PerfKit cannot read (its bundle is not a regular file)"
        }
        guard digest(of: bundle) == stamp.bundleDigest else {
            return "holds a test bundle that is not the one its last build linked (\(stamp.bundle) changed since)"
        }
        return nil
    }

    /// Checks `folder`'s stamp before a build and empties the folder, with a note, when it must not be reused.
    /// - Parameters:
    ///   - folder: The build folder, absolute.
    ///   - name: The folder as the user named it, for the note.
    ///   - directory: The package folder the build runs in.
    ///   - progress: Receives the note.
    /// - Returns: The toolchain about to build, for ``record(bundle:in:toolchain:)``.
    package static func prepare(folder: String, named name: String, in directory: String, progress: (String) -> Void)
        -> String?
    {
        let toolchain = toolchain(in: directory)
        if let reason = reasonToStartAfresh(folder: folder, toolchain: toolchain) {
            progress("perfkit: \(name) \(reason); building it afresh")
            startAfresh(folder: folder)
        }
        return toolchain
    }

    /// Empties `folder` so the next build starts from nothing.
    /// - Parameter folder: The build folder, absolute.
    package static func startAfresh(folder: String) {
        FileManager.default.removeLitter(atPath: folder)
    }

    /// Records what a successful build left: the toolchain and the bundle's digest.
    ///
    /// A stamp that cannot be written is left out; the next build then trusts SwiftPM, as for a folder without one.
    /// - Parameters:
    ///   - bundle: The test bundle's absolute path, inside `folder`.
    ///   - folder: The build folder, absolute.
    ///   - toolchain: The toolchain that built it.
    package static func record(bundle: String, in folder: String, toolchain: String?) {
        let path = folder + "/" + fileName
        guard let toolchain, bundle.hasPrefix(folder + "/"), let digest = digest(of: bundle) else {
            FileManager.default.removeLitter(atPath: path)
            return
        }
        let stamp = BuildStamp(
            toolchain: toolchain, bundle: String(bundle.dropFirst(folder.count + 1)), bundleDigest: digest)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Strings only: encoding cannot fail. A stamp that cannot be written leaves a folder that is built afresh next
        // time: slower, never wrong.
        guard let data = try? encoder.encode(stamp) else { return }
        try? StoredFile.writeAtomically(data, to: path)
    }
}
