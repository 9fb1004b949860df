/// Options both tools declare (a verb may give one its own help text with ``Option/help(_:)``).
extension Option {
    package static let format = Option("format", value: "text|json|markdown|csv", help: "output format (default text)")
    package static let samples = Option(
        "samples", value: "N",
        help: "samples of each measured test in a timing run, shared by its processes (default: each test's own)"
    )
    .deprecated("iterations")
    package static let markdown = Option(
        "markdown", value: "FILE", help: "PR-sized Markdown report (a -full.md companion and SVG charts go beside it)")
    package static let output = Option(
        "output", value: "FILE",
        help: "run file (default .perfkit/runs/<time>.json; .perfkit/runs/latest.json is always written)")
    package static let policy = Option(
        "policy", value: "all|failed|missing|never", help: "which stored tests a save replaces (default all)")
    package static let processes = Option(
        "processes", value: "N", help: "fresh processes the rounds are split over (default 8)")
    package static let seed = Option("seed", value: "N", help: "seed of the ABBA block phase")
}
