import Foundation

/// File operations whose failure leaves nothing wrong, named for what a caller means instead of a bare `try?`.
extension FileManager {
    /// Removes `path` if it can: a scratch file or folder whose removal only tidies up.
    ///
    /// A path that is gone already is what is wanted. One that cannot be removed stays behind as litter, never as a
    /// wrong result: whatever reads that place later checks what it finds (a build stamp, a record written last, an
    /// owner's process ID).
    /// - Parameter path: The file or folder.
    package func removeLitter(atPath path: String) {
        do { try removeItem(atPath: path) } catch {
            // Litter at worst (see above).
        }
    }

    /// The names in `folder`, sorted; none when it does not exist or cannot be read.
    ///
    /// For a folder whose absence means "nothing there yet" (results not written, no runs kept).
    /// - Parameter folder: The folder.
    /// - Returns: The names of its entries, sorted.
    package func names(in folder: String) -> [String] {
        guard let names = try? contentsOfDirectory(atPath: folder) else { return [] }  // absent: nothing there
        return names.sorted()
    }
}
