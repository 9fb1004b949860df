import Foundation
import PerfKit
import Testing

/// A seeded fuzz of the stored formats.
///
/// Run files, baseline folders, number files and noise calibrations, each mutated (bytes flipped, spans cut, duplicated
/// or spliced, numbers replaced by extremes) and read back. Every outcome must be a value or a ``FileError`` naming the
/// file; no crash, no hang, and the input is never modified by reading it.
@Suite struct StoredFormatFuzzTests {
    /// 2,400 in `make test`; a campaign sets `PERFKIT_FUZZ_MUTATIONS` (and `PERFKIT_FUZZ_SEED` for another sequence).
    static let mutations = ProcessInfo.processInfo.environment["PERFKIT_FUZZ_MUTATIONS"].flatMap(Int.init) ?? 2_400
    static let seed = ProcessInfo.processInfo.environment["PERFKIT_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0xF022

    /// Mutates `bytes` in one of several ways chosen by `generator`.
    static func mutate(_ bytes: [UInt8], _ generator: inout SeededGenerator) -> [UInt8] {
        var b = bytes
        guard !b.isEmpty else { return Array("{".utf8) }
        let at = generator.index(below: b.count)
        switch generator.index(below: 7) {
        case 0: b[at] ^= UInt8(1 << generator.index(below: 8))  // flip a bit
        case 1: b.removeSubrange(at..<min(b.count, at + 1 + generator.index(below: 64)))  // cut a span
        case 2: b = Array(b[..<at])  // truncate
        case 3:  // duplicate a span
            let end = min(b.count, at + 1 + generator.index(below: 200))
            b.insert(contentsOf: b[at..<end], at: end)
        case 4:  // replace a number with an extreme
            let extremes = ["1e309", "-0", "NaN", "-1", "99999999999999999999", "0.0", "1e-320", "\"x\"", "null", "[]"]
            if let digit = b[at...].firstIndex(where: { (0x30...0x39).contains($0) }) {
                var end = digit
                while end < b.count, (0x30...0x39).contains(b[end]) || b[end] == 0x2E { end += 1 }
                b.replaceSubrange(digit..<end, with: Array(extremes[generator.index(below: extremes.count)].utf8))
            }
        case 5: b.insert(contentsOf: Array(",\"\\u0000\":{}".utf8), at: at)  // splice garbage
        default:  // swap two bytes far apart
            let other = generator.index(below: b.count)
            b.swapAt(at, other)
        }
        return b
    }

    static func sampleRun() -> RunFile {
        var series = SampleSeries(metric: .wallClock, arm: "main", phase: .warm)
        var mallocs = SampleSeries(metric: .mallocs, arm: "main", phase: .warm)
        for i in 0..<6 {
            series.append(Double(100 + i), round: i / 2, position: i % 2, index: i)
            mallocs.append(3, round: i / 2, position: i % 2, index: i)
        }
        let environment = Environment(
            commit: "c", branch: "b", dirty: false, swiftVersion: "6.3.1", buildConfiguration: "release",
            machine: MachineFingerprint(
                cpuModel: "cpu", cores: 2, kernel: "k", operatingSystem: "os", governor: nil, memoryBytes: 1 << 34),
            allocator: "jemalloc")
        let measurement = MeasurementResult(
            name: "m", arms: ["main"], order: [[0]], series: [series, mallocs], unavailable: [])
        return RunFile(
            date: Date(timeIntervalSince1970: 0), mode: "measure", environment: environment,
            tests: [TestResult(id: "S/t()", suite: "S", measurements: [measurement])])
    }

    @Test func mutatedStoredFilesGiveAValueOrAnErrorNamingTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "perfkit-fuzz-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = BaselineStore(root: directory + "/Baselines")
        try store.save(Self.sampleRun(), as: "main")
        let suitePath = directory + "/Baselines/main/S.json"
        let manifestPath = directory + "/Baselines/main/manifest.json"
        let seeds: [(name: String, original: [UInt8], read: (String) throws -> Void)] = [
            (
                "run.json", [UInt8](try StoredFile.encode(Self.sampleRun(), for: "run.json")),
                { path in _ = try RunFile.read(from: path) }
            ),
            (
                "S.json", [UInt8](try #require(FileManager.default.contents(atPath: suitePath))),
                { _ in _ = try store.load("main") }
            ),
            (
                "manifest.json", [UInt8](try #require(FileManager.default.contents(atPath: manifestPath))),
                { _ in _ = try store.load("main") }
            ),
            ("numbers.txt", Array("# samples\n1\n2.5\n3e2\n\n4\n".utf8), { path in _ = try NumberFile.read(path) }),
        ]
        var generator = SeededGenerator(seed: Self.seed)
        var accepted = 0
        var refused = 0
        var unnamed: [String] = []
        var modified = 0
        for n in 0..<Self.mutations {
            let seed = seeds[n % seeds.count]
            let path =
                seed.name == "S.json"
                ? suitePath : seed.name == "manifest.json" ? manifestPath : "\(directory)/\(seed.name)"
            var mutated = Self.mutate(seed.original, &generator)
            if generator.index(below: 4) == 0 { mutated = Self.mutate(mutated, &generator) }  // sometimes two mutations
            try Data(mutated).write(to: URL(fileURLWithPath: path))
            do {
                try seed.read(path)
                accepted += 1
            } catch let error as FileError {
                refused += 1
                if !error.path.hasPrefix(directory) || error.description.contains("\n") {
                    unnamed.append(error.description)
                }
            } catch {
                unnamed.append("\(seed.name): \(error)")
            }
            if FileManager.default.contents(atPath: path) != Data(mutated) { modified += 1 }
            if seed.name == "S.json" || seed.name == "manifest.json" {
                try Data(seed.original).write(to: URL(fileURLWithPath: path))
            }
        }
        #expect(accepted + refused == Self.mutations)
        #expect(refused > Self.mutations / 2, "most mutations must be refused: \(refused) of \(Self.mutations)")
        #expect(unnamed.isEmpty, "errors not naming the file: \(unnamed.prefix(3))")
        #expect(modified == 0)
    }
}
