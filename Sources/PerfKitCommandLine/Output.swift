import Foundation
import PerfKit

/// Where the command line writes: results to standard output, progress and errors to standard error.
package enum Output {
    package static func line(_ text: String) {
        LiveProgress.write(terminalSafe(text) + "\n", to: .standardOutput)
    }

    package static func progress(_ text: String) {
        LiveProgress.write(terminalSafe(text) + "\n")
    }

    /// `text` with every control character but a newline and a tab escaped (`\u{1B}`).
    ///
    /// Every line the tool writes goes through it: a name read from a file or an option (a threshold file's, a
    /// metric's, a build stamp's toolchain) never reaches the terminal as an escape sequence or a carriage return.
    /// Names inside a message are also shown one line each (``FileError/shown(_:)``).
    package static func terminalSafe(_ text: String) -> String {
        FileError.escapingControls(text, kept: ["\n", "\t"])
    }

    /// Writes `text` to `path`, or to standard output when `path` is nil or `-`.
    package static func write(_ text: String, to path: String?) throws {
        guard let path, path != "-" else {
            LiveProgress.write(text, to: .standardOutput)
            return
        }
        try PerfKit.StoredFile.writeAtomically(Data(text.utf8), to: path)
    }
}
