/// One line of a callgrind dump that a reader uses.
package enum CallgrindLine: Sendable, Equatable {
    /// `fn=`: the function whose costs follow, its compressed name resolved.
    case function(Substring)
    /// `cfn=`: the function the next call goes to, its compressed name resolved.
    case callee(Substring)
    /// `calls=N …`: the next cost line is N calls' inclusive cost.
    case calls(UInt64)
    /// A cost line (its position first: a number, or `+N`, `-N`, `*`): its `Ir`, or nil when it names none.
    case cost(UInt64?)
    /// `totals:` the dump's whole count.
    case totals(UInt64)
    /// `summary:` the dump's count when it has no `totals:` line.
    case summary(UInt64)
}

/// The callgrind format's one tokenizer: a dump's text as the lines its readers use, in one pass.
///
/// Compressed names (`(id) name` defines, `(id)` refers) are resolved here, once for every reader
/// (``DumpCount``, `CallgrindDump`, ``SimulatedCounter/totals(ofText:)``). Lines no reader uses
/// (`fl=`, `ob=`, positions, headers) are skipped.
package struct CallgrindTokens: Sequence, IteratorProtocol {
    private var lines: IndexingIterator<[Substring]>
    private var names: [Substring: Substring] = [:]

    /// The tokens of a dump's text.
    /// - Parameter text: The dump's content.
    package init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: true).makeIterator()
    }

    /// The next line a reader uses, or nil at the end of the text.
    package mutating func next() -> CallgrindLine? {
        while let line = lines.next() {
            if let token = token(line) { return token }
        }
        return nil
    }

    private mutating func token(_ line: Substring) -> CallgrindLine? {
        guard let first = line.first else { return nil }
        if first.isNumber || first == "+" || first == "-" || first == "*" {
            let fields = line.split(separator: " ", maxSplits: 2)
            return .cost(fields.count > 1 ? UInt64(fields[1]) : nil)
        }
        if line.hasPrefix("fn=") { return .function(resolve(line.dropFirst(3))) }
        if line.hasPrefix("cfn=") { return .callee(resolve(line.dropFirst(4))) }
        if line.hasPrefix("calls=") { return .calls(UInt64(line.dropFirst(6).prefix { $0.isNumber }) ?? 0) }
        if line.hasPrefix("totals:") { return Self.figure(line).map { .totals($0) } }
        if line.hasPrefix("summary:") { return Self.figure(line).map { .summary($0) } }
        return nil
    }

    /// "(id) name" defines a compressed name, "(id)" refers to it, anything else is a plain name.
    private mutating func resolve(_ value: Substring) -> Substring {
        guard value.hasPrefix("("), let close = value.firstIndex(of: ")") else { return value }
        let id = value[...close]
        let name = value[value.index(after: close)...].drop { $0 == " " }
        if name.isEmpty { return names[id] ?? id }
        names[id] = name
        return name
    }

    /// The number after a `totals:` or `summary:` key.
    private static func figure(_ line: Substring) -> UInt64? {
        let fields = line.split(separator: " ")
        return fields.count >= 2 ? UInt64(fields[1]) : nil
    }
}
