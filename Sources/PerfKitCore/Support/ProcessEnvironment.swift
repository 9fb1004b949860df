import Foundation

/// One environment variable at a time, read with `getenv`.
///
/// `ProcessInfo.processInfo.environment` builds a dictionary of every variable, so what it
/// allocates follows the whole environment: the working folder's name when a shell exported `PWD`,
/// say. In a counting process the test runs on the measured thread from its start, and that heap
/// must evolve the same way in every run: a read there that allocated by the environment's size
/// moved a later sample's `free` by 136 instructions (the journal append counted 47,151 from one
/// folder and 47,287 from another, 2026-12-03). A read of one absent variable allocates nothing.
package enum ProcessEnvironment {
    /// The value of `name`, or nil when it is not set.
    package static func value(_ name: String) -> String? {
        guard let pointer = getenv(name) else { return nil }
        return String(cString: pointer)
    }
}
