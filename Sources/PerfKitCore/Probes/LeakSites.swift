import CAllocationHooks
import Glibc

/// Where the allocations a call kept were made.
///
/// The stacks jemalloc's hooks recorded for the blocks still live when an exact-count window closed
/// (``ExactAllocationCounter/Window``), each named by its first frame outside the allocator, and those
/// libdispatch keeps in its own cache.
public struct LeakSites: Sendable, Equatable {
    /// Kept blocks per allocating function (demangled), most first.
    public var sites: [(function: String, count: Int)]
    /// Kept blocks that libdispatch allocated inside `dispatch_async` (its continuations, which a queue's
    /// thread keeps in a cache of up to 1,024).
    ///
    /// The runtime's, not a leak of the body.
    public var keptByDispatch: Int

    /// Equal when the same functions kept the same counts.
    public static func == (a: LeakSites, b: LeakSites) -> Bool {
        a.keptByDispatch == b.keptByDispatch && a.sites.elementsEqual(b.sites) { $0 == $1 }
    }

    /// Functions that only pass an allocation on: the site is the first frame past them.
    static let allocators = DumpCount.allocatorEntryPoints.union(["_Block_copy", "swift_task_alloc"])
    /// libdispatch's entry points whose continuation allocation its cache keeps.
    static let dispatchEntries: Set<String> = [
        "dispatch_async", "dispatch_async_f", "dispatch_group_async", "dispatch_group_async_f",
        "dispatch_barrier_async", "dispatch_barrier_async_f",
    ]

    /// Classifies stacks of `frames` return addresses each (zero-padded).
    init(stacks: [[UnsafeRawPointer]]) {
        var counts: [String: Int] = [:]
        var dispatch = 0
        for stack in stacks {
            let named = stack.compactMap(Self.symbolize)
            let site = named.first { name in
                !Self.allocators.contains(name.symbol) && !name.library.contains("libjemalloc")
                    && !name.library.contains("libc.so")
            }
            if let site, site.library.contains("libdispatch"),
                named.contains(where: { Self.dispatchEntries.contains($0.symbol) })
            {
                dispatch += 1
                continue
            }
            var function = site.map { Self.short($0.symbol) } ?? "an unnamed frame"
            if let site, let index = named.firstIndex(where: { $0.symbol == site.symbol }), index + 1 < named.count,
                function.contains("__allocating_init")
            {
                function += " ← " + Self.short(named[index + 1].symbol)
            }
            counts[function, default: 0] += 1
        }
        sites = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
        keptByDispatch = dispatch
    }

    /// A symbol demangled, without its return type, an async function's piece named after the
    /// function: `Module.Type.f(_:)`.
    static func short(_ symbol: String) -> String {
        var name = symbol.demangledSwiftName
        // An async function's pieces are named after it: "(1) suspend resume partial function for f()".
        if name.hasPrefix("("), let range = name.range(of: " partial function for ") {
            name = String(name[range.upperBound...])
        }
        return name.range(of: " -> ").map { String(name[..<$0.lowerBound]) } ?? name
    }

    /// The function an address is in (its exported symbol, else the library's own symbol table), and its
    /// library.
    ///
    /// Nil when the address is in no loaded object.
    static func symbolize(_ address: UnsafeRawPointer) -> (symbol: String, library: String)? {
        var symbol: UnsafePointer<CChar>?
        var library: UnsafePointer<CChar>?
        var base: UnsafeRawPointer?
        guard perfkit_symbol_of(address, &symbol, &library, &base) != 0, let library else { return nil }
        let path = String(cString: library)
        if let symbol { return (String(cString: symbol), path) }
        let offset = UInt64(UInt(bitPattern: address) &- UInt(bitPattern: base))
        if let local = ElfSymbols.function(containing: offset, in: path) { return (local, path) }
        return ("\(path.split(separator: "/").last ?? "")+0x\(String(offset, radix: 16))", path)
    }

    #if Jemalloc && os(Linux) && !Portable
    /// The stacks of the blocks still live after `perfkit_hooks_end`; nil when they overflowed.
    static func outstanding(limit: Int = 256) -> [[UnsafeRawPointer]]? {
        let depth = Int(PERFKIT_HOOK_FRAMES)
        var frames = [UnsafeMutableRawPointer?](repeating: nil, count: limit * depth)
        let count = Int(perfkit_hooks_outstanding(&frames, Int32(limit)))
        guard count >= 0 else { return nil }
        return (0..<count).map { entry in
            frames[entry * depth..<(entry + 1) * depth].compactMap { $0.map(UnsafeRawPointer.init) }
        }
    }
    #endif
}

@_silgen_name("swift_demangle")
private func swiftDemangle(
    _ name: UnsafePointer<CChar>?, _ length: UInt, _ buffer: UnsafeMutablePointer<CChar>?,
    _ size: UnsafeMutablePointer<UInt>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

extension String {
    /// A Swift symbol demangled by the runtime (`$s…` → `Module.function(_:)`), or the name as it is.
    var demangledSwiftName: String {
        guard hasPrefix("$s") || hasPrefix("_T") else { return self }
        guard let demangled = withCString({ swiftDemangle($0, UInt(utf8.count), nil, nil, 0) }) else { return self }
        defer { free(demangled) }
        return String(cString: demangled)
    }
}
