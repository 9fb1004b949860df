import Foundation

/// The process's open file descriptors, listed from `/proc/self/fd`.
///
/// A leak check lists them before a call and after it (and after an async body's settle wait):
/// the descriptors open after that were not open before are the call's leak, so a body that opens
/// a file and never closes it reads 1 per call. Descriptors that other threads close meanwhile (a
/// parallel test's pipes under `swift test`) cannot make it negative; one they open and keep open
/// across the call would be counted, which is why `perfkit run` measures tests one at a time. The
/// lists are taken outside every counted window (listing the folder allocates).
package enum OpenDescriptors {
    /// The open descriptors now, without the one the listing itself holds; nil when `/proc` is not readable.
    package static func open() -> Set<Int32>? {
        guard !MeasurementPlatform.isPortable, let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var numbers = Set<Int32>()
        while let entry = readdir(directory) {
            // "." and "..": every other name is a descriptor number.
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let number = Int32(name), number != own { numbers.insert(number) }
        }
        return numbers
    }

    /// How many descriptors are open now that were not in `before`; nil when `/proc` is not readable.
    package static func leaked(since before: Set<Int32>) -> Int? {
        open().map { $0.subtracting(before).count }
    }

    /// Why descriptors cannot be listed here, or nil when they can.
    package static var unavailableReason: String? {
        MeasurementPlatform.portableReason ?? (open() == nil ? "/proc/self/fd is not readable" : nil)
    }
}
