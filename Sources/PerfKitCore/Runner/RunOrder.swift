/// Counterbalanced run orders for comparing arms, so that no arm always runs first.
///
/// For two arms the rounds come in ABBA blocks (A B, B A); each block's phase (ABBA or BAAB) is
/// drawn from a seeded generator when a seed is given. For more arms each block runs every
/// cyclic rotation of the arms, then every rotation reversed, so each arm holds each position
/// equally often over a block of 2·k rounds, and each arm runs right after another as often as
/// right before it.
public struct RunOrder: Sendable, Equatable, Codable {
    /// Arm indices per round, in the order they run.
    public var rounds: [[Int]]

    /// Generates the order for `armCount` arms over `roundCount` rounds.
    /// - Parameters:
    ///   - armCount: Number of arms (at least 1).
    ///   - roundCount: Number of rounds.
    ///   - seed: When given, each block's phase is drawn at random from this seed.
    /// - Complexity: O(rounds · arms).
    public init(armCount: Int, roundCount: Int, seed: UInt64? = nil) {
        precondition(armCount >= 1 && roundCount >= 0)
        var block: [[Int]] = []
        let identity = Array(0..<armCount)
        for rotation in 0..<armCount {
            block.append(Array(identity[rotation...] + identity[..<rotation]))
        }
        block += block.map { Array($0.reversed()) }
        if armCount == 2 { block = [[0, 1], [1, 0]] }
        var generator = seed.map(SeededGenerator.init(seed:))
        var rounds: [[Int]] = []
        while rounds.count < roundCount {
            var current = block
            if generator != nil {
                let offset = generator!.index(below: block.count)
                current = Array(block[offset...] + block[..<offset])
            }
            rounds += current.prefix(roundCount - rounds.count)
        }
        self.rounds = rounds
    }

    /// An order given round by round (for example the prefix of a longer one that ran).
    /// - Parameter rounds: Arm indices per round.
    public init(rounds: [[Int]]) { self.rounds = rounds }

    /// Number of rounds in one balanced block.
    public static func blockLength(armCount: Int) -> Int { armCount == 2 ? 2 : (armCount == 1 ? 2 : 2 * armCount) }

    /// How often each arm runs at each position: `counts[arm][position]`.
    /// - Complexity: O(rounds · arms).
    public func positionCounts(armCount: Int) -> [[Int]] {
        var counts = [[Int]](repeating: [Int](repeating: 0, count: armCount), count: armCount)
        for round in rounds {
            for (position, arm) in round.enumerated() { counts[arm][position] += 1 }
        }
        return counts
    }
}
