import Foundation
import PerfKitCore

/// One callgrind output file, read for the figures "where it went" needs.
///
/// Per function, its inclusive instructions and its direct calls into the allocator.
///
/// The format is callgrind's (valgrind's `docs/cl-format.html`): `fn=` starts a function's block;
/// cost lines are `position Ir …`; a `calls=N target` line says the next cost line is the
/// inclusive cost of N calls to the function named by the last `cfn=`. Names may be compressed,
/// `(id) name` defining and `(id)` reusing. Inclusive cost is the block's own lines plus its call
/// lines, as `callgrind_annotate --inclusive=yes` computes it, but for a function's calls to itself:
/// its own lines already hold every level's cost. A series' profile (``profile(_:demangle:)``)
/// goes further, from the call graph: calls between symbols that read as one function (recursion
/// levels, merged copies) are not added either (a hash trie's `_HashNode.prepareDefaultedValueUpdate`
/// read +3.0 million instructions in a body that gained 656,053).
public struct CallgrindDump: Sendable, Equatable {
    /// The dump's count: its `totals:` figure less the runtime's cache table work.
    ///
    /// The dump's count: its `totals:` figure (`Ir`) less the runtime's cache table work
    /// (``DumpCount/instructions(ofText:)``), which its call graph (``calls``, ``selfCost``) still holds.
    public var totals: UInt64
    /// Direct calls into the allocator per calling (mangled) function.
    public var allocationCalls: [String: UInt64]
    /// Each function's own instructions (its block's cost lines that are not calls).
    public var selfCost: [String: UInt64] = [:]
    /// The inclusive instructions of each function's calls, per callee: `calls[caller][callee]`.
    public var calls: [String: [String: UInt64]] = [:]

    /// Inclusive instructions per (mangled) function.
    ///
    /// Its own lines and its calls to other functions (a call to one of its own recursion levels, `name'2`, is its own
    /// work again).
    public var inclusive: [String: UInt64] {
        var result = selfCost
        for (caller, callees) in calls {
            for (callee, value) in callees where Self.withoutLevel(callee) != Self.withoutLevel(caller) {
                result[caller, default: 0] += value
            }
        }
        return result
    }

    /// `name` without callgrind's recursion level (`f'2` is `f`).
    static func withoutLevel(_ name: String) -> String {
        guard let mark = name.lastIndex(of: "'"), name[name.index(after: mark)...].allSatisfy(\.isNumber) else {
            return name
        }
        return String(name[..<mark])
    }

    /// Every function the dump names, without recursion levels: what a profile demangles.
    public var functionNames: Set<String> {
        Set(
            (Array(selfCost.keys) + calls.keys + calls.values.flatMap(\.keys) + allocationCalls.keys).map(
                Self.withoutLevel))
    }

    /// The functions counted as "the allocator": a call from outside this set into it is an allocation site.
    public static let allocatorEntryPoints = DumpCount.allocatorEntryPoints

    /// Name prefixes of the harness.
    ///
    /// PerfKit, PerfKitTesting, Swift Testing, and the concurrency runtime's frames that run a job (they enclose the
    /// body, so they repeat its change).
    static let harnessPrefixes = [
        "$s7PerfKit", "$s11PerfKitCore", "$s14PerfKitTesting", "$s7Testing", "swift_task_switch", "__swift_run_job",
        "swift_job_run",
        "swift::runJobInEstablishedExecutorContext",
    ]

    /// Name fragments of the Swift runtime's shared lookups.
    ///
    /// Type metadata and conformance caches, dynamic casts, metadata by mangled name, and key paths (hashed by their
    /// type's identity). Their tables also hold what the harness put there, at addresses the pinned heap does not fix,
    /// so a body that uses them can count a little differently run to run.
    public static let runtimeLookupFragments = [
        "swift_conformsToProtocol", "swift_getGenericMetadata", "swift_dynamicCast", "swift_getTypeByMangledName",
        "__swift_instantiateConcreteTypeFromMangledName", "swift_getWitnessTable", "ConcurrentReadableHashMap",
        "MetadataCacheKey", "AnyKeyPath",
    ]

    /// The largest share of the dump's total spent (inclusively) in one of the runtime's shared
    /// lookups (``runtimeLookupFragments``), from 0 to 1.
    public var runtimeLookupShare: Double {
        guard totals > 0 else { return 0 }
        let largest =
            inclusive.lazy.filter { name, _ in
                Self.runtimeLookupFragments.contains { name.contains($0) }
            }.map(\.value).max() ?? 0
        return min(1, Double(largest) / Double(totals))
    }

    /// Parses a dump's text.
    /// - Parameter text: The file's content.
    public init(parsing text: String) {
        totals = 0
        allocationCalls = [:]
        var function = ""
        var callee = ""
        var nextIsCall = false
        var pendingCalls: UInt64 = 0
        var counter = DumpCount.Reader()
        for line in CallgrindTokens(text) {
            counter.read(line)
            switch line {
            case .cost(let cost) where nextIsCall:
                calls[function, default: [:]][callee, default: 0] += cost ?? 0
                if Self.allocatorEntryPoints.contains(callee) && !Self.allocatorEntryPoints.contains(function) {
                    allocationCalls[function, default: 0] += pendingCalls
                }
                nextIsCall = false
            case .cost(let cost): selfCost[function, default: 0] += cost ?? 0
            case .function(let name): function = String(name)
            case .callee(let name): callee = String(name)
            case .calls(let count):
                pendingCalls = count
                nextIsCall = true
            case .totals, .summary: break
            }
        }
        // The one reading of a sample's count (the test process's and the placement trial's too). The
        // graph keeps the table work: the dump's calls carry no path, so a caller's inclusive cost
        // cannot be lessened by what one of its callees spent in the table, and the profile says
        // where the run's instructions went.
        totals = counter.reading?.instructions ?? 0
    }

    /// Builds the profile of a series from its dumps.
    ///
    /// Every dump's figures summed, divided by the number of dumps, the largest ``CountProfile/limit`` kept, names
    /// demangled by `demangle`.
    /// - Parameters:
    ///   - dumps: The series' dumps.
    ///   - demangle: Maps mangled names to readable ones (names it does not know stay as they are).
    /// - Returns: The profile.
    public static func profile(_ dumps: [CallgrindDump], demangle: [String: String]) -> CountProfile {
        // Names are merged after demangling (specialisations of one function read as one), and the
        // harness is left out: PerfKit's and Swift Testing's frames enclose every body, and callgrind's
        // recursion levels (`name'2`) repeat costs already counted.
        func readable(_ name: String) -> String? {
            // Bare addresses (`0x…`: code without a symbol) say nothing a reviewer can act on.
            if name.isEmpty || name.contains("'") || name.hasPrefix("0x")
                || harnessPrefixes.contains(where: { name.hasPrefix($0) })
            {
                return nil
            }
            return demangle[name] ?? name
        }
        func demangled(_ name: String) -> String { demangle[name] ?? name }
        // Inclusive per readable name, from the call graph: a name's own lines at every recursion
        // level (callgrind's `name'2`) and its calls to other names. Calls between symbols that
        // read as one name (a function and its recursion levels, or its merged copy `…Tm`) are its
        // own work already counted: adding them counted a hash trie's descent at every level.
        func key(_ name: String) -> String? { readable(withoutLevel(name)) }
        var inclusive: [String: UInt64] = [:]
        var allocations: [String: UInt64] = [:]
        for dump in dumps {
            for (name, value) in dump.selfCost {
                if let name = key(name) { inclusive[name, default: 0] += value }
            }
            for (caller, callees) in dump.calls {
                guard let name = key(caller) else { continue }
                for (callee, value) in callees where demangled(withoutLevel(callee)) != name {
                    inclusive[name, default: 0] += value
                }
            }
            for (name, value) in dump.allocationCalls {
                if let name = readable(name) { allocations[name, default: 0] += value }
            }
        }
        let n = Double(max(1, dumps.count))
        // Frames that enclose the whole body (the test's thunks, the dispatch and task frames the
        // body runs under, the body's own entry) repeat the series' total: the headline has it.
        // The deepest of them stays: when the body is one call (`checksum(bytes)`), that call is
        // where everything went, and it would otherwise vanish with the thunks around it.
        let total = dumps.reduce(0.0) { $0 + Double($1.totals) }
        let whole = inclusive.filter { Double($0.value) >= 0.999 * total }.min {
            $0.value != $1.value ? $0.value < $1.value : $0.key < $1.key
        }
        // The stacks start at the outermost frame that is not the harness's: the body's own closure.
        let outermost = inclusive.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
        let enclosing = inclusive.filter { Double($0.value) >= 0.999 * total && $0.key != whole?.key }
        inclusive = inclusive.filter { Double($0.value) < 0.999 * total }
        if let whole { inclusive[whole.key] = whole.value }
        func top(_ values: [String: UInt64]) -> [CountProfile.Entry] {
            values.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(CountProfile.limit)
                .map { CountProfile.Entry(function: $0.key, value: Double($0.value) / n) }
        }
        var profile = CountProfile(inclusive: top(inclusive), allocationCalls: top(allocations), samples: dumps.count)
        profile.enclosing = top(enclosing)
        profile.varying = varying(dumps, key: key)
        profile.stacks = stacks(dumps, key: key, root: outermost)
        exclusiveProfile(dumps, key: key).write(into: &profile)
        return profile
    }

    /// The folded call stacks below `root` (``CountProfile/stacks``), per call of the body.
    ///
    /// From the summed call graph: a node's self cost and its calls, scaled by the share of the callee's inclusive
    /// cost that this path carries; a function already on the path is not entered again (recursion), and paths under
    /// 0.05% of the total or deeper than 48 frames end there.
    static func stacks(_ dumps: [CallgrindDump], key: (String) -> String?, root: String?) -> [CountProfile.Entry]? {
        guard let root, !dumps.isEmpty else { return nil }
        var own: [String: Double] = [:], edges: [String: [String: Double]] = [:]
        for dump in dumps {
            for (name, value) in dump.selfCost {
                if let name = key(withoutLevel(name)) { own[name, default: 0] += Double(value) }
            }
            for (caller, callees) in dump.calls {
                guard let from = key(withoutLevel(caller)) else { continue }
                for (callee, value) in callees {
                    guard let to = key(withoutLevel(callee)), to != from else { continue }
                    edges[from, default: [:]][to, default: 0] += Double(value)
                }
            }
        }
        // A function's inclusive cost over every context: its own plus its calls.
        func inclusive(_ name: String) -> Double { (own[name] ?? 0) + (edges[name]?.values.reduce(0, +) ?? 0) }
        let n = Double(dumps.count)
        let whole = inclusive(root)
        guard whole > 0 else { return nil }
        var folded: [String: Double] = [:]
        func expand(_ name: String, _ path: [String], _ cost: Double) {
            let all = inclusive(name)
            let line = (path + [name]).map { $0.replacingOccurrences(of: ";", with: ":") }.joined(separator: ";")
            // A callee the dumps give no lines of its own (an allocator entry point): its cost stays at its frame.
            guard all > 0 else {
                folded[line, default: 0] += cost
                return
            }
            let share = min(1, cost / all)
            folded[line, default: 0] += (own[name] ?? 0) * share + max(0, cost - all)
            guard path.count < 48 else {
                folded[line, default: 0] += (all - (own[name] ?? 0)) * share
                return
            }
            for (callee, value) in edges[name] ?? [:] {
                let part = value * share
                if path.contains(callee) || callee == name || part < whole * 0.0005 {
                    folded[line, default: 0] += part  // too small or recursive: counted at this frame
                } else {
                    expand(callee, path + [name], part)
                }
            }
        }
        expand(root, [], whole)
        return folded.filter { $0.value > 0 }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(CountProfile.stackLimit)
            .map { CountProfile.Entry(function: $0.key, value: $0.value / n) }
    }

    /// The functions whose own instructions differ between `dumps` (samples of one process), widest range first.
    ///
    /// It shows where a count that varies between samples varies. Nil when every function counted the same in every
    /// dump.
    static func varying(_ dumps: [CallgrindDump], key: (String) -> String?) -> [CountProfile.Entry]? {
        guard dumps.count > 1 else { return nil }
        var low: [String: UInt64] = [:], high: [String: UInt64] = [:], seen: [String: Int] = [:]
        for dump in dumps {
            var own: [String: UInt64] = [:]
            for (name, value) in dump.selfCost { if let name = key(name) { own[name, default: 0] += value } }
            for (name, value) in own {
                low[name] = min(low[name] ?? value, value)
                high[name] = max(high[name] ?? value, value)
                seen[name, default: 0] += 1
            }
        }
        // A function absent from some dumps counted 0 there.
        let ranges = high.compactMap { name, top -> CountProfile.Entry? in
            let bottom = seen[name]! < dumps.count ? 0 : low[name]!
            return top > bottom ? CountProfile.Entry(function: name, value: Double(top - bottom)) : nil
        }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.function < $1.function }
        return ranges.isEmpty ? nil : Array(ranges.prefix(3))
    }

    /// Exclusive instructions per function, summed over `dumps`, with what the profile's exclusive fields need.
    ///
    /// Names are merged as the inclusive list merges them; each function's main caller, the other functions'
    /// instructions and what the count left out are summed too.
    static func exclusiveProfile(_ dumps: [CallgrindDump], key: (String) -> String?) -> ExclusiveSums {
        var sums = ExclusiveSums(samples: dumps.count)
        for dump in dumps {
            sums.counted += dump.totals
            for (name, value) in dump.selfCost {
                sums.raw += value
                if let name = key(name) { sums.own[name, default: 0] += value } else { sums.unnamed += value }
            }
            for (caller, callees) in dump.calls {
                guard let from = key(caller) else { continue }
                for (callee, value) in callees {
                    guard let to = key(callee), to != from else { continue }
                    sums.callers[to, default: [:]][from, default: 0] += value
                }
            }
        }
        return sums
    }

    /// What ``exclusiveProfile(_:key:)`` sums, turned into a profile's exclusive fields.
    struct ExclusiveSums {
        var samples: Int
        var own: [String: UInt64] = [:], callers: [String: [String: UInt64]] = [:]
        var raw: UInt64 = 0, counted: UInt64 = 0, unnamed: UInt64 = 0

        /// Writes the exclusive list, the rest and the left-out instructions.
        ///
        /// The list keeps the largest ``CountProfile/limit`` functions and any other holding at least
        /// ``CountProfile/exclusiveFloor`` of the samples' instructions (at most ``CountProfile/exclusiveLimit``), so a
        /// small function that a change adds or grows by a fraction of a percent is named, not lost among the rest.
        func write(into profile: inout CountProfile) {
            let n = Double(max(1, samples))
            let sorted = own.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            let floor = Double(raw) * CountProfile.exclusiveFloor
            let kept = sorted.enumerated().prefix {
                $0.offset < CountProfile.limit
                    || ($0.offset < CountProfile.exclusiveLimit && Double($0.element.value) >= floor)
            }.count
            let listed = sorted.prefix(kept)
            profile.exclusive = listed.map { name, value in
                let caller = callers[name]?.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
                return CountProfile.Entry(function: name, value: Double(value) / n, caller: caller)
            }
            let rest = sorted.dropFirst(kept).reduce(unnamed) { $0 + $1.value }
            profile.otherExclusive = Double(rest) / n
            profile.leftOut = Double(raw - min(raw, counted)) / n
        }
    }
}
