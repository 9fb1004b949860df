/// The exit status a comparing command returns, decided in one place: 1 when something regressed
/// and the user asked to fail on regressions (`--fail-on regression`), else 0. Usage errors (2)
/// and failed child processes (3) are thrown, not returned.
package enum ExitStatus {
    /// The status for a finished comparison.
    /// - Parameters:
    ///   - comparison: The comparison.
    ///   - failOnRegression: Whether `--fail-on regression` was given.
    /// - Returns: 1 or 0.
    package static func of(_ comparison: Comparison, failOnRegression: Bool) -> Int32 {
        comparison.hasRegression && failOnRegression ? 1 : 0
    }
}
