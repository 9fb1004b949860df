import Foundation

/// One environment variable at a time, read with `getenv`.
///
/// `ProcessInfo.processInfo.environment` builds a dictionary of every variable. In a counting
/// process the test runs on the measured thread from its start, and that heap must evolve the same
/// way in every run; read there, `ProcessInfo` allocated by something that followed the process's
/// working folder, and a later sample's `free` moved by 136 instructions (one bundle's journal
/// append counted 47,287 from `abba`'s shared worktree and 47,151 from the other side's checkout,
/// run by hand with `env -C`, no `PWD`). With each variable read alone, 47,151 from
/// every folder. Which of `ProcessInfo`'s allocations followed the folder was not found. A read of
/// one absent variable allocates nothing.
package enum ProcessEnvironment {
    /// The value of `name`, or nil when it is not set.
    package static func value(_ name: String) -> String? {
        guard let pointer = getenv(name) else { return nil }
        return String(cString: pointer)
    }
}
