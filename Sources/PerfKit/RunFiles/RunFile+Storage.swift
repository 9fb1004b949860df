import Foundation
import PerfKitCore

/// Reading and writing run files, and where `perfkit run` puts them.
extension RunFile {
    /// Reads a run file.
    /// - Throws: ``FileError`` naming the file and the problem.
    public static func read(from path: String) throws(FileError) -> RunFile {
        try StoredFile.read(RunFile.self, from: path, supportedVersions: 1...currentSchemaVersion)
    }

    /// Writes the run file atomically.
    /// - Throws: ``FileError`` naming the file.
    public func write(to path: String) throws(FileError) { try StoredFile.write(self, to: path) }

    /// The run file `perfkit run` always writes and other verbs read by default.
    public static let latestPath = ".perfkit/runs/latest.json"

    /// Reads `path`, or ``latestPath`` when nil; a missing default file says which command creates it.
    /// - Parameter path: A run file given on the command line, or nil.
    /// - Returns: The run file.
    /// - Throws: ``FileError`` naming the file and the problem.
    public static func read(orLatest path: String?) throws(FileError) -> RunFile {
        if path == nil && !FileManager.default.fileExists(atPath: latestPath) {
            throw FileError(latestPath, "no such file; `perfkit run` measures this package and writes it")
        }
        return try read(from: path ?? latestPath)
    }

    /// Where `perfkit run` writes a run file by default: `.perfkit/runs/<yyyyMMdd-HHmmss>.json` in UTC.
    /// - Parameter date: The run's time.
    /// - Returns: The path.
    public static func timestampedPath(_ date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        return ".perfkit/runs/\(formatter.string(from: date)).json"
    }
}
