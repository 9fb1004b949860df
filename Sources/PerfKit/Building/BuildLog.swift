import Foundation
import PerfKitCore

/// What a failed `swift build` said: its first error, and whether it failed the way a stale build
/// plan does.
package enum BuildLog {
    /// Whether the build failed because its plan named inputs that no longer exist.
    ///
    /// That is SwiftPM's
    /// "because of missing inputs", or a compiler told to read a source file that is gone.
    package static func isStalePlan(_ build: ChildProcess.Finished) -> Bool {
        let text = log(build)
        if text.contains("missing inputs") { return true }
        return text.split(separator: "\n").contains { line in
            guard line.contains("error:"), line.contains("no such file or directory") else { return false }
            return line.contains(".swift") || line.contains(".c'") || line.contains(".h'")
        }
    }

    /// Whether the build failed the way damaged or foreign build products fail.
    ///
    /// A module or object file that is malformed, truncated or from another compiler.
    package static func isDamagedProduct(_ build: ChildProcess.Finished) -> Bool {
        let text = log(build)
        return damagedProductSigns.contains { text.contains($0) }
    }

    /// What the compiler, clang and the linker say about a damaged or foreign product.
    static let damagedProductSigns = [
        "malformed compiled module", "compiled module was created by", "module file was created by",
        "malformed or corrupted AST file", "file too short", "file format not recognized",
        "unexpected end of file", "is truncated", "invalid object file",
    ]

    /// Whether the build failed because a test imports with `@testable` a module built without
    /// `-enable-testing` (``Revision/testableFlags``).
    package static func isNotTestable(_ build: ChildProcess.Finished) -> Bool {
        log(build).contains("was not compiled for testing")
    }

    /// Whether the build failed because SwiftPM has no product of the name it was given (a package
    /// without test targets has no test product).
    package static func isUnknownProduct(_ build: ChildProcess.Finished) -> Bool {
        let text = log(build)
        // The native build system's words, and Swift Build's (which has no `<Package>PackageTests` product).
        return text.contains("no product named")
            || (text.contains("Could not find target named '") && text.contains("-product'"))
    }

    /// SwiftPM's first `error:` line, trimmed (empty when it printed none).
    package static func firstError(_ build: ChildProcess.Finished) -> String {
        let lines = log(build).split(separator: "\n")
        // Only a real error line: a build killed by a signal ends on an ordinary progress line.
        let line = lines.first { $0.contains("error:") } ?? ""
        return line.trimmingCharacters(in: .whitespaces)
    }

    /// Removes the cached build plan under `scratch`, keeping every compiled product.
    ///
    /// Removes the cached build plan (the `.yaml` manifests and `description.json`) under `scratch`,
    /// keeping every compiled product, so the next build plans afresh and recompiles only what changed.
    package static func removePlan(scratch: String) {
        let files = FileManager.default.names(in: scratch)
        for file in files where file.hasSuffix(".yaml") {
            FileManager.default.removeLitter(atPath: scratch + "/" + file)
        }
        for configuration in ["release", "debug"] {
            FileManager.default.removeLitter(atPath: "\(scratch)/\(configuration)/description.json")
        }
    }

    private static func log(_ build: ChildProcess.Finished) -> String {
        String(decoding: build.output, as: UTF8.self) + "\n" + build.errors
    }
}
