import Foundation
import PerfKitCore

/// package-benchmark's stored baseline, `.benchmarkBaselines/<Target>/<name>/results.json`, read as p90
/// limits.
///
/// What a team that gated on `swift package benchmark baseline check` brings along.
///
/// Each benchmark's p90 is computed from the HDR histogram the file stores, as package-benchmark
/// computes it (its percentile cache can be stale, so it is not read). Metrics with no PerfKit
/// counterpart (`throughput`, `cpuUser`, custom metrics, …) are listed in
/// ``PackageBenchmarkThresholds/unreadMetrics``, never guessed.
extension PackageBenchmarkThresholds {
    /// Reads a package-benchmark baseline file.
    /// - Parameter path: A `results.json` (or `<host>.results.json`) of `.benchmarkBaselines`.
    /// - Throws: ``FileError`` naming the file and the field when it is not package-benchmark's
    ///   baseline format or holds no benchmark.
    public init(baselineFile path: String) throws(FileError) {
        let data = try InputFile.read(path, limit: InputFile.storedFileLimit)
        let file: StoredBaseline
        do {
            file = try JSONDecoder().decode(StoredBaseline.self, from: data)
        } catch let error as DecodingError {
            throw FileError(path, "not package-benchmark's baseline format: \(Self.describe(error))")
        } catch {
            throw FileError(path, "not package-benchmark's baseline format")
        }
        guard !file.results.isEmpty else { throw FileError(path, "holds no benchmark result") }
        var limits: [Limit] = []
        var unread: Set<String> = []
        for (identifier, results) in file.results {
            for result in results {
                guard let name = result.metricName, let metric = Self.metricNames[name] else {
                    unread.insert(FileError.shown(result.metricName ?? "custom"))
                    continue
                }
                let place = "\(identifier.target).\(identifier.name) '\(name)'"
                let computed: UInt64?
                do {
                    computed = try result.statistics.histogram.p90(prefersLarger: result.statistics.prefersLarger)
                } catch {
                    throw FileError(path, "\(place): histogram field '\(error.field)': \(error.reason)")
                }
                guard let p90 = computed else { throw FileError(path, "\(place): an empty histogram") }
                guard Double(p90) <= PackageBenchmarkThresholds.largestLimit else {
                    throw FileError(path, "\(place): the p90 \(p90) is too large for a limit (at most 2^53)")
                }
                limits.append(
                    Limit(
                        file: path, target: identifier.target, benchmark: identifier.name, name: name,
                        metric: metric, limit: Double(p90)))
            }
        }
        self.limits = limits
        self.unreadMetrics = unread.sorted()
    }

    /// A decoding error as the path of the field and what was wrong with it.
    static func describe(_ error: DecodingError) -> String {
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "field '\(field(context.codingPath + [key]))' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "field '\(field(context.codingPath))': \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// The part of package-benchmark's `BenchmarkBaseline` that PerfKit reads.
///
/// Its `results` is a dictionary keyed by a struct, which Foundation's JSON encoder writes as a flat array
/// of alternating keys and values: `[{"target": …, "name": …}, [result, …], …]`.
struct StoredBaseline: Decodable {
    struct BenchmarkName: Decodable {
        var target: String
        var name: String
    }

    struct MetricResult: Decodable {
        /// The metric enum as Swift encodes a case: `{"mallocCountTotal": {}}`.
        var metric: [String: AnyValue]
        var statistics: MetricStatistics

        /// The case's name; `custom` for a custom metric, nil for an unexpected shape.
        var metricName: String? { metric.count == 1 ? metric.keys.first : nil }
    }

    struct MetricStatistics: Decodable {
        var prefersLarger: Bool
        var histogram: StoredHistogram
    }

    /// Any JSON value, skipped.
    struct AnyValue: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    var results: [(BenchmarkName, [MetricResult])]

    enum CodingKeys: String, CodingKey { case results }

    init(from decoder: any Decoder) throws {
        var entries = try decoder.container(keyedBy: CodingKeys.self).nestedUnkeyedContainer(forKey: .results)
        results = []
        while !entries.isAtEnd {
            let identifier = try entries.decode(BenchmarkName.self)
            results.append((identifier, try entries.decode([MetricResult].self)))
        }
    }
}

/// hdrhistogram-swift's `Histogram` as its synthesized `Codable` writes it: enough to find a percentile.
struct StoredHistogram: Decodable {
    var counts: [UInt64]
    var totalCount: UInt64
    var unitMagnitude: Int
    var subBucketHalfCountMagnitude: Int
    var maxValue: UInt64
    var minNonZeroValue: UInt64

    enum CodingKeys: String, CodingKey {
        case counts, unitMagnitude, subBucketHalfCountMagnitude, maxValue, minNonZeroValue
        case totalCount = "_totalCount"
    }

    /// A histogram field that makes the percentile impossible to compute without overflow.
    struct Problem: Error {
        var field: String
        var reason: String
    }

    /// The most buckets a histogram may have: hdrhistogram's for 64-bit values at 5 significant digits is under
    /// 2^22; a larger array is not one it wrote.
    static let maximumBuckets = 1 << 22

    /// Whether every field lets ``highestEquivalent(_:)`` and the running count stay inside 64 bits.
    func validate() throws(Problem) {
        guard (0...62).contains(unitMagnitude) else {
            throw Problem(field: "unitMagnitude", reason: "\(unitMagnitude) is outside 0…62")
        }
        guard (0...30).contains(subBucketHalfCountMagnitude) else {
            throw Problem(
                field: "subBucketHalfCountMagnitude", reason: "\(subBucketHalfCountMagnitude) is outside 0…30")
        }
        guard counts.count <= Self.maximumBuckets else {
            throw Problem(field: "counts", reason: "\(counts.count) buckets, more than \(Self.maximumBuckets)")
        }
        // The highest bucket's shift must stay inside 64 bits.
        let buckets = counts.count >> subBucketHalfCountMagnitude
        guard buckets + unitMagnitude + subBucketHalfCountMagnitude + 1 < 64 else {
            throw Problem(field: "counts", reason: "\(counts.count) buckets overflow 64-bit values at this magnitude")
        }
        var sum: UInt64 = 0
        for count in counts {
            let (next, overflow) = sum.addingReportingOverflow(count)
            guard !overflow else { throw Problem(field: "counts", reason: "the counts add up past 2^64") }
            sum = next
        }
        guard sum == totalCount else {
            throw Problem(field: "_totalCount", reason: "\(totalCount), but the counts add up to \(sum)")
        }
    }

    /// The p90 as package-benchmark reads it (p10 of a metric that prefers larger values), by
    /// hdrhistogram's `valueAtPercentile`.
    ///
    /// The highest value equivalent to the bucket where the running count reaches the percentile, kept
    /// within the recorded minimum and maximum. Nil when empty.
    /// - Throws: ``Problem`` naming a field that would overflow the computation.
    func p90(prefersLarger: Bool) throws(Problem) -> UInt64? {
        try validate()
        guard totalCount > 0 else { return nil }
        let percentile = (prefersLarger ? 10.0 : 90.0).nextDown
        let target = max(1, UInt64(min((percentile * Double(totalCount) / 100).rounded(.up), Double(totalCount))))
        let minimum = counts.first.map { $0 > 0 } == true ? 0 : minNonZeroValue
        var running: UInt64 = 0
        for (index, count) in counts.enumerated() {
            running += count
            if running >= target { return min(max(highestEquivalent(index), minimum), maxValue) }
        }
        return nil
    }

    /// The highest value that counts at `index` (after ``validate()``).
    func highestEquivalent(_ index: Int) -> UInt64 {
        let halfCount = 1 << subBucketHalfCountMagnitude
        var bucket = (index >> subBucketHalfCountMagnitude) - 1
        var subBucket = (index & (halfCount - 1)) + halfCount
        if bucket < 0 {
            subBucket -= halfCount
            bucket = 0
        }
        let lowest = UInt64(subBucket) << (bucket + unitMagnitude)
        return lowest &+ ((UInt64(1) << (unitMagnitude + bucket)) &- 1)
    }
}
