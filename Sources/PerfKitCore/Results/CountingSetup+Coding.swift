import Foundation

/// How a setup is stored: each field by its identifier (`pinned`, `aslrOff`), never by the phrase a report shows.
extension CountingSetup {
    private enum CodingKeys: String, CodingKey {
        case counter, processes, samplesPerArmAndPhase, heap, uncounted, processSettings, checks, recordedSentence
    }

    /// Writes the setup's fields by identifier, or an unknown older setup as the sentence it was recorded as.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        if let recordedSentence {
            var single = encoder.singleValueContainer()
            try single.encode(recordedSentence)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(counter, forKey: .counter)
        try container.encode(samplesPerArmAndPhase, forKey: .samplesPerArmAndPhase)
        try container.encode(heap, forKey: .heap)
        try container.encode(UncountedWork.allCases.filter(uncounted.contains), forKey: .uncounted)
        try container.encode(ProcessSetting.allCases.filter(processSettings.contains), forKey: .processSettings)
        try container.encode(checks, forKey: .checks)
    }

    /// Reads a setup: its fields by identifier, schema 7's phrases, or an older run file's sentence.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when it is none of these.
    public init(from decoder: any Decoder) throws {
        // Not a string: the keyed form below.
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = Self.known.first { $0.sentence == text } ?? Self(recorded: text)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let samples = try container.decode(Int.self, forKey: .samplesPerArmAndPhase)
        if let sentence = try container.decodeIfPresent(String.self, forKey: .recordedSentence) {
            self.init(recorded: sentence)
            return
        }
        let counter = try container.decode(String.self, forKey: .counter)
        let heap = try container.decode(String.self, forKey: .heap)
        let uncounted = try container.decode([String].self, forKey: .uncounted)
        let settings = try container.decode([String].self, forKey: .processSettings)
        let checks = try container.decode(String.self, forKey: .checks)
        guard let typedCounter = Self.read(counter, Counter.self, \.phrase),
            let typedHeap = Self.read(heap, Heap.self, \.phrase),
            let typedUncounted = Self.readAll(uncounted, UncountedWork.self, \.phrase),
            let typedSettings = Self.readAll(settings, ProcessSetting.self, \.phrase),
            let typedChecks = Self.read(checks, CheckPlacement.self, \.phrase)
        else {
            // A schema-7 setup whose phrases this PerfKit does not know: kept as its sentence, another setup.
            let processes = try container.decodeIfPresent(String.self, forKey: .processes) ?? ""
            let parts =
                [counter, processes, "\(samples) samples per arm and phase", heap] + uncounted + settings + [checks]
            self.init(recorded: parts.joined(separator: ", "))
            return
        }
        self.init(
            counter: typedCounter, samplesPerArmAndPhase: samples, heap: typedHeap, uncounted: typedUncounted,
            processSettings: typedSettings, checks: typedChecks)
    }

    /// An older setup known only by its sentence.
    init(recorded text: String) {
        self.init(samplesPerArmAndPhase: 0, heap: .unpinned, uncounted: [], processSettings: [], checks: .heapShifted)
        recordedSentence = text
    }

    /// The case `text` names by identifier, or by the phrase schema 7 stored.
    private static func read<T: RawRepresentable & CaseIterable>(
        _ text: String, _ type: T.Type, _ phrase: (T) -> String
    ) -> T? where T.RawValue == String {
        T(rawValue: text) ?? T.allCases.first { phrase($0) == text }
    }

    /// The cases `texts` name, or nil when one names none.
    private static func readAll<T: RawRepresentable & CaseIterable & Hashable>(
        _ texts: [String], _ type: T.Type, _ phrase: (T) -> String
    ) -> Set<T>? where T.RawValue == String {
        let read = texts.compactMap { Self.read($0, type, phrase) }
        return read.count == texts.count ? Set(read) : nil
    }
}
