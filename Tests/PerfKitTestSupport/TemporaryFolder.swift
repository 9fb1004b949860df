import Foundation

/// A folder under the system's temporary directory that is removed when the last reference to it goes.
///
/// A suite (a struct, one instance per test) holds one, so every test cleans up after itself.
package final class TemporaryFolder: Sendable {
    /// The folder's path (created at once).
    package let path: String

    /// Creates `<tmp>/<prefix>-<UUID>`.
    package init(_ prefix: String) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes each file of `files` (a path relative to the folder, and its text), making the folders it needs.
    package func write(_ files: [String: String]) throws {
        for (relative, text) in files {
            let url = URL(fileURLWithPath: path + "/" + relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
