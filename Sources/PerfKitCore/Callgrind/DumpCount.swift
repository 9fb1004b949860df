import Foundation

/// A sample's count from its callgrind dump: the dump's `totals:` less the calls into the Swift runtime's
/// metadata-cache table work (``uncountedCalls``).
///
/// The one reading of a sample's count: the test process reads it after each region, the orchestrator for its placement
/// trials and profiles (``CallgrindDump``).
///
/// Why subtracted, not switched off: callgrind's `--toggle-collect` flips collection at a
/// function's entry and exit, so a toggled function called inside another one turns collection
/// back on. The cache's `getOrInsert` calls the snapshot `find` that is already toggled off
/// (``CountingRun/uncountedRuntimeProbes``), so toggling it too would count that find again.
/// Subtracting a call's inclusive cost, as the dump records it, has no such nesting.
package enum DumpCount {
    /// Functions whose calls a count leaves out, as callgrind names them.
    ///
    /// Functions whose calls (from a function that is not one of them) a count leaves out, as
    /// callgrind names them (glob patterns, `*` any run of characters): the generic metadata cache's
    /// `getOrInsert`, which probes the process-wide table, inserts the entry when it is new and grows
    /// the table when it is full. Its cost follows what the harness's threads put in that table
    /// first, in an order thread scheduling picks; instantiating the metadata happens outside it
    /// and stays counted. Measured (two counting runs of one calendar binary): of the
    /// only samples apart, the two cold reference arms' first samples, the scroll's 1,176 instructions
    /// were all in this function and the key comparisons it calls, and 112 of the artwork's 272 (the
    /// other 160 in `TestSlowdown`'s first read of the environment, see ``TestSlowdown/prepare()``).
    package static let uncountedCalls = [
        "std::pair<* swift::StableAddressConcurrentReadableHashMap<*>::getOrInsert<*"
    ]

    /// The harness's own frames around a counted body, whose self cost a count leaves out.
    ///
    /// The region's opening and closing client requests and the closures and subject witnesses that hand
    /// the call to the body (glob patterns over callgrind's names, mangled Swift names). An empty
    /// synchronous body counted 59 instructions a call in a release build, 55 of them here. What these
    /// frames call (the body, the runtime) stays counted.
    package static let harnessFrames = [
        "perfkit_count_begin*", "perfkit_count_end*",
        "$s11PerfKitCore6RunnerV17takeCountedSample*",
        "$s11PerfKitCore13CountedRegionO5count5label*", "$s11PerfKitCore13CountedRegionO10countAsync5label*",
        "$s11PerfKitCore14ClosureSubjectV3run*", "$s11PerfKitCore14ClosureSubjectVyxGAA010MeasurableE0A2aEP3run*",
        "$s11PerfKitCore11AsyncRunnerV11countedPass*",
    ]

    /// The allocator's and the Swift runtime's allocation entry points.
    ///
    /// A caller of one is where an allocation was made (``CallgrindDump``'s allocation sites, ``LeakSites``).
    package static let allocatorEntryPoints: Set<String> = [
        "malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign", "swift_slowAlloc",
        "swift_allocObject", "swift_allocBox", "swift_allocEmptyBox",
    ]

    /// Whether `name` is one of ``harnessFrames``.
    package static func isHarness(_ name: String) -> Bool {
        harnessFrames.contains { fnmatch($0, name, 0) == 0 }
    }

    /// Whether `name` (callgrind's, C++ names demangled) is one of ``uncountedCalls``.
    package static func isUncounted(_ name: String) -> Bool {
        uncountedCalls.contains { fnmatch($0, name, 0) == 0 }
    }

    /// What one dump says of its region: the instruction count and the reference-counting calls.
    package struct Reading: Sendable, Equatable {
        /// `totals:` less the uncounted calls (``instructions(ofText:)``).
        package var instructions: UInt64
        /// Calls into the Swift runtime's retain entry points (``retainFunctions``) from other code.
        package var retains: UInt64
        /// Calls into its release entry points (``releaseFunctions``) from other code.
        package var releases: UInt64
        /// Calls into `swift_allocObject` (Swift class instances and boxes) from other code.
        package var objectAllocations: UInt64 = 0
    }

    /// The Swift runtime's retain entry points.
    ///
    /// Strong, unowned, unknown-object and bridge-object, atomic and not, one object or `_n` at once (one call each,
    /// whatever `n`).
    package static let retainFunctions: Set<String> = [
        "swift_retain", "swift_retain_n", "swift_nonatomic_retain", "swift_nonatomic_retain_n",
        "swift_unownedRetain", "swift_unownedRetain_n", "swift_nonatomic_unownedRetain",
        "swift_unownedRetainStrong", "swift_unknownObjectRetain", "swift_unknownObjectRetain_n",
        "swift_bridgeObjectRetain", "swift_bridgeObjectRetain_n", "swift_nonatomic_bridgeObjectRetain",
        "swift_weakLoadStrong", "swift_unownedRetainStrongAndRelease",
    ]

    /// The Swift runtime's release entry points, as ``retainFunctions``.
    package static let releaseFunctions: Set<String> = [
        "swift_release", "swift_release_n", "swift_nonatomic_release", "swift_nonatomic_release_n",
        "swift_unownedRelease", "swift_unownedRelease_n", "swift_nonatomic_unownedRelease",
        "swift_unknownObjectRelease", "swift_unknownObjectRelease_n", "swift_bridgeObjectRelease",
        "swift_bridgeObjectRelease_n", "swift_nonatomic_bridgeObjectRelease",
    ]

    /// The count of a dump's text.
    ///
    /// `totals:` (else `summary:`), less the inclusive cost of every call from a counted function into an uncounted
    /// one; nil when the text has no total.
    /// - Complexity: O(n) in the text's length, one pass.
    package static func instructions(ofText text: String) -> UInt64? { reading(ofText: text)?.instructions }

    /// The dump's ``Reading``.
    ///
    /// Its count, and the calls into the runtime's retain and release entry points from functions that are not
    /// themselves such entry points (one runtime entry point calling another is the same operation); nil when the text
    /// has no total.
    /// - Complexity: O(n) in the text's length, one pass.
    package static func reading(ofText text: String) -> Reading? {
        var reader = Reader()
        for line in CallgrindTokens(text) { reader.read(line) }
        return reader.reading
    }

    /// ``reading(ofText:)`` a line at a time.
    ///
    /// For a reader that walks the dump's lines for figures of its own (`CallgrindDump`), so the text is tokenized
    /// once.
    package struct Reader {
        private var total: UInt64?, summary: UInt64?
        private var table = NameTable()
        private var callerUncounted = false, calleeUncounted = false, nextIsCall = false, callerIsHarness = false
        private var callerClass = CallClass.other, calleeClass = CallClass.other, callCount: UInt64 = 0
        private var subtracted: UInt64 = 0, retains: UInt64 = 0, releases: UInt64 = 0, objects: UInt64 = 0

        /// A reader before the dump's first line.
        package init() {}

        /// Takes the dump's next line.
        package mutating func read(_ line: CallgrindLine) {
            switch line {
            case .function(let name):
                callerUncounted = table.isUncounted(name)
                callerIsHarness = table.isHarness(name)
                callerClass = CallClass(name)
            case .callee(let name):
                calleeUncounted = table.isUncounted(name)
                calleeClass = CallClass(name)
            case .calls(let count):
                nextIsCall = true
                callCount = count
            case .totals(let value): total = value
            case .summary(let value): summary = value
            case .cost(let cost) where nextIsCall:
                // A call's inclusive cost.
                nextIsCall = false
                if calleeUncounted && !callerUncounted { subtracted += cost ?? 0 }
                if calleeClass != callerClass && !callerUncounted {
                    if calleeClass == .retain { retains += callCount }
                    if calleeClass == .release { releases += callCount }
                    if calleeClass == .objectAllocation { objects += callCount }
                }
            case .cost(let cost) where callerIsHarness:
                // A harness frame's own instructions.
                subtracted += cost ?? 0
            case .cost: break
            }
        }

        /// The lines read so far as a ``Reading``; nil before a `totals:` or `summary:` line.
        package var reading: Reading? {
            guard let counted = total ?? summary else { return nil }
            return Reading(
                instructions: counted - min(counted, subtracted), retains: retains, releases: releases,
                objectAllocations: objects)
        }
    }

    /// What each of a dump's function names is, remembered.
    private struct NameTable {
        var uncounted: [Substring: Bool] = [:]
        var harness: [Substring: Bool] = [:]

        mutating func isUncounted(_ name: Substring) -> Bool {
            if let known = uncounted[name] { return known }
            let result = DumpCount.isUncounted(String(name))
            uncounted[name] = result
            return result
        }

        mutating func isHarness(_ name: Substring) -> Bool {
            if let known = harness[name] { return known }
            let result = DumpCount.isHarness(String(name))
            harness[name] = result
            return result
        }
    }

    /// Which reference-counting operation a function is, if any.
    private enum CallClass {
        case retain, release, objectAllocation, other
        init(_ name: Substring) {
            // A name may carry callgrind's thread or object suffix ("'2"); the entry points have none.
            let plain = String(name)
            self =
                retainFunctions.contains(plain)
                ? .retain
                : releaseFunctions.contains(plain)
                    ? .release : plain == "swift_allocObject" ? .objectAllocation : .other
        }
    }

    /// The dump at `path`'s ``Reading``, or nil when it cannot be read.
    package static func reading(ofDump path: String) -> Reading? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return reading(ofText: String(decoding: data, as: UTF8.self))
    }

    /// The count of the dump at `path` (``instructions(ofText:)``), or nil when it cannot be read.
    package static func instructions(ofDump path: String) -> UInt64? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return instructions(ofText: String(decoding: data, as: UTF8.self))
    }
}
