import Foundation

/// A sample's count from its callgrind dump: the dump's `totals:` less the calls into the Swift
/// runtime's metadata-cache table work (``uncountedCalls``). The one reading of a sample's count:
/// the test process reads it after each region, the orchestrator for its placement trials and
/// profiles (``CallgrindDump``).
///
/// Why subtracted, not switched off: callgrind's `--toggle-collect` flips collection at a
/// function's entry and exit, so a toggled function called inside another one turns collection
/// back on. The cache's `getOrInsert` calls the snapshot `find` that is already toggled off
/// (``CountingRun/uncountedRuntimeProbes``), so toggling it too would count that find again.
/// Subtracting a call's inclusive cost, as the dump records it, has no such nesting.
package enum DumpCount {
    /// Functions whose calls (from a function that is not one of them) a count leaves out, as
    /// callgrind names them (glob patterns, `*` any run of characters): the generic metadata cache's
    /// `getOrInsert`, which probes the process-wide table, inserts the entry when it is new and grows
    /// the table when it is full. Its cost follows what the harness's threads put in that table
    /// first, in an order thread scheduling picks; instantiating the metadata happens outside it
    /// and stays counted. Measured (2026-12-03, two counting runs of one calendar binary): of the
    /// only samples apart, the two cold reference arms' first samples, the scroll's 1,176 instructions
    /// were all in this function and the key comparisons it calls, and 112 of the artwork's 272 (the
    /// other 160 in `TestSlowdown`'s first read of the environment, see ``TestSlowdown/prepare()``).
    package static let uncountedCalls = [
        "std::pair<* swift::StableAddressConcurrentReadableHashMap<*>::getOrInsert<*"
    ]

    /// Whether `name` (callgrind's, C++ names demangled) is one of ``uncountedCalls``.
    package static func isUncounted(_ name: String) -> Bool {
        uncountedCalls.contains { fnmatch($0, name, 0) == 0 }
    }

    /// The count of a dump's text: `totals:` (else `summary:`), less the inclusive cost of every
    /// call from a counted function into an uncounted one; nil when the text has no total.
    /// - Complexity: O(n) in the text's length, one pass.
    package static func instructions(ofText text: String) -> UInt64? {
        var total: UInt64?, summary: UInt64?
        var names: [Substring: Substring] = [:]
        var uncounted: [Substring: Bool] = [:]
        var callerUncounted = false, calleeUncounted = false, nextIsCall = false
        var subtracted: UInt64 = 0
        // "(id) name" defines a compressed name, "(id)" refers to it, anything else is a plain name.
        func verdict(_ value: Substring) -> Bool {
            var name = value
            if value.hasPrefix("("), let close = value.firstIndex(of: ")") {
                let id = value[..<close]
                name = value[value.index(after: close)...].drop { $0 == " " }
                if name.isEmpty { name = names[id] ?? id } else { names[id] = name }
            }
            if let known = uncounted[name] { return known }
            let result = isUncounted(String(name))
            uncounted[name] = result
            return result
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("fn=") {
                callerUncounted = verdict(line.dropFirst(3))
            } else if line.hasPrefix("cfn=") {
                calleeUncounted = verdict(line.dropFirst(4))
            } else if line.hasPrefix("calls=") {
                nextIsCall = true
            } else if line.hasPrefix("totals:") || line.hasPrefix("summary:") {
                // `totals:` when the dump has one, else `summary:` (SimulatedCounter's reading of one line).
                let value = SimulatedCounter.totals(ofText: String(line))
                if line.hasPrefix("totals:") { total = value } else { summary = value }
            } else if nextIsCall, let first = line.first, first.isNumber || first == "+" || first == "-" || first == "*"
            {
                nextIsCall = false
                let fields = line.split(separator: " ")
                if calleeUncounted && !callerUncounted, fields.count > 1, let cost = UInt64(fields[1]) {
                    subtracted += cost
                }
            }
        }
        guard let counted = total ?? summary else { return nil }
        return counted - min(counted, subtracted)
    }

    /// The count of the dump at `path` (``instructions(ofText:)``), or nil when it cannot be read.
    package static func instructions(ofDump path: String) -> UInt64? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return instructions(ofText: String(decoding: data, as: UTF8.self))
    }
}
