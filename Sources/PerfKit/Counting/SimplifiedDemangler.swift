import Foundation

/// Swift symbol names demangled in process, in the simplified form `swift demangle --simplified` prints.
///
/// Through the toolchain's own `libswiftDemangle.so` (`swift_demangle_getSimplifiedDemangledName`, the function
/// `swift demangle --simplified` calls), loaded from beside the `swift` on `PATH`: the names match the tool's
/// byte for byte, without a process per batch. Where the library cannot be loaded (a toolchain without it) the
/// `swift demangle` process is asked instead, as before.
package enum SimplifiedDemangler {
    private typealias Simplify = @convention(c) (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>?, Int) -> Int

    /// The library's entry point, looked up once; nil when the toolchain has no such library.
    private static let simplify: Simplify? = {
        guard let library = library(), let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL),
            let symbol = dlsym(handle, "swift_demangle_getSimplifiedDemangledName")
        else { return nil }
        return unsafeBitCast(symbol, to: Simplify.self)
    }()

    /// `usr/lib/libswiftDemangle.so` of the toolchain whose `swift` is first on `PATH`.
    package static func library() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        for folder in path.split(separator: ":") {
            let swift = "\(folder)/swift"
            guard FileManager.default.isExecutableFile(atPath: swift) else { continue }
            let real = URL(fileURLWithPath: swift).resolvingSymlinksInPath()
            let library = real.deletingLastPathComponent().deletingLastPathComponent().path + "/lib/libswiftDemangle.so"
            return FileManager.default.fileExists(atPath: library) ? library : nil
        }
        return nil
    }

    /// Whether names are demangled in process (the toolchain's library was found).
    package static var isInProcess: Bool { simplify != nil }

    /// Swift names (`$s…`) demangled; other names are left out of the result (they stay as they are).
    package static func demangle(_ names: [String]) -> [String: String] {
        let swift = names.filter { $0.hasPrefix("$s") || $0.hasPrefix("_$s") }
        guard let simplify else { return demangledByTheTool(swift) }
        var result: [String: String] = [:]
        var buffer = [CChar](repeating: 0, count: 4_096)
        for name in swift {
            var length = name.withCString { simplify($0, &buffer, buffer.count) }
            if length >= buffer.count {
                buffer = [CChar](repeating: 0, count: length + 1)
                length = name.withCString { simplify($0, &buffer, buffer.count) }
            }
            // 0: not a name the demangler reads; the tool prints such a name as it is.
            guard length > 0 else { continue }
            result[name] = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
        return result
    }

    /// Through `swift demangle --simplified --compact`, in batches (a toolchain without the library).
    package static func demangledByTheTool(_ swift: [String]) -> [String: String] {
        var result: [String: String] = [:]
        var start = 0
        while start < swift.count {
            let batch = Array(swift[start..<min(start + 400, swift.count)])
            start += batch.count
            guard let text = ChildProcess.output(["swift", "demangle", "--simplified", "--compact"] + batch) else {
                continue
            }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count == batch.count else { continue }
            for (name, line) in zip(batch, lines) { result[name] = String(line) }
        }
        return result
    }
}
