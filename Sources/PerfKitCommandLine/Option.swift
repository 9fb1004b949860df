/// An option (`--output FILE`, with a value) or a flag (`--force`, without), declared once as a constant and used by
/// name nowhere else.
///
/// The parser, `--help`, suggestions, README's table and every command's lookups (`parsed[.output]`) all go through the
/// constant.
///
/// Two options are the same option when their names are; a verb may give one its own help text
/// (``help(_:)``) or its own placeholder (``value(_:help:)``).
package struct Option: Sendable, Hashable {
    /// The name without its dashes (`output`).
    package var name: String
    /// The value's placeholder (`FILE`, `N`); nil for a flag.
    package var value: String?
    /// One line of help.
    package var help: String
    /// A replacement name that still parses (``deprecated(_:)``): the old spelling of a renamed option.
    package var deprecatedAliases: [String] = []

    /// An option with a value.
    package init(_ name: String, value: String, help: String) {
        self.name = name
        self.value = value
        self.help = help
    }

    /// A flag.
    package init(flag name: String, help: String) {
        self.name = name
        self.value = nil
        self.help = help
    }

    /// Whether it takes no value.
    package var isFlag: Bool { value == nil }

    /// The same option with a verb's own help text.
    package func help(_ text: String) -> Option {
        var copy = self
        copy.help = text
        return copy
    }

    /// The same option with a verb's own placeholder and help text.
    package func value(_ placeholder: String, help text: String) -> Option {
        var copy = self
        copy.value = placeholder
        copy.help = text
        return copy
    }

    /// The same option, also accepted under an old name (shown in help as deprecated).
    package func deprecated(_ alias: String) -> Option {
        var copy = self
        copy.deprecatedAliases.append(alias)
        return copy
    }

    package static func == (a: Option, b: Option) -> Bool { a.name == b.name }
    package func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
