import Foundation

/// Number formatting shared by summaries and reports.
public enum Format {
    /// A whole number with its thousands grouped (`16,000`, `-339,207`); any other value as `%g`.
    public static func grouped(_ n: Double) -> String {
        guard n == n.rounded(), abs(n) < 1e15 else { return String(format: "%g", n) }
        let digits = String(Int64(abs(n)))
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0, i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + String(out.reversed())
    }

    /// A duration given in nanoseconds, in the most readable unit (ns, µs, ms, s).
    public static func duration(_ ns: Double) -> String {
        let magnitude = abs(ns)
        if magnitude >= 1e9 { return trim(ns / 1e9) + " s" }
        if magnitude >= 1e6 { return trim(ns / 1e6) + " ms" }
        if magnitude >= 1e3 { return trim(ns / 1e3) + " µs" }
        return trim(ns) + " ns"
    }

    /// A byte count in B, KiB, MiB or GiB.
    public static func bytes(_ b: Double) -> String {
        let magnitude = abs(b)
        if magnitude >= 1_073_741_824 { return trim(b / Double(1 << 30)) + " GiB" }
        if magnitude >= 1_048_576 { return trim(b / Double(1 << 20)) + " MiB" }
        if magnitude >= 1_024 { return trim(b / Double(1 << 10)) + " KiB" }
        return trim(b) + " B"
    }

    /// A value in its unit, readable.
    public static func value(_ v: Double, _ unit: MetricUnit) -> String {
        switch unit {
        case .nanoseconds: duration(v)
        case .bytes: bytes(v)
        default: trim(v) + (unit == .count ? "" : " \(unit)")
        }
    }

    /// A p-value for people: `< 0.001` below a thousandth, else three significant digits;
    /// "undefined" when it is not a number.
    public static func pValue(_ p: Double) -> String {
        guard p.isFinite else { return "undefined" }
        return p < 0.001 ? "< 0.001" : String(format: "%.3g", p)
    }

    /// Up to three decimals (fewer from 10 upwards), no trailing zeros; "undefined" for NaN or infinity.
    public static func trim(_ x: Double) -> String {
        guard x.isFinite else { return "undefined" }
        if x == x.rounded() && abs(x) < 1e12 { return String(Int64(x)) }
        let digits = abs(x) >= 100 ? 1 : (abs(x) >= 10 ? 2 : 3)
        var text = String(format: "%.\(digits)f", x)
        while text.contains(".") && (text.hasSuffix("0") || text.hasSuffix(".")) { text.removeLast() }
        return text
    }
}
