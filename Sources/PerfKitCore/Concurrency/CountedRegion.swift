import CValgrind
import Foundation
import Synchronization

/// A counted region: a measured body run with callgrind's collection on, on the measured thread, and its dump read.
///
/// Where a counting process (``SimulatedCounter/isCounting``) runs what it counts: a synchronous body on the measured
/// thread (``PinnedHeap/run(_:)``), an async body on the thread async bodies run on with the global pool's jobs sent
/// there too (``GlobalJobRedirect``), and the dump each region ends with read off that thread. Outside a counting
/// process the body runs as it is.
package enum CountedRegion {
    /// The number of the last dump, process-wide.
    ///
    /// Callgrind numbers dumps per process, and tests of one process may measure from several threads, so the counter
    /// is shared under a lock.
    private static let dumps = Mutex(0)

    /// Runs `body` with collection on and returns its dump's reading and number.
    /// - Parameters:
    ///   - label: Written into the dump's header (`desc: Trigger: Client Request: label`).
    ///   - body: The measured region.
    /// - Returns: The body's result, its ``DumpCount/Reading`` over every counted thread (nil when
    ///   the dump cannot be read), the dump's number and the threads the body started (counted by
    ///   the preloaded shim).
    /// - Throws: What `body` throws (the region is closed first).
    ///
    /// In a counting process whose heap is pinned, `body` runs on the measured thread
    /// (``PinnedHeap/run(_:)``) while this thread waits.
    package static func count<R>(label: String, _ body: () throws -> R) throws -> (
        result: R, reading: DumpCount.Reading?, dump: Int, threads: Int
    ) {
        guard let prefix = SimulatedCounter.outputPrefix else { return (try body(), nil, 0, 0) }
        var output: R?
        let (reading, dump, threads) = try dumps.withLock { last -> (DumpCount.Reading?, Int, Int) in
            let threadsBefore = perfkit_threads_started()
            // The label's C string is made before the region opens: made at its end, its malloc was
            // counted as the body's.
            let cLabel = strdup(label)
            defer { free(cLabel) }
            // The region on the measured thread (``PinnedHeap``); the dump is read here, after it.
            let outcome = try PinnedHeap.run { () -> Result<R, any Error> in
                PinnedHeap.atFixedDepth {
                    perfkit_count_begin()
                    do {
                        let value = try body()
                        perfkit_count_end(cLabel)
                        return .success(value)
                    } catch {
                        perfkit_count_end(cLabel)
                        return .failure(error)
                    }
                }
            }
            last += 1
            output = try outcome.get()
            let path = "\(prefix).\(last)"
            let reading = try PinnedHeap.outside { DumpCount.reading(ofDump: path) }
            return (reading, last, Int(perfkit_threads_started() - threadsBefore))
        }
        return (output!, reading, dump, threads)
    }

    /// Runs an async `body` with collection on, on the executor that runs counted async work.
    ///
    /// The executor is ``AsyncBodyExecutor``, and every job the Swift concurrency runtime would give its global pool is
    /// sent there too (``GlobalJobRedirect``): child tasks, unstructured tasks and default
    /// actors run on that one thread, in an order that does not depend on the machine, so the
    /// region's count repeats.
    /// - Parameters:
    ///   - label: Written into the dump's header.
    ///   - body: The measured region; the caller must already run on ``AsyncBodyExecutor/shared``.
    /// - Returns: As ``count(label:_:)``.
    /// - Throws: What `body` throws (the region is closed first).
    package static func countAsync<R>(label: String, _ body: () async throws -> R) async throws -> (
        result: R, reading: DumpCount.Reading?, dump: Int, threads: Int
    ) {
        guard let prefix = SimulatedCounter.outputPrefix else { return (try await body(), nil, 0, 0) }
        let threadsBefore = perfkit_threads_started()
        let cLabel = strdup(label)  // before the region, as in ``count(label:_:)``
        defer { free(cLabel) }
        GlobalJobRedirect.begin()
        perfkit_count_begin()
        let outcome: Result<R, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        perfkit_count_end(cLabel)
        GlobalJobRedirect.end()
        let number = dumps.withLock { last in
            last += 1
            return last
        }
        let path = "\(prefix).\(number)"
        let reading = try PinnedHeap.outside { DumpCount.reading(ofDump: path) }
        return (try outcome.get(), reading, number, Int(perfkit_threads_started() - threadsBefore))
    }

}
