import PerfKitCore

extension Comparison {
    /// The lines naming series not matched because one side kept a parameterized test as one series.
    ///
    /// The lines that say which series could not be matched because one side kept a parameterized
    /// test as one series (a run file or baseline before schema 6, where the cases overwrote each
    /// other) and the other has a series per case.
    /// - Parameters:
    ///   - baseline: The baseline's tests.
    ///   - current: The current side's tests.
    /// - Returns: One line per such test function, sorted.
    public static func unmatchedCases(baseline: [TestResult], current: [TestResult]) -> [String] {
        func lines(_ whole: [TestResult], _ cases: [TestResult], wholeSide: String, casesSide: String) -> [String] {
            let ids = Set(whole.filter { $0.testCase == nil }.map(\.id))
            var byFunction: [String: Int] = [:]
            for test in cases { if let f = test.testCase?.function, ids.contains(f) { byFunction[f, default: 0] += 1 } }
            return byFunction.keys.sorted().map { function in
                "not matched: `\(SeriesID.shortTest(function))` is one series in the \(wholeSide) (a parameterized "
                    + "test's cases before run file schema 6, one case's samples kept) and \(byFunction[function]!) "
                    + "cases in the \(casesSide); measure the \(wholeSide) again to compare them"
            }
        }
        return lines(baseline, current, wholeSide: "baseline", casesSide: "current run")
            + lines(current, baseline, wholeSide: "current run", casesSide: "baseline")
    }
}
