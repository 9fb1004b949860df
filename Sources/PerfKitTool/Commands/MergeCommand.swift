import Foundation
import PerfKit
import PerfKitCommandLine

/// `perfkit merge RUNFILE RUNFILE… [--output FILE]`: joins shards into one run file, with their
/// callgrind dumps renumbered into one folder beside it.
enum MergeCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "merge")
        guard parsed.positionals.count >= 2 else { throw UsageError("usage: \(parsed.verb.usage)") }
        let output = parsed[.output] ?? RunFile.latestPath
        let folder = CountingRun.dumpFolder(besides: output)
        try OutputPath.check([output], inputs: parsed.positionals)
        // The merged dumps' folder must not be an input's: it is emptied before the copies.
        for input in parsed.positionals
        where URL(fileURLWithPath: CountingRun.dumpFolder(besides: input)).standardizedFileURL.path
            == URL(fileURLWithPath: folder).standardizedFileURL.path
        {
            throw FileError(output, "its callgrind folder \(folder) is also \(input)'s; write the merge elsewhere")
        }
        let shards = try parsed.positionals.map { path throws(FileError) in
            (path: path, run: try RunFile.read(from: path))
        }
        let merge = try RunFile.merging(shards)
        let copiesDumps = merge.dumpOffsets.contains(where: { $0.highest > 0 }) && OutputPath.takesCompanions(output)
        do {
            if copiesDumps {
                FileManager.default.removeLitter(atPath: folder)
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                for ((path, _), dumps) in zip(shards, merge.dumpOffsets) where dumps.highest > 0 {
                    let source = CountingRun.dumpFolder(besides: path)
                    for n in 1...dumps.highest
                    where FileManager.default.fileExists(atPath: "\(source)/callgrind.out.\(n)") {
                        try FileManager.default.copyItem(
                            atPath: "\(source)/callgrind.out.\(n)",
                            toPath: "\(folder)/callgrind.out.\(n + dumps.offset)")
                    }
                }
            }
            try merge.run.write(to: output)
        } catch {
            // Nothing half-written left behind: the dumps' folder goes with a merge that failed.
            if copiesDumps { try? FileManager.default.removeItem(atPath: folder) }
            throw error as? FileError
                ?? FileError(folder, "cannot copy the callgrind files: \(error.localizedDescription)")
        }
        Output.line(RunSummary.text(merge.run))
        Output.line("merged \(shards.count) run files (\(merge.run.tests.count) tests) into \(output)")
        if !merge.missing.isEmpty {
            let shown = merge.missing.prefix(3).joined(separator: ", ")
            Output.line(
                "partial: \(merge.missing.count) planned tests are in no shard (\(shown)"
                    + (merge.missing.count > 3 ? ", …" : "") + "); a comparison calls them not measured")
        }
        if !merge.unplanned.isEmpty {
            Output.line(
                "partial: \(merge.unplanned.joined(separator: ", ")) hold no test and name none they were "
                    + "assigned; a comparison calls the other shards' tests not measured")
        }
        return 0
    }
}
