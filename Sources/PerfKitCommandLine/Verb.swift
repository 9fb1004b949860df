/// A verb of a tool: its positional arguments, options and flags (each with help text) and what it
/// runs. A tool's verbs are one ``VerbTable``.
package struct Verb: Sendable {
    /// The tool's name, for usage lines (`perfkit`); set by the ``VerbTable`` the verb is in.
    package var tool = ""
    package var name: String
    /// What the verb does with its arguments (after the verb): returns the exit status.
    package var run: @Sendable ([String]) throws -> Int32
    /// Positional arguments as shown in usage, for example `BASELINE` or `REV_A REV_B`.
    package var positionals: String
    package var summary: String
    package var options: [Option]
    /// The help's last line: what the exit statuses mean; set by the ``VerbTable``.
    package var exitStatus = ""

    /// A verb.
    package init(
        name: String, run: @escaping @Sendable ([String]) throws -> Int32, positionals: String, summary: String,
        options: [Option]
    ) {
        self.name = name
        self.run = run
        self.positionals = positionals
        self.summary = summary
        self.options = options
    }

    /// The declared option (or flag) that `name` spells, deprecated aliases included.
    package func option(named name: String) -> Option? {
        options.first { $0.name == name || $0.deprecatedAliases.contains(name) }
    }

    /// `TOOL NAME POSITIONALS [--option VALUE] [--flag]`.
    package var usage: String {
        ([tool, name, positionals].filter { !$0.isEmpty }
            + options.map { "[--\($0.name)\($0.value.map { " " + $0 } ?? "")]" }).joined(separator: " ")
    }

    /// The text `TOOL NAME --help` prints.
    package var help: String {
        var lines = ["usage: \(usage)", "", summary]
        if !options.isEmpty {
            lines.append("")
            let width =
                options.map { (option: Option) -> Int in
                    let value: Int = option.value.map { $0.count + 1 } ?? 0
                    return 2 + option.name.count + value
                }.max() ?? 0
            for option in options {
                let value: String = option.value.map { " " + $0 } ?? ""
                let left: String = "--" + option.name + value
                let aliases = option.deprecatedAliases.map { " (--\($0) still works, deprecated)" }.joined()
                lines.append(
                    "  " + left.padding(toLength: width + 2, withPad: " ", startingAt: 0) + option.help + aliases)
            }
        }
        lines += ["", exitStatus]
        return lines.joined(separator: "\n")
    }
}

/// A tool's verbs, declared once.
package struct VerbTable: Sendable {
    /// The tool's name.
    package var tool: String
    /// Its verbs, in help order.
    package var verbs: [Verb]

    /// A table: each verb gets the tool's name and the meaning of its exit statuses.
    package init(tool: String, exitStatus: String, verbs: [Verb]) {
        self.tool = tool
        self.verbs = verbs.map { verb in
            var verb = verb
            verb.tool = tool
            verb.exitStatus = exitStatus
            return verb
        }
    }

    /// The verb called `name`.
    package func named(_ name: String) -> Verb? { verbs.first { $0.name == name } }

    /// The overview `TOOL --help` prints.
    package var overview: String {
        let width = verbs.map(\.name.count).max() ?? 0
        return
            (["usage: \(tool) <verb> [arguments]   (\(tool) <verb> --help for its options)", ""]
            + verbs.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary })
            .joined(separator: "\n")
    }
}

/// `TOOL VERB --help`: not an error; the caller prints the verb's help and exits 0.
package struct HelpRequested: Error {
    package var verb: Verb
    package init(verb: Verb) { self.verb = verb }
}

/// A usage error: exit status 2 and a one-line message.
package struct UsageError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// The nearest of `candidates` to `word` by edit distance, when it is close enough to be a typo.
package func nearest(_ word: String, in candidates: some Sequence<String>) -> String? {
    func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
    let scored = candidates.map { ($0, distance(Array(word), Array($0))) }.min { $0.1 < $1.1 }
    guard let (best, d) = scored, d <= max(2, word.count / 3) else { return nil }
    return best
}
