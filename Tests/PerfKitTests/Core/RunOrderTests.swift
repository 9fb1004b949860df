import PerfKit
import Testing

@Suite struct RunOrderTests {
    @Test func twoArmsRunInABBABlocks() {
        let order = RunOrder(armCount: 2, roundCount: 4)
        #expect(order.rounds == [[0, 1], [1, 0], [0, 1], [1, 0]])
    }

    @Test(arguments: [2, 3, 4], [nil, 1, 99] as [UInt64?])
    func everyArmHoldsEveryPositionEquallyOften(arms: Int, seed: UInt64?) {
        let block = RunOrder.blockLength(armCount: arms)
        let order = RunOrder(armCount: arms, roundCount: block * 5, seed: seed)
        let counts = order.positionCounts(armCount: arms)
        for arm in 0..<arms {
            for position in 0..<arms { #expect(counts[arm][position] == block * 5 / arms) }
        }
        for round in order.rounds { #expect(Set(round) == Set(0..<arms)) }
    }

    @Test func seededPhaseIsReproducibleAndVaries() {
        let a = RunOrder(armCount: 2, roundCount: 40, seed: 5)
        let b = RunOrder(armCount: 2, roundCount: 40, seed: 5)
        #expect(a == b)
        let starts = Set((1...20).map { RunOrder(armCount: 2, roundCount: 2, seed: UInt64($0)).rounds[0] })
        #expect(starts.count == 2)
    }

    /// The reversed rotations are what balances carry-over in direction.
    ///
    /// Over whole blocks every arm runs right after another arm as often as right before it (rotations alone give 0 → 1
    /// twice and 1 → 0 never, for three arms).
    @Test(arguments: [3, 4, 5])
    func everyArmFollowsAnotherAsOftenAsItPrecedesIt(arms: Int) {
        let order = RunOrder(armCount: arms, roundCount: RunOrder.blockLength(armCount: arms) * 3, seed: 7)
        var follows = [[Int]](repeating: [Int](repeating: 0, count: arms), count: arms)
        for round in order.rounds {
            for (first, second) in zip(round, round.dropFirst()) { follows[first][second] += 1 }
        }
        for i in 0..<arms {
            for j in 0..<arms where i != j {
                #expect(follows[i][j] == follows[j][i], "\(i) before \(j): \(follows[i][j]), after: \(follows[j][i])")
            }
        }
        #expect(follows[1][0] > 0)
    }
}
