import PerfKitCore

/// package-benchmark's limits written as PerfKit budgets.
///
/// The traits to put on each benchmark's `@Test`, so a team moving over keeps its limits in the tests where PerfKit's
/// budgets live.
extension PackageBenchmarkThresholds {
    /// One benchmark's limits as budget traits.
    public struct Budgets: Sendable, Equatable {
        /// `<Target>` of the file name.
        public var target: String
        /// `<Benchmark>`: the name of the `measure("…")` the budgets are for.
        public var benchmark: String
        /// The threshold file.
        public var file: String
        /// Swift source of each trait, for example `.budget(.mallocs, max: 603)`.
        public var traits: [String]
    }

    /// The limits of every benchmark as budget traits, in file order.
    ///
    /// A time limit becomes a p90 ceiling (`.budget(.wallClock, p90: .nanoseconds(N))`), as package-benchmark checks
    /// it; a count or a size becomes a ceiling on every sample (`max:`), which a count's identical samples make the
    /// same check.
    public var budgets: [Budgets] {
        var result: [Budgets] = []
        for limit in limits {
            let value = Format.trim(limit.limit)
            let trait =
                limit.metric.unit == .nanoseconds
                ? ".budget(.\(limit.metric.name), p90: .nanoseconds(\(Int(limit.limit.rounded()))))"
                : ".budget(.\(limit.metric.name), max: \(value), build: .release)"
            // One entry per benchmark: a results.json holds every benchmark of its target in one file.
            if let last = result.last, last.file == limit.file, last.target == limit.target,
                last.benchmark == limit.benchmark
            {
                result[result.count - 1].traits.append(trait)
            } else {
                result.append(
                    Budgets(target: limit.target, benchmark: limit.benchmark, file: limit.file, traits: [trait]))
            }
        }
        return result
    }

    /// The Swift source `check --as-budgets` prints: a heading comment, then per benchmark a comment naming it and the
    /// `@Test` line with its traits.
    ///
    /// Every name from a file is shown with its control characters escaped (``FileError/shown(_:)``), so each comment
    /// stays one line, and inside `measure("…")` as a Swift string literal (``swiftLiteral(_:)``): a hostile target or
    /// benchmark name can never close a comment or a literal and add a declaration.
    public func budgetSource(folder: String) -> [String] {
        var lines = [
            "// package-benchmark's p90 limits of \(FileError.shown(folder)) as PerfKit budgets, one test each:"
        ]
        for benchmark in budgets {
            lines.append(
                "// \(FileError.shown(benchmark.target + "." + benchmark.benchmark)): "
                    + "measure(\(Self.swiftLiteral(benchmark.benchmark))) { … }")
            lines.append("@Test(.performance(), " + benchmark.traits.joined(separator: ", ") + ")")
        }
        return lines
    }

    /// `text` as a Swift string literal on one line: quotes, backslashes and every control or line-separating
    /// character escaped.
    public static func swiftLiteral(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator
                    || scalar.properties.generalCategory == .format
                {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
