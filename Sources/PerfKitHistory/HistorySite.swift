import Foundation
import PerfKit

/// A static, offline site of a history store: `index.html` with every script, style and datum inside it.
///
/// One section per benchmark (a test's function and measurement), its parameterized cases grouped as one line each,
/// one chart per unit (counts and times never share an axis); change points marked on their line with the commit's
/// short hash; every point shows its commit, value, interval and environment, and links to the commit through a URL
/// template. A front table lists the regressions and improvements the change-point detection found, newest first,
/// and a filter box narrows the benchmarks by name. Drawn on canvases as they scroll into view, so a store of
/// thousands of series opens at once.
public struct HistorySite: Sendable {
    /// The data the page draws, encoded into it as JSON.
    struct Model: Encodable {
        /// `[hash, subject, seconds since 1970, position]`, in position order.
        var commits: [[JSONValue]]
        /// The commit link, `{commit}` standing for the full hash; nil for none.
        var commitURL: String?
        var benchmarks: [Benchmark]
        /// Distinct environments, referenced by index from points.
        var environments: [[String]]
        var changes: [Change]
    }

    struct Benchmark: Encodable {
        var id: String
        var name: String
        var charts: [Chart]
    }

    struct Chart: Encodable {
        var unit: String
        var lines: [Line]
    }

    /// One line, in columns so a store of 1,000 commits × 200 series stays a few megabytes.
    ///
    /// It holds the commit indices (or, when they run on without a gap, the first), the values, the interval only where
    /// it is
    /// not the value itself, and the environment in runs (a change of it is marked on the chart).
    struct Line: Encodable {
        var label: String
        /// The first commit index, when the points' commits run on without a gap.
        var start: Int?
        /// The commit indices otherwise.
        var commits: [Int]?
        /// The values (six significant digits).
        var values: [Double]
        /// Lower and upper ends of each point's interval (four significant digits), when any differs from the value.
        var lower: [Double]?
        var upper: [Double]?
        /// `[point index, environment index]` where the environment starts or changes.
        var environments: [[Int]]
        /// `[commit index, ratio, 1 for worse / -1 for better / 0 for no better direction]`.
        var changes: [[Double]]
    }

    /// `value` to `digits` significant digits: what a chart and its tooltip show, in fewer bytes.
    static func rounded(_ value: Double, _ digits: Int) -> Double {
        guard value != 0, value.isFinite, value != value.rounded() || abs(value) >= 1e15 else { return value }
        let scale = Foundation.pow(10, Double(digits) - Foundation.ceil(Foundation.log10(abs(value))))
        return (value * scale).rounded() / scale
    }

    struct Change: Encodable {
        var benchmark: String
        var line: String
        var commit: Int
        var ratio: Double
        var verdict: String
    }

    /// A JSON string or number, for the compact commit rows.
    enum JSONValue: Encodable {
        case string(String)
        case number(Double)
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .number(let value): try container.encode(value)
            }
        }
    }

    /// The page.
    public var html: String

    /// How many benchmarks, charts and change points the page holds.
    public var counts: (benchmarks: Int, charts: Int, changes: Int)

    /// The site of `histories`.
    /// - Parameters:
    ///   - histories: Every series' history with its change points (``ChangePointDetector/histories(_:)``).
    ///   - commitURL: A link template with `{commit}`, for example `https://github.com/o/r/commit/{commit}`.
    ///   - title: The page's title.
    /// - Throws: `EncodingError` when the page's data cannot be encoded.
    public init(_ histories: [SeriesHistory], commitURL: String? = nil, title: String = "PerfKit history") throws {
        let model = Self.model(histories, commitURL: commitURL)
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        // Inside a <script> element: "</" would end it early.
        let json = String(decoding: try encoder.encode(model), as: UTF8.self)
            .replacingOccurrences(of: "</", with: "<\\/")
        html = HistorySiteAssets.page(title: Self.escaped(title), data: json)
        counts = (model.benchmarks.count, model.benchmarks.reduce(0) { $0 + $1.charts.count }, model.changes.count)
    }

    /// Writes `index.html` into `folder` (made when missing), atomically.
    /// - Throws: ``FileError`` naming what could not be written.
    public func write(to folder: String) throws(FileError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch { throw FileError(folder, "cannot create the folder: \(error.localizedDescription)") }
        try StoredFile.writeAtomically(Data(html.utf8), to: folder + "/index.html")
    }

    /// Text for HTML outside scripts.
    static func escaped(_ text: String) -> String {
        SVGChart.escape(text)
    }

    /// The page's data: commits, benchmarks (grouped by function and measurement), environments and changes.
    static func model(_ histories: [SeriesHistory], commitURL: String?) -> Model {
        var commits: [String: CommitInfo] = [:]
        for history in histories {
            for entry in history.entries { commits[entry.commit.hash] = entry.commit }
        }
        let ordered = commits.values.sorted { ($0.position, $0.hash) < ($1.position, $1.hash) }
        let index = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($0.element.hash, $0.offset) })
        let machines = Set(histories.map(\.machine))
        var registry = EnvironmentRegistry()
        func environment(_ value: HistoryEnvironment?) -> Int { registry.index(of: value) }
        let (grouped, order) = benchmarkGroups(histories, machines: machines)
        var benchmarks: [Benchmark] = []
        var changes: [Change] = []
        for (number, key) in order.enumerated() {
            let id = "b\(number)"
            var charts: [String: [Line]] = [:]
            var units: [String] = []
            for history in grouped[key]! {
                let label = lineLabel(history)
                var line = Self.columns(history, index: index, environment: environment)
                let polarity = Metric.builtIn.first { $0.name == history.series.metric }?.polarity ?? .smallerIsBetter
                let marks = history.changes.compactMap { change -> [Double]? in
                    guard let commit = index[change.commit.hash] else { return nil }
                    let worse = (change.ratio.value > 1) == (polarity == .smallerIsBetter)
                    let direction: Double = polarity == .neither ? 0 : worse ? 1 : -1
                    changes.append(
                        Change(
                            benchmark: id, line: "\(key) · \(label)", commit: commit, ratio: change.ratio.value,
                            verdict: direction == 0 ? "changed" : direction > 0 ? "regressed" : "improved"))
                    return [Double(commit), change.ratio.value, direction]
                }
                let unit = history.unit.symbol
                if charts[unit] == nil { units.append(unit) }
                line.label = label
                line.changes = marks
                charts[unit, default: []].append(line)
            }
            benchmarks.append(
                Benchmark(id: id, name: key, charts: units.map { Chart(unit: $0, lines: charts[$0]!) }))
        }
        changes.sort { ($0.commit, $0.line) > ($1.commit, $1.line) }
        let rows: [[JSONValue]] = ordered.map { commit in
            [
                .string(commit.hash), .string(commit.subject), .number(commit.date.timeIntervalSince1970),
                .number(Double(commit.position)),
            ]
        }
        return Model(
            commits: rows, commitURL: commitURL, benchmarks: benchmarks, environments: registry.environments,
            changes: changes)
    }

    /// Distinct environments as the page shows them, each once, by index.
    struct EnvironmentRegistry {
        var environments: [[String]] = []
        var known: [String: Int] = [:]

        /// The index of `value` (added when new), or -1 for none.
        mutating func index(of value: HistoryEnvironment?) -> Int {
            guard let value, let key = HistoryEnvironment.text(value) else { return -1 }
            if let index = known[key] { return index }
            var fields = ["toolchain: \(value.toolchain)", "machine: \(value.cpu)", "allocator: \(value.allocator)"]
            if let valgrind = value.valgrind { fields.append("valgrind: \(valgrind)") }
            if let counting = value.counting { fields.append("counting: \(counting.sentence)") }
            environments.append(fields)
            known[key] = environments.count - 1
            return environments.count - 1
        }
    }

    /// The histories by benchmark: a test's function (its cases together) and measurement, on one machine; in order.
    static func benchmarkGroups(_ histories: [SeriesHistory], machines: Set<String>) -> (
        [String: [SeriesHistory]], [String]
    ) {
        var grouped: [String: [SeriesHistory]] = [:]
        var order: [String] = []
        for history in histories {
            let function = history.entries.first?.caseSize?.function ?? history.series.test
            let key =
                SeriesID.shortTest(function) + " · " + history.series.measurement
                + (machines.count > 1 ? " · \(history.machine)" : "")
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(history)
        }
        return (grouped, order)
    }

    /// A history's points as a line's columns (its label and change marks left for the caller).
    static func columns(
        _ history: SeriesHistory, index: [String: Int], environment: (HistoryEnvironment?) -> Int
    ) -> Line {
        var commitIndices: [Int] = [], values: [Double] = [], lower: [Double] = [], upper: [Double] = []
        var runs: [[Int]] = []
        for entry in history.entries {
            guard let commit = index[entry.commit.hash] else { continue }
            let environmentIndex = environment(entry.environment)
            if runs.last?[1] != environmentIndex { runs.append([values.count, environmentIndex]) }
            commitIndices.append(commit)
            values.append(rounded(entry.value, 6))
            lower.append(rounded(entry.lower, 4))
            upper.append(rounded(entry.upper, 4))
        }
        let contiguous = zip(commitIndices, commitIndices.dropFirst()).allSatisfy { $1 == $0 + 1 }
        let interval = zip(values, zip(lower, upper)).contains { $0 != $1.0 || $0 != $1.1 }
        return Line(
            label: "", start: contiguous ? commitIndices.first : nil, commits: contiguous ? nil : commitIndices,
            values: values, lower: interval ? lower : nil, upper: interval ? upper : nil, environments: runs,
            changes: [])
    }

    /// A line's label within its benchmark: the case's arguments, the arm and phase, the metric.
    static func lineLabel(_ history: SeriesHistory) -> String {
        let series = history.series
        let arguments = series.test.range(of: ") ").map { String(series.test[$0.upperBound...]) }
        return ([arguments].compactMap { $0 } + [series.arm, series.phase.identifier, series.metric])
            .joined(separator: " · ")
    }
}
