import Glibc
import Synchronization

/// Function names from an ELF file's own symbol table (`.symtab`).
///
/// What `dladdr` cannot name in an executable, whose functions are not exported (a test bundle's Swift
/// functions). Read with `mmap`, scanned per lookup, names cached; a stripped file names nothing.
enum ElfSymbols {
    /// Names found so far, by library and offset. Shared by every thread that names a leak.
    private static let cache = Mutex<[String: String?]>([:])

    /// The function symbol whose range holds `offset` (from the file's load address), or nil.
    static func function(containing offset: UInt64, in path: String) -> String? {
        let key = "\(path)\u{1}\(offset)"
        if let known = cache.withLock({ $0[key] }) { return known }
        let found = scan(path, offset)
        cache.withLock { $0[key] = .some(found) }
        return found
    }

    /// Reads `path`'s section headers and walks its `SHT_SYMTAB` for a `STT_FUNC` holding `offset`.
    private static func scan(_ path: String, _ offset: UInt64) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 64 else { return nil }
        let size = Int(status.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            return nil
        }
        defer { munmap(mapped, size) }
        let file = UnsafeRawBufferPointer(start: mapped, count: size)
        func u16(_ at: Int) -> Int { Int(file.loadUnaligned(fromByteOffset: at, as: UInt16.self)) }
        func u32(_ at: Int) -> Int { Int(file.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
        func u64(_ at: Int) -> UInt64 { file.loadUnaligned(fromByteOffset: at, as: UInt64.self) }
        // ELF64, little-endian only (x86_64 and arm64 Linux).
        guard file[0] == 0x7F, file[1] == 0x45, file[4] == 2, file[5] == 1 else { return nil }
        let sections = Int(u64(0x28)), entrySize = u16(0x3A), count = u16(0x3C)
        guard sections > 0, entrySize >= 64, sections + entrySize * count <= size else { return nil }
        for index in 0..<count {
            let header = sections + index * entrySize
            guard u32(header + 4) == 2 else { continue }  // SHT_SYMTAB
            let table = Int(u64(header + 0x18)), tableSize = Int(u64(header + 0x20))
            let strings = sections + u32(header + 0x28) * entrySize
            let names = Int(u64(strings + 0x18)), namesSize = Int(u64(strings + 0x20))
            guard table + tableSize <= size, names + namesSize <= size else { return nil }
            for symbol in stride(from: table, to: table + tableSize - 23, by: 24) {
                guard file[symbol + 4] & 0xF == 2 else { continue }  // STT_FUNC
                let start = u64(symbol + 8), length = u64(symbol + 16)
                guard start <= offset, offset < start &+ length else { continue }
                let name = names + u32(symbol)
                guard name < names + namesSize else { return nil }
                return String(cString: mapped.assumingMemoryBound(to: CChar.self) + name)
            }
        }
        return nil
    }
}
