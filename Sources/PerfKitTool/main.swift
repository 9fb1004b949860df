import PerfKitCommandLine

/// The `perfkit` command.
///
/// Parses the verb and its arguments, calls the library, sets the exit status: 0 fine, 1 a regression under `--fail-on
/// regression`, 2 usage or bad input, 3 a build or a measured process failed.
ToolMain.run(
    .perfkit,
    enter: { arguments in
        guard let name = arguments.first, PackageRoot.verbs.contains(name) else { return arguments }
        return PackageRoot.enter(arguments)
    },
    moved: [
        "demo": "perfkit demo moved to its own tool: make demo (or swift run -c release calendar-demo demo)",
        "calendar": "perfkit calendar moved to its own tool: swift run -c release calendar-demo calendar …",
    ])
