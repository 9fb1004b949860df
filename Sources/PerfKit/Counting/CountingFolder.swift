import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The folder a counting run stages its bundle, shim and dumps in, of one path length everywhere.
///
/// A counted process sees the folder's path (its executable, the shim, the dump files), so the path's
/// length is part of what it counts; its characters are not (a run's folder is unique). The folder is
/// made in `TMPDIR` when that is short enough to hold a unique name of the fixed length, else in
/// `/tmp`. In `/tmp` it is `/tmp/perfkit-counts-<UUID>`, the name earlier runs used.
package enum CountingFolder {
    /// Every counting folder's path length: that of `/tmp/perfkit-counts-<UUID>`.
    package static let pathLength = 56

    /// The name prefix of a folder outside `/tmp`, followed by random hexadecimal digits.
    static let shortPrefix = "pk-"

    /// The fewest random digits a folder's name keeps, so that two runs never share a folder.
    static let fewestDigits = 16

    /// The file in a run's folder holding the pid of the run that made it.
    package static let ownerFile = "owner.pid"

    /// Where a new folder goes and its path, and why `TMPDIR` was passed over when it was.
    /// - Parameter environment: The run's environment (its `TMPDIR`).
    /// - Returns: The folder's path (not yet made) and a note when `TMPDIR` was set but not used.
    package static func newPath(environment: [String: String]) -> (path: String, note: String?) {
        let fallback = "/tmp/perfkit-counts-" + UUID().uuidString
        guard let parent = usableParent(environment) else {
            // A TMPDIR that names no folder is said, not passed over in silence.
            let set = environment["TMPDIR"].map { !$0.isEmpty } ?? false
            return (fallback, set ? "TMPDIR (\(environment["TMPDIR"] ?? "")) is not a folder; using /tmp" : nil)
        }
        if parent == "/tmp" { return (fallback, nil) }
        let digits = pathLength - parent.count - 1 - shortPrefix.count
        guard digits >= fewestDigits else {
            let why = "TMPDIR (\(parent)) is too long for a counting folder of \(pathLength) characters; using /tmp"
            return (fallback, why)
        }
        let hex = (0..<((digits + 31) / 32)).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "") }
        return (parent + "/" + shortPrefix + hex.joined().lowercased().prefix(digits), nil)
    }

    /// `TMPDIR` without trailing slashes when it names a folder, else nil.
    static func usableParent(_ environment: [String: String]) -> String? {
        guard var parent = environment["TMPDIR"], parent.hasPrefix("/") else { return nil }
        while parent.count > 1 && parent.hasSuffix("/") { parent.removeLast() }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
            return nil
        }
        return parent
    }

    /// Makes the folder (with its `dumps` folder) and writes the owner file.
    ///
    /// A run killed before its clean-up leaves the folder for the next run to sweep.
    /// - Parameter path: From ``newPath(environment:)``.
    /// - Throws: What creating the folder throws.
    package static func make(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path + "/dumps", withIntermediateDirectories: true)
        // Without an owner file the folder is swept as an orphan's later: litter, not a wrong count.
        try? Data("\(getpid())\n".utf8).write(to: URL(fileURLWithPath: path + "/" + ownerFile))
    }

    /// Removes the counting folders of runs that were killed, in `/tmp` and in `TMPDIR`.
    ///
    /// A folder is removed when it is this user's, its owner file names a pid, and no process has
    /// that pid. Folders without the owner file are left alone.
    /// - Parameter environment: The run's environment (its `TMPDIR`).
    package static func sweepDead(environment: [String: String]) {
        let parents = Set(["/tmp"] + [usableParent(environment)].compactMap { $0 })
        for parent in parents {
            // A parent that cannot be listed holds nothing to sweep.
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { continue }
            for name in names
            where name.hasPrefix("perfkit-counts-") || name.hasPrefix(shortPrefix)
                || name.hasPrefix("perfkit-measured-")
            {
                let folder = parent + "/" + name
                if ownerIsGone(folder) { FileManager.default.removeLitter(atPath: folder) }
            }
        }
    }

    /// Whether `folder` is this user's, names an owner pid, and that pid no longer runs.
    static func ownerIsGone(_ folder: String) -> Bool {
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_uid == getuid(), (info.st_mode & S_IFMT) == S_IFDIR,
            // No owner file: the folder's owner is gone (it writes the file first).
            let text = try? String(contentsOfFile: folder + "/" + ownerFile, encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0
        else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
