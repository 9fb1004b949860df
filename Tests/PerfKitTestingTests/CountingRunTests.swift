import Foundation
import PerfKit
import PerfKitTesting
import Testing

@inline(never) func countedWork(_ n: Int) -> Int {
    var x = 0
    for i in 0..<n { x = x &* 31 &+ i }
    return x
}

/// A generic value: a debug build looks its metadata up in the runtime's cache at every use.
struct LookedUp<T> { var value: T }

@inline(never) func genericLookups<T>(_ value: T, _ n: Int) -> Int {
    var total = 0
    for _ in 0..<n { total &+= [LookedUp(value: value)].count }
    return total
}

/// A real counting run: this test bundle, run again under valgrind's callgrind with the sigsuspend shim preloaded,
/// measuring `countedLoop` alone.
///
/// Skipped, with the reason printed, where valgrind or a C compiler is missing.
///
/// Serialized: its two counting tests ran at once when they were split (five valgrind processes on
/// two cores), and one of 18 samples counted 287 instructions more than in the other run (156,967
/// against 156,680; a fresh clone's CI). The body does not allocate, so the path that
/// moved is around it (a lock the harness's threads can hold at that moment, valgrind running one
/// thread at a time): a region's count is not yet independent of the rest of the process (issue
/// 37). The test states a counting run of one binary on a machine as loaded as `perfkit run
/// --counts` leaves it, which is what it checked before the split.
@Suite(.serialized) struct CountingRunTests {
    /// The body the counting run measures; under a plain `swift test` it is a smoke-mode measurement.
    @Test(.performance(samples: 3)) func countedLoop() throws {
        try measure("loop-2000") { countedWork(2_000) }
        try measure("loop-4000") { countedWork(4_000) }
    }

    /// An empty body: what the harness leaves in the count.
    @Test(.performance(samples: 3)) func emptyBody() throws {
        try measure("empty") {}
    }

    /// A body that starts a thread and waits for it: counted with its thread, and said so.
    @Test(.performance(samples: 3)) func threadedLoop() throws {
        try measure("loop-on-a-thread") {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                blackHole(countedWork(3_000))
                done.signal()
            }
            thread.start()
            done.wait()
        }
    }

    /// Work that follows addresses.
    ///
    /// Objects made by the test before `measure`, placed by their addresses in an open-addressing table (a probe for
    /// every collision, so the count follows where the objects sit). No generic code in the body: a debug build's
    /// unspecialized generics look up the runtime's metadata caches, keyed by metadata addresses the harness's heap
    /// moves.
    @Test(.performance(samples: 3)) func identityKeyedWork() throws {
        let nodes = (0..<500).map(CountedNode.init)
        let table = UnsafeMutableBufferPointer<UInt>.allocate(capacity: 1_031)
        defer { table.deallocate() }
        try measure("identity-keyed") { identityTable(nodes, table) }
    }

    /// Work that follows metadata addresses, as Observation's registrar does.
    ///
    /// A dictionary keyed by key paths (an `AnyKeyPath` hashes its class's and its components' metadata addresses) into
    /// generic classes whose metadata the test instantiates, looked up in the body.
    @Test(.performance(samples: 3)) func keyPathKeyedWork() throws {
        let paths =
            KeyedHolder<Int>.paths + KeyedHolder<Int8>.paths + KeyedHolder<UInt16>.paths
            + KeyedHolder<Double>.paths + KeyedHolder<Bool>.paths + KeyedHolder<String>.paths
            + KeyedHolder<[Int]>.paths + KeyedHolder<Float?>.paths
        let table = Dictionary(uniqueKeysWithValues: paths.enumerated().map { ($0.element, $0.offset) })
        try measure("key-path-keyed") { keyPathLookups(paths, table) }
    }

    /// Work that follows the bundle's own addresses.
    ///
    /// Literals of its read-only data, keyed by their addresses in a dictionary (where they hash decides its
    /// collisions). ``extraWorkVariable`` adds a loop of that many steps (`abba --counts` tests give each side a value
    /// of one length, so the environment's size is the same on both).
    @Test(.performance(samples: 3)) func bundleAddressKeyedWork() throws {
        let extra = getenv(Self.extraWorkVariable).map { Int(atoi($0)) } ?? 0
        try measure("bundle-address-keyed") { bundleAddressTable(bundleLiterals) &+ countedWork(extra) }
    }

    /// The variable that adds work to ``bundleAddressKeyedWork()``: a change between two sides.
    static let extraWorkVariable = "PERFKIT_TEST_EXTRA_WORK"

    /// An async body that suspends: not counted, and the counting run says why.
    @Test(.performance(samples: 3)) func asyncWork() async throws {
        try await measure("async") {
            await Task.yield()
            return countedWork(1_000)
        }
    }

    /// Work that looks up the runtime's generic metadata cache at every step (unspecialized generics).
    @Test(.performance(samples: 3)) func lookupWork() throws {
        try measure("generic-lookups") { genericLookups(7, 200) }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// valgrind's version and the shim built into `folder`, or nil (printing why) without valgrind or a C compiler.
    static func setup(in folder: String) throws -> CountingRun.Setup? {
        guard let valgrind = ChildOutput.run(["valgrind", "--version"]), valgrind.hasPrefix("valgrind") else {
            print("skipped: valgrind is not installed (apt-get install valgrind)")
            return nil
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard ChildOutput.run(["cc", "--version"]) != nil else {
            print("skipped: no C compiler to build the sigsuspend shim")
            return nil
        }
        // A compiler that is there and fails is this change's error, never a skip.
        let sources = Self.packageRoot + "/Sources"
        _ = try #require(
            ChildOutput.run([
                "cc", "-O2", "-shared", "-fPIC", "-I", sources + "/PerfKitValgrindShim/include", "-I",
                sources + "/CShimEntryPoints/include", sources + "/PerfKitValgrindShim/PerfKitValgrindShim.c", "-o",
                folder + "/shim.so",
            ]), "the shim did not compile")
        return CountingRun.Setup(version: valgrind, cpu: "", shim: folder + "/shim.so")
    }

    /// Runs `body` with a counting setup built in a temporary folder (removed after).
    ///
    /// Not inside a counting process, and not where valgrind or a C compiler is missing (``setup(in:)`` says why).
    static func withCountingSetup(_ body: (CountingRun.Setup) throws -> Void) throws {
        guard !SimulatedCounter.isCounting else { return }
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard let setup = try Self.setup(in: folder) else { return }
        try body(setup)
    }

    /// A temporary folder's path, new for each call.
    static func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("perfkit-counting-\(UUID().uuidString)").path
    }

    /// A request to count the tests matching `filter` in this bundle, three samples per arm and phase.
    static func request(_ filter: String, setup: CountingRun.Setup, samples: Int = 3) -> CountingRun.Request {
        CountingRun.Request(
            bundle: CommandLine.arguments[0], directory: packageRoot, filter: filter, countSamples: samples,
            setup: setup)
    }

    /// Counts the tests matching `filter` in this bundle; the dumps are removed.
    static func count(
        _ filter: String, setup: CountingRun.Setup, heapPads: [Int] = CountingRun.heapPads,
        loadingElsewhere: Bool = false, progress: (String) -> Void = { _ in }
    ) throws -> [TestResult] {
        var request = Self.request(filter, setup: setup)
        (request.heapPads, request.loadingElsewhere) = (heapPads, loadingElsewhere)
        let run = try CountingRun.measure(request, progress: progress)
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: run.dumps).deletingLastPathComponent().path)
        return run.tests
    }

    @Test func aCountingRunCountsTheBodyAloneAndRepeatsExactly() throws {
        try Self.withCountingSetup { setup in
            var counts: [[[Double]]] = []
            for _ in 0..<2 {
                let measurements = try #require(
                    try Self.count("CountingRunTests/countedLoop", setup: setup).first?.measurements)
                var values: [[Double]] = []
                for measurement in measurements {
                    let series = try #require(measurement.series.first { $0.metric == .instructions })
                    #expect(series.callgrindDumps?.count == series.values.count)
                    #expect(series.profile != nil)
                    // Only what callgrind counts is recorded under simulation: no clock, no exact-count pass.
                    #expect(measurement.series.allSatisfy { $0.metric.isCounted })
                    values.append(series.values)
                }
                counts.append(values)
            }
            if Jemalloc.isLinked {
                #expect(counts[0] == counts[1])  // with jemalloc, every sample repeats exactly
            } else {
                // glibc's malloc (no Jemalloc trait) adds a slow path to a sample now and then, a few
                // hundred instructions: the runs agree within 1,000 instructions, not exactly.
                for (first, second) in zip(counts[0], counts[1]) {
                    let a = Quantile.percentile(sorted: first.sorted(), 50),
                        b = Quantile.percentile(sorted: second.sorted(), 50)
                    #expect(abs(a - b) <= 1_000, "\(first) and \(second)")
                }
            }
            // The body is counted with only the call's own residue: twice the steps is twice the count
            // minus one residue (679 instructions in this debug build: the closure's dispatch and the
            // client requests). Setup, warm-up and the harness around the region would add far more.
            // The smallest sample of each: an allocator's occasional slow path only ever adds.
            let (short, long) = (counts[0][0].min()!, counts[0][1].min()!)
            #expect((0..<1_000).contains(2 * short - long), "\(short) and \(long)")
        }
    }

    /// Without a pinned heap a count series says why, and its test gets a heap-shifted second process.
    ///
    /// Without a pinned heap (built without the Jemalloc trait: glibc's malloc) a count series says
    /// why, its test gets a heap-shifted second process (and the remaining placements when that
    /// process moved a count beyond the tolerance), and the run's setup says the heap was not
    /// pinned; with it, one process and the pinned setup. Each of CI's two builds checks its own path.
    @Test func aCountingRunSaysWhetherTheHeapWasPinnedAndShiftsItWhenNot() throws {
        try Self.withCountingSetup { setup in
            var lines: [String] = []
            let tests = try Self.count("CountingRunTests/countedLoop", setup: setup, progress: { lines.append($0) })
            let series = try #require(tests.first?.measurements.first?.series.first { $0.metric == .instructions })
            if Jemalloc.isLinked {
                #expect(series.heapUnpinned == nil)
                #expect(series.processCount == 1)
                #expect(CountingRun.setup(of: tests).differences(from: CountingRun.pinnedSetup).isEmpty)
                // Recorded as run: three samples per arm and phase here.
                #expect(CountingRun.setup(of: tests).samplesPerArmAndPhase == 3)
                #expect(!lines.contains { $0.contains("could not pin") })
            } else {
                #expect(
                    series.heapUnpinned == "jemalloc is not the process allocator (built without the Jemalloc trait)")
                // The shift check is the second process; glibc's occasional slow path can move its median
                // beyond the tolerance (one CI run: 5 processes), and then the test is counted at every
                // placement. The rule, not a guess at the allocator's luck, decides which.
                let medians = series.processMedians()
                let moved = medians.count >= 2 && Comparison.countsDiffer(medians[0], medians[1])
                #expect(series.processCount == (moved ? CountingRun.placementsPerMovingTest : 2), "\(medians)")
                #expect(CountingRun.setup(of: tests).differences(from: CountingRun.unpinnedSetup).isEmpty)
                // Recorded as run: three samples per arm and phase here.
                #expect(CountingRun.setup(of: tests).samplesPerArmAndPhase == 3)
                #expect(lines.contains { $0.contains("1 of 1 tests could not pin the measured thread's heap") })
            }
        }
    }

    /// The runtime's cache probes are not counted (``CountingRun/uncountedRuntimeProbes``).
    ///
    /// A body of generic metadata lookups counts the lookups' entry points but none of the tables' finds.
    @Test func aCountLeavesOutTheRuntimesCacheProbesAndKeepsTheLookups() throws {
        try Self.withCountingSetup { setup in
            let series = try #require(
                try Self.count("CountingRunTests/lookupWork", setup: setup).first?.measurements.first?.series.first {
                    $0.metric == .instructions
                })
            let functions = try #require(series.profile).inclusive.map(\.function)
            #expect(functions.contains { $0.contains("swift_getGenericMetadata") }, "\(functions)")
            #expect(
                !functions.contains { $0.contains("ConcurrentReadableHashMap") && $0.contains("find<") }, "\(functions)"
            )
        }
    }

    /// Heap shifts of the harness's heap (``SimulatedCounter/padHeap(_:)``), one process each.
    static let shifts = [0, 5, 11]

    /// The harness costs next to nothing inside the window (issue 61).
    ///
    /// An empty body counts at most 50 instructions a call in this debug build, the same in every sample and in two
    /// runs. The region's client requests and the closures and witnesses that hand the call to the body are left out
    /// (``DumpCount/harnessFrames``); a debug build's thunks around the closure stay in.
    @Test func anEmptyBodyCountsAlmostNothing() throws {
        try Self.withCountingSetup { setup in
            var runs: [[Double]] = []
            for _ in 0..<2 {
                let tests = try Self.count("CountingRunTests/emptyBody", setup: setup)
                let series = try #require(tests.first?.measurements.first?.series.first { $0.metric == .instructions })
                runs.append(series.values)
            }
            #expect(runs[0].allSatisfy { $0 <= 50 && $0 == runs[0][0] }, "\(runs[0])")
            if Jemalloc.isLinked { #expect(runs[0] == runs[1]) }
        }
    }

}

/// Places each node's address in `table` (open addressing, linear probing) and returns the probes.
@inline(never) func identityTable(_ nodes: [CountedNode], _ table: UnsafeMutableBufferPointer<UInt>) -> Int {
    table.update(repeating: 0)
    var probes = 0
    nodes.withUnsafeBufferPointer { nodes in
        var i = 0
        while i < nodes.count {
            let address = UInt(bitPattern: Unmanaged.passUnretained(nodes[i]).toOpaque())
            var slot = Int((address >> 4) % UInt(table.count))
            while table[slot] != 0 {
                slot = slot + 1 == table.count ? 0 : slot + 1
                probes += 1
            }
            table[slot] = address
            i += 1
        }
    }
    return probes
}

/// An object a counted body keys by identity.
/// Looks every key path up in `table` ten times.
@inline(never) func keyPathLookups(_ paths: [AnyKeyPath], _ table: [AnyKeyPath: Int]) -> Int {
    var total = 0
    for _ in 0..<10 {
        for path in paths { total &+= table[path] ?? 0 }
    }
    return total
}

/// A generic class with four stored properties: eight key paths' worth of distinct metadata a type.
final class KeyedHolder<T> {
    var a: T, b: T, c: T, d: T
    init(_ value: T) { (a, b, c, d) = (value, value, value, value) }
    static var paths: [AnyKeyPath] { [\KeyedHolder.a, \KeyedHolder.b, \KeyedHolder.c, \KeyedHolder.d] }
}

final class CountedNode: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}

/// Runs a short command and returns its standard output, or nil when it fails.
enum ChildOutput {
    static func run(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}

/// 128 literals in the bundle's read-only data: their addresses move with where the bundle is loaded.
let bundleLiterals: [StaticString] = [
    "literal-000", "literal-001", "literal-002", "literal-003", "literal-004", "literal-005", "literal-006",
    "literal-007", "literal-008", "literal-009", "literal-010", "literal-011", "literal-012", "literal-013",
    "literal-014", "literal-015", "literal-016", "literal-017", "literal-018", "literal-019", "literal-020",
    "literal-021", "literal-022", "literal-023", "literal-024", "literal-025", "literal-026", "literal-027",
    "literal-028", "literal-029", "literal-030", "literal-031", "literal-032", "literal-033", "literal-034",
    "literal-035", "literal-036", "literal-037", "literal-038", "literal-039", "literal-040", "literal-041",
    "literal-042", "literal-043", "literal-044", "literal-045", "literal-046", "literal-047", "literal-048",
    "literal-049", "literal-050", "literal-051", "literal-052", "literal-053", "literal-054", "literal-055",
    "literal-056", "literal-057", "literal-058", "literal-059", "literal-060", "literal-061", "literal-062",
    "literal-063", "literal-064", "literal-065", "literal-066", "literal-067", "literal-068", "literal-069",
    "literal-070", "literal-071", "literal-072", "literal-073", "literal-074", "literal-075", "literal-076",
    "literal-077", "literal-078", "literal-079", "literal-080", "literal-081", "literal-082", "literal-083",
    "literal-084", "literal-085", "literal-086", "literal-087", "literal-088", "literal-089", "literal-090",
    "literal-091", "literal-092", "literal-093", "literal-094", "literal-095", "literal-096", "literal-097",
    "literal-098", "literal-099", "literal-100", "literal-101", "literal-102", "literal-103", "literal-104",
    "literal-105", "literal-106", "literal-107", "literal-108", "literal-109", "literal-110", "literal-111",
    "literal-112", "literal-113", "literal-114", "literal-115", "literal-116", "literal-117", "literal-118",
    "literal-119", "literal-120", "literal-121", "literal-122", "literal-123", "literal-124", "literal-125",
    "literal-126", "literal-127",
]

/// Keys each literal by its address in a dictionary and returns its count.
@inline(never) func bundleAddressTable(_ literals: [StaticString]) -> Int {
    var table: [UInt: Int] = [:]
    for (index, literal) in literals.enumerated() { table[UInt(bitPattern: literal.utf8Start)] = index }
    // Work that follows the literals' page numbers too (bits 12 to 19 of their addresses, which a load
    // through the dynamic loader moves here), so the count moves beyond the count tolerance whenever
    // the bundle loads elsewhere: the table alone moved by less in some builds of this bundle (CI's
    // fresh clone), and its test could not tell that the count follows addresses.
    var work = 0
    for literal in literals {
        let page = Int((UInt(bitPattern: literal.utf8Start) >> 12) & 0xFF)
        for i in 0..<page { work = work &* 31 &+ i }
    }
    return table.count &+ work
}
