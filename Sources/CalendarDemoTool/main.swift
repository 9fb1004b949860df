import PerfKitCommandLine

/// `calendar-demo`: PerfKit's flagship example, a tool apart from `perfkit`.
///
/// `calendar-demo`: PerfKit's flagship example, apart from the tool so `perfkit` (and the plugin
/// every adopter builds) never compiles the calendar renderer.
ToolMain.run(.calendarDemo)
