import Foundation
import PerfKit
import PerfKitCore
import Testing

/// The fault campaign's residues (issue 63) that live in the library.
@Suite struct FaultResidueTests {
    /// F4: a refused name is shown escaped and cut: one line, however long or hostile.
    @Test func aRefusedNameIsEscapedAndCut() {
        let long = String(repeating: "n", count: 10_000)
        let message = FileError(long, "not a baseline name").description
        #expect(message.count < 400)
        #expect(message.contains("(10000 characters)"))
        let split = FileError("a\nb\u{1B}[31m", "not a baseline name").description
        #expect(!split.contains("\n"))
        #expect(split.hasPrefix("a\\nb\\u{1B}[31m: "))
        #expect(FileError("Baselines/main/x.json", "no such file").description == "Baselines/main/x.json: no such file")
    }

    /// F9: values whose difference overflows are refused with a reason, never compared as NaN.
    @Test func valuesWhoseDifferenceOverflowsAreRefused() {
        #expect(throws: StatisticsError.overflow) {
            try SampleComparison([-1e308, -1e308, -1e308], [1e308, 1e308, 1e308])
        }
    }
}
