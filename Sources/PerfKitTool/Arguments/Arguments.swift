/// A usage error: exit status 2 and a one-line message.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Command-line arguments parsed into plain values against a declared set of options.
///
/// Options take a value (`--output FILE` or `--output=FILE`); flags take none. An option or
/// flag that is not declared is a usage error.
struct Arguments {
    /// The verb the arguments were parsed against.
    let verb: Verb
    private(set) var positionals: [String] = []
    private(set) var options: [String: String] = [:]
    private(set) var flags: Set<String> = []

    /// Parses `arguments` against a verb's declared options and flags (``Verb/all``).
    /// - Throws: ``HelpRequested`` for `--help` or `-h`; ``UsageError`` for an unknown option
    ///   (with the nearest declared name) or a missing value.
    init(_ arguments: [String], verb name: String) throws {
        guard let verb = Verb.named(name) else { throw UsageError("internal: verb '\(name)' is not declared") }
        self.verb = verb
        let allowedOptions = verb.optionNames, allowedFlags = verb.flagNames
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
            if allowedFlags.contains(name) {
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if allowedOptions.contains(name) {
                if let inlineValue {
                    options[name] = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("--\(name) needs a value") }
                    options[name] = arguments[index]
                    index += 1
                }
            } else {
                let suggestion = nearest(name, in: allowedOptions.union(allowedFlags)).map { "; did you mean --\($0)?" } ?? ""
                throw UsageError("unknown option --\(name) for perfkit \(verb.name)\(suggestion) (perfkit \(verb.name) --help lists them)")
            }
        }
    }

    /// The value of an option an action cannot do without.
    func required(_ name: String, for action: String) throws -> String {
        let placeholder = verb.options.first { $0.name == name }?.value.map { " " + $0 } ?? ""
        guard let value = options[name] else { throw UsageError("perfkit \(verb.name) \(action) needs --\(name)\(placeholder) (perfkit \(verb.name) --help)") }
        return value
    }

    /// The value of an integer option, or `defaultValue`.
    func integer(_ name: String, default defaultValue: Int, range: ClosedRange<Int> = 1...1_000_000) throws -> Int {
        guard let raw = options[name] else { return defaultValue }
        guard let value = Int(raw), range.contains(value) else {
            throw UsageError("--\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), not '\(raw)'")
        }
        return value
    }

    /// The value of a floating-point option, or `defaultValue`.
    func double(_ name: String, default defaultValue: Double) throws -> Double {
        guard let raw = options[name] else { return defaultValue }
        guard let value = Double(raw), value.isFinite else { throw UsageError("--\(name) must be a number, not '\(raw)'") }
        return value
    }

    /// The value of an option restricted to `choices`, or `defaultValue`.
    func choice(_ name: String, _ choices: [String], default defaultValue: String) throws -> String {
        guard let raw = options[name] else { return defaultValue }
        guard choices.contains(raw) else { throw UsageError("--\(name) must be one of \(choices.joined(separator: ", ")), not '\(raw)'") }
        return raw
    }

    /// Requires `count` positional arguments; the usage error shows the verb's declared usage.
    func requirePositionals(_ count: ClosedRange<Int>) throws {
        guard count.contains(positionals.count) else { throw UsageError("usage: \(verb.usage)") }
    }
}
