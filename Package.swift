// swift-tools-version: 6.1
import PackageDescription

/// PerfKit: performance as a first-class, reviewable part of a Swift codebase.
///
/// The `Jemalloc` trait (on by default) links jemalloc as the process allocator so that
/// allocation counters are exact. Build with `--disable-default-traits` to go without it;
/// allocation metrics are then reported as unavailable, never as zero.
///
/// The `History` trait (off by default) builds `perfkit history` into the tool, with the history
/// store's database clients (SQLite, libpq): a package that never records history builds the
/// tool and the plugin without `libsqlite3-dev` and `libpq-dev`.
let package = Package(
    name: "PerfKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PerfKit", targets: ["PerfKit"]),
        .library(name: "PerfKitTesting", targets: ["PerfKitTesting"]),
        .library(name: "PerfKitHistory", targets: ["PerfKitHistory"]),
        .executable(name: "perfkit", targets: ["PerfKitTool"]),
        .executable(name: "calendar-demo", targets: ["CalendarDemoTool"]),
        .plugin(name: "PerfKitPlugin", targets: ["PerfKitPlugin"]),
        // Preloaded into measured tests under valgrind (`perfkit run --counts`); built on demand.
        .library(name: "PerfKitValgrindShim", type: .dynamic, targets: ["PerfKitValgrindShim"]),
    ],
    traits: [
        .trait(name: "Jemalloc", description: "Link jemalloc as the process allocator for exact allocation counters."),
        .trait(
            name: "History",
            description: "perfkit history: the SQLite and PostgreSQL history store (apt libsqlite3-dev libpq-dev)."),
        .trait(
            name: "Portable",
            description:
                "The portable path other systems than Linux take (wall time and thread CPU only), selected on Linux to "
                + "test it."),
        .default(enabledTraits: ["Jemalloc"]),
    ],
    targets: [
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),
        .systemLibrary(name: "CLinux"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibpq", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "CShimEntryPoints"),
        .target(name: "CValgrind", dependencies: ["CShimEntryPoints"]),
        .target(name: "CMeasuredThread", dependencies: ["CShimEntryPoints"]),
        // A jemalloc arena over a fixed address range: the heap a counting run's measured thread repeats on.
        .target(name: "CPinnedHeap"),
        // The Swift runtime's will-throw hooks, which Swift Testing sets and a measurement suspends.
        .target(name: "CThrowHooks"),
        // jemalloc's allocation hooks around an async exact-count window: frees made on other threads.
        .target(name: "CAllocationHooks"),
        .target(name: "PerfKitValgrindShim", dependencies: ["CShimEntryPoints"]),
        // What a measured test bundle links: probes, results, one series' statistics, subjects, and
        // nothing only the tool reads (run files, callgrind dumps, child processes live in PerfKit), so
        // an adopter's release build of its tests compiles under a third of PerfKit's lines (the tool builds
        // the rest once, in debug).
        .target(
            name: "PerfKitCore",
            dependencies: [
                .target(name: "CJemalloc", condition: .when(platforms: [.linux], traits: ["Jemalloc"])),
                .target(name: "CLinux", condition: .when(platforms: [.linux])),
                "CValgrind",
                "CMeasuredThread",
                "CPinnedHeap",
                "CThrowHooks",
                "CAllocationHooks",
            ]
        ),
        .target(
            name: "PerfKit",
            dependencies: ["PerfKitCore"]
        ),
        .target(name: "PerfKitTesting", dependencies: ["PerfKitCore"]),
        // The history of a branch: a store (SQLite embedded, PostgreSQL shared), change points, trends.
        // Apart from PerfKit so measured test binaries never link a database client.
        .target(name: "PerfKitHistory", dependencies: ["PerfKit", "CSQLite", "CLibpq"]),
        .target(name: "CalendarSubjects", dependencies: ["PerfKit"]),
        // The `perfkit` tool. Its folder is not named `perfkit`: `Sources/perfkit` and `Sources/PerfKit`
        // would be one folder on a case-insensitive disk (macOS's default).
        // The verb table, parser, output and interrupt handling both tools share.
        .target(name: "PerfKitCommandLine", dependencies: ["PerfKit"]),
        .executableTarget(
            name: "PerfKitTool",
            dependencies: [
                "PerfKit", "PerfKitCommandLine", .target(name: "PerfKitHistory", condition: .when(traits: ["History"])),
            ]),
        // The flagship example's tool (`make demo`): the calendar demo and its workloads.
        .executableTarget(
            name: "CalendarDemoTool", dependencies: ["CalendarSubjects", "PerfKit", "PerfKitCommandLine"]),
        .plugin(
            name: "PerfKitPlugin",
            capability: .command(
                intent: .custom(
                    verb: "perfkit",
                    description:
                        "Run the perfkit tool (run, baseline, compare, abba, history, bisect, merge, stats, doctor) on "
                        + "this package"
                ),
                permissions: [
                    .writeToPackageDirectory(reason: "perfkit writes .perfkit/, Baselines/ and reports in the package")
                ]
            )
            // No dependency on PerfKitTool: the plugin builds the tool itself, so a first run's release build
            // of the tests can start beside it (Plugins/PerfKitPlugin/ReleaseBuildAhead.swift).
        ),
        .testTarget(name: "PerfKitTests", dependencies: ["PerfKit", "PerfKitTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "PerfKitHistoryTests", dependencies: ["PerfKitHistory", "PerfKit", "PerfKitTestSupport"]),
        .testTarget(name: "PerfKitTestingTests", dependencies: ["PerfKitTesting", "PerfKit", "PerfKitTestSupport"]),
        .testTarget(
            name: "CalendarSubjectsTests",
            dependencies: ["CalendarSubjects", "PerfKitTesting", "PerfKit", "PerfKitTestSupport"]),
        // Test support: temporary folders and running the package's tools as a user would.
        .target(name: "PerfKitTestSupport", dependencies: ["PerfKit"], path: "Tests/PerfKitTestSupport"),
        .testTarget(
            name: "PerfKitToolTests", dependencies: ["PerfKitTool", "PerfKit", "PerfKitHistory", "PerfKitTestSupport"]),
        .testTarget(
            name: "CalendarDemoToolTests",
            dependencies: ["CalendarDemoTool", "CalendarSubjects", "PerfKit", "PerfKitTestSupport"]),
    ]
)

// Settings shared by every Swift target, applied in one place.
for target in package.targets where target.type != .system && target.type != .plugin {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
    // C targets take the portable path on other systems by their own `__linux__` test, and on Linux with the trait.
    if ["CValgrind", "CMeasuredThread", "CPinnedHeap", "CThrowHooks", "CAllocationHooks", "PerfKitValgrindShim"]
        .contains(target.name)
    {
        target.cSettings = (target.cSettings ?? []) + [.define("PERFKIT_PORTABLE", .when(traits: ["Portable"]))]
    }
}
