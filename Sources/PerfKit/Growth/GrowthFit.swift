import Foundation
import PerfKitCore

/// How a cost grows with a size.
///
/// The exponent on log–log axes and, when the points support one, the nearest plain name (constant, log n, n, n log n,
/// n², n³).
///
/// Each name is a model `cost = a + b·f(n)` with `a, b ≥ 0` (a fixed overhead plus the growing
/// part; with four sizes or more also the order below it, so n² + 7n is n²), fitted by least
/// squares on relative error. A name is given when its largest relative
/// residual is within ``tolerance(deterministic:)`` and no simpler model is within half of it;
/// otherwise the fit says the exponent alone. Three distinct sizes are needed to name a growth.
public struct GrowthFit: Sendable, Equatable, Codable {
    /// A plain growth order.
    public enum Order: Int, Sendable, Codable, CaseIterable, Comparable, CustomStringConvertible {
        case constant, logarithmic, linear, linearithmic, quadratic, cubic

        /// `constant`, `log n`, `n`, `n log n`, `n²`, `n³`.
        public var description: String {
            switch self {
            case .constant: "constant"
            case .logarithmic: "log n"
            case .linear: "n"
            case .linearithmic: "n log n"
            case .quadratic: "n²"
            case .cubic: "n³"
            }
        }

        /// The growing part, f(n).
        package func f(_ n: Double) -> Double {
            switch self {
            case .constant: 1
            case .logarithmic: log2(max(n, 2))
            case .linear: n
            case .linearithmic: n * log2(max(n, 2))
            case .quadratic: n * n
            case .cubic: n * n * n
            }
        }

        /// Ordered from the slowest-growing (constant) to the fastest (n³).
        public static func < (a: Order, b: Order) -> Bool { a.rawValue < b.rawValue }
    }

    /// One size and the cost there (a median; `low`/`high` its spread when the metric varies).
    public struct Point: Sendable, Equatable, Codable {
        /// The size.
        public var size: Double
        /// The cost (per call).
        public var cost: Double
        /// The lower end of the cost's spread (the samples' 25th percentile; the cost itself for a count).
        public var low: Double
        /// The upper end (75th percentile).
        public var high: Double

        /// A point.
        public init(size: Double, cost: Double, low: Double? = nil, high: Double? = nil) {
            self.size = size
            self.cost = cost
            self.low = low ?? cost
            self.high = high ?? cost
        }
    }

    /// The points, by size.
    public var points: [Point]
    /// The slope of log cost on log size (least squares).
    public var exponent: Double
    /// The exponent's range from the points' spread (smallest size's high against the largest's
    /// low, and the reverse); equal to ``exponent`` for a count.
    public var exponentRange: ClosedRange<Double>
    /// The nearest plain name, when the points support it.
    public var order: Order?
    /// The named model's largest relative residual.
    public var residual: Double?

    /// The largest relative residual a name may have: 3% for a deterministic count, 10% otherwise.
    public static func tolerance(deterministic: Bool) -> Double { deterministic ? 0.03 : 0.10 }

    /// Fits `points`; nil with fewer than two distinct positive sizes or a cost that is not positive.
    public init?(_ points: [Point], deterministic: Bool) {
        let sorted = points.sorted { $0.size < $1.size }
        guard Set(sorted.map(\.size)).count >= 2, sorted.allSatisfy({ $0.size > 0 && $0.cost > 0 }) else { return nil }
        self.points = sorted
        exponent = Self.slope(sorted.map { ($0.size, $0.cost) })
        let (first, last) = (sorted[0], sorted[sorted.count - 1])
        let span = log(last.size / first.size)
        let a = log(max(last.low, .leastNonzeroMagnitude) / first.high) / span
        let b = log(last.high / max(first.low, .leastNonzeroMagnitude)) / span
        exponentRange = min(a, b, exponent)...max(a, b, exponent)
        guard Set(sorted.map(\.size)).count >= 3 else { return }
        let tolerance = Self.tolerance(deterministic: deterministic)
        // The simplest order whose model fits every size within the tolerance: a more complex
        // model (n² with a linear part) always fits at least as well, so fit alone cannot choose.
        for candidate in Order.allCases {
            let r = Self.worstResidual(sorted, candidate)
            if r <= tolerance {
                order = candidate
                residual = r
                break
            }
        }
    }

    /// The least-squares slope of log y on log x.
    static func slope(_ points: [(Double, Double)]) -> Double {
        let xs = points.map { log($0.0) }, ys = points.map { log($0.1) }
        let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
        let sxy = zip(xs, ys).map { ($0 - mx) * ($1 - my) }.reduce(0, +)
        let sxx = xs.map { ($0 - mx) * ($0 - mx) }.reduce(0, +)
        return sxx > 0 ? sxy / sxx : 0
    }

    /// The model of an order: its columns.
    ///
    /// `a + b·f(n)`, and with four sizes or more also the order below it, `a + c·g(n) + b·f(n)` (a quadratic with a
    /// linear part is still n²).
    static func columns(_ order: Order, sizes: Int) -> [(Double) -> Double] {
        let one: (Double) -> Double = { _ in 1 }
        guard order != .constant else { return [one] }
        let growing: (Double) -> Double = { order.f($0) }
        // The order below: n for n log n and n², n² for n³ (log n and n have none besides the constant).
        let below: Order? =
            switch order {
            case .linearithmic, .quadratic: .linear
            case .cubic: .quadratic
            default: nil
            }
        guard sizes >= 4, let below else { return [one, growing] }
        let lower: (Double) -> Double = { below.f($0) }
        return [one, growing, lower]
    }

    /// The largest relative residual of the order's model fitted with non-negative coefficients.
    ///
    /// The fit is by
    /// least squares on relative error (every subset of the columns tried; the best feasible kept).
    package static func worstResidual(_ points: [Point], _ order: Order) -> Double {
        let columns = columns(order, sizes: points.count)
        // Rows scaled by 1/cost: minimise Σ(Σ_j x_j·col_j(n)/c − 1)².
        let rows: [[Double]] = points.map { p in columns.map { column in column(p.size) / p.cost } }
        var best = Double.infinity
        for mask in 1..<(1 << columns.count) {
            let used = (0..<columns.count).filter { mask & (1 << $0) != 0 }
            let reduced: [[Double]] = rows.map { row in used.map { row[$0] } }
            guard let x = leastSquares(reduced), x.allSatisfy({ $0 >= 0 }) else { continue }
            var worst = 0.0
            for row in reduced {
                var predicted = 0.0
                for (value, coefficient) in zip(row, x) { predicted += value * coefficient }
                worst = max(worst, abs(predicted - 1))
            }
            best = min(best, worst)
        }
        return best
    }

    /// The least-squares solution of `A x ≈ 1` through the normal equations (nil when singular).
    static func leastSquares(_ a: [[Double]]) -> [Double]? {
        let k = a.first?.count ?? 0
        guard k > 0 else { return nil }
        var m = [[Double]](repeating: [Double](repeating: 0, count: k + 1), count: k)
        for row in a {
            for i in 0..<k {
                for j in 0..<k { m[i][j] += row[i] * row[j] }
                m[i][k] += row[i]
            }
        }
        for col in 0..<k {
            guard let pivot = (col..<k).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), abs(m[pivot][col]) > 1e-300
            else { return nil }
            m.swapAt(col, pivot)
            for row in 0..<k where row != col {
                let factor = m[row][col] / m[col][col]
                for j in col...k { m[row][j] -= factor * m[col][j] }
            }
        }
        let x = (0..<k).map { m[$0][k] / m[$0][$0] }
        return x.allSatisfy { $0.isFinite } ? x : nil
    }

    /// `n log n`, or `exponent 1.37` when no plain name fits.
    public var name: String { order.map(\.description) ?? "exponent \(String(format: "%.2f", exponent))" }
}
