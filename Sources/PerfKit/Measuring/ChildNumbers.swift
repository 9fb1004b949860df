import Foundation
import PerfKitCore

/// A helper child process that prints one JSON object of numbers, run and decoded.
///
/// A helper child process that prints one JSON object of numbers (for example a fresh process
/// measuring its own resident memory), run and decoded with one-line errors, never a crash.
package enum ChildNumbers {
    /// Runs `executable` with `arguments` and decodes what it prints.
    /// - Parameters:
    ///   - executable: The program (this executable, for `calendar-demo calendar …` helpers).
    ///   - arguments: Its arguments.
    ///   - keys: Keys the object must hold.
    /// - Returns: The numbers by key.
    /// - Throws: ``OrchestrationError/childFailed(_:)`` when the child fails, prints something
    ///   other than a JSON object of numbers, or leaves out one of `keys`.
    package static func run(_ executable: String, _ arguments: [String], requiring keys: [String] = []) throws
        -> [String: Double]
    {
        let (status, output) = try ChildProcess.run([executable] + arguments)
        let name =
            "child process '\(URL(fileURLWithPath: executable).lastPathComponent) \(arguments.joined(separator: " "))'"
        guard status == 0 else { throw OrchestrationError.childFailed("\(name) failed (exit \(status))") }
        return try decode(output, from: name, requiring: keys)
    }

    /// Decodes a child's output.
    /// - Parameters:
    ///   - output: What the child printed.
    ///   - name: The child, for error messages.
    ///   - keys: Keys the object must hold.
    /// - Returns: The numbers by key.
    /// - Throws: ``OrchestrationError/childFailed(_:)`` naming the child and the problem.
    package static func decode(_ output: Data, from name: String, requiring keys: [String] = []) throws -> [String:
        Double]
    {
        // A child that printed no numbers is reported just below with its output.
        guard let values = try? JSONDecoder().decode([String: Double].self, from: output) else {
            throw OrchestrationError.childFailed(
                "\(name) printed \(output.count) bytes that are not a JSON object of numbers")
        }
        if let missing = keys.first(where: { values[$0] == nil }) {
            throw OrchestrationError.childFailed("\(name) printed no '\(missing)'")
        }
        return values
    }
}
