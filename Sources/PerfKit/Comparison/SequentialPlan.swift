import Foundation
import PerfKitCore

/// The planned looks of an ABBA comparison and the error each look may spend.
///
/// An adaptive comparison adds rounds until every series is decided, and judges the series
/// still open at each planned look. Looking repeatedly at growing data and stopping when a
/// series looks decided inflates error rates unless each look spends only part of them. PerfKit
/// uses a group-sequential design with Bonferroni alpha spending: the looks are fixed before the
/// first round (``looks``), each judges at level ``alphaPerLook`` = α / looks (its CIs have
/// confidence 1 − α / looks, its Benjamini–Hochberg step runs at α / looks), so the chance that
/// any look makes a false claim about a series is at most α whatever the dependence between
/// looks (the union bound). It is more conservative than O'Brien–Fleming or Pocock boundaries
/// and needs no assumption about the shape of the data, which suits rank statistics on
/// per-process medians; the price is a few more rounds. A series decided at a look keeps that
/// decision; later rounds do not reopen it.
public struct SequentialPlan: Sendable, Equatable, Codable {
    /// Rounds completed at each look, increasing; the last is the most rounds the comparison runs.
    public var looks: [Int]
    /// The error rate spent over all looks.
    public var alpha: Double

    /// The level each look judges at: α divided by the number of looks.
    public var alphaPerLook: Double { alpha / Double(looks.count) }

    /// The most rounds the plan runs.
    public var maximumRounds: Int { looks.last ?? 0 }

    /// The first look of an adaptive plan.
    ///
    /// At 10 pairs the exact signed-rank CI exists down to a level of 1 − 2/2¹⁰ = 99.8%, so every look of a plan with
    /// up to 20 looks at α = 0.05 has one.
    public static let firstLook = 10
    /// Most rounds of an adaptive comparison by default: looks at 10, 16, 24, 36, 54, 82, 124, 186, 280 and 400 rounds,
    /// each at α / 10.
    ///
    /// The time budget, not this, ends a costly suite's session; a cheap one (a filtered subset, processes of a
    /// fraction of a second) can run the hundreds of rounds a change of a few percent needs when each process's speed
    /// varies by a few percent (a 3% slowdown of a subset was decided at 10 to 280 rounds in README's evidence).
    public static let defaultMaximumRounds = 400
    /// Seconds of measuring an adaptive comparison gets by default.
    ///
    /// Near five minutes, 16 to 20 rounds of the calendar suite with its tests' own samples on README's 2-core VM.
    public static let defaultTimeBudget = 300

    /// An adaptive plan: looks at 10 rounds, then each about 1.5 times the last, up to `maximum`.
    ///
    /// An adaptive plan: looks at 10 rounds, then each about 1.5 times the last (rounded up to an
    /// even number, so every look ends on a whole ABBA block), up to `maximumRounds`. When the
    /// maximum is less than 1.25 times the last look it replaces that look rather than adding one
    /// so close to it.
    /// - Parameters:
    ///   - maximumRounds: The most rounds to run (at least ``firstLook``).
    ///   - alpha: The error rate spent over all looks.
    public init(maximumRounds: Int, alpha: Double = 0.05) {
        precondition(maximumRounds >= Self.firstLook)
        var looks = [Self.firstLook]
        while true {
            let next = Int((Double(looks.last!) * 1.5 / 2).rounded(.up)) * 2
            guard next < maximumRounds else { break }
            looks.append(next)
        }
        if maximumRounds > looks.last! {
            if Double(maximumRounds) < 1.25 * Double(looks.last!) && looks.count > 1 { looks.removeLast() }
            looks.append(maximumRounds)
        }
        self.looks = looks
        self.alpha = alpha
    }

    /// A plan with one look after exactly `rounds` rounds, the whole α spent there.
    /// - Parameters:
    ///   - rounds: The rounds to run.
    ///   - alpha: The error rate.
    /// - Returns: The plan.
    public static func fixed(rounds: Int, alpha: Double = 0.05) -> SequentialPlan {
        SequentialPlan(looks: [rounds], alpha: alpha)
    }

    /// A plan with the given looks.
    /// - Parameters:
    ///   - looks: Rounds at each look, increasing.
    ///   - alpha: The error rate spent over all looks.
    public init(looks: [Int], alpha: Double = 0.05) {
        precondition(!looks.isEmpty && zip(looks, looks.dropFirst()).allSatisfy { $0 < $1 })
        self.looks = looks
        self.alpha = alpha
    }

    /// The smallest one-sided p a signed-rank test of `pairs` pairs can reach: 1 / 2ⁿ.
    /// - Parameter pairs: The number of pairs (rounds).
    /// - Returns: The floor.
    public static func signedRankFloor(pairs: Int) -> Double { pow(2, -Double(pairs)) }

    /// The fewest rounds at which a change in one series alone can reach significance.
    ///
    /// Significance is reached among
    /// `decisions` decisions at this plan's per-look level (Benjamini–Hochberg then asks the
    /// smallest p to be at most α / m).
    /// - Parameter decisions: The number of series decided by a test at a look.
    /// - Returns: The rounds.
    public func roundsForALoneChange(decisions: Int) -> Int {
        Int(Foundation.log2(Double(max(decisions, 1)) / alphaPerLook).rounded(.up))
    }
}

/// What one look of a sequential comparison found.
public struct SequentialLook: Sendable, Equatable, Codable {
    /// Rounds completed at the look.
    public var rounds: Int
    /// Statistical series decided so far (within noise, regressed or improved).
    public var decided: Int
    /// Statistical series still open after the look.
    public var open: Int
    /// Seconds since the first round started.
    public var seconds: Double

    /// A look's findings.
    public init(rounds: Int, decided: Int, open: Int, seconds: Double) {
        self.rounds = rounds
        self.decided = decided
        self.open = open
        self.seconds = seconds
    }
}
