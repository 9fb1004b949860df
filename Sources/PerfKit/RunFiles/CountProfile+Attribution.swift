import PerfKitCore

extension CountProfile {
    /// A count's change per call, attributed to the functions whose own instructions changed.
    ///
    /// Exclusive figures add up where inclusive ones cannot: the listed changes, the other functions' change and
    /// the change in what the count leaves out make up ``total`` exactly. A function present on one side only whose
    /// caller changed the other way (inlined on one side, outlined on the other, as the profiles cannot tell from a
    /// call added or removed) is folded into that caller (``Change/absorbed``), not shown as a cost that came or went.
    public struct Attribution: Sendable, Equatable {
        /// The functions whose exclusive instructions per call changed most, largest change first.
        public var changes: [Change]
        /// The change of every function not listed in ``changes``.
        public var otherFunctions: Double
        /// The change of what the count leaves out (harness frames, runtime cache probes), already subtracted.
        public var leftOut: Double
        /// The mean count's change per call: the changes, plus ``otherFunctions``, less ``leftOut``.
        public var total: Double { changes.reduce(0) { $0 + $1.delta } + otherFunctions - leftOut }
    }

    /// The most rows an attribution lists while its rows explain less than two thirds of the change.
    public static let explainingLimit = 25

    /// How `current`'s count per call differs from `baseline`'s, function by function (exclusive), or nil when
    /// either profile predates exclusive figures.
    /// - Parameters:
    ///   - baseline: The earlier profile.
    ///   - current: The later profile.
    ///   - limit: How many functions to list.
    /// - Returns: The attribution.
    public static func attribution(_ baseline: CountProfile, _ current: CountProfile, limit: Int = 5) -> Attribution? {
        guard let before = baseline.exclusive, let after = current.exclusive else { return nil }
        var changes = folded(before, after)
        changes.sort { abs($0.delta) != abs($1.delta) ? abs($0.delta) > abs($1.delta) : $0.function < $1.function }
        let total =
            changes.reduce(0) { $0 + $1.delta } + (current.otherExclusive ?? 0) - (baseline.otherExclusive ?? 0)
            - ((current.leftOut ?? 0) - (baseline.leftOut ?? 0))
        // At least `limit` rows, and more (up to ``explainingLimit``) until they explain two thirds of the change.
        var shown = min(limit, changes.count)
        func explained(_ rows: Int) -> Bool {
            abs(total - changes.prefix(rows).reduce(0) { $0 + $1.delta }) <= abs(total) / 3
        }
        while shown < min(explainingLimit, changes.count), !explained(shown) { shown += 1 }
        let listed = Array(changes.prefix(shown))
        let rest = changes.dropFirst(limit).reduce(0) { $0 + $1.delta }
        let other = rest + (current.otherExclusive ?? 0) - (baseline.otherExclusive ?? 0)
        let leftOut = (current.leftOut ?? 0) - (baseline.leftOut ?? 0)
        return Attribution(changes: listed, otherFunctions: other, leftOut: leftOut)
    }

    /// Every function's exclusive change, one-sided functions folded into a caller that changed the other way.
    static func folded(_ before: [Entry], _ after: [Entry]) -> [Change] {
        var table: [String: Change] = [:]
        for entry in before { table[entry.function, default: Change(function: entry.function)].baseline += entry.value }
        for entry in after { table[entry.function, default: Change(function: entry.function)].current += entry.value }
        let callerBefore = Dictionary(before.compactMap { e in e.caller.map { (e.function, $0) } }) { a, _ in a }
        let callerAfter = Dictionary(after.compactMap { e in e.caller.map { (e.function, $0) } }) { a, _ in a }
        // One-sided functions, largest first, folded until nothing more folds: a fold can give a caller the other
        // sign, so a function that could not fold at first may fold into it on the next pass.
        var folding = true
        while folding {
            folding = false
            let oneSided = table.values.filter { ($0.baseline == 0) != ($0.current == 0) }
                .sorted { abs($0.delta) != abs($1.delta) ? abs($0.delta) > abs($1.delta) : $0.function < $1.function }
            for change in oneSided {
                guard let moved = table[change.function], (moved.baseline == 0) != (moved.current == 0) else {
                    continue
                }
                let caller = moved.baseline > 0 ? callerBefore[moved.function] : callerAfter[moved.function]
                guard let caller, caller != moved.function, var into = table[caller], into.delta != 0,
                    (into.delta > 0) != (moved.delta > 0)
                else { continue }
                into.baseline += moved.baseline
                into.current += moved.current
                into.absorbed += [moved.function] + moved.absorbed
                table[caller] = into
                table[moved.function] = nil
                folding = true
            }
        }
        return table.values.filter { $0.delta != 0 }
    }
}
