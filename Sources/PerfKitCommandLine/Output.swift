import Foundation
import PerfKit

/// Where the command line writes: results to standard output, progress and errors to standard error.
package enum Output {
    package static func line(_ text: String) {
        LiveProgress.write(text + "\n", to: .standardOutput)
    }

    package static func progress(_ text: String) {
        LiveProgress.write(text + "\n")
    }

    /// Writes `text` to `path`, or to standard output when `path` is nil or `-`.
    package static func write(_ text: String, to path: String?) throws {
        guard let path, path != "-" else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        try PerfKit.StoredFile.writeAtomically(Data(text.utf8), to: path)
    }
}
