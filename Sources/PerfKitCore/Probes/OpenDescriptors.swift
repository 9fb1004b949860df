import Foundation

/// The process's open file descriptors, counted from `/proc/self/fd`.
///
/// A leak check reads the count before a call and after it (and after an async body's settle
/// wait): a body that opens a file and never closes it reads 1 more per call. The count is taken
/// outside every counted window (listing the folder allocates).
package enum OpenDescriptors {
    /// Open descriptors now, less the one the listing itself holds; nil when `/proc` is not readable.
    package static func count() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var entries = 0
        while let entry = readdir(directory) {
            // "." and "..": every other name is a descriptor number.
            let first = withUnsafeBytes(of: entry.pointee.d_name) { $0[0] }
            if first != UInt8(ascii: ".") { entries += 1 }
        }
        return entries - 1  // the listing's own descriptor
    }

    /// Why descriptors cannot be counted here, or nil when they can.
    package static var unavailableReason: String? {
        count() == nil ? "/proc/self/fd is not readable" : nil
    }
}
