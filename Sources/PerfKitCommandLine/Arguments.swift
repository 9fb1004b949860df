/// Command-line arguments parsed into plain values against a verb's declared options.
///
/// Options take a value (`--output FILE` or `--output=FILE`); flags take none. An option or flag
/// that is not declared is a usage error. Values are looked up by their declared ``Option``
/// (`parsed[.output]`, `parsed.has(.force)`), never by a string.
package struct Arguments {
    /// The verb the arguments were parsed against.
    package let verb: Verb
    package private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` against `verb`'s declared options and flags.
    /// - Throws: ``HelpRequested`` for `--help` or `-h`; ``UsageError`` for an unknown option
    ///   (with the nearest declared name) or a missing value.
    package init(_ arguments: [String], verb: Verb) throws {
        self.verb = verb
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { throw HelpRequested(verb: verb) }
            guard argument.hasPrefix("--"), argument.count > 2 else {
                positionals.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = verb.option(named: name) else {
                // Near an old spelling, the suggestion is the current one.
                let spellings = verb.options.flatMap { option in
                    ([option.name] + option.deprecatedAliases).map { ($0, option.name) }
                }
                let suggestion =
                    nearest(name, in: spellings.map(\.0)).flatMap { near in spellings.first { $0.0 == near }?.1 }.map {
                        "; did you mean --\($0)?"
                    } ?? ""
                throw UsageError(
                    "unknown option --\(name) for \(verb.tool) \(verb.name)\(suggestion) (\(verb.tool) \(verb.name) "
                        + "--help lists them)"
                )
            }
            if option.isFlag {
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(option.name)
            } else if let inlineValue {
                values[option.name] = inlineValue
            } else {
                guard index < arguments.count else { throw UsageError("--\(name) needs a value") }
                values[option.name] = arguments[index]
                index += 1
            }
        }
    }

    /// Parses `arguments` against the verb of `table` called `name`.
    package init(_ arguments: [String], verb name: String, of table: VerbTable) throws {
        guard let verb = table.named(name) else { throw UsageError("internal: verb '\(name)' is not declared") }
        try self.init(arguments, verb: verb)
    }

    /// The value given for `option`, if any.
    package subscript(_ option: Option) -> String? { values[option.name] }

    /// Whether `flag` was given.
    package func has(_ flag: Option) -> Bool { flags.contains(flag.name) }

    /// The value of an option an action cannot do without.
    package func required(_ option: Option, for action: String) throws -> String {
        let placeholder = option.value.map { " " + $0 } ?? ""
        guard let value = self[option] else {
            let doing = action.isEmpty ? "" : " \(action)"
            throw UsageError(
                "\(verb.tool) \(verb.name)\(doing) needs --\(option.name)\(placeholder) "
                    + "(\(verb.tool) \(verb.name) --help)"
            )
        }
        return value
    }

    /// The value of an integer option, or `defaultValue`.
    package func integer(_ option: Option, default defaultValue: Int, range: ClosedRange<Int> = 1...1_000_000) throws
        -> Int
    {
        guard let raw = self[option] else { return defaultValue }
        guard let value = Int(raw), range.contains(value) else {
            throw UsageError(
                "--\(option.name) must be an integer in \(range.lowerBound)...\(range.upperBound), not '\(raw)'")
        }
        return value
    }

    /// The value of an integer option, or nil when it was not given.
    package func integer(_ option: Option, range: ClosedRange<Int> = 1...1_000_000) throws -> Int? {
        guard self[option] != nil else { return nil }
        return try integer(option, default: 0, range: range)
    }

    /// The value of a floating-point option, or `defaultValue`.
    package func double(_ option: Option, default defaultValue: Double) throws -> Double {
        guard let raw = self[option] else { return defaultValue }
        guard let value = Double(raw), value.isFinite else {
            throw UsageError("--\(option.name) must be a number, not '\(raw)'")
        }
        return value
    }

    /// The value of an option restricted to `choices`, or `defaultValue`.
    package func choice(_ option: Option, _ choices: [String], default defaultValue: String) throws -> String {
        guard let raw = self[option] else { return defaultValue }
        guard choices.contains(raw) else {
            throw UsageError("--\(option.name) must be one of \(choices.joined(separator: ", ")), not '\(raw)'")
        }
        return raw
    }

    /// Requires `count` positional arguments; the usage error shows the verb's declared usage.
    package func requirePositionals(_ count: ClosedRange<Int>) throws {
        guard count.contains(positionals.count) else { throw UsageError("usage: \(verb.usage)") }
    }
}
