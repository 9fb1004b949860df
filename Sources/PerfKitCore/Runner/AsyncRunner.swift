import Foundation

/// Measures an async body on a thread of PerfKit's own, with the work the body starts.
///
/// Measures an async body on a thread of PerfKit's own (``MeasuredThread/asyncBodies``), where the
/// body, its child tasks, the default actors it calls and (in `perfkit run`, one test at a time)
/// the tasks it starts all run, one job at a time.
///
/// Why one thread: on the cooperative pool an `await` may resume on any thread, so the wall time of
/// a small async body landed on two levels from run to run (about 10 and 20 µs, as thread wake-ups
/// did or did not happen), a per-thread allocation counter missed what child tasks allocated, and
/// a count included whatever else the pool ran. On one thread the order of jobs follows the code,
/// and every per-thread counter sees the whole body.
///
/// What stays outside: work the body hands to a Dispatch queue (it runs on Dispatch's threads: its
/// time is in the wall clock and process CPU, not in the counts), jobs delayed by `Task.sleep`,
/// and, under a plain `swift test` (tests in parallel), unstructured tasks the body starts.
package struct AsyncRunner: Sendable {
    /// The configuration in use.
    package var configuration: RunConfiguration
    /// Whether the runtime's global jobs join the body's thread while it runs (``GlobalJobRedirect``).
    ///
    /// Only where tests run one at a time, or another test's jobs would join it.
    package var redirectsGlobalJobs: Bool

    /// The longest the settle wait after an exact-count call waits for the body's thread to run
    /// out of jobs, in milliseconds (``SettlePolicy/jobs``).
    package static var settleLimitMilliseconds: Int { Int(SettlePolicy.jobs.limit / .milliseconds(1)) }

    /// Creates a runner.
    package init(configuration: RunConfiguration, redirectsGlobalJobs: Bool) {
        self.configuration = configuration
        self.redirectsGlobalJobs = redirectsGlobalJobs
    }

    /// Measures `body`: timed samples (wall clock, process CPU), then the exact-count pass (mallocs, frees, leaked
    /// allocations and descriptors).
    ///
    /// In a counting run, instructions and reference counting.
    /// - Parameters:
    ///   - name: The measurement's name.
    ///   - body: The measured region.
    /// - Returns: The raw result.
    /// - Throws: Whatever `body` throws.
    package func measure<Output>(_ name: String, _ body: () async throws -> Output) async throws -> MeasurementResult {
        guard let executor = MeasuredThread.asyncBodies else {
            return try await measureHere(name, body, unavailable: ["no thread could be started for async bodies"])
        }
        return try await Self.gate.holding {
            try await Self.withoutTaskLocals(on: executor) { try await measureHere(name, body, unavailable: []) }
        }
    }

    /// Runs `work` in a task of its own on `executor`, with no task-local value bound.
    ///
    /// An unstructured `Task {}` copies every task-local value of the task that starts it
    /// (`swift_task_localsCopyTo`), through a set ordered by heap address: in a test process, where Swift Testing and
    /// PerfKit bind task-locals of their own at addresses that are not pinned, a body that starts tasks counted
    /// multiples of 41 instructions differently run to run. A detached task inherits none, so the body's tasks copy
    /// nothing, as in a plain executable. A task-local the test binds around `measure` is therefore not seen inside
    /// the body.
    static func withoutTaskLocals<R: Sendable>(
        on executor: some TaskExecutor, _ work: () async throws -> R
    ) async throws -> R {
        try await withoutActuallyEscaping(work) { work in
            // The detached task is awaited before `work` goes out of scope, so sending it is safe.
            let unchecked = UncheckedWork(work: work)
            let task = Task.detached(executorPreference: executor) { try await unchecked.work() }
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }

    /// One async measurement at a time on the shared thread.
    private static let gate = AsyncGate()

    /// The passes, on whatever executor the caller set.
    private func measureHere<Output>(
        _ name: String, _ body: () async throws -> Output, unavailable reasons: [String]
    ) async throws -> MeasurementResult {
        // Swift Testing's backtrace of every thrown error is the harness's cost, not the body's.
        ThrowHooks.suspend()
        defer { ThrowHooks.resume() }
        var collector = SeriesCollector()
        // Where tests run in parallel (a plain `swift test`), only the jobs the body's own thread enqueues: the tasks
        // it starts run with it, and other tests' jobs stay on the pool.
        let redirect = reasons.isEmpty
        if redirect { GlobalJobRedirect.begin(onlyFromMeasuredThread: !redirectsGlobalJobs) }
        defer { if redirect { GlobalJobRedirect.end() } }
        for _ in 0..<configuration.warmupCalls { blackHole(try await body()) }
        if SimulatedCounter.isCounting { return try await countedPass(name, body, &collector) }
        try await timedPass(body, &collector)
        let (unsettled, elsewhere, sites) = try await exactPass(body, &collector)
        var unavailable = configuration.metrics.sorted { $0.name < $1.name }.compactMap { metric in
            (reasons.first ?? unavailableReason(for: metric)).map { UnavailableMetric(metric: metric.name, reason: $0) }
        }
        if unsettled > 0 || elsewhere > 0 { collector.remove(.leakedAllocations) }
        if unsettled > 0 {
            unavailable.append(
                UnavailableMetric(
                    metric: Metric.leakedAllocations.name,
                    reason: "work was still running \(Self.settleLimitMilliseconds) ms after the body returned in "
                        + "\(unsettled) of \(configuration.exactCountRounds) calls (a task the body started and did "
                        + "not wait for): what it frees later would be counted as leaked"))
        }
        if elsewhere > 0 {
            // Their frees are counted when made (jemalloc's hooks), but a Dispatch thread keeps what it
            // would free in its own cache: up to 1,024 continuations (libdispatch), one a hand-off.
            unavailable.append(
                UnavailableMetric(
                    metric: Metric.leakedAllocations.name,
                    reason:
                        "part of the body ran on other threads in \(elsewhere) of \(configuration.exactCountRounds) "
                        + "calls (Dispatch, or tasks outside perfkit run), which keep some of its memory in caches of "
                        + "their own (libdispatch keeps up to 1,024 continuations a thread): it would read as leaked"))
        }
        var result = MeasurementResult(
            name: name, arms: ["main"], order: (0..<configuration.samples).map { _ in [0] },
            series: collector.series, unavailable: unavailable + collector.unavailable)
        if collector.series.contains(where: { $0.metric == .leakedAllocations }), !sites.isEmpty {
            result.leakSites = sites
        }
        if !collector.fallbacks.isEmpty { result.fallbacks = collector.fallbacks }
        return result
    }

    /// A counting process's pass: one counted call a sample, nothing else recorded.
    private func countedPass<Output>(
        _ name: String, _ body: () async throws -> Output, _ collector: inout SeriesCollector
    ) async throws -> MeasurementResult {
        // Threads the warm-up woke go back to waiting before the first count (``SettlePolicy/wokenThreads``).
        SettlePolicy.wokenThreads.pause()
        // Then one counted call, not recorded: the first counted call read more than every later one (a hand-off
        // that resumes the body at once 40 or 88 instructions, as the machine's load had it: the warm-up's blocks ran
        // uncarried; a task-group fan-out 52,708 against 45,133, cause not found). Every recorded call follows a
        // counted one.
        if let prefix = SimulatedCounter.outputPrefix {
            let (_, _, dump, _) = try await CountedRegion.countAsync(label: "main|warm|discarded") {
                try await body()
            }
            FileManager.default.removeLitter(atPath: "\(prefix).\(dump)")
        }
        var overflowed: [Int] = []
        for round in 0..<configuration.samples {
            let label = SampleLabel(arm: "main", phase: .warm, round: round, position: 0, index: round)
            let overflows = MeasuredThread.asyncBodies?.overflows ?? 0
            let (output, reading, dump, threads) = try await CountedRegion.countAsync(label: "main|warm|\(round)") {
                try await body()
            }
            blackHole(output)
            if let reading { collector.addCounted(reading, label, dump: dump, threads: threads) }
            if (MeasuredThread.asyncBodies?.overflows ?? 0) != overflows { overflowed.append(round) }
        }
        if !overflowed.isEmpty {
            collector.fallbacks.append(
                Fallback(kind: .ringOverflow, pass: "counted", samples: overflowed, of: configuration.samples))
        }
        var unavailable: [UnavailableMetric] = []
        if SimulatedCounter.countsAllocations {
            let (unsettled, elsewhere, _) = try await exactPass(body, &collector)
            if unsettled > 0 || elsewhere > 0 {
                collector.remove(.leakedAllocations)
                unavailable.append(
                    UnavailableMetric(
                        metric: Metric.leakedAllocations.name,
                        reason: "work was still running after the body returned, or ran on other threads"))
            }
        }
        var result = MeasurementResult(
            name: name, arms: ["main"], order: (0..<configuration.samples).map { _ in [0] },
            series: collector.series, unavailable: unavailable + collector.unavailable)
        if !collector.fallbacks.isEmpty { result.fallbacks = collector.fallbacks }
        return result
    }

    /// Why `metric` is not recorded for an async body, or nil when it is.
    private func unavailableReason(for metric: Metric) -> String? {
        switch metric {
        case .threadCPU, .bytesAllocated, .bytesFreed, .retiredInstructions:
            "not recorded for async bodies: work handed to Dispatch runs on other threads (wall clock and process CPU "
                + "cover it)"
        default:
            ProbeSet.unavailableReason(for: metric)
        }
    }

    /// Wall clock and process CPU per call, one call a sample.
    private func timedPass<Output>(_ body: () async throws -> Output, _ collector: inout SeriesCollector)
        async throws
    {
        for round in 0..<configuration.samples {
            let label = SampleLabel(arm: "main", phase: .warm, round: round, position: 0, index: round)
            let usage0 = ResourceUsage.current()
            let start = SystemClock.monotonicNanoseconds()
            let output = try await body()
            let end = SystemClock.monotonicNanoseconds()
            let usage1 = ResourceUsage.current()
            blackHole(output)
            var wall = Metric.wallClock
            wall.kind = configuration.timeKind
            collector.add(wall, Double(end - start), label)
            collector.add(.processUserCPU, Double(usage1.userCPUNanoseconds - usage0.userCPUNanoseconds), label)
            collector.add(.processSystemCPU, Double(usage1.systemCPUNanoseconds - usage0.systemCPUNanoseconds), label)
        }
    }

    /// Exact counts per call: the thread's allocations while the body and every job it left run, and the descriptors
    /// open after.
    ///
    /// Returns the calls whose work had not settled in time, and the calls resumed from another thread (work that ran
    /// elsewhere).
    private func exactPass<Output>(_ body: () async throws -> Output, _ collector: inout SeriesCollector)
        async throws -> (unsettled: Int, elsewhere: Int, sites: [LeakSite])
    {
        guard ExactAllocationCounter.unavailableReason == nil || OpenDescriptors.unavailableReason == nil,
            !configuration.metrics.isDisjoint(with: Metric.exactPass)
        else { return (0, 0, []) }
        var unsettled = 0, elsewhere = 0
        var late: [Int] = [], offThread: [Int] = [], overflowed: [Int] = []
        var kept: [String: Int] = [:]
        // One call in a window, not recorded: the first call after the thread moves to the measuring
        // arena kept one allocation the later ones reuse (a task group's, in release: 43 mallocs and
        // 42 frees, then 42 and 42), which read as a leak in a run whose processes take one exact call.
        _ = try await countedCall(body)
        for round in 0..<configuration.exactCountRounds {
            let label = SampleLabel(arm: "main", phase: .warm, round: round, position: 0, index: round)
            let descriptors = configuration.metrics.contains(.leakedDescriptors) ? OpenDescriptors.open() : nil
            let overflows = MeasuredThread.asyncBodies?.overflows ?? 0
            let call = try await countedCall(body)
            if !call.settled {
                unsettled += 1
                late.append(round)
            }
            if call.elsewhere { offThread.append(round) }
            if (MeasuredThread.asyncBodies?.overflows ?? 0) != overflows { overflowed.append(round) }
            // With jemalloc's hooks the leak count is the blocks still live, less libdispatch's cache.
            if call.elsewhere, call.counts?.kept == nil { elsewhere += 1 }
            if let counts = call.counts {
                for site in counts.kept?.sites ?? [] { kept[site.function, default: 0] += site.count }
                collector.addAllocations(counts, label, metrics: configuration.metrics)
                if configuration.metrics.contains(.mallocs), let other = counts.otherThreadMallocs {
                    collector.add(.otherThreadMallocs, Double(other), label)
                }
            }
            if let descriptors, let leaked = OpenDescriptors.leaked(since: descriptors) {
                collector.add(.leakedDescriptors, Double(leaked), label)
            }
        }
        if configuration.metrics.contains(.leakedAllocations) {
            let calls = Runner.leakCalls(configuration)
            var late = false
            let growth = try await ExactAllocationCounter.leakedPerCall(calls: calls) {
                blackHole(try await body())
                if !(await settle()) { late = true }
            }
            let label = SampleLabel(arm: "main", phase: .warm, round: 0, position: 0, index: 0)
            if late { unsettled += 1 } else { collector.addLeak(growth, label, calls: calls) }
        }
        let of = configuration.exactCountRounds
        for (kind, samples) in [
            (Fallback.Kind.settleRanOut, late), (.offThread, offThread), (.ringOverflow, overflowed),
        ]
        where !samples.isEmpty {
            collector.fallbacks.append(Fallback(kind: kind, pass: "exact", samples: samples, of: of))
        }
        let rounds = Double(max(configuration.exactCountRounds, 1))
        let sites = kept.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map {
            LeakSite(function: $0.key, perCall: Double($0.value) / rounds)
        }
        return (unsettled, elsewhere, sites)
    }

    /// One call of `body` in a measuring window, with the settle wait inside it.
    ///
    /// Its counts (nil without jemalloc), whether its jobs settled in time, and whether it was resumed from another
    /// thread.
    private func countedCall<Output>(_ body: () async throws -> Output) async throws -> (
        counts: ExactAllocationCounter.Counts?, settled: Bool, elsewhere: Bool
    ) {
        let foreign = MeasuredThread.asyncBodies?.foreignEnqueues ?? 0
        // A new arena for each call: a runtime cache can free, in a later call, what an earlier one
        // kept (a ping-pong's third call read −1 in a loaded CI run), and that free must not be counted.
        let window = ExactAllocationCounter.Window.open(fresh: true)
        let outcome: Result<Void, any Error>
        // The returned value is released inside the window: what a body returns is not kept.
        do { outcome = .success(blackHole(try await body())) } catch { outcome = .failure(error) }
        let settled = await settle()
        window?.awaitOtherThreadsFrees()
        let counts = window?.close()
        try outcome.get()
        return (counts, settled, (MeasuredThread.asyncBodies?.foreignEnqueues ?? 0) != foreign)
    }

    /// Lets the jobs the body left on its thread run, until none is queued or the limit passes:
    /// true when the thread ran out of jobs in time.
    private func settle() async -> Bool {
        guard let thread = MeasuredThread.asyncBodies, thread.isCurrent else { return true }
        let deadline = ContinuousClock.now + SettlePolicy.jobs.limit
        // This job is the one running: more than it means others wait their turn behind it.
        while thread.pendingJobs > 1 {
            if ContinuousClock.now > deadline { return false }
            await Task.yield()
        }
        return true
    }
}

/// A closure handed to a detached task that its caller awaits before the closure's scope ends
/// (``AsyncRunner/withoutTaskLocals(on:_:)``).
private struct UncheckedWork<R>: @unchecked Sendable {
    let work: () async throws -> R
}
