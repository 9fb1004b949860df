import Foundation
import PerfKit
import PerfKitCommandLine

/// `perfkit stats FILE [FILE2]`: ministat-style summaries of number files and, with two, their comparison.
enum StatsCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "stats")
        try parsed.requirePositionals(1...2)
        let format = try parsed.choice(.format, ["text", "json", "markdown", "csv"], default: "text")
        var extra: [(String, Double)] = []
        if let list = parsed[.percentiles] {
            for item in list.split(separator: ",") {
                let key = item.trimmingCharacters(in: .whitespaces)
                guard let p = Double(key), (0...100).contains(p) else {
                    throw UsageError("--percentiles: '\(key)' is not a percentile in 0...100")
                }
                extra.append((key, p))
            }
        }
        let isPaired = parsed.has(.paired)
        if isPaired && parsed.positionals.count != 2 { throw UsageError("--paired needs two files") }
        let files = try parsed.positionals.map { (path: $0, values: try NumberFile.read($0)) }
        let report: NumberFileReport
        do {
            report = try NumberFileReport(files: files, percentiles: extra, paired: isPaired)
        } catch let error as StatisticsError where error == .overflow {
            // Which files hold the values is the user's clue; the statistics know only the numbers.
            throw FileError(files.map(\.path).joined(separator: " and "), error.description)
        }
        try Output.write(report.render(format), to: nil)
        return 0
    }
}
