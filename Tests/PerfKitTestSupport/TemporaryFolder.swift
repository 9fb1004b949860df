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

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
