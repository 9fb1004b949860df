import Foundation
import PerfKit
import PerfKitCore
import PerfKitTesting
import Testing

/// The portable path other systems than Linux take, run here with the Portable trait (`make test-portable`).
///
/// A measured test runs its body, measures wall time and thread CPU, and names the rest as not measured.
@Suite(.serialized) struct PortablePathTests {
    @Test(.enabled(if: MeasurementPlatform.isPortable), .performance(samples: 5))
    func aMeasuredBodyHasTimeAndCPUAndTheRestIsNamedNotMeasured() throws {
        var calls = 0
        let result = try measure("steps") {
            calls += 1
            return (0..<1_000).reduce(0, &+)
        }
        #expect(calls > 0)
        #expect(result.series(.wallClock, arm: "main", phase: .warm)?.values.isEmpty == false)
        #expect(result.series(.threadCPU, arm: "main", phase: .warm)?.values.isEmpty == false)
        // Allocation counts, descriptors and instructions are Linux's: each named, none recorded as zero.
        let unavailable = Set(result.unavailable.map(\.metric))
        for metric in [Metric.mallocs, .leakedAllocations, .leakedDescriptors] {
            #expect(unavailable.contains(metric.name), "\(metric.name): \(unavailable.sorted())")
            #expect(result.series(metric, arm: "main", phase: .warm) == nil)
        }
        #expect(result.unavailable.allSatisfy { $0.reason.contains("portable path") }, "\(result.unavailable)")
        let note = try #require(PerformanceTrait.portableNote(testID: "S/t()", measurements: [result]))
        #expect(note.hasPrefix("S/t() ran on PerfKit's portable path: wall time and thread CPU were measured"))
        #expect(note.contains("mallocs"))
    }

    @Test(.enabled(if: MeasurementPlatform.isPortable))
    func anAsyncBodyRunsOnAPlainThreadWithNothingRedirected() async throws {
        #expect(!GlobalJobRedirect.isAvailable)
        let result = try await measure("async", async: { await Task.yield() })
        #expect(result.series(.wallClock, arm: "main", phase: .warm)?.values.isEmpty == false)
    }

    @Test func linuxBuildsTakeTheLinuxPathUnlessTheTraitSaysOtherwise() {
        #if os(Linux) && !Portable
        #expect(!MeasurementPlatform.isPortable && MeasurementPlatform.portableReason == nil)
        #else
        #expect(MeasurementPlatform.isPortable && MeasurementPlatform.portableReason != nil)
        #endif
    }
}
