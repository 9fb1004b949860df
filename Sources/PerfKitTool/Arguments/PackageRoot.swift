import Foundation
import PerfKit
import PerfKitCommandLine

/// The package a verb works on.
///
/// The nearest folder at or above the current one holding a `Package.swift`, so `perfkit run` from `Sources/` measures
/// the package instead of building a second copy into `Sources/.build`.
enum PackageRoot {
    /// Verbs that build, measure or read the package's `.perfkit/` and `Baselines/`.
    static let verbs: Set<String> = [
        "run", "build", "baseline", "compare", "abba", "calibrate", "history", "bisect", "merge",
    ]
    /// Options whose values are paths, made absolute before moving to the root.
    static let pathOptions: Set<String> = [
        "output", "current", "markdown", "csv", "json", "from", "noise", "root", "store",
    ]

    /// Moves to the package root when run from below it, rewriting relative path options so they
    /// still name the files the user meant.
    /// - Returns: The arguments with relative path options made absolute.
    ///   Outside any package the arguments come back unchanged and the folder stays as it is.
    static func enter(_ arguments: [String]) -> [String] {
        let start = FileManager.default.currentDirectoryPath
        guard let root = Revision.packageRoot(containing: start),
            URL(fileURLWithPath: root).standardizedFileURL.path != URL(fileURLWithPath: start).standardizedFileURL.path
        else { return arguments }  // at the root, or not inside a package: work here
        var rewritten: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "="),
                pathOptions.contains(String(argument[argument.index(argument.startIndex, offsetBy: 2)..<equals]))
            {
                rewritten.append(
                    String(argument[...equals])
                        + absolute(String(argument[argument.index(after: equals)...]), from: start))
            } else if argument.hasPrefix("--"), pathOptions.contains(String(argument.dropFirst(2))),
                index < arguments.count
            {
                rewritten += [argument, absolute(arguments[index], from: start)]
                index += 1
            } else {
                rewritten.append(argument)
            }
        }
        guard FileManager.default.changeCurrentDirectoryPath(root) else { return arguments }
        Output.progress("perfkit: working in the package at \(root)")
        return rewritten
    }

    static func absolute(_ path: String, from folder: String) -> String {
        // A URL (a history store's postgres://…) names no file: left as it is.
        path.hasPrefix("/") || path == "-" || path.contains("://")
            ? path : URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: folder + "/")).standardizedFileURL.path
    }
}
