import Foundation
import PerfKitCore

/// One part of a suite too slow for one machine.
///
/// `perfkit run --shard I/N` measures the tests whose position in the sorted list of matching test IDs is I − 1 modulo
/// N, and `perfkit merge` joins the shards' run files into one.
///
/// Round-robin over sorted IDs, not a hash: the N parts differ in size by at most one test, and
/// every machine that lists the same tests picks the same part.
package struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// The part, from 1.
    package var index: Int
    /// How many parts.
    package var count: Int

    /// A shard, or nil unless 1 ≤ index ≤ count.
    package init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `I/N` (for example `2/4`).
    /// - Parameter text: The option's value.
    ///
    /// Nil when the text is not `I/N` with 1 ≤ I ≤ N.
    package init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: i, count: n)
    }

    /// `I/N`.
    package var description: String { "\(index)/\(count)" }

    /// This shard's tests among `ids`.
    /// - Parameter ids: Every matching test ID, in any order.
    /// - Returns: The IDs at sorted positions I − 1, I − 1 + N, …
    package func select(_ ids: [String]) -> [String] {
        ids.sorted().enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    /// A test filter matching exactly `ids`, each escaped. A test ID ends in `)`, so `f()` never
    /// matches `f2()`.
    /// - Parameter ids: The shard's test IDs, at least one.
    /// - Returns: A regular expression.
    package static func filter(matching ids: [String]) -> String {
        ids.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
    }
}
