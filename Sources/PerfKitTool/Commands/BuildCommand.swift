import Foundation
import PerfKit
import PerfKitCommandLine

/// `perfkit build`: the release build of the package's tests that `perfkit run` starts with, and nothing measured.
///
/// Through the plugin, a first `build` runs beside the tool's own debug build (the plugin's `ReleaseBuildAhead`), so
/// `swift package … perfkit build` leaves both the tool (`.build/debug/perfkit`) and the tests' release build
/// (`.perfkit/build`) ready for a CI step that runs the tool's binary and branches on its exit status.
enum BuildCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "build")
        try parsed.requirePositionals(0...0)
        let revision = try Revision.prepare(".", progress: Output.progress)
        let bundle = try revision.build(progress: Output.progress)
        // Relative to the package root, where the tool works.
        Output.line("test bundle: \(bundle.hasPrefix("./") ? String(bundle.dropFirst(2)) : bundle)")
        return ExitStatus.fine
    }
}
