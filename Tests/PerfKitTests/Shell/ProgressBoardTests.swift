import Foundation
import PerfKit
import Testing

/// The live progress line: what is under way, how much of the stage is done, and for how long.
@Suite struct ProgressBoardTests {
    @Test func aStepShorterThanASecondIsNotShown() {
        let board = ProgressBoard()
        board.begin(.building(revision: "HEAD"))
        let start = board.snapshot.steps[0].started
        #expect(board.snapshot.line(at: start + .milliseconds(999)) == nil)
        #expect(
            board.snapshot.line(at: start + .milliseconds(5_600)) == "perfkit: building HEAD in release · 5.6 s")
    }

    @Test func countingStepsRunningAtOnceAreNamedWithTheStageCount() {
        let board = ProgressBoard()
        board.startStage(total: 12, of: .processes)
        let a = board.begin(.counting(test: "A/x()"))
        board.begin(.counting(test: "B/y()"))
        for _ in 0..<3 { board.finishItem() }
        let start = board.snapshot.steps[0].started
        #expect(
            board.snapshot.line(at: start + .seconds(185))
                == "perfkit: counting A/x(), B/y() under valgrind · 3 of 12 processes done · 3 min 05 s")
        board.end(a)
        #expect(board.snapshot.steps.map(\.step) == [.counting(test: "B/y()")])
    }

    @Test func aMeasuredProcessNamesTheTestItRunsAndItsPlace() {
        let board = ProgressBoard()
        board.startStage(total: 4, of: .tests)
        let token = board.begin(.measuring(test: nil, process: 2, processes: 8, showsOutput: false))
        board.update(token, to: .measuring(test: "S/t()", process: 2, processes: 8, showsOutput: false))
        board.setDone(9)  // a test measured in several scopes writes one fragment each: never more than the total
        let start = board.snapshot.steps[0].started
        #expect(
            board.snapshot.line(at: start + .seconds(2))
                == "perfkit: measuring S/t() (process 2 of 8) · 4 of 4 tests done · 2 s")
    }
}
